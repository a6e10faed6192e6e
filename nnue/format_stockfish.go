package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"unsafe"
)

// Stockfish .nnue file versions understood by ReadStockfish (the first uint32 of the
// file, little endian; Stockfish nnue_common.h "Version").
const (
	// StockfishVersionHalfKP is the version word of Stockfish 12/13 networks,
	// HalfKP(Friend)[41024→256×2]→32→32→1 (Stockfish 13 nnue/nnue_common.h).
	StockfishVersionHalfKP uint32 = 0x7AF32F16
	// StockfishVersionSFNNv5 is the version word of Stockfish 15/15.1 networks (SFNNv5),
	// HalfKAv2_hm[22528→1024×2] with 8 PSQT buckets and 8 layer stacks
	// 1024→16→(15×2→32)→32→1 (Stockfish 15.1 nnue/nnue_common.h, nnue_architecture.h).
	StockfishVersionSFNNv5 uint32 = 0x7AF32F20
)

// Stockfish evaluation constants shared by both architectures.
const (
	// StockfishOutputScale is the divisor from the last layer's integer output to the
	// internal Value (Stockfish FV_SCALE / OutputScale = 16).
	StockfishOutputScale = 16
	// StockfishWeightScaleBits is the right shift applied by ClippedReLU after an
	// affine layer (log2 of the hidden weight scale 64).
	StockfishWeightScaleBits = 6
	// StockfishPawnValueSF13 is the divisor from internal Value to the pawns printed by
	// Stockfish 13's eval command (PawnValueEg = 208).
	StockfishPawnValueSF13 = 208
	// StockfishPawnValueSF15 is the divisor from internal Value to the pawns printed by
	// Stockfish 15.1's eval command (UCI::NormalizeToPawnValue = 361).
	StockfishPawnValueSF15 = 361
)

// Feature-set hashes embedded in the feature transformer's hash
// (Stockfish 13 features/half_kp.h: 0x5D69D5B9 ^ (AssociatedKing == Friend);
// Stockfish 15.1 features/half_ka_v2_hm.h: 0x7f234cb8).
const (
	sfHashHalfKP     uint32 = 0x5D69D5B9 ^ 1
	sfHashHalfKAv2hm uint32 = 0x7f234cb8
)

// maxStockfishDescription bounds the description string; both published files use
// fewer than 200 bytes. The bound only matters for io.Reader input, whose length is
// unknown up front.
const maxStockfishDescription = 1 << 20

// StockfishArch identifies one of the two supported Stockfish architectures.
type StockfishArch uint8

// The supported architectures.
const (
	// StockfishHalfKP is Stockfish 12/13's HalfKP[41024→256×2]→32→32→1.
	StockfishHalfKP StockfishArch = iota + 1
	// StockfishSFNNv5 is Stockfish 15.1's HalfKAv2_hm[22528→1024×2] with PSQT and
	// 8 layer stacks.
	StockfishSFNNv5
)

// String returns "HalfKP" or "SFNNv5".
func (a StockfishArch) String() string {
	switch a {
	case StockfishHalfKP:
		return "HalfKP"
	case StockfishSFNNv5:
		return "SFNNv5"
	}
	return fmt.Sprintf("StockfishArch(%d)", uint8(a))
}

// sfShape fixes every dimension of an architecture. The published files have exactly
// one shape per version; tests build tiny shapes to fuzz the reader with small seeds.
type sfShape struct {
	version     uint32
	arch        StockfishArch
	featureHash uint32
	inputs      int    // features per perspective
	half        int    // accumulator width per perspective
	psqt        int    // PSQT buckets (0: none)
	stacks      int    // layer stacks
	layers      [3]int // fc0, fc1, fc2 outputs
	fc1In       int    // logical input width of fc1
}

// fc0In is the width of the transformed features: 2·half for HalfKP (both perspectives
// clipped), half for SFNNv5 (each perspective's halves multiplied pairwise).
func (s *sfShape) fc0In() int {
	if s.arch == StockfishSFNNv5 {
		return s.half
	}
	return 2 * s.half
}

var sfShapeHalfKP = sfShape{
	version: StockfishVersionHalfKP, arch: StockfishHalfKP, featureHash: sfHashHalfKP,
	inputs: 41024, half: 256, psqt: 0, stacks: 1, layers: [3]int{32, 32, 1}, fc1In: 32,
}

