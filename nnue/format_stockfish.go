package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"unsafe"
)

// Stockfish .nnue file versions understood by readSFFile (the first uint32 of the
// file, little endian; Stockfish nnue_common.h "Version").
const (
	// sfVersionHalfKP is the version word of Stockfish 12/13 networks,
	// HalfKP(Friend)[41024→256×2]→32→32→1 (Stockfish 13 nnue/nnue_common.h).
	sfVersionHalfKP uint32 = 0x7AF32F16
	// sfVersionSFNNv5 is the version word of Stockfish 15 to 17.1 networks
	// (SFNNv5 and its wider successors): HalfKAv2_hm[22528→L1×2] with 8 PSQT buckets and 8
	// layer stacks L1→16→(15×2→32)→32→1, L1 = 1024 (15.1), 1536 (16), 3072 or 128 (17.1),
	// read from the feature transformer's hash (Stockfish 15.1 and 16 nnue_common.h,
	// nnue_architecture.h).
	sfVersionSFNNv5 uint32 = 0x7AF32F20
	// sfVersionThreats is the version word of Stockfish 19 networks:
	// FullThreats ⊕ PP_3Wide ⊕ HalfKAv2_hm inputs, L1 = 1024, 8 layer stacks
	// 1024→32→(64→32)→128→1 (Stockfish nnue_common.h, stockfish-dev-20260803-762dd1da).
	sfVersionThreats uint32 = 0x6A448AFA
)

// Stockfish evaluation constants shared by the architectures.
const (
	// sfOutputScale is the divisor from the last layer's integer output to the
	// internal Value (Stockfish FV_SCALE / OutputScale = 16).
	sfOutputScale = 16
	// sfWeightScaleBits is the right shift applied by ClippedReLU after an
	// affine layer (log2 of the hidden weight scale 64).
	sfWeightScaleBits = 6
	// sfPawnValueSF13 is the divisor from internal Value to the pawns printed by
	// Stockfish 13's eval command (PawnValueEg = 208).
	sfPawnValueSF13 = 208
	// sfPawnValueSF15 is the divisor from internal Value to the pawns printed by
	// Stockfish 15.1's eval command (UCI::NormalizeToPawnValue = 361).
	sfPawnValueSF15 = 361
	// sfPawnValueSF16 is the divisor from internal Value to the pawns printed by
	// Stockfish 16's eval command (UCI::NormalizeToPawnValue = 328).
	sfPawnValueSF16 = 328
)

// Feature-set hashes embedded in the feature transformer's hash
// (Stockfish 13 features/half_kp.h: 0x5D69D5B9 ^ (AssociatedKing == Friend);
// Stockfish 15.1 features/half_ka_v2_hm.h: 0x7f234cb8).
const (
	sfHashHalfKP     uint32 = 0x5D69D5B9 ^ 1
	sfHashHalfKAv2hm uint32 = 0x7f234cb8
)

// maxStockfishDescription bounds the description string; the published files use
// fewer than 200 bytes.
const maxStockfishDescription = 1 << 20

// sfLEBMagic starts every compressed tensor (Stockfish nnue_common.h Leb128MagicString).
const sfLEBMagic = "COMPRESSED_LEB128"

// sfArch identifies one of the supported Stockfish architectures.
type sfArch uint8

// The supported architectures.
const (
	// sfHalfKP is Stockfish 12/13's HalfKP[41024→256×2]→32→32→1.
	sfHalfKP sfArch = iota + 1
	// sfSFNNv5 is Stockfish 15.1's HalfKAv2_hm[22528→L1×2] with PSQT and
	// 8 layer stacks (also Stockfish 16, L1 = 1536, and 17.1, L1 = 3072 or 128).
	sfSFNNv5
	// sfThreats is Stockfish 19's FullThreats ⊕ PP_3Wide ⊕ HalfKAv2_hm
	// [86896→1024×2] with PSQT and 8 layer stacks 1024→32→(64→32)→128→1.
	sfThreats
)

