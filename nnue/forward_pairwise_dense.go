package nnue

import "github.com/nnuekit/nnuekit/simd"

// pairwiseDense is the forward of the pairwise-dense family (forward.go): Stockfish 19.
// Its fc_0 is a simd.SparseAffine prepared when the network is built; fc_1 and fc_2 run
// simd.Affine on the declared layers' weights.
type pairwiseDense struct {
	whiteFirst bool
	max        int16 // pairwise clip
	shift      uint8 // pairwise shift
	m          int   // accumulator width
	x, y       int   // fc_0 and fc_1 outputs
	fc0        *simd.SparseAffine
	b0         []int32
	sq0, s0    uint // ac_sqr_0, ac_0 shifts
	w1         []int8
	b1         []int32
	sq1, s1    uint // ac_sqr_1, ac_1 shifts
	w2         []int8
	b2         []int32
	mul, div   int64 // the skip connection's scale
	// indices in the evaluator's buffers of the stack (flatIndex) of fc_0's output, the
	// append's output (ac_sqr_0 ‖ ac_0 ‖ ac_sqr_1 ‖ ac_1, padded), fc_1's and fc_2's
	// outputs; the pairwise output and its chunk list are evalBucket.u8 and idx
	bufX, bufBoth, bufY, bufOut int
}

// pairwiseDenseStages is the family's declared stack; anyArg marks the arguments it
// leaves free.
var pairwiseDenseStages = []Stage{
	st("stm|white", nil),
	st("pairwise", []int64{anyArg, anyArg}),
	st("affine.i8", []int64{anyArg}),
	st("skipdiff", []int64{anyArg, anyArg},
		st("concat", nil, st("sqrcrelu", []int64{anyArg}), st("crelu.i32", []int64{anyArg})),
		st("append", nil,
			st("affine.i8", []int64{anyArg}),
			st("concat", nil, st("sqrcrelu", []int64{anyArg}), st("crelu.i32", []int64{anyArg}))),
		st("affine.i8", []int64{1})),
}

// newPairwiseDense returns the family's forward for the stages, or nil when they are not
// pairwiseDenseStages on a width m, multiple of 64, in [256, 2048], with fc_0 of 16 or 32
// outputs (fc_1 then reads 2·fc_0 bytes, a multiple of 32) and fc_1 of 1 to 64. i8 and
// i32 are the stack's parameters (stackParams): fc_0, fc_1 and fc_2's weights and
// biases; layers are the stack's layers, whose buffers the forward uses.
func newPairwiseDense(stages []Stage, layers []Layer, m int, i8 [][]int8, i32 [][]int32) *pairwiseDense {
	if !matchStages(stages, pairwiseDenseStages) || m%64 != 0 || m < 256 || m > 2048 || len(i8) != 3 || len(i32) != 3 {
		return nil
	}
	x := int(stages[2].Args[0])
	skip := stages[3]
	act0, app, fc2 := skip.Parts[0], skip.Parts[1], skip.Parts[2]
	y := int(app.Parts[0].Args[0])
	act1 := app.Parts[1]
	if (x != 16 && x != 32) || y < 1 || y > 64 || fc2.Args[0] != 1 || len(i8[0]) != x*m {
		return nil
	}
	return &pairwiseDense{
		whiteFirst: stages[0].Op == "white",
		max:        int16(stages[1].Args[0]), shift: uint8(stages[1].Args[1]),
		m: m, x: x, y: y,
		fc0: simd.NewSparseAffine(i8[0], m, x), b0: i32[0],
		sq0: uint(act0.Parts[0].Args[0]), s0: uint(act0.Parts[1].Args[0]),
		w1: i8[1], b1: i32[1],
		sq1: uint(act1.Parts[0].Args[0]), s1: uint(act1.Parts[1].Args[0]),
		w2: i8[2], b2: i32[2],
		mul: skip.Args[0], div: skip.Args[1],
		// stack: 2 fc_0, 3 skipdiff(0 concat, 1 append(0 fc_1, 1 concat), 2 fc_2)
		bufX: flatIndex(layers, 2), bufBoth: flatIndex(layers, 3, 1),
		bufY: flatIndex(layers, 3, 1, 0), bufOut: flatIndex(layers, 3, 2),
	}
}

// forward runs the stack on acc (Stockfish 19 nnue_architecture.h propagate):
//
//	stm|white          the two accumulators, ordered                        a, b (m int16 each)
//	pairwise(max,sh)   each one's halves multiplied                          bk.u8[:m]
//	fc_0               affine.i8(x) (sparse over the non-zero chunks below VNNI)   x
//	ac_sqr_0 ‖ ac_0    sqrcrelu(sq0), crelu.i32(s0) of x                     both[:2x]
//	fc_1               affine.i8(y) of both[:2x]                             y
//	ac_sqr_1 ‖ ac_1    sqrcrelu(sq1), crelu.i32(s1) of y                     both[2x:2x+2y]
//	fc_2               affine.i8(1) of both
//	skip               (fc_2 + x[x−2] − x[x−1])·mul/div
func (f *pairwiseDense) forward(bk *evalBucket, acc *Accumulator, stm int) int64 {
	a, b := ordered(acc, stm, f.whiteFirst)
	m, h, nx, ny := f.m, f.m/2, f.x, f.y
	u8 := bk.u8[:m]
	simd.PairwiseClip(u8[:h], a[:h], a[h:m], f.max, f.shift)
	simd.PairwiseClip(u8[h:], b[:h], b[h:m], f.max, f.shift)
	x := bk.bufs[f.bufX].i32[:nx]
	f.fc0.Forward(x, u8, f.b0, bk.idx)
	both := bk.bufs[f.bufBoth].u8
	simd.SqrClippedReLU32(both[:nx], x, f.sq0)
	simd.ClippedReLU32(both[nx:2*nx], x, f.s0)
	y := bk.bufs[f.bufY].i32[:ny]
	simd.Affine(y, both[:2*nx], f.w1, f.b1)
	simd.SqrClippedReLU32(both[2*nx:2*nx+ny], y, f.sq1)
	simd.ClippedReLU32(both[2*nx+ny:2*nx+2*ny], y, f.s1)
	out := bk.bufs[f.bufOut].i32[:1]
	simd.Affine(out, both, f.w2, f.b2)
	v := int64(out[0]) + int64(x[nx-2]) - int64(x[nx-1])
	return int64(int32(v * f.mul / f.div))
}
