package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/testenv"
)

// sfLEBBlock parses one LEB128 block of n int16 or int32 values from b.
func sfLEBBlock16(b []byte, n int) ([]int16, error) {
	r := newDecoder("stockfish", bytes.NewReader(b), int64(len(b)))
	v := sfReadLEB(r, "t", n, alignedInt16)
	if r.err == nil && r.remaining() != 0 {
		r.fail("t", "trailing")
	}
	return v, r.err
}

func sfLEBBlock32(b []byte, n int) ([]int32, error) {
	r := newDecoder("stockfish", bytes.NewReader(b), int64(len(b)))
	v := sfReadLEB(r, "t", n, alignedInt32)
	if r.err == nil && r.remaining() != 0 {
		r.fail("t", "trailing")
	}
	return v, r.err
}

func TestStockfishLEB128RoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	v16 := []int16{0, 1, -1, 63, 64, -64, -65, 8191, 8192, -8192, -8193, math.MaxInt16, math.MinInt16}
	v32 := []int32{0, 1, -1, 63, 64, -64, -65, 1 << 20, -1 << 20, math.MaxInt32, math.MinInt32}
	for range 3000 {
		v16 = append(v16, int16(rng.IntN(65536)-32768))
		v32 = append(v32, int32(rng.Uint32()))
	}
	b16 := sfAppendLEB(nil, v16)
	g16, err := sfLEBBlock16(b16, len(v16))
	if err != nil || !slicesEqual(g16, v16) {
		t.Fatalf("int16 round trip: %v", err)
	}
	b32 := sfAppendLEB(nil, v32)
	g32, err := sfLEBBlock32(b32, len(v32))
	if err != nil || !slicesEqual(g32, v32) {
		t.Fatalf("int32 round trip: %v", err)
	}
	// Known encodings (Wikipedia "LEB128": −123456 = C0 BB 78; 63 = 3F; 64 = C0 00).
	for _, tc := range []struct {
		v    int32
		want []byte
	}{{-123456, []byte{0xC0, 0xBB, 0x78}}, {63, []byte{0x3F}}, {64, []byte{0xC0, 0x00}}, {-1, []byte{0x7F}}, {-64, []byte{0x40}}} {
		b := sfAppendLEB(nil, []int32{tc.v})
		if got := b[len(sfLEBMagic)+4:]; !bytes.Equal(got, tc.want) {
			t.Errorf("%d: % X want % X", tc.v, got, tc.want)
		}
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sfRawLEB builds a block with the given byte count and payload.
func sfRawLEB(count uint32, payload ...byte) []byte {
	b := append([]byte(sfLEBMagic), binary.LittleEndian.AppendUint32(nil, count)...)
	return append(b, payload...)
}

func TestStockfishLEB128Errors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  []byte
		n     int
		field string
		msg   string
	}{
		{"no magic", append([]byte("COMPRESSED_LEB12X"), 1, 0, 0, 0, 0), 1, "t", "magic"},
		{"short magic", []byte("COMPRESSED"), 1, "t magic", "truncated"},
		{"count too small", sfRawLEB(1, 0, 0), 2, "t byte count", "cannot hold"},
		{"count too large", sfRawLEB(7, 0, 0, 0, 0, 0, 0, 0), 2, "t byte count", "cannot hold"},
		{"count beyond end", sfRawLEB(4, 0, 0), 2, "t", "truncated"},
		{"non-minimal", sfRawLEB(2, 0x80, 0x00), 1, "t", "not minimally encoded"},
		{"too long", sfRawLEB(3, 0x80, 0x80, 0x80), 1, "t", "longer than 3 bytes"},
		{"out of range", sfRawLEB(3, 0xFF, 0xFF, 0x02), 1, "t", "out of range of int16"},
		{"value split at end", sfRawLEB(2, 0x00, 0x80), 2, "t", "complete values"},
		{"bytes after last value", sfRawLEB(3, 0x00, 0x00, 0x00), 2, "t", "left after the last"},
	} {
		_, err := sfLEBBlock16(tc.data, tc.n)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// sfTinyCompressed is a tiny SFNNv5 file with all three tensors compressed (the
// Stockfish 16 layout) and a width other than 1024.
func sfTinyCompressed(rng *rand.Rand) (*sfFile, []byte) {
	s := sfTinyShape
	s.half = 64
	f := sfRandomFile(&s, rng, "tiny16")
	f.Compressed = [3]bool{true, true, true}
	b, err := encodeStockfish(f, &s)
	if err != nil {
		panic(err)
	}
	return f, b
}

func TestStockfishTinyCompressed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	f, b := sfTinyCompressed(rng)
	g, err := parseStockfish(b, &sfTinyShape)
	if err != nil {
		t.Fatal(err)
	}
	if g.HalfDims != 64 || g.Compressed != [3]bool{true, true, true} || !slicesEqual(g.FTWeights, f.FTWeights) || !slicesEqual(g.PSQTWeights, f.PSQTWeights) {
		t.Fatalf("parsed %d %v", g.HalfDims, g.Compressed)
	}
	s := sfTinyShape
	s.half = 64
	b2, err := encodeStockfish(g, &s)
	if err != nil || !bytes.Equal(b, b2) {
		t.Fatalf("round trip differs: %v", err)
	}
	for n := 0; n < len(b); n += 1 + n/16 {
		if _, err := parseStockfish(b[:n], &sfTinyShape); err == nil {
			t.Fatalf("truncated to %d: no error", n)
		}
	}
}