// String returns "HalfKP", "SFNNv5" or "Threats".
func (a sfArch) String() string {
	switch a {
	case sfHalfKP:
		return "HalfKP"
	case sfSFNNv5:
		return "SFNNv5"
	case sfThreats:
		return "Threats"
	}
	return fmt.Sprintf("sfArch(%d)", uint8(a))
}

// sfShape fixes the dimensions of an architecture. The accumulator width (half) is
// read from the file's feature transformer hash; the rest is fixed by the version. Tests
// build tiny shapes to fuzz the reader with small seeds.
type sfShape struct {
	version     uint32
	arch        sfArch
	featureHash uint32
	inputs      int    // features per perspective
	half        int    // accumulator width per perspective
	psqt        int    // PSQT buckets (0: none)
	stacks      int    // layer stacks
	layers      [3]int // fc0, fc1, fc2 outputs
	fc1In       int    // logical input width of fc1
	fc2In       int    // logical input width of fc2
}

// fc0In is the width of the transformed features: 2·half for HalfKP (both perspectives
// clipped), half for SFNNv5 and Threats (each perspective's halves multiplied pairwise).
func (s *sfShape) fc0In() int {
	if s.arch == sfHalfKP {
		return 2 * s.half
	}
	return s.half
}

// ins returns the logical input widths of fc0, fc1 and fc2.
func (s *sfShape) ins() [3]int { return [3]int{s.fc0In(), s.fc1In, s.fc2In} }

var sfShapeHalfKP = sfShape{
	version: sfVersionHalfKP, arch: sfHalfKP, featureHash: sfHashHalfKP,
	inputs: 41024, half: 256, psqt: 0, stacks: 1, layers: [3]int{32, 32, 1}, fc1In: 32, fc2In: 32,
}

var sfShapeSFNNv5 = sfShape{
	version: sfVersionSFNNv5, arch: sfSFNNv5, featureHash: sfHashHalfKAv2hm,
	inputs: 22528, half: 1024, psqt: 8, stacks: 8, layers: [3]int{16, 32, 1}, fc1In: 30, fc2In: 32,
}

// sfAffine is one affine layer as stored in a Stockfish file: int32 biases[Out]
// followed by int8 weights[Out][PaddedIn], row-major, rows padded with zeros to
// PaddedIn = In rounded up to a multiple of 32 (Stockfish layers/affine_transform.h).
type sfAffine struct {
	In, PaddedIn, Out int
	Biases            []int32 // len Out
	Weights           []int8  // len Out·PaddedIn, row j at [j·PaddedIn, (j+1)·PaddedIn)
}

// sfLayerStack is fc0 → fc1 → fc2 of one layer stack (HalfKP nets have one).
type sfLayerStack struct {
	Hash          uint32 // the network hash stored before the stack
	FC0, FC1, FC2 sfAffine
}

// sfFile is the raw content of a Stockfish .nnue file, exactly as stored: the
// header, the feature transformer (feature-major int16 weights, one row of HalfDims per
// feature, and for SFNNv5 int32 PSQT weights, one row of PSQTBuckets per feature) and
// the layer stacks. It is produced by readSFFile; newSFNetwork (and Load)
// turn it into an evaluating network. For Stockfish 19 (sfThreats) the file also
// holds the int8 threat and pawn-pair rows (Threats).
type sfFile struct {
	Version     uint32 // sfVersionHalfKP, sfVersionSFNNv5 or sfVersionThreats
	Arch        sfArch
	Hash        uint32 // header hash = FTHash ^ NetHash
	Description string // architecture/trainer description from the header
	FTHash      uint32 // feature transformer hash = feature-set hash ^ (2·HalfDims)
	NetHash     uint32 // layer-stack hash (identical for every stack)

	Features    int // HalfKP/HalfKAv2_hm features per perspective: 41024 or 22528
	HalfDims    int // accumulator width per perspective (L1): 256, 1024, 1536, …
	PSQTBuckets int // 0 (HalfKP) or 8

	// Compressed reports which feature-transformer tensors are stored as
	// COMPRESSED_LEB128 blocks: [0] biases, [1] weights, [2] PSQT weights (all three from
	// Stockfish 16 on, none in 13 and 15.1). WriteTo stores them the same way.
	Compressed [3]bool

	FTBiases    []int16 // len HalfDims
	FTWeights   []int16 // len Features·HalfDims, feature-major
	PSQTWeights []int32 // len Features·PSQTBuckets, feature-major (nil for HalfKP)

	// Threats is the Stockfish 19 threat and pawn-pair part (nil otherwise).
	Threats *sfThreatRows

	Stacks []sfLayerStack // 1 (HalfKP) or 8
}

