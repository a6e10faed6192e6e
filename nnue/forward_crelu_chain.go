package nnue

import (
	"slices"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// creluChain is the forward of the ClippedReLU chain family (forward.go): the thesis
// nets and the embedded default (one hidden layer, 2m→32→1) and Stockfish 12/13 HalfKP
// (2m→32→32→1). Its weights are one simd.ReLUStack, a copy in the kernels' layouts made
// when the network is built: fc_0 chunk-major for the sparse kernel and row-major for
// the dense one, fc_1 chunk-major, all in one block in the order the kernels read them.
type creluChain struct {
	whiteFirst bool
	k          simd.ReLUStack
}

// creluChainStages are the family's declared stacks, with one and with two hidden layers;
// anyArg marks the arguments they leave free (the ClippedReLU shifts).
var creluChainStages = [][]Stage{
	{
		st("stm|white", nil), st("crelu.i16", nil),
		st("affine.i8", []int64{32}), st("crelu.i32", []int64{anyArg}),
		st("affine.i8", []int64{1}),
	},
	{
		st("stm|white", nil), st("crelu.i16", nil),
		st("affine.i8", []int64{32}), st("crelu.i32", []int64{anyArg}),
		st("affine.i8", []int64{32}), st("crelu.i32", []int64{anyArg}),
		st("affine.i8", []int64{1}),
	},
}

// newCReLUChain returns the family's forward for the stages, or nil when they are not
// one of creluChainStages on a width m, multiple of 32, in [128, 1024]. i8 and i32 are
// the stack's parameters (stackParams): each affine layer's weights and biases. With
// fc_1, fc_0's input is ordered by ft's biases, a larger bias rating a neuron as
// positive more often (fewer non-zero chunks for the sparse fc_0 at AVX2: 66.6 %
// instead of 70.2 % on the Stockfish 13 net and the bench positions,
// doc/benchmarks.md); results are unchanged.
func newCReLUChain(stages []Stage, ft *FeatureTransformer, i8 [][]int8, i32 [][]int32) *creluChain {
	m := ft.width
	depth := slices.IndexFunc(creluChainStages, func(t []Stage) bool { return matchStages(stages, t) }) + 1
	if depth == 0 || m%32 != 0 || m < 128 || m > 1024 || len(i8) != depth+1 || len(i32) != depth+1 {
		return nil
	}
	var w1 []int8
	var b1 []int32
	var sh1 uint
	if depth == 2 {
		w1, b1, sh1 = i8[1], i32[1], uint(stages[5].Args[0])
	}
	k, err := simd.NewReLUStack(m, i8[0], i32[0], uint(stages[3].Args[0]), w1, b1, sh1, i8[depth], i32[depth][0])
	if err != nil {
		return nil
	}
	if depth == 2 && len(ft.bias) == m {
		score := make([]int32, 2*m)
		for j := range score {
			score[j] = int32(ft.bias[j%m])
		}
		if o, err := k.WithActivity(score); err == nil {
			k = o
		}
	}
	return &creluChain{whiteFirst: stages[0].Op == "white", k: *k}
}

// forward runs the stack on acc (Stockfish's propagate, one call of the prepared stack,
// which runs each stage with the current level's kernel):
//
//	stm|white   the two accumulators, ordered          a, b (m int16 each)
//	crelu.i16   clamp(a ‖ b, 0, 127), non-zero chunks listed    bk.u8[:2m], bk.idx
//	fc_0        affine.i8(32) over the listed chunks (dense at VNNI)
//	ac_0        crelu.i32(s0)
//	fc_1, ac_1  affine.i8(32), crelu.i32(s1)            (Stockfish 13; not in the thesis nets)
//	fc_2        affine.i8(1): the output, bias included
func (f *creluChain) forward(bk *evalBucket, acc *Accumulator, stm int) int64 {
	a, b := ordered(acc, stm, f.whiteFirst)
	return int64(f.k.Forward(a, b, bk.u8, bk.idx))
}

// OrderInputsByActivity re-orders fc_0's input of every ClippedReLU chain stack with two
// hidden layers (Stockfish 12/13 HalfKP) by how often each ClippedReLU input is non-zero
// over the positions ps (refreshed one by one), in place of the build-time order rated by
// the feature transformer's biases: on the Stockfish 13 net, an order taken from half of
// the bench positions leaves 62.8 % of fc_0's 4-byte input chunks non-zero on the other
// half, against 66.6 % with the bias order and 70.2 % with none (doc/benchmarks.md). Only
// the speed of the sparse fc_0 (AVX2) changes; every output stays bit for bit the same.
// It returns the number of stacks re-ordered (0 for other architectures or an empty ps).
// Call it before the network is shared: it replaces the stacks' prepared kernels and must
// not run concurrently with evaluations.
func (n *Network) OrderInputsByActivity(ps []board.Position) int {
	if len(ps) == 0 {
		return 0
	}
	ev := n.NewEvaluator()
	m := n.ft.width
	cnt := [2][]int32{make([]int32, 2*m), make([]int32, 2*m)} // stm first; white first
	for i := range ps {
		ev.Refresh(&ps[i])
		acc := ev.Accumulator()
		stm := int(ps[i].SideToMove() & 1)
		for k, first := range [2]int{stm, 0} {
			a, b := acc.v[first], acc.v[first^1]
			c := cnt[k]
			for j := 0; j < m; j++ {
				if a[j] > 0 {
					c[j]++
				}
				if b[j] > 0 {
					c[m+j]++
				}
			}
		}
	}
	done := 0
	for _, fs := range n.forwards {
		f, ok := fs.(*creluChain)
		if !ok || f.k.Depth() != 2 {
			continue
		}
		c := cnt[0]
		if f.whiteFirst {
			c = cnt[1]
		}
		if p, err := f.k.WithActivity(c); err == nil {
			f.k = *p
			done++
		}
	}
	return done
}