var sfShapeSFNNv5 = sfShape{
	version: StockfishVersionSFNNv5, arch: StockfishSFNNv5, featureHash: sfHashHalfKAv2hm,
	inputs: 22528, half: 1024, psqt: 8, stacks: 8, layers: [3]int{16, 32, 1}, fc1In: 30,
}

// StockfishAffine is one affine layer as stored in a Stockfish file: int32 biases[Out]
// followed by int8 weights[Out][PaddedIn], row-major, rows padded with zeros to
// PaddedIn = In rounded up to a multiple of 32 (Stockfish layers/affine_transform.h).
type StockfishAffine struct {
	In, PaddedIn, Out int
	Biases            []int32 // len Out
	Weights           []int8  // len Out·PaddedIn, row j at [j·PaddedIn, (j+1)·PaddedIn)
}

// StockfishLayerStack is fc0 → fc1 → fc2 of one layer stack (HalfKP nets have one).
type StockfishLayerStack struct {
	Hash          uint32 // the network hash stored before the stack
	FC0, FC1, FC2 StockfishAffine
}

// StockfishFile is the raw content of a Stockfish .nnue file, exactly as stored: the
// header, the feature transformer (feature-major int16 weights, one row of HalfDims per
// feature, and for SFNNv5 int32 PSQT weights, one row of PSQTBuckets per feature) and
// the layer stacks. It is produced by ReadStockfish; NewStockfishNetwork (and Load)
// turn it into an evaluating network.
type StockfishFile struct {
	Version     uint32 // StockfishVersionHalfKP or StockfishVersionSFNNv5
	Arch        StockfishArch
	Hash        uint32 // header hash = FTHash ^ NetHash
	Description string // architecture/trainer description from the header
	FTHash      uint32 // feature transformer hash = feature-set hash ^ (2·HalfDims)
	NetHash     uint32 // layer-stack hash (identical for every stack)

	Features    int // features per perspective: 41024 (HalfKP) or 22528 (HalfKAv2_hm)
	HalfDims    int // accumulator width per perspective: 256 or 1024
	PSQTBuckets int // 0 (HalfKP) or 8

	FTBiases    []int16 // len HalfDims
	FTWeights   []int16 // len Features·HalfDims, feature-major
	PSQTWeights []int32 // len Features·PSQTBuckets, feature-major (nil for HalfKP)

	Stacks []StockfishLayerStack // 1 (HalfKP) or 8 (SFNNv5)
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

// sfSize returns the exact byte size of a file of shape s with a description of n bytes.
func sfSize(s *sfShape, desc int) int64 {
	n := int64(12 + desc)
	n += 4 + 2*int64(s.half) + 2*int64(s.half)*int64(s.inputs) + 4*int64(s.psqt)*int64(s.inputs)
	ins := [3]int{s.fc0In(), s.fc1In, s.layers[1]}
	per := int64(4)
	for i, out := range s.layers {
		per += 4*int64(out) + int64(out)*int64(pad32(ins[i]))
	}
	return n + per*int64(s.stacks)
}

// sfReader reads little-endian fields from a byte slice and reports errors by field and
// offset. It never allocates more than the bytes that remain.
type sfReader struct {
	b   []byte
	off int
	err error
}

func (r *sfReader) fail(field, format string, a ...any) {
	if r.err == nil {
		r.err = &FormatError{Format: "stockfish", Field: field, Offset: int64(r.off), Msg: fmt.Sprintf(format, a...)}
	}
}

func (r *sfReader) need(field string, n int64) bool {
	if r.err != nil {
		return false
	}
	if rem := int64(len(r.b) - r.off); n > rem {
		r.fail(field, "truncated: need %d bytes, %d remain", n, rem)
		return false
	}
	return true
}

func (r *sfReader) u32(field string) uint32 {
	if !r.need(field, 4) {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

// sfLittleEndian reports a little-endian host, where the file's arrays are copied in bulk.
var sfLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func (r *sfReader) i16s(field string, n int) []int16 {
	if !r.need(field, 2*int64(n)) {
		return nil
	}
	out := alignedInt16(n)
	src := r.b[r.off : r.off+2*n]
	if sfLittleEndian && n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 2*n), src)
	} else {
		for i := range out {
			out[i] = int16(binary.LittleEndian.Uint16(src[2*i:]))
		}
	}
	r.off += 2 * n
	return out
}