// sfHashes computes the feature transformer hash and the layer-stack hash of shape s,
// chained as in Stockfish's layer headers: the input slice seeds 0xEC42E90D ^ width
// (^ offset<<10, offset 0); an affine layer gives (0xCC03DAE4 + outputs) ^ prev>>1 ^
// prev<<31; a ClippedReLU gives 0x538D24C7 + prev (SqrClippedReLU is not in the chain).
func sfHashes(s *sfShape) (ft, net uint32) {
	ft = s.featureHash ^ uint32(2*s.half)
	h := uint32(0xEC42E90D) ^ uint32(2*s.half)
	affine := func(prev uint32, out int) uint32 {
		v := uint32(0xCC03DAE4) + uint32(out)
		v ^= prev >> 1
		v ^= prev << 31
		return v
	}
	relu := func(prev uint32) uint32 { return 0x538D24C7 + prev }
	h = affine(h, s.layers[0])
	h = relu(h)
	h = affine(h, s.layers[1])
	h = relu(h)
	h = affine(h, s.layers[2])
	return ft, h
}

// sfStackSize is the byte size of one stored layer stack of shape s.
func sfStackSize(s *sfShape) int64 {
	ins := s.ins()
	per := int64(4)
	for i, out := range s.layers {
		per += 4*int64(out) + int64(out)*int64(pad32(ins[i]))
	}
	return per
}

// sfSize returns the exact byte size of an uncompressed file of shape s with a
// description of desc bytes.
func sfSize(s *sfShape, desc int) int64 {
	n := int64(12 + desc)
	n += 4 + 2*int64(s.half) + 2*int64(s.half)*int64(s.inputs) + 4*int64(s.psqt)*int64(s.inputs)
	return n + sfStackSize(s)*int64(s.stacks)
}

// hash reads the uint32 hash word of a Stockfish file section (field) and records an
// error at its offset when it is not want.
func (d *decoder) hash(field string, want uint32) uint32 {
	off := d.off
	got := d.u32(field)
	if d.err == nil && got != want {
		d.failAt(off, field, "hash 0x%08X, expected 0x%08X", got, want)
	}
	return got
}

// compressed reports whether the next bytes are the COMPRESSED_LEB128 magic.
func (d *decoder) compressed() bool {
	return string(d.peek(len(sfLEBMagic))) == sfLEBMagic
}

// sfInt is the element type of a LEB128-compressed tensor.
type sfInt interface{ ~int16 | ~int32 }

// sfLEBLen is the number of bytes of the minimal signed LEB128 encoding of v.
func sfLEBLen(v int64) int {
	n := 1
	for {
		b := v & 0x7f
		v >>= 7
		if (b&0x40 == 0 && v == 0) || (b&0x40 != 0 && v == -1) {
			return n
		}
		n++
	}
}

