package simd

import "fmt"

// ReLUStack is a prepared HalfKP layer stack (Stockfish 12/13 nnue_architecture.h, the
// "HalfKP 256x2-32-32-1" net): the ClippedReLU of both perspectives' accumulators (m int16
// each, side to move first), fc_0 = Affine(2m→32), ClippedReLU (>> shift0), fc_1 =
// Affine(32→32), ClippedReLU (>> shift1), fc_2 = Affine(32→1). Forward runs it with
// direct calls of the kernels of the current level (no function values, one check of the
// operands), where the layer-by-layer path makes one call per layer:
// ClippedReLUAffineSparse's pieces below VNNI (fc_0 sparse, the non-zero chunks listed
// while the ClippedReLU writes them) or ClippedReLU16 ×2 + the dense Affine at VNNI (its
// sixteen-row kernel), then
// ReLUAffineReLUDot32 (below VNNI with two chunks' products summed in int16 when
// SparseGroup rates fc_1's weights ≥ 2, as it does for the Stockfish 13 net). Bit-identical to the layers at every level. A ReLUStack is
// immutable and safe for concurrent use; the scratch passed to Forward is not.
type ReLUStack struct {
	m        int
	w0       []int8 // fc_0 row-major [32][2m] (the dense kernel at VNNI)
	wt0      []int8 // fc_0 chunk-major, SparseWeights(w0, 2m, 32)
	group    int    // SparseGroup(wt0, 2m, 32)
	b0       []int32
	wt1      []int8 // fc_1 chunk-major, SparseWeights(w1, 32, 32)
	b1       []int32
	w2       []int8
	b2       int32
	sh0, sh1 uint
	generic  bool // set by tests: run the Go path whatever the level

	// The first elements of w0, wt0, b0, wt1, b1 and w2, taken once for the assembly.
	pw0, pwt0, pwt1, pw2 *int8
	pb0, pb1             *int32

	group1 int // SparseGroup(wt1, 32, 32): ≥ 2 selects the tail kernel with int16 pairs
}

// NewReLUStack prepares the stack for accumulators of m int16 per perspective (m a
// positive multiple of 32, at most 32,768): fc_0's weights w0 row-major [32][2m] with 32
// biases b0, fc_1's w1 row-major [32][32] with 32 biases b1, fc_2's 32 weights w2 and
// bias b2, the ClippedReLU shifts shift0 (after fc_0) and shift1 (after fc_1), each < 32.
// The slices are copied (chunk-major for the sparse kernels) or referenced (w0): they must
// not change afterwards. It returns an error for any other shape.
func NewReLUStack(m int, w0 []int8, b0 []int32, shift0 uint, w1 []int8, b1 []int32, shift1 uint, w2 []int8, b2 int32) (*ReLUStack, error) {
	switch {
	case m <= 0 || m%32 != 0 || m > 1<<15:
		return nil, fmt.Errorf("simd: ReLUStack width %d, want a positive multiple of 32 up to 32768", m)
	case len(w0) != 32*2*m || len(b0) != 32:
		return nil, fmt.Errorf("simd: ReLUStack fc_0 has %d weights and %d biases, want %d and 32", len(w0), len(b0), 64*m)
	case len(w1) != 32*32 || len(b1) != 32 || len(w2) != 32:
		return nil, fmt.Errorf("simd: ReLUStack fc_1/fc_2 have %d/%d weights and %d biases, want 1024/32 and 32", len(w1), len(w2), len(b1))
	case shift0 > 31 || shift1 > 31:
		return nil, fmt.Errorf("simd: ReLUStack shifts %d, %d, want < 32", shift0, shift1)
	}
	s := &ReLUStack{m: m, w0: w0, wt0: SparseWeights(w0, 2*m, 32),
		b0: append(AlignedInt32(32)[:0], b0...), wt1: SparseWeights(w1, 32, 32),
		b1: append(AlignedInt32(32)[:0], b1...), w2: append([]int8(nil), w2...), b2: b2,
		sh0: shift0, sh1: shift1}
	s.group = SparseGroup(s.wt0, 2*m, 32)
	s.group1 = SparseGroup(s.wt1, 32, 32)
	s.pw0, s.pwt0, s.pwt1, s.pw2 = &s.w0[0], &s.wt0[0], &s.wt1[0], &s.w2[0]
	s.pb0, s.pb1 = &s.b0[0], &s.b1[0]
	return s, nil
}

// Width returns m, the int16 accumulator width per perspective.
func (s *ReLUStack) Width() int { return s.m }

// forwardGeneric is Forward through the kernels' function values (the Go twins at level
// Generic and in purego builds).
func (s *ReLUStack) forwardGeneric(a, b []int16, dst []uint8, idx []uint16) int32 {
	m := s.m
	var o [32]int32
	ClippedReLUAffineSparse(o[:], dst[:2*m], a[:m], b[:m], s.wt0, s.b0, s.group, idx[:m/2])
	return s.b2 + ReLUAffineReLUDot32(o[:], s.sh0, s.wt1, s.b1, s.sh1, s.w2)
}