func (r *sfReader) i32s(field string, n int) []int32 {
	if !r.need(field, 4*int64(n)) {
		return nil
	}
	out := alignedInt32(n)
	src := r.b[r.off : r.off+4*n]
	if sfLittleEndian && n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*n), src)
	} else {
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(src[4*i:]))
		}
	}
	r.off += 4 * n
	return out
}

func (r *sfReader) i8s(field string, n int) []int8 {
	if !r.need(field, int64(n)) {
		return nil
	}
	out := alignedInt8(n)
	if n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n), r.b[r.off:r.off+n])
	}
	r.off += n
	return out
}

func (r *sfReader) hash(field string, want uint32) uint32 {
	off := r.off
	got := r.u32(field)
	if r.err == nil && got != want {
		r.off = off
		r.fail(field, "hash 0x%08X, expected 0x%08X", got, want)
	}
	return got
}

// ReadStockfish reads a Stockfish .nnue network of version StockfishVersionHalfKP or
// StockfishVersionSFNNv5 (uncompressed, as both published files are) from r.
//
// It checks the version, the header hash (= feature transformer hash ^ network hash),
// the feature transformer hash, every layer stack's hash, and that the input ends
// exactly after the last layer. Errors are *FormatError values (Format "stockfish")
// naming the field and its byte offset. Memory use is bounded by
// the input actually read (at most the architecture's exact file size, 21 MB or 47 MB,
// plus one byte).
func ReadStockfish(r io.Reader) (*StockfishFile, error) {
	var head [12]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil {
		if n < 4 {
			return nil, &FormatError{Format: "stockfish", Field: "version", Offset: 0, Msg: fmt.Sprintf("truncated: %d bytes", n)}
		}
	}
	ver := binary.LittleEndian.Uint32(head[:])
	shape := sfShapeFor(ver)
	if shape == nil {
		return nil, &FormatError{Format: "stockfish", Field: "version", Offset: 0,
			Msg: fmt.Sprintf("0x%08X is not a supported Stockfish version (0x7AF32F16, 0x7AF32F20)", ver)}
	}
	if n < 12 {
		return nil, &FormatError{Format: "stockfish", Field: "header", Offset: int64(n), Msg: fmt.Sprintf("truncated: %d of 12 bytes", n)}
	}
	descLen := int64(binary.LittleEndian.Uint32(head[8:]))
	if descLen > maxStockfishDescription {
		return nil, &FormatError{Format: "stockfish", Field: "description length", Offset: 8,
			Msg: fmt.Sprintf("%d bytes exceeds the limit of %d", descLen, maxStockfishDescription)}
	}
	limit := sfSize(shape, int(descLen)) - 12
	// The buffer grows with the data actually present; the limit stops a hostile stream
	// one byte after the expected end.
	var buf bytes.Buffer
	buf.Write(head[:])
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("nnue: stockfish: reading network: %w", err)
	}
	return parseStockfish(buf.Bytes(), shape)
}

// ParseStockfish is ReadStockfish for a file already in memory.
func ParseStockfish(data []byte) (*StockfishFile, error) {
	if len(data) < 4 {
		return nil, &FormatError{Format: "stockfish", Field: "version", Offset: 0, Msg: fmt.Sprintf("truncated: %d bytes", len(data))}
	}
	ver := binary.LittleEndian.Uint32(data)
	shape := sfShapeFor(ver)
	if shape == nil {
		return nil, &FormatError{Format: "stockfish", Field: "version", Offset: 0,
			Msg: fmt.Sprintf("0x%08X is not a supported Stockfish version (0x7AF32F16, 0x7AF32F20)", ver)}
	}
	return parseStockfish(data, shape)
}