// sfReadLEB reads a COMPRESSED_LEB128 block (the 17-byte magic, a uint32 byte count,
// then that many bytes of signed LEB128, Stockfish nnue_common.h read_leb_128) into a new
// aligned array of n values. The byte count must hold exactly n values and every value
// must be minimally encoded and fit in T, so that writing the values back reproduces the
// block byte for byte.
//
// alloc is called once the byte count has been checked against what remains and returns
// the n-value destination.
func sfReadLEB[T sfInt](r *decoder, field string, n int, alloc func(int) []T) []T {
	start := r.off
	var magic [len(sfLEBMagic)]byte
	if !r.read(field+" magic", magic[:]) {
		return nil
	}
	if string(magic[:]) != sfLEBMagic {
		r.failAt(start, field, "missing %s magic", sfLEBMagic)
		return nil
	}
	cnt := int64(r.u32(field + " byte count"))
	if r.err != nil {
		return nil
	}
	var zero T
	width := int64(unsafe.Sizeof(zero))
	maxBytes := int64(3) // int16: 16 bits in 7-bit groups
	if width == 4 {
		maxBytes = 5
	}
	if cnt < int64(n) || cnt > int64(n)*maxBytes {
		r.failAt(r.off-4, field+" byte count", "%d bytes cannot hold %d values of %d bits", cnt, n, 8*width)
		return nil
	}
	if !r.need(field, cnt) {
		return nil
	}
	lo, hi := int64(-1)<<(8*width-1), int64(1)<<(8*width-1)-1
	out := alloc(n)
	if len(r.scratch) == 0 {
		r.scratch = make([]byte, 1<<16)
	}
	i := 0
	var acc int64
	var shift uint
	nb := int64(0)    // bytes of the current value
	base := r.off     // offset of the current chunk
	valStart := r.off // offset of the current value
	for left := cnt; left > 0; {
		chunk := r.scratch[:min(left, int64(len(r.scratch)))]
		if !r.read(field, chunk) {
			return nil
		}
		for k, b := range chunk {
			if nb == 0 {
				valStart = base + int64(k)
			}
			if i == n {
				r.failAt(valStart, field, "%d bytes left after the last of %d values", left-int64(k), n)
				return nil
			}
			acc |= int64(b&0x7f) << shift
			shift += 7
			nb++
			if b&0x80 != 0 {
				if nb == maxBytes {
					r.failAt(valStart, field, "value %d longer than %d bytes", i, maxBytes)
					return nil
				}
				continue
			}
			if b&0x40 != 0 {
				acc |= -1 << shift
			}
			if acc < lo || acc > hi {
				r.failAt(valStart, field, "value %d = %d out of range of int%d", i, acc, 8*width)
				return nil
			}
			if int64(sfLEBLen(acc)) != nb {
				r.failAt(valStart, field, "value %d = %d is not minimally encoded (%d bytes)", i, acc, nb)
				return nil
			}
			out[i] = T(acc)
			i++
			acc, shift, nb = 0, 0, 0
		}
		base += int64(len(chunk))
		left -= int64(len(chunk))
	}
	if i != n || nb != 0 {
		r.failAt(start, field, "%d bytes hold %d complete values, expected %d", cnt, i, n)
		return nil
	}
	return out
}

// sfAppendLEB appends the COMPRESSED_LEB128 block of vals (Stockfish write_leb_128).
func sfAppendLEB[T sfInt](b []byte, vals []T) []byte {
	b = append(b, sfLEBMagic...)
	cnt := 0
	for _, v := range vals {
		cnt += sfLEBLen(int64(v))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(cnt))
	for _, v := range vals {
		x := int64(v)
		for {
			c := byte(x & 0x7f)
			x >>= 7
			if (c&0x40 == 0 && x == 0) || (c&0x40 != 0 && x == -1) {
				b = append(b, c)
				break
			}
			b = append(b, c|0x80)
		}
	}
	return b
}

// tensor16 reads an int16 tensor of n values, raw or compressed, reporting which.
func (d *decoder) tensor16(field string, n int) ([]int16, bool) {
	if d.compressed() {
		return sfReadLEB(d, field, n, alignedInt16), true
	}
	return d.i16s(field, n), false
}

// tensor32 is tensor16 for int32.
func (d *decoder) tensor32(field string, n int) ([]int32, bool) {
	if d.compressed() {
		return sfReadLEB(d, field, n, alignedInt32), true
	}
	return d.i32s(field, n), false
}

// sfSupportedVersions lists the version words readSFFile accepts, for error messages.
const sfSupportedVersions = "0x7AF32F16 (Stockfish 12/13), 0x7AF32F20 (15–17.1), 0x6A448AFA (19)"

// sfUnknownVersion is the error for a file whose first word is no supported version.
func sfUnknownVersion(ver uint32) error {
	return &FormatError{Format: "stockfish", Field: "version", Offset: 0,
		Msg: fmt.Sprintf("0x%08X is not a supported Stockfish version (%s)", ver, sfSupportedVersions)}
}

