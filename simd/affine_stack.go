package simd

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nnuekit/nnuekit/internal/block"
)

// A prepared stack keeps its arrays (weights, biases, masks) in one block.Block, in the
// order Forward reads them, starting on a 4 KiB page: one evaluation then touches as few
// distinct pages as the arrays' sizes allow. On a machine whose TLB is flushed often
// (every clock system call under page-table isolation flushes it) each distinct page
// costs a page walk, and separate allocations put every small array on a page of its own.

// ReLUStack is a prepared ClippedReLU chain: the HalfKP layer stack (Stockfish 12/13
// nnue_architecture.h, the "HalfKP 256x2-32-32-1" net) — the ClippedReLU of both
// perspectives' accumulators (m int16 each, side to move first), fc_0 = Affine(2m→32),
// ClippedReLU (>> shift0), fc_1 = Affine(32→32), ClippedReLU (>> shift1), fc_2 =
// Affine(32→1) — or, without fc_1, the thesis nets' (2m→32→1: the ClippedReLU after fc_0
// feeds fc_2 directly; at AVX2 the transform with its chunk list, fc_0's sparse kernel
// and ClippedReLUDot32's kernel, three calls). Forward runs it with
// direct calls of the kernels of the current level (no function values, one check of the
// operands), where the layer-by-layer path makes one call per layer:
// ClippedReLUAffineSparse's pieces below VNNI (fc_0 sparse, the non-zero chunks listed
// while the ClippedReLU writes them) or ClippedReLU16 ×2 + the dense Affine at VNNI (its
// sixteen-row kernel), then
// ReLUAffineReLUDot32 (below VNNI with two chunks' products summed in int16 when
// SparseGroup rates fc_1's weights ≥ 2, as it does for the Stockfish 13 net). Bit-identical to the layers at every level. A ReLUStack is
// immutable and safe for concurrent use; the scratch passed to Forward is not.
type ReLUStack struct {
	w0      []int8 // fc_0 row-major [32][2m] (the dense kernel at VNNI)
	wt0     []int8 // fc_0 chunk-major, SparseWeights(w0, 2m, 32)
	group   int    // SparseGroup(wt0, 2m, 32)
	b0      []int32
	wt1     []int8 // fc_1 chunk-major, SparseWeights(w1, 32, 32); nil without fc_1
	b1      []int32
	w2      []int8
	b2      int32
	generic bool // set by tests: run the Go path whatever the level

	// The first elements of w0 and wt0, taken once for the assembly of the AVX-512 levels
	// (the other arrays' are in k).
	pw0, pwt0 *int8

	// Set by WithActivity (nil otherwise), used at AVX2: fc_0's input in a load-time order.
	// ord[j] is the input (0 ≤ ord[j] < 2m) at position j of the reordered ClippedReLU
	// output, masks the VPSHUFB masks producing it (reluStackAVX2), wtS fc_0 chunk-major
	// with its columns in that order.
	ord   []int32
	masks []uint8
	wtS   []int8

	// k holds the width m, the shifts, fc_1's SparseGroup and the first elements of b0,
	// wt1, b1 and w2 — the one place the stack keeps them — and fc_0's weights, group and
	// input order as the AVX2 kernel (reluStackAVX2) takes them: wtS, its SparseGroup and
	// masks after WithActivity, else wt0, group and the natural order.
	k stackKernel
}

// stackKernel holds what reluStackAVX2 reads of a ReLUStack, through one pointer, at the
// offsets the generator names (sk* in simd/_asm/relu_stack.go; TestStackKernelLayout):
// one argument in place of eleven.
type stackKernel struct {
	masks  *uint8 // nil: the natural order
	pb0    *int32
	pwt0   *int8
	group  int // SparseGroup of pwt0's weights
	sh0    uint
	pwt1   *int8
	pb1    *int32
	sh1    uint
	pw2    *int8
	group1 int // SparseGroup(wt1, 32, 32): ≥ 2 selects the tail with int16 pairs
	m      int
}

