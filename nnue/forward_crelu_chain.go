package nnue

import (
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

// newCReLUChain returns the family's forward for stages, or nil when they are not
// stm|white > crelu.i16 > affine.i8(32) > crelu.i32(s0) [> affine.i8(32) > crelu.i32(s1)]
// > affine.i8(1) on a width m, multiple of 32, in [128, 1024]. i8 and i32 are the stack's
// parameters (stackParams). With fc_1, fc_0's input is ordered by ft's biases, a larger
// bias rating a neuron as positive more often (fewer non-zero chunks for the sparse
// fc_0 at AVX2: 66.6 % instead of 70.2 % on the Stockfish 13 net and the bench
// positions, doc/benchmarks.md); results are unchanged.
func newCReLUChain(st []Stage, ft *FeatureTransformer, i8 [][]int8, i32 [][]int32) *creluChain {
	m := ft.width
	if len(st) != 5 && len(st) != 7 || m%32 != 0 || m < 128 || m > 1024 {
		return nil
	}
	ok, whiteFirst := perspectiveStage(st[0])
	if !ok || !stageIs(st[1], "crelu.i16") {
		return nil
	}
	var shifts []uint
	for i := 2; i < len(st)-1; i += 2 {
		if !stageIs(st[i], "affine.i8", 32) || !stageIs(st[i+1], "crelu.i32") {
			return nil
		}
		shifts = append(shifts, uint(st[i+1].Args[0]))
	}
	if !stageIs(st[len(st)-1], "affine.i8", 1) || len(i8) != len(shifts)+1 || len(i32) != len(i8) {
		return nil
	}
	w0, b0 := i8[0], i32[0]
	w1, b1, sh1 := []int8(nil), []int32(nil), uint(0)
	if len(shifts) == 2 {
		w1, b1, sh1 = i8[1], i32[1], shifts[1]
	}
	w2, b2 := i8[len(i8)-1], i32[len(i32)-1]
	k, err := simd.NewReLUStack(m, w0, b0, shifts[0], w1, b1, sh1, w2, b2[0])
	if err != nil {
		return nil
	}
	if k.Depth() == 2 && len(ft.bias) == m {
		score := make([]int32, 2*m)
		for j := range score {
			score[j] = int32(ft.bias[j%m])
		}
		if o, err := k.WithActivity(score); err == nil {
			k = o
		}
	}
	return &creluChain{whiteFirst: whiteFirst, k: *k}
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