// readSFFile reads a Stockfish .nnue network of version sfVersionHalfKP,
// sfVersionSFNNv5 (any feature-transformer width; raw or COMPRESSED_LEB128
// tensors) or sfVersionThreats from r.
//
// It checks the version, the feature transformer hash (from which it takes the width),
// the header hash (= feature transformer hash ^ network hash, recomputed from the
// architecture), every layer stack's hash, every declared byte count against what
// remains, and that the input ends exactly after the last layer. Errors are
// *FormatError values (Format "stockfish") naming the field and its byte offset.
//
// When r has a known length (*os.File, *bytes.Reader, *bytes.Buffer, *strings.Reader)
// the arrays are filled straight from r, so memory use is the size of the network's
// arrays (about the file size for uncompressed files); otherwise r is first read into
// memory (at most MaxFileSize bytes).
func readSFFile(r io.Reader) (*sfFile, error) {
	return readSFFileSize(r, -1)
}

// readSFFileSize is readSFFile for a reader that holds exactly size more bytes
// (a caller that has already looked at the file, e.g. a format-detecting loader reading
// through an io.MultiReader); size −1 means unknown, as for readSFFile. Every declared
// byte count is checked against size before its array is allocated, so garbage costs
// no more memory than its length.
func readSFFileSize(r io.Reader, size int64) (*sfFile, error) {
	if size >= 0 {
		if size > MaxFileSize {
			return nil, fmt.Errorf("nnue: stockfish: network of %d bytes exceeds MaxFileSize %d", size, MaxFileSize)
		}
		return readStockfish(newDecoder("stockfish", r, size), nil)
	}
	switch v := r.(type) {
	case interface{ Stat() (os.FileInfo, error) }:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			if s, ok := r.(io.Seeker); ok {
				if cur, err := s.Seek(0, io.SeekCurrent); err == nil {
					size = st.Size() - cur
				}
			}
		}
	case interface{ Len() int }:
		size = int64(v.Len())
	}
	if size < 0 {
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(io.LimitReader(r, MaxFileSize+1)); err != nil {
			return nil, fmt.Errorf("nnue: stockfish: reading network: %w", err)
		}
		if buf.Len() > MaxFileSize {
			return nil, fmt.Errorf("nnue: stockfish: network larger than MaxFileSize %d bytes", MaxFileSize)
		}
		return parseSF(buf.Bytes())
	}
	return readStockfish(newDecoder("stockfish", r, size), nil)
}

// parseSF is readSFFile for a file already in memory.
func parseSF(data []byte) (*sfFile, error) {
	return readStockfish(newDecoder("stockfish", bytes.NewReader(data), int64(len(data))), nil)
}

// loadSFFile reads the Stockfish network stored at path.
func loadSFFile(path string) (*sfFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sf, err := readSFFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sf, nil
}

// isSFVersion reports whether the first four bytes of a file are the version
// word of a supported Stockfish network.
func isSFVersion(head []byte) bool {
	return len(head) >= 4 && sfShapeFor(binary.LittleEndian.Uint32(head)) != nil
}

func sfShapeFor(ver uint32) *sfShape {
	switch ver {
	case sfVersionHalfKP:
		return &sfShapeHalfKP
	case sfVersionSFNNv5:
		return &sfShapeSFNNv5
	case sfVersionThreats:
		return &sfShapeThreats
	}
	return nil
}

// parseStockfish parses data with shape template s (tests use tiny shapes).
func parseStockfish(data []byte, s *sfShape) (*sfFile, error) {
	return readStockfish(newDecoder("stockfish", bytes.NewReader(data), int64(len(data))), s)
}