// WithActivity returns a copy of s whose AVX2 path (the sparse fc_0 below AVX-512) takes
// fc_0's 2m inputs in an order that puts often non-zero ones into the same 4-byte chunks, so
// that fewer chunks are non-zero and fc_0's sparse kernel multiplies fewer (Stockfish 17
// permutes its L1 neurons for the same reason). score has 2m entries (input
// j < m from the side to move's accumulator, m + j from the other's), larger meaning more
// often non-zero; only their order matters. Within each 128-bit lane of the packed
// ClippedReLU (inputs 32b + {0..7, 16..23} and 32b + {8..15, 24..31} of every 32-input
// block b: the lanes of VPACKSSWB, which one VPSHUFB per block can reorder in place of the
// VPERMQ it needs anyway) the sixteen inputs are sorted by score, descending (ties by
// position), and taken four to a chunk; fc_0's columns are permuted to match (a copy), so
// Forward's result is bit for bit the same at every level; only the bytes Forward leaves
// in dst are in that order at AVX2. It returns an error if len(score) ≠ 2m.
func (s *ReLUStack) WithActivity(score []int32) (*ReLUStack, error) {
	m2 := 2 * s.k.m
	if s.wt1 == nil {
		return nil, fmt.Errorf("simd: ReLUStack.WithActivity: the input order is part of the 32→32→1 kernel; this stack has no fc_1")
	}
	if len(score) != m2 {
		return nil, fmt.Errorf("simd: ReLUStack.WithActivity: %d scores, want %d", len(score), m2)
	}
	c := *s
	// One block in the order the AVX2 path reads it (wtS, b0, wt1, b1, w2, masks), then
	// the other levels' fc_0 copies (w0 dense at VNNI, wt0 sparse at AVX-512).
	blk := block.New(3*block.Len(32*m2) + reluStackSmall + block.Len(m2))
	c.wtS = blk.Int8s(32 * m2) // filled below
	c.b0, c.wt1, c.b1, c.w2 = blk.Int32s(32), blk.Int8s(32*32), blk.Int32s(32), blk.Int8s(32)
	copy(c.b0, s.b0)
	copy(c.wt1, s.wt1)
	copy(c.b1, s.b1)
	copy(c.w2, s.w2)
	c.masks = blk.Uint8s(m2)
	c.w0, c.wt0 = blk.Int8s(32*m2), blk.Int8s(32*m2)
	copy(c.w0, s.w0)
	copy(c.wt0, s.wt0)
	c.ord = make([]int32, m2)
	for b := 0; b < m2; b += 32 {
		for lane := 0; lane < 2; lane++ {
			var p [16]int // packed byte positions of the lane, sorted by score below
			in := func(q int) int { return b + 8*lane + q%8 + 16*(q/8) }
			for q := range p {
				p[q] = q
			}
			slices.SortStableFunc(p[:], func(x, y int) int { return cmp.Compare(score[in(y)], score[in(x)]) })
			for k, q := range p {
				c.masks[b+16*lane+k] = uint8(q)
				c.ord[b+16*lane+k] = int32(in(q))
			}
		}
	}
	// Within each chunk, pair its four inputs (bytes 0-1, 2-3: the int16 lanes of
	// VPMADDUBSW) so that the largest same-sign weight-pair sum over the outputs is least,
	// which keeps SparseGroup's bound (three chunks summed in int16) where it can be kept.
	pairCost := func(x, y int32) int32 {
		var c int32
		for o := 0; o < 32; o++ {
			a, b := int32(s.w0[o*m2+int(x)]), int32(s.w0[o*m2+int(y)])
			c = max(c, max(a, 0)+max(b, 0), -(min(a, 0) + min(b, 0)))
		}
		return c
	}
	for j := 0; j < m2; j += 4 {
		q, mk := c.ord[j:j+4], c.masks[j:j+4]
		best, bi := int32(1<<30), 0
		for i, pr := range [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}} {
			if cost := max(pairCost(q[pr[0]], q[pr[1]]), pairCost(q[pr[2]], q[pr[3]])); cost < best {
				best, bi = cost, i
			}
		}
		pr := [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}[bi]
		oq, om := [4]int32(q), [4]uint8(mk)
		for k, from := range pr {
			q[k], mk[k] = oq[from], om[from]
		}
	}
	w0p := make([]int8, len(s.w0))
	for o := 0; o < 32; o++ {
		row, rowp := s.w0[o*m2:(o+1)*m2], w0p[o*m2:(o+1)*m2]
		for j, src := range c.ord {
			rowp[j] = row[src]
		}
	}
	sparseWeightsInto(c.wtS, w0p, m2, 32)
	c.setPointers(SparseGroup(c.wtS, m2, 32))
	return &c, nil
}

// reluStackSmall is the block room of a ReLUStack's biases and fc_1/fc_2 weights.
var reluStackSmall = block.Len(4*32) + block.Len(32*32) + block.Len(4*32) + block.Len(32)

