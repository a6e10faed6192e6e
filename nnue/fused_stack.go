package nnue

import (
	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// Fused forward paths. A layer stack is always described by its declared []Layer (the one
// description that is stored, printed and checked); NewNetwork recognises the known
// compositions among them and derives a fused runner that computes the same bits without
// one interface call per layer, without Concat's per-part dispatch and without the Go
// tails the SIMD wrappers run for 15-element vectors:
//
//   - SFNNv5 (Stockfish 15.1/16): Perspective → PairwiseMul → Affine(L1→k+1) →
//     Residual(Concat(SqrClippedReLU, ClippedReLU) → Affine(2k→n) → ClippedReLU → Affine(n→1));
//   - ClippedReLU chains (HalfKP/Stockfish 13, the thesis and CPW-style nets): Perspective →
//     ClippedReLU(int16) → (Affine → ClippedReLU(int32))* → Affine(→1).
//
// Below VNNI, where the first hidden layer runs the sparse-input kernel, the transform
// (PairwiseMul or ClippedReLU16 of both perspectives) and that layer are one simd call
// (PairwiseAffineSparse, ClippedReLUAffineSparse) that lists the non-zero input chunks
// while it writes them. SFNNv5's 15-element activation pair is one simd.SqrCReLUPair16
// call on fc_0's 16 outputs (fc_1 reads it through a copy of its weights with zero
// columns 15 and 31; other widths run it as scalar Go). A stack that ends
// Affine(32→32) → ClippedReLU → Affine(32→1) runs that tail as one simd call
// (AffineReLUDot32, ReLUAffineReLUDot32). The two Stockfish shapes go further: the HalfKP
// stack with 32-32-1 layers and the SFNNv5 stack with 16 fc_0 outputs are prepared once
// as a simd.ReLUStack / simd.PairwiseStack (copies of the layers' weights in the kernels'
// layouts) whose Forward calls the level's kernels directly. Everything else makes the
// same simd calls as the layers. Any other composition runs layer by layer.
// TestFusedMatchesLayers checks every fused path against the layer-by-layer one.

// fusedStack runs one recognised stack on the evaluator's buffers of its bucket (a
// Residual's body's buffers right after the Residual's own, Network.flat); it returns the
// stack's output (the int64 ForwardBucket would compute).
type fusedStack interface {
	run(bk *evalBucket, acc *Accumulator, stm int) int64
}

// fuseStack returns the fused runner for layers, or nil. ft (may be nil) is the network's
// feature transformer, whose biases order the HalfKP stack's fc_0 input (fuseReLUChain).
func fuseStack(layers []Layer, ft *FeatureTransformer) fusedStack {
	if f := fuseSFNNv5(layers); f != nil {
		return f
	}
	if f := fuseReLUChain(layers, ft); f != nil {
		return f
	}
	return nil
}

type sfnnv5Stack struct {
	whiteFirst       bool
	fc0, fc1, fc2    *Affine
	fwdMul, fwdDiv   int64
	sqrShift, shift1 uint
	shift2           uint

	// fc1w is fc_1's weights re-laid for simd.SqrCReLUPair16's 32-byte output when fc_0
	// has 16 outputs (k = 15, Stockfish 15.1 and 16): row j = W[j][0:15], 0, W[j][15:30],
	// 0, so that the pair's 16th elements (fc_0's skip output, not an input of fc_1)
	// meet zero weights; nil otherwise. A copy made when NewNetwork takes the layers in,
	// like Affine's sparse copy.
	fc1w []int8
	// tailWt is simd.SparseWeights(fc1w, 32, 32) when fc1w is set and fc_1 has 32
	// outputs (Stockfish 15.1): fc_1, its ClippedReLU and fc_2 then run as one
	// simd.AffineReLUDot32 call; nil otherwise.
	tailWt []int8

	// plan runs the whole stack (simd.PairwiseStack: direct kernel calls, one operand
	// check) when fc_0 has 16 outputs and the sparse preparation, fc_1 is 30→32, fc_2
	// 32→1 and the width is a multiple of 64 up to 2048 (Stockfish 15.1 and 16); nil
	// otherwise. It points to planV, this struct's own copy, so that the runner and the
	// prepared stack are one object (one page less per evaluation).
	plan  *simd.PairwiseStack
	planV simd.PairwiseStack
}

func fuseSFNNv5(ls []Layer) fusedStack {
	if len(ls) != 4 {
		return nil
	}
	p, ok0 := ls[0].(Perspective)
	_, ok1 := ls[1].(PairwiseMul)
	fc0, ok2 := ls[2].(*Affine)
	fw, ok3 := ls[3].(*Residual)
	if !(ok0 && ok1 && ok2 && ok3) || len(fw.Body) != 4 {
		return nil
	}
	cat, ok4 := fw.Body[0].(*Concat)
	fc1, ok5 := fw.Body[1].(*Affine)
	r2, ok6 := fw.Body[2].(ClippedReLU)
	fc2, ok7 := fw.Body[3].(*Affine)
	if !(ok4 && ok5 && ok6 && ok7) || len(cat.Parts) != 2 {
		return nil
	}
	sq, ok8 := cat.Parts[0].(SqrClippedReLU)
	r1, ok9 := cat.Parts[1].(ClippedReLU)
	k := fc0.Out - 1
	if !ok8 || !ok9 || r1.Input != KindInt32 || r2.Input != KindInt32 || fc1.In != 2*k ||
		fc2.In != fc1.Out || fc2.Out != 1 || fc2.In > 64 || len(cat.Parts) != 2 ||
		uint(sq.Shift) >= 64 || uint(r1.Shift) >= 32 { // run masks the shift counts
		return nil
	}
	f := &sfnnv5Stack{whiteFirst: p.WhiteFirst, fc0: fc0, fc1: fc1, fc2: fc2,
		fwdMul: int64(fw.Mul), fwdDiv: int64(fw.Div),
		sqrShift: uint(sq.Shift), shift1: uint(r1.Shift), shift2: uint(r2.Shift)}
	if k == 15 && len(fc1.Weights) == fc1.Out*32 {
		f.fc1w = alignedInt8(fc1.Out * 32)
		for j := 0; j < fc1.Out; j++ {
			w := fc1.Weights[32*j : 32*j+32]
			copy(f.fc1w[32*j:32*j+15], w[:15])
			copy(f.fc1w[32*j+16:32*j+31], w[15:30])
		}
		if fc1.Out == 32 {
			f.tailWt = simd.SparseWeights(f.fc1w, 32, 32)
		}
	}
	if f.tailWt != nil && fc0.sparse != nil && fc0.In%64 == 0 && fc0.In <= 2048 {
		// NewPairwiseStack checks the rest; an error leaves the layer-wise runner.
		if p, err := simd.NewPairwiseStack(fc0.In, fc0.Weights, fc0.Bias, f.sqrShift, f.shift1,
			fc1.Weights, fc1.Bias, f.shift2, fc2.Weights[:32], fc2.Bias[0]); err == nil {
			f.planV = *p
			f.plan = &f.planV
		}
	}
	return f
}

func (f *sfnnv5Stack) run(bk *evalBucket, acc *Accumulator, stm int) int64 {
	first := stm
	if f.whiteFirst {
		first = 0
	}
	a, b := acc.v[first], acc.v[first^1]
	if f.plan != nil {
		out, skip := f.plan.Forward(a, b, bk.u8, bk.idx)
		return int64(out) + int64(skip)*f.fwdMul/f.fwdDiv
	}
	bufs := bk.bufs
	m := len(a)
	h := m / 2
	x := bufs[1].u8
	o0 := bufs[2].i32[:f.fc0.Out]
	if s := f.fc0.sparse; s != nil && m == f.fc0.In && simd.Level() < simd.AVX512VNNI {
		// Below VNNI fc_0 runs the sparse kernel (Affine.propagate): the pairwise products
		// and the list of their non-zero chunks come from one pass.
		simd.PairwiseAffineSparse(o0, x[:m], a, b, s.wt, f.fc0.Bias, s.group, bufs[1].idx)
	} else {
		simd.PairwiseMul(x[:h], a[:h], a[h:m])
		simd.PairwiseMul(x[h:m], b[:h], b[h:m])
		f.fc0.propagate(&bufs[1], &bufs[2], nil)
	}
	k := len(o0) - 1
	skip := int64(o0[k]) * f.fwdMul / f.fwdDiv
	if f.tailWt != nil {
		u := bufs[4].u8[:32]
		simd.SqrCReLUPair16(u, o0, f.sqrShift, f.shift1)
		return int64(f.fc2.Bias[0]+simd.AffineReLUDot32(u, f.tailWt, f.fc1.Bias, f.shift2, f.fc2.Weights)) + skip
	}
	o1 := bufs[5].i32[:f.fc1.Out]
	if f.fc1w != nil {
		u := bufs[4].u8[:32]
		simd.SqrCReLUPair16(u, o0, f.sqrShift, f.shift1)
		simd.Affine(o1, u, f.fc1w, f.fc1.Bias)
	} else {
		c := bufs[4].u8[: 2*k : 2*k]
		// Scalar: masked shift counts and bounds-check-free halves.
		sq, r := c[:k:k], c[k:2*k:2*k]
		s0, s1 := f.sqrShift&63, f.shift1&31
		for i, v := range o0[:len(sq)] {
			sq[i] = uint8(min((int64(v)*int64(v))>>s0, 127))
			r[i] = uint8(min(max(v>>s1, 0), 127))
		}
		simd.Affine(o1, bufs[4].u8[:pad32(2*k)], f.fc1.Weights, f.fc1.Bias)
	}
	return int64(reluAffine1(o1, f.fc2, f.shift2)) + skip
}

// reluAffine1 returns the one output of fc (fc.Out = 1) on ClippedReLU(x >> shift): the
// bias plus one simd.ClippedReLUDot32 call (≈ 60 Ir at AVX2 against ≈ 230 for
// ClippedReLU32 + Affine through their wrappers, and ≈ 30 ns for the same in scalar Go,
// doc/benchmarks.md). The padding of fc's weight row meets zero inputs in Affine, so leaving it out
// changes nothing.
func reluAffine1(x []int32, fc *Affine, shift uint) int32 {
	return fc.Bias[0] + simd.ClippedReLUDot32(x, fc.Weights, shift)
}

type reluChainStack struct {
	whiteFirst bool
	hidden     []*Affine // every Affine but the last, each followed by a ClippedReLU
	shifts     []uint    // the ClippedReLU shifts after hidden[i]
	last       *Affine

	// tailWt is simd.SparseWeights of the last hidden layer's weights when the stack
	// ends … → Affine(→32) → ClippedReLU → Affine(32→32) → ClippedReLU → Affine(32→1)
	// (HalfKP, Stockfish 12/13): those five layers after the first hidden one then run
	// as one simd.ReLUAffineReLUDot32 call; nil otherwise.
	tailWt []int8

	// plan runs the whole stack when it is HalfKP's (Stockfish 12/13: ClippedReLU of two
	// m-wide accumulators → Affine(2m→32) → ClippedReLU → Affine(32→32) → ClippedReLU →
	// Affine(32→1), m a multiple of 32 up to 1024): one simd.ReLUStack.Forward call with
	// the kernels called directly; nil otherwise. It points to planV, this struct's own
	// copy, so that the runner and the prepared stack are one object (one page less per
	// evaluation); OrderInputsByActivity replaces planV.
	plan  *simd.ReLUStack
	planV simd.ReLUStack
}

func fuseReLUChain(ls []Layer, ft *FeatureTransformer) fusedStack {
	if len(ls) < 5 || len(ls)%2 == 0 {
		return nil
	}
	p, ok0 := ls[0].(Perspective)
	r0, ok1 := ls[1].(ClippedReLU)
	if !ok0 || !ok1 || r0.Input != KindInt16 {
		return nil
	}
	f := &reluChainStack{whiteFirst: p.WhiteFirst}
	for i := 2; i < len(ls)-1; i += 2 {
		a, ok := ls[i].(*Affine)
		r, ok2 := ls[i+1].(ClippedReLU)
		if !ok || !ok2 || r.Input != KindInt32 {
			return nil
		}
		f.hidden = append(f.hidden, a)
		f.shifts = append(f.shifts, uint(r.Shift))
	}
	last, ok := ls[len(ls)-1].(*Affine)
	if !ok || last.Out != 1 || last.In > 64 {
		return nil
	}
	f.last = last
	if n := len(f.hidden); n >= 2 && f.hidden[n-1].In == 32 && f.hidden[n-1].Out == 32 && last.In == 32 {
		f.tailWt = simd.SparseWeights(f.hidden[n-1].Weights, 32, 32)
	}
	if h := f.hidden; len(h) == 2 && h[0].Out == 32 && h[0].In%64 == 0 && h[0].In <= 2048 &&
		h[0].sparse != nil && f.tailWt != nil {
		// NewReLUStack checks the rest; an error leaves the chain runner.
		plan, err := simd.NewReLUStack(h[0].In/2, h[0].Weights, h[0].Bias, f.shifts[0],
			h[1].Weights, h[1].Bias, f.shifts[1], last.Weights[:32], last.Bias[0])
		// fc_0's input in an order that groups often active neurons into the same 4-byte
		// chunks (fewer non-zero chunks for the sparse fc_0 at AVX2), rated by the feature
		// transformer's biases — a neuron with a larger bias is positive more often: on the
		// Stockfish 13 net and the bench positions 66.6 % instead of 70.2 % of the chunks are
		// non-zero (doc/benchmarks.md). Results are unchanged.
		if m := h[0].In / 2; err == nil && ft != nil && len(ft.bias) == m {
			score := make([]int32, 2*m)
			for j := range score {
				score[j] = int32(ft.bias[j%m])
			}
			if p, err := plan.WithActivity(score); err == nil {
				plan = p
			}
		}
		if err == nil {
			f.planV = *plan
			f.plan = &f.planV
		}
	}
	return f
}

func (f *reluChainStack) run(bk *evalBucket, acc *Accumulator, stm int) int64 {
	first := stm
	if f.whiteFirst {
		first = 0
	}
	a, b := acc.v[first], acc.v[first^1]
	if f.plan != nil {
		return int64(f.plan.Forward(a, b, bk.u8, bk.idx))
	}
	bufs := bk.bufs
	m := len(a)
	in, out := &bufs[1], &bufs[2]
	x := in.u8
	l := f.hidden[0]
	if s := l.sparse; s != nil && 2*m == pad32(l.In) && simd.Level() < simd.AVX512VNNI {
		// Below VNNI the first layer runs the sparse kernel (Affine.propagate): the
		// ClippedReLU and the list of its non-zero chunks come from one pass.
		simd.ClippedReLUAffineSparse(out.i32[:l.Out], x[:2*m], a, b, s.wt, l.Bias, s.group, in.idx)
	} else {
		simd.ClippedReLU16(x[:m], a)
		simd.ClippedReLU16(x[m:2*m], b)
		l.propagate(in, out, nil)
	}
	n := len(f.hidden)
	if f.tailWt != nil {
		n--
	}
	for i := 1; i < n; i++ {
		prev := f.hidden[i-1]
		r := &bufs[1+2*i]
		simd.ClippedReLU32(r.u8[:prev.Out], bufs[2*i].i32[:prev.Out], f.shifts[i-1])
		f.hidden[i].propagate(r, &bufs[2+2*i], nil)
	}
	l = f.hidden[n-1]
	if f.tailWt != nil {
		t := f.hidden[n]
		return int64(f.last.Bias[0] + simd.ReLUAffineReLUDot32(bufs[2*n].i32[:l.Out], f.shifts[n-1], f.tailWt, t.Bias, f.shifts[n], f.last.Weights))
	}
	return int64(reluAffine1(bufs[2*n].i32[:l.Out], f.last, f.shifts[n-1]))
}

// OrderInputsByActivity re-orders the first layer's input of every HalfKP layer stack
// (Stockfish 12/13 shape, run as one simd.ReLUStack) by how often each ClippedReLU input
// is non-zero over the positions ps (refreshed one by one), in place of the load-time
// order rated by the feature transformer's biases: on the Stockfish 13 net, an order taken
// from half of the bench positions leaves 62.8 % of fc_0's 4-byte input chunks non-zero
// on the other half, against 66.6 % with the bias order and 70.2 % with none
// (doc/benchmarks.md). Only the speed of the sparse fc_0 (AVX2) changes; every
// output stays bit for bit the same. It returns the number of stacks re-ordered (0 for
// other architectures or an empty ps). Call it before the network is shared: it replaces
// the stacks' prepared kernels and must not run concurrently with evaluations.
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
	for _, fs := range n.fused {
		f, ok := fs.(*reluChainStack)
		if !ok || f.plan == nil || f.plan.Width() != m {
			continue
		}
		c := cnt[0]
		if f.whiteFirst {
			c = cnt[1]
		}
		if p, err := f.plan.WithActivity(c); err == nil {
			f.planV = *p
			done++
		}
	}
	return done
}