// readStockfish reads a whole file; tmpl is the shape template, or nil to select it by
// the version word.
func readStockfish(r *decoder, tmpl *sfShape) (*sfFile, error) {
	if r.size < 4 {
		return nil, &FormatError{Format: "stockfish", Field: "version", Offset: 0, Msg: fmt.Sprintf("truncated: %d bytes", max(r.size, 0))}
	}
	ver := r.u32("version")
	if tmpl == nil {
		tmpl = sfShapeFor(ver)
		if tmpl == nil {
			return nil, sfUnknownVersion(ver)
		}
	} else if ver != tmpl.version {
		return nil, &FormatError{Format: "stockfish", Field: "version", Offset: 0, Msg: fmt.Sprintf("0x%08X, expected 0x%08X", ver, tmpl.version)}
	}
	s := *tmpl
	f := &sfFile{Version: ver, Arch: s.arch, Features: s.inputs, PSQTBuckets: s.psqt}
	f.Hash = r.u32("header hash")
	descOff := r.off
	descLen := int64(r.u32("description length"))
	if r.err == nil {
		if descLen > maxStockfishDescription || descLen > r.remaining() {
			r.failAt(descOff, "description length", "%d bytes, but only %d bytes remain", descLen, r.remaining())
		} else {
			d := make([]byte, descLen)
			if r.read("description", d) {
				f.Description = string(d)
			}
		}
	}
	ftOff := r.off
	f.FTHash = r.u32("feature transformer hash")
	if r.err != nil {
		return nil, r.err
	}
	// The width is the only free dimension: FTHash = feature-set hash ^ 2·width.
	w := int(f.FTHash ^ s.featureHash)
	if w%2 != 0 || w/2 <= 0 || w/2 > maxWidth || (w/2)%32 != 0 || (s.arch == sfThreats && w/2 != s.half) ||
		(s.arch == sfHalfKP && w/2 != s.half) {
		r.failAt(ftOff, "feature transformer hash", "hash 0x%08X is not the %s feature hash 0x%08X ^ 2·width for a supported width (%s)",
			f.FTHash, s.arch, s.featureHash, sfWidthHint(&s))
		return nil, r.err
	}
	s.half = w / 2
	f.HalfDims = s.half
	_, f.NetHash = sfHashes(&s) // the FT hash equals f.FTHash by construction of s.half
	if f.Hash != f.FTHash^f.NetHash {
		r.failAt(4, "header hash", "hash 0x%08X, expected 0x%08X (feature transformer 0x%08X for width %d ^ layer stack 0x%08X)",
			f.Hash, f.FTHash^f.NetHash, f.FTHash, s.half, f.NetHash)
		return nil, r.err
	}
	if s.arch == sfThreats {
		readThreatTransformer(r, f)
	} else {
		f.FTBiases, f.Compressed[0] = r.tensor16("feature transformer biases", s.half)
		f.FTWeights, f.Compressed[1] = r.tensor16("feature transformer weights", s.half*s.inputs)
		if s.psqt > 0 {
			f.PSQTWeights, f.Compressed[2] = r.tensor32("PSQT weights", s.psqt*s.inputs)
		}
	}
	ins := s.ins()
	names := [3]string{"fc_0", "fc_1", "fc_2"}
	if r.err == nil && r.remaining() < sfStackSize(&s)*int64(s.stacks) {
		r.fail("layer stacks", "truncated: %d stacks need %d bytes, %d remain", s.stacks, sfStackSize(&s)*int64(s.stacks), r.remaining())
	}
	for k := 0; k < s.stacks && r.err == nil; k++ {
		var st sfLayerStack
		st.Hash = r.hash(fmt.Sprintf("layer stack %d hash", k), f.NetHash)
		layers := [3]*sfAffine{&st.FC0, &st.FC1, &st.FC2}
		for i, l := range layers {
			l.In, l.PaddedIn, l.Out = ins[i], pad32(ins[i]), s.layers[i]
			l.Biases = r.i32s(fmt.Sprintf("layer stack %d %s biases", k, names[i]), l.Out)
			l.Weights = r.i8s(fmt.Sprintf("layer stack %d %s weights", k, names[i]), l.Out*l.PaddedIn)
		}
		f.Stacks = append(f.Stacks, st)
	}
	if r.err == nil && r.remaining() != 0 {
		r.fail("end of file", "%d trailing bytes after the last layer", r.remaining())
	}
	if r.err != nil {
		return nil, r.err
	}
	return f, nil
}

