package nnue

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/testenv"
)

// ---- shared test data (loaded once per test binary) ----

const (
	sfNetHalfKP = "nn-62ef826d1a6d.nnue"
	sfNetSFNNv5 = "nn-ad9b42354671.nnue"
	sfNetSF16   = "nn-5af11540bbfe.nnue"
	sfNetSF19   = "nn-1a298aa575a0.nnue"
)

func sfSharedDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(filepath.Join(dir, "nets", sfNetSFNNv5)); err != nil {
		t.Skip("stockfish nets: ../shared absent")
	}
	return dir
}

// sfSharedHas reports whether sfTestNetwork(t, name) would load the net rather than skip:
// ../shared/nets has it and, for the big nets, the race detector is off.
func sfSharedHas(name string) bool {
	if raceEnabled && name != sfNetHalfKP {
		return false
	}
	_, err := os.Stat(filepath.Join("..", "..", "shared", "nets", name))
	return err == nil
}

var (
	sfFilesMu sync.Mutex
	sfFiles   = map[string]*sfFile{}
)

// sfSkipBigUnderRace skips tests of the 40–98 MB nets under the race detector: loading it
// (and the load-time accumulator bound over 23 M weights) is instrumented and takes
// minutes there, and these tests are not about concurrency; the 21 MB HalfKP net still
// runs with -race.
func sfSkipBigUnderRace(t testing.TB, name string) {
	t.Helper()
	if raceEnabled && name != sfNetHalfKP {
		t.Skip("stockfish: the 47 MB net is skipped under -race (covered without -race)")
	}
}

// sfTestFile loads (once) one of the two Stockfish nets of ../shared/nets.
func sfTestFile(t testing.TB, name string) *sfFile {
	t.Helper()
	sfSkipBigUnderRace(t, name)
	dir := sfSharedDir(t)
	sfFilesMu.Lock()
	defer sfFilesMu.Unlock()
	if f, ok := sfFiles[name]; ok {
		return f
	}
	f, err := loadSFFile(filepath.Join(dir, "nets", name))
	if err != nil {
		t.Fatal(err)
	}
	sfFiles[name] = f
	return f
}

// sfGoldenRow is one row of a golden CSV: the FEN and the remaining columns as strings.
type sfGoldenRow struct {
	fen  string
	cols []string
}