// LoadStockfishFile reads the Stockfish network stored at path.
func LoadStockfishFile(path string) (*StockfishFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sf, err := ReadStockfish(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sf, nil
}

// IsStockfishVersion reports whether the first four bytes of a file are the version
// word of a supported Stockfish network.
func IsStockfishVersion(head []byte) bool {
	return len(head) >= 4 && sfShapeFor(binary.LittleEndian.Uint32(head)) != nil
}

func sfShapeFor(ver uint32) *sfShape {
	switch ver {
	case StockfishVersionHalfKP:
		return &sfShapeHalfKP
	case StockfishVersionSFNNv5:
		return &sfShapeSFNNv5
	}
	return nil
}

func parseStockfish(data []byte, s *sfShape) (*StockfishFile, error) {
	r := &sfReader{b: data}
	f := &StockfishFile{Arch: s.arch, Features: s.inputs, HalfDims: s.half, PSQTBuckets: s.psqt}
	f.FTHash, f.NetHash = sfHashes(s)

	f.Version = r.u32("version")
	if r.err == nil && f.Version != s.version {
		r.off = 0
		r.fail("version", "0x%08X, expected 0x%08X", f.Version, s.version)
	}
	f.Hash = r.hash("header hash", f.FTHash^f.NetHash)
	descLen := r.u32("description length")
	if r.err == nil {
		if int64(descLen) > int64(len(data)-r.off) {
			r.off -= 4
			r.fail("description length", "%d bytes, but only %d bytes remain", descLen, len(data)-r.off-4)
		} else {
			f.Description = string(data[r.off : r.off+int(descLen)])
			r.off += int(descLen)
		}
	}
	r.hash("feature transformer hash", f.FTHash)
	f.FTBiases = r.i16s("feature transformer biases", s.half)
	f.FTWeights = r.i16s("feature transformer weights", s.half*s.inputs)
	if s.psqt > 0 {
		f.PSQTWeights = r.i32s("PSQT weights", s.psqt*s.inputs)
	}
	ins := [3]int{s.fc0In(), s.fc1In, s.layers[1]}
	names := [3]string{"fc_0", "fc_1", "fc_2"}
	for k := 0; k < s.stacks && r.err == nil; k++ {
		var st StockfishLayerStack
		st.Hash = r.hash(fmt.Sprintf("layer stack %d hash", k), f.NetHash)
		layers := [3]*StockfishAffine{&st.FC0, &st.FC1, &st.FC2}
		for i, l := range layers {
			l.In, l.PaddedIn, l.Out = ins[i], pad32(ins[i]), s.layers[i]
			l.Biases = r.i32s(fmt.Sprintf("layer stack %d %s biases", k, names[i]), l.Out)
			l.Weights = r.i8s(fmt.Sprintf("layer stack %d %s weights", k, names[i]), l.Out*l.PaddedIn)
		}
		f.Stacks = append(f.Stacks, st)
	}
	if r.err == nil && r.off != len(data) {
		r.fail("end of file", "%d trailing bytes after the last layer", len(data)-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	return f, nil
}

// shape reconstructs the architecture shape of f (for writing).
func (f *StockfishFile) shape() (*sfShape, error) {
	s := sfShapeFor(f.Version)
	if s == nil {
		return nil, fmt.Errorf("nnue: stockfish: unsupported version 0x%08X", f.Version)
	}
	if f.Features != s.inputs || f.HalfDims != s.half || f.PSQTBuckets != s.psqt || len(f.Stacks) != s.stacks {
		return nil, fmt.Errorf("nnue: stockfish: dimensions do not match version 0x%08X", f.Version)
	}
	return s, nil
}

// WriteTo writes f in the Stockfish .nnue format it was read from, byte for byte
// (header hash and layer hashes recomputed from the architecture). It implements
// io.WriterTo and returns an error when f's dimensions do not match its version.
func (f *StockfishFile) WriteTo(w io.Writer) (int64, error) {
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
func encodeStockfish(f *StockfishFile, s *sfShape) ([]byte, error) {
	ft, net := sfHashes(s)
	b := make([]byte, 0, sfSize(s, len(f.Description)))
	le := binary.LittleEndian
	b = le.AppendUint32(b, s.version)
	b = le.AppendUint32(b, ft^net)
	b = le.AppendUint32(b, uint32(len(f.Description)))
	b = append(b, f.Description...)
	b = le.AppendUint32(b, ft)
	if len(f.FTBiases) != s.half || len(f.FTWeights) != s.half*s.inputs || len(f.PSQTWeights) != s.psqt*s.inputs {
		return nil, fmt.Errorf("nnue: stockfish: feature transformer slice lengths do not match the architecture")
	}
	for _, v := range f.FTBiases {
		b = le.AppendUint16(b, uint16(v))
	}
	for _, v := range f.FTWeights {
		b = le.AppendUint16(b, uint16(v))
	}
	for _, v := range f.PSQTWeights {
		b = le.AppendUint32(b, uint32(v))
	}
	ins := [3]int{s.fc0In(), s.fc1In, s.layers[1]}
	for _, st := range f.Stacks {
		b = le.AppendUint32(b, net)
		for i, l := range [3]*StockfishAffine{&st.FC0, &st.FC1, &st.FC2} {
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