// sfWidthHint names the widths a shape accepts, for error messages.
func sfWidthHint(s *sfShape) string {
	if s.arch == sfSFNNv5 {
		return "a multiple of 32 up to 16384; Stockfish 15.1 1024, 16 1536, 17.1 3072 or 128"
	}
	return fmt.Sprintf("%d", s.half)
}

// shape reconstructs the architecture shape of f (for writing).
func (f *sfFile) shape() (*sfShape, error) {
	t := sfShapeFor(f.Version)
	if t == nil {
		return nil, fmt.Errorf("nnue: stockfish: unsupported version 0x%08X", f.Version)
	}
	s := *t
	if s.arch == sfSFNNv5 {
		if f.HalfDims <= 0 || f.HalfDims%32 != 0 || f.HalfDims > maxWidth {
			return nil, fmt.Errorf("nnue: stockfish: width %d is not a multiple of 32 in [32, %d]", f.HalfDims, maxWidth)
		}
		s.half = f.HalfDims
	}
	if f.Arch != s.arch || f.Features != s.inputs || f.HalfDims != s.half || f.PSQTBuckets != s.psqt || len(f.Stacks) != s.stacks {
		return nil, fmt.Errorf("nnue: stockfish: dimensions do not match version 0x%08X", f.Version)
	}
	if (s.arch == sfThreats) != (f.Threats != nil) {
		return nil, fmt.Errorf("nnue: stockfish: threat rows present exactly for version 0x%08X", sfVersionThreats)
	}
	return &s, nil
}

// WriteTo writes f in the Stockfish .nnue format it was read from, byte for byte
// (header hash and layer hashes recomputed from the architecture, compressed tensors
// re-encoded as minimal signed LEB128). It implements io.WriterTo and returns an error
// when f's dimensions do not match its version.
func (f *sfFile) WriteTo(w io.Writer) (int64, error) {
	s, err := f.shape()
	if err != nil {
		return 0, err
	}
	b, err := encodeStockfish(f, s)
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// encodeStockfish serializes f with shape s.
func encodeStockfish(f *sfFile, s *sfShape) ([]byte, error) {
	ft, net := sfHashes(s)
	b := make([]byte, 0, sfSize(s, len(f.Description)))
	le := binary.LittleEndian
	b = le.AppendUint32(b, s.version)
	b = le.AppendUint32(b, ft^net)
	b = le.AppendUint32(b, uint32(len(f.Description)))
	b = append(b, f.Description...)
	b = le.AppendUint32(b, ft)
	if s.arch == sfThreats {
		var err error
		if b, err = appendThreatTransformer(b, f); err != nil {
			return nil, err
		}
	} else {
		if len(f.FTBiases) != s.half || len(f.FTWeights) != s.half*s.inputs || len(f.PSQTWeights) != s.psqt*s.inputs {
			return nil, fmt.Errorf("nnue: stockfish: feature transformer slice lengths do not match the architecture")
		}
		b = sfAppend16(b, f.FTBiases, f.Compressed[0])
		b = sfAppend16(b, f.FTWeights, f.Compressed[1])
		if s.psqt > 0 {
			b = sfAppend32(b, f.PSQTWeights, f.Compressed[2])
		}
	}
	ins := s.ins()
	for _, st := range f.Stacks {
		b = le.AppendUint32(b, net)
		for i, l := range [3]*sfAffine{&st.FC0, &st.FC1, &st.FC2} {
			if len(l.Biases) != s.layers[i] || len(l.Weights) != s.layers[i]*pad32(ins[i]) {
				return nil, fmt.Errorf("nnue: stockfish: layer %d slice lengths do not match the architecture", i)
			}
			for _, v := range l.Biases {
				b = le.AppendUint32(b, uint32(v))
			}
			for _, v := range l.Weights {
				b = append(b, byte(v))
			}
		}
	}
	return b, nil
}

func sfAppend16(b []byte, v []int16, compressed bool) []byte {
	if compressed {
		return sfAppendLEB(b, v)
	}
	for _, x := range v {
		b = binary.LittleEndian.AppendUint16(b, uint16(x))
	}
	return b
}

func sfAppend32(b []byte, v []int32, compressed bool) []byte {
	if compressed {
		return sfAppendLEB(b, v)
	}
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}