func sfReadCSV(t testing.TB, name string) []sfGoldenRow {
	t.Helper()
	f, err := os.Open(filepath.Join(sfSharedDir(t), "data", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []sfGoldenRow
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		parts := strings.Split(sc.Text(), ",")
		rows = append(rows, sfGoldenRow{fen: parts[0], cols: parts[1:]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// sfTestFEN parses the placement and side-to-move fields of a FEN (test-local, so the
// reference evaluation does not depend on the board package's parser).
func sfTestFEN(t testing.TB, fen string) *board.Position {
	t.Helper()
	var pos board.Position
	fields := strings.Fields(fen)
	if len(fields) < 2 {
		t.Fatalf("bad FEN %q", fen)
	}
	rank, file := 7, 0
	for _, c := range fields[0] {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			i := strings.IndexRune("PNBRQKpnbrqk", c)
			if i < 0 {
				t.Fatalf("bad FEN %q", fen)
			}
			pos.Put(board.NewSquare(file, rank), board.Piece(i+1))
			file++
		}
	}
	if fields[1] == "b" {
		pos.SetSideToMove(board.Black)
	}
	return &pos
}

// ---- reference implementation: direct feature indexing and plain integer arithmetic ----

// sfRefFeatures returns the active feature indices of pos for perspective p, computed
// straight from the definitions in ../shared/nets/README.md.
func sfRefFeatures(arch sfArch, pos *board.Position, p board.Color) []int {
	var out []int
	ksq := pos.KingSquare(p)
	switch arch {
	case sfHalfKP:
		o := board.Square(0)
		if p == board.Black {
			o = 63
		}
		for sq := board.Square(0); sq < 64; sq++ {
			pc := pos.PieceAt(sq)
			if pc == board.NoPiece || pc.Role() == board.King {
				continue
			}
			off := 1 + 128*int(pc.Role())
			if pc.Color() != p {
				off += 64
			}
			out = append(out, int(sq^o)+off+641*int(ksq^o))
		}
	case sfSFNNv5:
		o := board.Square(56 * int(p))
		if ksq.File() < 4 {
			o ^= 7
		}
		k := ksq ^ o // file e–h, rank relative to p
		bucket := 4*(7-k.Rank()) + (7 - k.File())
		for sq := board.Square(0); sq < 64; sq++ {
			pc := pos.PieceAt(sq)
			if pc == board.NoPiece {
				continue
			}
			plane := 640
			if pc.Role() != board.King {
				plane = 128 * int(pc.Role())
				if pc.Color() != p {
					plane += 64
				}
			}
			out = append(out, int(sq^o)+plane+704*bucket)
		}
	}
	return out
}

func sfRefAffine(l *sfAffine, in []uint8) []int32 {
	out := make([]int32, l.Out)
	for j := range out {
		s := l.Biases[j]
		for i := 0; i < l.In; i++ {
			s += int32(in[i]) * int32(l.Weights[j*l.PaddedIn+i])
		}
		out[j] = s
	}
	return out
}

func sfRefCReLU(x []int32) []uint8 {
	out := make([]uint8, len(x))
	for i, v := range x {
		out[i] = uint8(min(127, max(0, v>>6)))
	}
	return out
}

func sfClamp127(v int16) int32 { return int32(min(127, max(0, v))) }

// sfRefEval returns, for the side to move, the HalfKP value (output/16) in psqt[0] with
// bucket -1, or for SFNNv5 the used bucket and, for each bucket, the raw psqt and
// positional sums (before /16).
func sfRefEval(f *sfFile, pos *board.Position) (bucket int, psqt, positional []int32) {
	var acc [2][]int16
	var ps [2][]int32
	for p := board.White; p <= board.Black; p++ {
		a := append([]int16(nil), f.FTBiases...)
		ps[p] = make([]int32, f.PSQTBuckets)
		for _, idx := range sfRefFeatures(f.Arch, pos, p) {
			row := f.FTWeights[idx*f.HalfDims : (idx+1)*f.HalfDims]
			for j := range a {
				a[j] += row[j] // wraps like the engines' int16 adds
			}
			for b := range ps[p] {
				ps[p][b] += f.PSQTWeights[idx*f.PSQTBuckets+b]
			}
		}
		acc[p] = a
	}
	stm := pos.SideToMove()
	persp := [2]board.Color{stm, stm.Other()}
	if f.Arch == sfHalfKP {
		in := make([]uint8, 2*f.HalfDims)
		for k, p := range persp {
			for j, v := range acc[p] {
				in[k*f.HalfDims+j] = uint8(sfClamp127(v))
			}
		}
		st := &f.Stacks[0]
		h := sfRefCReLU(sfRefAffine(&st.FC0, in))
		h = sfRefCReLU(sfRefAffine(&st.FC1, h))
		return -1, []int32{0}, []int32{sfRefAffine(&st.FC2, h)[0]}
	}
	half := f.HalfDims / 2
	in := make([]uint8, f.HalfDims)
	for k, p := range persp {
		for j := 0; j < half; j++ {
			in[k*half+j] = uint8(sfClamp127(acc[p][j]) * sfClamp127(acc[p][j+half]) / 128)
		}
	}
	for b := range f.Stacks {
		st := &f.Stacks[b]
		fc0 := sfRefAffine(&st.FC0, in)
		h := make([]uint8, 32)
		for i := 0; i < 15; i++ {
			x := int64(fc0[i])
			h[i] = uint8(min(127, (x*x)>>19))
			h[15+i] = uint8(min(127, max(0, fc0[i]>>6)))
		}
		h = sfRefCReLU(sfRefAffine(&st.FC1, h))
		fwd := fc0[15] * (600 * 16) / (127 * 64)
		positional = append(positional, sfRefAffine(&st.FC2, h)[0]+fwd)
		psqt = append(psqt, (ps[stm][b]-ps[stm.Other()][b])/2)
	}
	return (pos.Occupied().Count() - 1) / 4, psqt, positional
}

// sfGoldenStep is the golden row step at the current SIMD level: levelStep (every row at
// the starting level, every 10th at the others unless NNUEKIT_FULL), 10 with -short and 50
// with -race, which keep the package's test time low.
func sfGoldenStep() int {
	switch {
	case raceEnabled:
		return 50
	case testing.Short():
		return 10
	}
	return levelStep()
}

// sfRefStep is the row step of the pure-Go reference evaluation, whose loops the race
// detector instruments: every 50th row with -race, every row with NNUEKIT_FULL, every
// 10th otherwise.
func sfRefStep() int {
	switch {
	case raceEnabled:
		return 50
	case testenv.Full():
		return 1
	}
	return 10
}

func sfPawns(v int32, div int) string { return fmt.Sprintf("%.2f", float64(v)/float64(div)) }

func TestStockfishReferenceHalfKP(t *testing.T) {
	f := sfTestFile(t, sfNetHalfKP)
	rows := sfReadCSV(t, "sf13-halfkp-eval.csv")
	if len(rows) != 5283 {
		t.Fatalf("%d rows, want 5283", len(rows))
	}
	bad := 0
	for i := 0; i < len(rows); i += sfRefStep() {
		r := rows[i]
		pos := sfTestFEN(t, r.fen)
		_, _, out := sfRefEval(f, pos)
		v := out[0] / sfOutputScale
		if pos.SideToMove() == board.Black {
			v = -v
		}
		if got := sfPawns(v, sfPawnValueSF13); got != r.cols[0] {
			if bad++; bad <= 10 {
				t.Errorf("%s: got %s, want %s", r.fen, got, r.cols[0])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d positions differ", bad, len(rows))
	}
}

func TestStockfishReferenceSFNNv5(t *testing.T) {
	for _, tc := range []struct {
		net, csv string
		pawn     int
	}{{sfNetSFNNv5, "sf15.1-eval.csv", sfPawnValueSF15}, {sfNetSF16, "sf16-eval.csv", sfPawnValueSF16}} {
		t.Run(tc.net, func(t *testing.T) { sfReferenceSFNNv5(t, tc.net, tc.csv, tc.pawn) })
	}
}

// sfReferenceSFNNv5 checks the plain reference evaluation of an SFNNv5-family net
// against every printed number of its CSV.
func sfReferenceSFNNv5(t *testing.T, net, csv string, pawn int) {
	f := sfTestFile(t, net)
	rows := sfReadCSV(t, csv)
	if len(rows) != 5283 {
		t.Fatalf("%d rows, want 5283", len(rows))
	}
	bad := 0
	for i := 0; i < len(rows); i += sfRefStep() {
		r := rows[i]
		pos := sfTestFEN(t, r.fen)
		bucket, psqt, pos1 := sfRefEval(f, pos)
		v := (psqt[bucket] + pos1[bucket]) / sfOutputScale
		if pos.SideToMove() == board.Black {
			v = -v
		}
		got := []string{strconv.Itoa(bucket), sfPawns(v, pawn)}
		for b := 0; b < 8; b++ {
			got = append(got, sfPawns(psqt[b]/sfOutputScale, pawn))
		}
		for b := 0; b < 8; b++ {
			got = append(got, sfPawns(pos1[b]/sfOutputScale, pawn))
		}
		if g, w := strings.Join(got, ","), strings.Join(r.cols, ","); g != w {
			if bad++; bad <= 10 {
				t.Errorf("%s:\n got %s\nwant %s", r.fen, g, w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d positions differ", bad, len(rows))
	}
}

// ---- reader tests ----

func TestStockfishHeaders(t *testing.T) {
	for _, tc := range []struct {
		name       string
		arch       sfArch
		version    uint32
		hash       uint32
		descPrefix string
		descLen    int
	}{
		{sfNetHalfKP, sfHalfKP, 0x7AF32F16, 0x3E5AA6EE, "Features=HalfKP(Friend)[41024->256x2],", 177},
		{sfNetSFNNv5, sfSFNNv5, 0x7AF32F20, 0x1C102EF2, "Network trained with the https://github.com/glinscott/nnue-pytorch trainer.", 75},
	} {
		f := sfTestFile(t, tc.name)
		if f.Arch != tc.arch || f.Version != tc.version || f.Hash != tc.hash || f.FTHash^f.NetHash != tc.hash {
			t.Errorf("%s: arch %v version %#x hash %#x (ft %#x ^ net %#x)", tc.name, f.Arch, f.Version, f.Hash, f.FTHash, f.NetHash)
		}
		if !strings.HasPrefix(f.Description, tc.descPrefix) || len(f.Description) != tc.descLen {
			t.Errorf("%s: description %q", tc.name, f.Description)
		}
	}
}

// TestStockfishHashChain checks the hash chain against values computed by hand from
// Stockfish's layer headers.
func TestStockfishHashChain(t *testing.T) {
	for _, s := range []*sfShape{&sfShapeHalfKP, &sfShapeSFNNv5} {
		ft, net := sfHashes(s)
		// feature transformer: feature-set hash ^ (2·half)
		if want := s.featureHash ^ uint32(2*s.half); ft != want {
			t.Errorf("%v: ft hash %#x want %#x", s.arch, ft, want)
		}
		_ = net
	}
	ft, net := sfHashes(&sfShapeHalfKP)
	if ft != 0x5D69D5B8^512 || ft^net != 0x3E5AA6EE {
		t.Errorf("HalfKP: ft %#x net %#x", ft, net)
	}
	ft, net = sfHashes(&sfShapeSFNNv5)
	if ft != 0x7f234cb8^2048 || ft^net != 0x1C102EF2 {
		t.Errorf("SFNNv5: ft %#x net %#x", ft, net)
	}
}

// sfTinyShape is a small architecture with the SFNNv5 structure, for fuzzing.
var sfTinyShape = sfShape{
	version: sfVersionSFNNv5, arch: sfSFNNv5, featureHash: sfHashHalfKAv2hm,
	inputs: 3, half: 32, psqt: 2, stacks: 2, layers: [3]int{16, 32, 1}, fc1In: 30, fc2In: 32,
}

// sfTinyHalfKP is a small architecture with the HalfKP structure.
var sfTinyHalfKP = sfShape{
	version: sfVersionHalfKP, arch: sfHalfKP, featureHash: sfHashHalfKP,
	inputs: 2, half: 32, stacks: 1, layers: [3]int{32, 32, 1}, fc1In: 32, fc2In: 32,
}

func sfRandomFile(s *sfShape, rng *rand.Rand, desc string) *sfFile {
	f := &sfFile{Version: s.version, Arch: s.arch, Description: desc, Features: s.inputs, HalfDims: s.half, PSQTBuckets: s.psqt}
	f.FTHash, f.NetHash = sfHashes(s)
	f.Hash = f.FTHash ^ f.NetHash
	f.FTBiases = make([]int16, s.half)
	f.FTWeights = make([]int16, s.half*s.inputs)
	for i := range f.FTBiases {
		f.FTBiases[i] = int16(rng.IntN(65536) - 32768)
	}
	for i := range f.FTWeights {
		f.FTWeights[i] = int16(rng.IntN(65536) - 32768)
	}
	if s.psqt > 0 {
		f.PSQTWeights = make([]int32, s.psqt*s.inputs)
		for i := range f.PSQTWeights {
			f.PSQTWeights[i] = rng.Int32()
		}
	}
	ins := s.ins()
	for k := 0; k < s.stacks; k++ {
		st := sfLayerStack{Hash: f.NetHash}
		for i, l := range [3]*sfAffine{&st.FC0, &st.FC1, &st.FC2} {
			l.In, l.PaddedIn, l.Out = ins[i], pad32(ins[i]), s.layers[i]
			l.Biases = make([]int32, l.Out)
			l.Weights = make([]int8, l.Out*l.PaddedIn)
			for j := range l.Biases {
				l.Biases[j] = rng.Int32()
			}
			for j := range l.Weights {
				l.Weights[j] = int8(rng.IntN(256) - 128)
			}
		}
		f.Stacks = append(f.Stacks, st)
	}
	return f
}

func TestStockfishTinyRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []*sfShape{&sfTinyShape, &sfTinyHalfKP} {
		f := sfRandomFile(s, rng, "tiny")
		b, err := encodeStockfish(f, s)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(b)) != sfSize(s, 4) {
			t.Fatalf("size %d want %d", len(b), sfSize(s, 4))
		}
		g, err := parseStockfish(b, s)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := encodeStockfish(g, s)
		if !bytes.Equal(b, b2) {
			t.Fatal("round trip differs")
		}
		// every truncation fails with an error naming a field; no panic
		for n := 0; n < len(b); n += 1 + n/8 {
			if _, err := parseStockfish(b[:n], s); err == nil {
				t.Fatalf("truncated to %d: no error", n)
			}
		}
		// a trailing byte is an error at the end of the file
		_, err = parseStockfish(append(b[:len(b):len(b)], 0), s)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Field != "end of file" || fe.Offset != int64(len(b)) {
			t.Fatalf("trailing byte: %v", err)
		}
		// a corrupted layer-stack hash names the stack and its offset
		bad := append([]byte(nil), b...)
		off := 12 + 4 + 4 + 2*s.half + 2*s.half*s.inputs + 4*s.psqt*s.inputs
		bad[off] ^= 1
		_, err = parseStockfish(bad, s)
		if !errors.As(err, &fe) || fe.Field != "layer stack 0 hash" || fe.Offset != int64(off) {
			t.Fatalf("bad stack hash: %v", err)
		}
	}
}

func TestStockfishErrors(t *testing.T) {
	le := binary.LittleEndian
	hdr := func(ver, hash, n uint32) []byte {
		b := le.AppendUint32(nil, ver)
		b = le.AppendUint32(b, hash)
		return le.AppendUint32(b, n)
	}
	ft, net := sfHashes(&sfShapeSFNNv5)
	for _, tc := range []struct {
		name  string
		data  []byte
		field string
		off   int64
	}{
		{"empty", nil, "version", 0},
		{"short version", []byte{0x20, 0x2F}, "version", 0},
		{"other version", hdr(0x7AF32F17, 0, 0), "version", 0},
		{"bad header hash", le.AppendUint32(hdr(sfVersionSFNNv5, 1, 0), ft), "header hash", 4},
		{"bad feature hash", le.AppendUint32(hdr(sfVersionSFNNv5, ft^net, 0), ft^1), "feature transformer hash", 12},
		{"unknown version", hdr(0x6A448AFB, 0, 0), "version", 0},
		{"huge description", hdr(sfVersionSFNNv5, ft^net, 0xFFFFFFF0), "description length", 8},
		{"no parameters", hdr(sfVersionSFNNv5, ft^net, 0), "feature transformer hash", 12},
		{"truncated FT", le.AppendUint32(hdr(sfVersionSFNNv5, ft^net, 0), ft), "feature transformer biases", 16},
	} {
		for _, read := range []func([]byte) (*sfFile, error){parseSF, func(b []byte) (*sfFile, error) { return readSFFile(bytes.NewReader(b)) }} {
			_, err := read(tc.data)
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Offset != tc.off {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	}
}

// TestStockfishReadMatchesParse checks the streaming reader against the in-memory one
// on the real files (shares the cached parse; reads the smaller file again).
func TestStockfishReadMatchesParse(t *testing.T) {
	if raceEnabled {
		t.Skip("byte-level format test; slow under -race and not about concurrency")
	}
	f := sfTestFile(t, sfNetHalfKP)
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(sfSharedDir(t), "nets", sfNetHalfKP))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), raw) {
		t.Fatal("WriteTo does not reproduce the HalfKP file byte for byte")
	}
	// A file one byte short of complete is rejected (streaming path).
	if _, err := readSFFile(bytes.NewReader(raw[:len(raw)-1])); err == nil {
		t.Fatal("truncated file accepted")
	}
	if _, err := readSFFile(bytes.NewReader(append(raw[:len(raw):len(raw)], 1, 2))); err == nil {
		t.Fatal("file with trailing bytes accepted")
	}
}

func FuzzParseStockfish(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	tiny, _ := encodeStockfish(sfRandomFile(&sfTinyShape, rng, "d"), &sfTinyShape)
	tinyKP, _ := encodeStockfish(sfRandomFile(&sfTinyHalfKP, rng, ""), &sfTinyHalfKP)
	f.Add(uint8(0), tiny)
	f.Add(uint8(1), tinyKP)
	f.Add(uint8(2), tiny[:40])
	f.Add(uint8(3), tinyKP[:12])
	// the start of a Stockfish 19 file: header, feature transformer hash, bias block
	sf19 := binary.LittleEndian.AppendUint32(nil, sfVersionThreats)
	ft19, net19 := sfHashes(&sfShapeThreats)
	sf19 = binary.LittleEndian.AppendUint32(sf19, ft19^net19)
	sf19 = binary.LittleEndian.AppendUint32(sf19, 1)
	sf19 = append(sf19, 'N')
	sf19 = binary.LittleEndian.AppendUint32(sf19, ft19)
	sf19 = sfAppendLEB(sf19, make([]int16, 1024))
	f.Add(uint8(2), sf19)
	f.Add(uint8(3), sf19[:40])
	_, tiny16 := sfTinyCompressed(rng)
	f.Add(uint8(0), tiny16)
	f.Add(uint8(4), tiny16[:300])
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		var s *sfShape
		switch which % 4 {
		case 0:
			s = &sfTinyShape
		case 1:
			s = &sfTinyHalfKP
		}
		if s == nil {
			// the real shapes: the input is far too small to be complete
			if _, err := parseSF(data); err == nil {
				t.Fatal("accepted a tiny input as a real network")
			}
			if _, err := readSFFile(bytes.NewReader(data)); err == nil {
				t.Fatal("accepted a tiny input as a real network")
			}
			return
		}
		g, err := parseStockfish(data, s)
		if err != nil {
			return
		}
		s2 := *s
		s2.half = g.HalfDims
		b, err := encodeStockfish(g, &s2)
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("accepted input does not round-trip: %v", err)
		}
	})
}
