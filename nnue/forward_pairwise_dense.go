package nnue

import "github.com/nnuekit/nnuekit/simd"

// pairwiseDense is the forward of the pairwise-dense family (forward.go): Stockfish 19.
// Its weights are one simd.PairwiseDenseStack, a copy in the kernels' layouts made when
// the network is built: fc_0 chunk-major for the sparse kernel, fc_1 and fc_2 re-laid for
// the byte order of the kernel that runs both activation pairs, fc_1 and fc_2 at once.
type pairwiseDense struct {
	whiteFirst bool
	mul, div   int64 // the skip connection's scale
	k          simd.PairwiseDenseStack
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
// outputs, fc_1 of 1 to 64 and a pairwise clip whose products stay ≤ 127 after the shift
// (simd.NewPairwiseDenseStack's limits). i8 and i32 are the stack's parameters
// (stackParams): fc_0, fc_1 and fc_2's weights and biases.
func newPairwiseDense(stages []Stage, m int, i8 [][]int8, i32 [][]int32) *pairwiseDense {
	if !matchStages(stages, pairwiseDenseStages) || m%64 != 0 || m < 256 || m > 2048 || len(i8) != 3 || len(i32) != 3 {
		return nil
	}
	pw, skip := stages[1], stages[3]
	act0, app, fc2 := skip.Parts[0], skip.Parts[1], skip.Parts[2]
	act1 := app.Parts[1]
	// fc_2's weights cover its input padded to 32 bytes; the padding reads zeros.
	n2 := 2*len(i32[0]) + 2*len(i32[1])
	if fc2.Args[0] != 1 || len(i32[2]) != 1 || len(i8[2]) < n2 || pw.Args[0] < 1 || pw.Args[0] > 1<<15-1 || pw.Args[1] < 0 || pw.Args[1] > 255 {
		return nil
	}
	k, err := simd.NewPairwiseDenseStack(m, int16(pw.Args[0]), uint8(pw.Args[1]),
		i8[0], i32[0], uint(act0.Parts[0].Args[0]), uint(act0.Parts[1].Args[0]),
		i8[1], i32[1], uint(act1.Parts[0].Args[0]), uint(act1.Parts[1].Args[0]),
		i8[2][:n2], i32[2][0])
	if err != nil {
		return nil
	}
	return &pairwiseDense{whiteFirst: stages[0].Op == "white", mul: skip.Args[0], div: skip.Args[1], k: *k}
}

// forward runs the stack on acc (Stockfish 19 nnue_architecture.h propagate; the prepared
// stack runs each stage with the current level's kernel):
//
//	stm|white          the two accumulators, ordered                        a, b (m int16 each)
//	pairwise(max,sh)   each one's halves multiplied, non-zero chunks listed  bk.u8[:m], bk.idx
//	fc_0               affine.i8(x) over the listed chunks                   x
//	ac_sqr_0 ‖ ac_0    sqrcrelu(sq0), crelu.i32(s0) of x                     2x bytes
//	fc_1               affine.i8(y)                                          y
//	ac_sqr_1 ‖ ac_1    sqrcrelu(sq1), crelu.i32(s1) of y                     2y bytes
//	fc_2               affine.i8(1) of both pairs: out, bias included
//	skip               (out + x[x−2] − x[x−1])·mul/div
func (f *pairwiseDense) forward(bk *evalBucket, acc *Accumulator, stm int) int64 {
	a, b := ordered(acc, stm, f.whiteFirst)
	out, s0, s1 := f.k.Forward(a, b, bk.u8, bk.idx)
	v := int64(out) + int64(s0) - int64(s1)
	return int64(int32(v * f.mul / f.div))
}
