package simd

import (
	"fmt"

	"github.com/nnuekit/nnuekit/internal/block"
)

// PairwiseStack is a prepared SFNNv5 layer stack (Stockfish 15.1 and 16
// nnue_architecture.h with 16 fc_0 outputs): the pairwise product (PairwiseClip(127, 7)) of each perspective's
// accumulator halves (m int16 each, side to move first), fc_0 = Affine(m→16) whose 16th
// output is the skip connection, SqrClippedReLU (>> sqrShift) and ClippedReLU (>> shift0)
// of the other 15 concatenated, fc_1 = Affine(30→32), ClippedReLU (>> shift1), fc_2 =
// Affine(32→1). Forward runs it with direct calls of the kernels of the current level,
// where the layer-by-layer path makes one call per layer (or per fused pair):
// PairwiseAffineSparse's pieces (fc_0 sparse, the non-zero chunks listed while the
// products are written; at VNNI too, where the layers run PairwiseClip(127, 7) ×2 and the dense
// Affine), then SqrCReLUPair16 and AffineReLUDot32 (below VNNI with int16 pairs where
// SparseGroup rates fc_1's weights ≥ 2: 6 of the Stockfish 15.1 net's 8 stacks).
// Bit-identical to the layers at every level. A PairwiseStack is immutable and safe for
// concurrent use; the scratch passed to Forward is not.
type PairwiseStack struct {
	m                  int
	wt0                []int8 // fc_0 chunk-major, SparseWeights(w0, m, 16)
	group              int    // SparseGroup(wt0, m, 16)
	b0                 []int32
	wt1                []int8 // fc_1 re-laid for SqrCReLUPair16's 32 bytes, chunk-major
	b1                 []int32
	w2                 []int8
	b2                 int32
	sqrShift, sh0, sh1 uint
	generic            bool  // set by tests: run the Go path whatever the level
	pwt0, pwt1, pw2    *int8 // the first elements, taken once for the assembly
	pb0, pb1           *int32
	group1             int // SparseGroup(wt1, 32, 32): ≥ 2 selects the tail kernel with int16 pairs
}

// NewPairwiseStack prepares the stack for accumulators of m int16 per perspective (m a
// positive multiple of 64, at most 32,768): fc_0's weights w0 row-major [16][m] with 16
// biases b0, fc_1's w1 row-major [32][32] (inputs 0–14 the squared part, 15–29 the
// clipped part, 30 and 31 padding) with 32 biases b1, fc_2's 32 weights w2 and bias b2,
// and the shifts of the SqrClippedReLU (sqrShift < 64) and of the ClippedReLUs after fc_0
// and fc_1 (shift0, shift1 < 32). The weights are copied. It returns an error for any
// other shape.
//
// The copies share one block that starts on a 4 KiB page, in the order Forward reads
// them (fc_0, its biases, fc_1, its biases, fc_2), so that an evaluation touches as few
// pages as their size allows.
func NewPairwiseStack(m int, w0 []int8, b0 []int32, sqrShift, shift0 uint, w1 []int8, b1 []int32, shift1 uint, w2 []int8, b2 int32) (*PairwiseStack, error) {
	switch {
	case m <= 0 || m%64 != 0 || m > 1<<15:
		return nil, fmt.Errorf("simd: PairwiseStack width %d, want a positive multiple of 64 up to 32768", m)
	case len(w0) != 16*m || len(b0) != 16:
		return nil, fmt.Errorf("simd: PairwiseStack fc_0 has %d weights and %d biases, want %d and 16", len(w0), len(b0), 16*m)
	case len(w1) != 32*32 || len(b1) != 32 || len(w2) != 32:
		return nil, fmt.Errorf("simd: PairwiseStack fc_1/fc_2 have %d/%d weights and %d biases, want 1024/32 and 32", len(w1), len(w2), len(b1))
	case sqrShift > 63 || shift0 > 31 || shift1 > 31:
		return nil, fmt.Errorf("simd: PairwiseStack shifts %d, %d, %d out of range", sqrShift, shift0, shift1)
	}
	// fc_1's row j re-laid for SqrCReLUPair16's output (squares at 0–15, clipped values at
	// 16–31, the 16th of each being fc_0's skip output): W[j][0:15], 0, W[j][15:30], 0.
	r := make([]int8, 32*32)
	for j := 0; j < 32; j++ {
		copy(r[32*j:32*j+15], w1[32*j:32*j+15])
		copy(r[32*j+16:32*j+31], w1[32*j+15:32*j+30])
	}
	// One block (block.Block) in the order Forward reads it: wt0, b0, wt1, b1, w2.
	blk := block.New(block.Len(16*m) + block.Len(4*16) + block.Len(32*32) + block.Len(4*32) + block.Len(32))
	s := &PairwiseStack{m: m, b2: b2, sqrShift: sqrShift, sh0: shift0, sh1: shift1}
	s.wt0, s.b0, s.wt1, s.b1, s.w2 = blk.Int8s(16*m), blk.Int32s(16), blk.Int8s(32*32), blk.Int32s(32), blk.Int8s(32)
	sparseWeightsInto(s.wt0, w0, m, 16)
	copy(s.b0, b0)
	sparseWeightsInto(s.wt1, r, 32, 32)
	copy(s.b1, b1)
	copy(s.w2, w2)
	s.group = SparseGroup(s.wt0, m, 16)
	s.group1 = SparseGroup(s.wt1, 32, 32)
	s.pwt0, s.pwt1, s.pw2 = &s.wt0[0], &s.wt1[0], &s.w2[0]
	s.pb0, s.pb1 = &s.b0[0], &s.b1[0]
	return s, nil
}

// Width returns m, the int16 accumulator width per perspective.
func (s *PairwiseStack) Width() int { return s.m }

// forwardGeneric is Forward through the installed kernels (the Go twins at level
// Generic and in purego builds).
func (s *PairwiseStack) forwardGeneric(a, b []int16, dst []uint8, idx []uint16) (out, skip int32) {
	m := s.m
	var o [16]int32
	var u [32]uint8
	PairwiseAffineSparse(o[:], dst[:m], a[:m], b[:m], s.wt0, s.b0, s.group, idx[:m/4])
	SqrCReLUPair16(u[:], o[:], s.sqrShift, s.sh0)
	return s.b2 + AffineReLUDot32(u[:], s.wt1, s.b1, s.sh1, s.w2), o[15]
}