// setPointers takes the first elements of the arrays once for the assembly: fc_0 in its
// own order, and for the AVX2 kernel in WithActivity's where that is set. groupS is the
// SparseGroup of wtS (ignored without WithActivity).
func (s *ReLUStack) setPointers(groupS int) {
	s.pw0, s.pwt0 = &s.w0[0], &s.wt0[0]
	s.k.pb0, s.k.pw2 = &s.b0[0], &s.w2[0]
	if s.wt1 != nil {
		s.k.pwt1, s.k.pb1 = &s.wt1[0], &s.b1[0]
	}
	s.k.masks, s.k.pwt0, s.k.group = nil, s.pwt0, s.group
	if s.wtS != nil {
		s.k.masks, s.k.pwt0, s.k.group = &s.masks[0], &s.wtS[0], groupS
	}
}

// NewReLUStack prepares the stack for accumulators of m int16 per perspective (m a
// positive multiple of 32, at most 32,768): fc_0's weights w0 row-major [32][2m] with 32
// biases b0, fc_1's w1 row-major [32][32] with 32 biases b1, fc_2's 32 weights w2 and
// bias b2, the ClippedReLU shifts shift0 (after fc_0) and shift1 (after fc_1), each < 32.
// w1 and b1 both nil declare the stack without fc_1 (fc_2 then reads the ClippedReLU of
// fc_0's outputs; shift1 is ignored). The slices are copied (chunk-major for the sparse kernels), all into one block that
// starts on a 4 KiB page in the order Forward reads them. It returns an error for any
// other shape.
func NewReLUStack(m int, w0 []int8, b0 []int32, shift0 uint, w1 []int8, b1 []int32, shift1 uint, w2 []int8, b2 int32) (*ReLUStack, error) {
	switch {
	case m <= 0 || m%32 != 0 || m > 1<<15:
		return nil, fmt.Errorf("simd: ReLUStack width %d, want a positive multiple of 32 up to 32768", m)
	case len(w0) != 32*2*m || len(b0) != 32:
		return nil, fmt.Errorf("simd: ReLUStack fc_0 has %d weights and %d biases, want %d and 32", len(w0), len(b0), 64*m)
	case (w1 != nil || b1 != nil) && (len(w1) != 32*32 || len(b1) != 32) || len(w2) != 32:
		return nil, fmt.Errorf("simd: ReLUStack fc_1/fc_2 have %d/%d weights and %d biases, want 1024/32 and 32", len(w1), len(w2), len(b1))
	case shift0 > 31 || shift1 > 31:
		return nil, fmt.Errorf("simd: ReLUStack shifts %d, %d, want < 32", shift0, shift1)
	}
	m2 := 2 * m
	// One block in the order the sparse paths read it (wt0, b0, wt1, b1, w2), then fc_0
	// row-major for the dense kernel at VNNI.
	blk := block.New(2*block.Len(32*m2) + reluStackSmall)
	s := &ReLUStack{b2: b2, k: stackKernel{m: m, sh0: shift0, sh1: shift1}}
	s.wt0, s.b0 = blk.Int8s(32*m2), blk.Int32s(32)
	if w1 != nil {
		s.wt1, s.b1 = blk.Int8s(32*32), blk.Int32s(32)
	}
	s.w2 = blk.Int8s(32)
	s.w0 = blk.Int8s(32 * m2)
	sparseWeightsInto(s.wt0, w0, m2, 32)
	copy(s.b0, b0)
	if w1 != nil {
		sparseWeightsInto(s.wt1, w1, 32, 32)
		copy(s.b1, b1)
		s.k.group1 = SparseGroup(s.wt1, 32, 32)
	}
	copy(s.w2, w2)
	copy(s.w0, w0)
	s.group = SparseGroup(s.wt0, m2, 32)
	s.setPointers(0)
	return s, nil
}

// Width returns m, the int16 accumulator width per perspective.
func (s *ReLUStack) Width() int { return s.k.m }

// Depth returns the number of hidden layers before fc_2: 2 (fc_0, fc_1) or 1 (fc_0).
func (s *ReLUStack) Depth() int {
	if s.wt1 == nil {
		return 1
	}
	return 2
}

// forwardGeneric is Forward through the installed kernels (the Go twins at level
// Generic and in purego builds).
func (s *ReLUStack) forwardGeneric(a, b []int16, dst []uint8, idx []uint16) int32 {
	m := s.k.m
	var o [32]int32
	ClippedReLUAffineSparse(o[:], dst[:2*m], a[:m], b[:m], s.wt0, s.b0, s.group, idx[:m/2])
	if s.wt1 == nil {
		return s.b2 + ClippedReLUDot32(o[:], s.w2, s.k.sh0)
	}
	return s.b2 + ReLUAffineReLUDot32(o[:], s.k.sh0, s.wt1, s.b1, s.k.sh1, s.w2)
}
