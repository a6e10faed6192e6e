package nnue

import "github.com/nnuekit/nnuekit/simd"

// sfnnv5 is the forward of the SFNNv5 family (forward.go): Stockfish 15.1 and 16. Its
// weights are one simd.PairwiseStack, a copy in the kernels' layouts made when the
// network is built: fc_0 chunk-major for the sparse kernel, fc_1 re-laid for the 32-byte
// output of the activation pair (zero weights at its inputs 15 and 31) and chunk-major,
// all in one block in the order the kernels read them.
type sfnnv5 struct {
	whiteFirst bool
	mul, div   int64 // the skip connection's scale
	k          simd.PairwiseStack
}

// sfnnv5Stages is the family's declared stack; anyArg marks the arguments it leaves free.
var sfnnv5Stages = []Stage{
	st("stm|white", nil),
	st("pairwise", []int64{127, 7}),
	st("affine.i8", []int64{16}),
	st("skip", []int64{anyArg, anyArg},
		st("concat", nil, st("sqrcrelu", []int64{anyArg}), st("crelu.i32", []int64{anyArg})),
		st("affine.i8", []int64{32}),
		st("crelu.i32", []int64{anyArg}),
		st("affine.i8", []int64{1})),
}

// newSFNNv5 returns the family's forward for the stages, or nil when they are not
// sfnnv5Stages on a width m, multiple of 64, in [256, 2048]. i8 and i32 are the stack's
// parameters (stackParams): fc_0, fc_1 and fc_2's weights and biases.
func newSFNNv5(stages []Stage, m int, i8 [][]int8, i32 [][]int32) *sfnnv5 {
	if !matchStages(stages, sfnnv5Stages) || m%64 != 0 || m < 256 || m > 2048 || len(i8) != 3 || len(i32) != 3 {
		return nil
	}
	skip := stages[3]
	act, ac1 := skip.Parts[0], skip.Parts[2]
	k, err := simd.NewPairwiseStack(m, i8[0], i32[0], uint(act.Parts[0].Args[0]), uint(act.Parts[1].Args[0]),
		i8[1], i32[1], uint(ac1.Args[0]), i8[2], i32[2][0])
	if err != nil {
		return nil
	}
	return &sfnnv5{whiteFirst: stages[0].Op == "white", mul: skip.Args[0], div: skip.Args[1], k: *k}
}

// forward runs the stack on acc (Stockfish 15.1's propagate; the prepared stack runs
// each stage with the current level's kernel):
//
//	stm|white          the two accumulators, ordered           a, b (m int16 each)
//	pairwise(127,7)    each one's halves multiplied, non-zero chunks listed   bk.u8[:m], bk.idx
//	fc_0               affine.i8(16) over the listed chunks; output 15 is the skip value
//	ac_sqr_0, ac_0     sqrcrelu(s) ‖ crelu.i32(s0) of outputs 0–14
//	fc_1, ac_1, fc_2   affine.i8(32), crelu.i32(s1), affine.i8(1): out, bias included
//	skip               out + fc_0[15]·mul/div
func (f *sfnnv5) forward(bk *evalBucket, acc *Accumulator, stm int) int64 {
	a, b := ordered(acc, stm, f.whiteFirst)
	out, fwd := f.k.Forward(a, b, bk.u8, bk.idx)
	return int64(out) + int64(fwd)*f.mul/f.div
}