// TestStockfishSF16File checks the Stockfish 16 net's header and hash chain, that
// WriteTo rebuilds the file byte for byte, and that truncated or altered copies fail
// with an error naming the field (NNUEKIT_FULL only: it copies and parses the 40 MB file
// nine times).
func TestStockfishSF16File(t *testing.T) {
	if !testenv.Full() {
		t.Skip("re-encodes and mutates the 40 MB file; set NNUEKIT_FULL=1")
	}
	f := sfTestFile(t, sfNetSF16)
	if f.Arch != sfSFNNv5 || f.HalfDims != 1536 || f.Hash != 0x1C102B72 || f.FTHash != 0x7F2340B8 ||
		f.NetHash != 0x63336BCA || len(f.Description) != 75 || f.Compressed != [3]bool{true, true, true} {
		t.Fatalf("header: %+v", f.Compressed)
	}
	if f.Stacks[0].FC0.In != 1536 || f.Stacks[0].FC0.Out != 16 {
		t.Fatalf("fc0 %d→%d", f.Stacks[0].FC0.In, f.Stacks[0].FC0.Out)
	}
	raw, err := os.ReadFile(filepath.Join(sfSharedDir(t), "nets", sfNetSF16))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), raw) {
		t.Fatal("WriteTo does not reproduce the Stockfish 16 file byte for byte")
	}
	for _, tc := range []struct {
		name  string
		mut   func(b []byte) []byte
		field string
	}{
		{"truncated in the weights", func(b []byte) []byte { return b[:20_000_000] }, "feature transformer weights"},
		{"truncated in the stacks", func(b []byte) []byte { return b[:len(b)-100] }, "layer stacks"},
		{"trailing byte", func(b []byte) []byte { return append(b, 0) }, "end of file"},
		{"header hash", func(b []byte) []byte { b[4] ^= 1; return b }, "header hash"},
		{"width", func(b []byte) []byte { b[87+1] ^= 0x10; return b }, "header hash"},
		{"bias byte count", func(b []byte) []byte { b[91+17] ^= 1; return b }, "feature transformer biases"},
		{"continuation bit", func(b []byte) []byte { b[2559+21+5] ^= 0x80; return b }, "feature transformer weights"},
		{"stack hash", func(b []byte) []byte { b[39_912_670] ^= 1; return b }, "layer stack 0 hash"},
	} {
		b := tc.mut(append([]byte(nil), raw...))
		_, err := parseSF(b)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, tc.field) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestStockfishLoadMemory checks that loading the Stockfish 15.1 net from its file
// allocates at most 1.2× the file size (the arrays are read in place).
func TestStockfishLoadMemory(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("allocation measurement of a 47 MB load")
	}
	path := filepath.Join(sfSharedDir(t), "nets", sfNetSFNNv5)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f, err := loadSFFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := newSFNetwork(f)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(n)
	ratio := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(st.Size())
	t.Logf("allocated %.3f× the file size", ratio)
	if ratio > 1.2 {
		t.Errorf("loading allocated %.3f× the file size, want ≤ 1.2", ratio)
	}
}

// BenchmarkStockfishLoad reports the bytes allocated per load (B/op, and alloc/file,
// their ratio to the file size) of loadSFFile + newSFNetwork, and of
// the format-detecting LoadFile.
func BenchmarkStockfishLoad(b *testing.B) {
	for _, name := range []string{sfNetSFNNv5, sfNetSF16} {
		path := filepath.Join(sfSharedDir(b), "nets", name)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, via := range []string{"loadSFFile", "LoadFile"} {
			b.Run(name+"/"+via, func(b *testing.B) {
				b.ReportAllocs()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				for b.Loop() {
					if via == "LoadFile" {
						if _, err := LoadFile(path); err != nil {
							b.Fatal(err)
						}
						continue
					}
					f, err := loadSFFile(path)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := newSFNetwork(f); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&m1)
				b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/float64(st.Size()), "alloc/file")
			})
		}
	}
}

// TestStockfishUnknownVersion checks that Decode reports a Stockfish-looking file with
// an unknown version word as such (not as a malformed thesis file).
func TestStockfishUnknownVersion(t *testing.T) {
	le := binary.LittleEndian
	desc := "Network trained with the https://github.com/official-stockfish/nnue-pytorch trainer."
	for _, ver := range []uint32{0x6A448AFB, 0x7AF32F21, 0x12345678} {
		b := le.AppendUint32(nil, ver)
		b = le.AppendUint32(b, 0xA85B2205)
		b = le.AppendUint32(b, uint32(len(desc)))
		b = append(b, desc...)
		b = append(b, make([]byte, 100)...)
		_, err := Decode(b)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Format != "stockfish" || fe.Field != "version" || !strings.Contains(fe.Msg, "not a supported Stockfish version") {
			t.Errorf("Decode %#x: %v", ver, err)
		}
		// the streaming loader sees enough of the head to recognize the description too
		_, err = Load(bytes.NewReader(b))
		if !errors.As(err, &fe) || fe.Format != "stockfish" || fe.Field != "version" {
			t.Errorf("Load %#x: %v", ver, err)
		}
	}
	if looksLikeStockfish([]byte("all+ph\x00\x00\x03\x00\x00\x00ab")) {
		t.Error("a thesis header looks like Stockfish")
	}
}
