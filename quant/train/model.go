package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nnuekit/nnuekit/quant"
	"github.com/nnuekit/nnuekit/simd"
)

// Arch selects the network shape the trainer builds.
type Arch uint8

const (
	// ArchThesis is the thesis network (F→L1)×2→L2→1 with ClippedReLU after the feature
	// transformer and after L2 (thesis §4.3; quant.FloatThesis).
	ArchThesis Arch = iota
	// ArchCPW is the Chess Programming Wiki's basic network F→N→1 per perspective with SCReLU and
	// output buckets chosen by the piece count (CPW: NNUE; quant.FloatCPW).
	ArchCPW
)

// String returns "thesis" or "cpw".
func (a Arch) String() string {
	switch a {
	case ArchThesis:
		return "thesis"
	case ArchCPW:
		return "cpw"
	}
	return fmt.Sprintf("Arch(%d)", uint8(a))
}

// ParseArch parses "thesis" or "cpw".
func ParseArch(s string) (Arch, error) {
	switch s {
	case "thesis":
		return ArchThesis, nil
	case "cpw":
		return ArchCPW, nil
	}
	return 0, fmt.Errorf("train: unknown architecture %q (want thesis or cpw)", s)
}

// tensor is one parameter tensor in the trainer's flat, gradient-friendly layout. A sparse
// tensor (the feature transformer's weights) is a [rows][cols] matrix whose rows are updated
// only when touched by a batch.
type tensor struct {
	name   string
	data   []float32
	cols   int     // row length of a sparse tensor (L1 or N); 0 for dense tensors
	clip   float32 // |value| ≤ clip after every optimizer step; 0: no clipping
	sparse bool
}

// chunk is the number of positions a worker runs through the model together: the dense
// layers of a chunk are small matrix products (simd.MulAddF32) whose weight-gradient product
// reads and writes ∂W once per chunk instead of once per position.
const chunk = 64

// posBatch is a chunk of positions: the active features of both perspectives (side to move
// first), the piece count (output bucket), the model's outputs after forward and the
// derivatives dLoss/dOutput that backward propagates (positions with g = 0 touch no
// feature-transformer row).
type posBatch struct {
	stm, nstm [][]int32
	pieces    []int
	out, g    []float64
}

func (b *posBatch) reset() {
	b.stm, b.nstm, b.pieces, b.out, b.g = b.stm[:0], b.nstm[:0], b.pieces[:0], b.out[:0], b.g[:0]
}

func (b *posBatch) add(stm, nstm []int32, pieces int) {
	b.stm, b.nstm, b.pieces = append(b.stm, stm), append(b.nstm, nstm), append(b.pieces, pieces)
}

func (b *posBatch) len() int { return len(b.stm) }

// net is the float model in the trainer's layout; the thesis and CPW models implement it.
// forward runs a batch of at most chunk positions, keeping the activations in sc and setting
// b.out; backward accumulates the gradient of the loss for the derivatives b.g into gr.
// sync must be called after the parameters change (it refreshes derived copies such as a
// transposed weight matrix); forward and backward only read the parameters.
type net interface {
	tensors() []*tensor
	newScratch() scratch
	forward(sc scratch, b *posBatch)
	backward(sc scratch, b *posBatch, gr *grads)
	sync()
}

type scratch interface{}

// grads is one worker's gradient buffer: one slice per tensor (same order as tensors()), and
// the rows of the sparse tensor touched since the last reset.
type grads struct {
	g       [][]float32
	touched []bool  // per row of the sparse tensor
	rows    []int32 // touched rows, in order of first touch
}

func newGrads(ts []*tensor) *grads {
	gr := &grads{g: make([][]float32, len(ts))}
	for i, t := range ts {
		gr.g[i] = make([]float32, len(t.data))
		if t.sparse {
			gr.touched = make([]bool, len(t.data)/t.cols)
		}
	}
	return gr
}

func (gr *grads) touch(f int32) {
	if !gr.touched[f] {
		gr.touched[f] = true
		gr.rows = append(gr.rows, f)
	}
}

func uniform(r *rand.Rand, v []float32, lim float64) {
	for i := range v {
		v[i] = float32((2*r.Float64() - 1) * lim)
	}
}

// thesisNet is the thesis model in the trainer's layout, with nb ≥ 1 layer stacks chosen by
// the piece count (output buckets, quant.OutputBucket; the thesis itself has one):
//
//	W1 [F·L1] row-major by feature, B1 [L1], per bucket k: W2 [k][L2·2L1] row-major
//	(out × in), B2 [k][L2], W3 [k][L2], B3 [k]; output = S·(B3[k] + W3[k]·h)
//
// S (OutScale) is a fixed factor that lets the optimizer work with output weights of order 1
// while the model's output is in centipawns; Export multiplies W3 and B3 by S, so the exported
// quant.FloatThesis computes exactly the same function.
type thesisNet struct {
	f, l1, l2, nb          int
	s                      float32
	w1, b1, w2, b2, w3, b3 *tensor
	w2t                    []float32 // per bucket W2ᵀ [2·L1][L2], refreshed by sync
}

type thesisScratch struct {
	a      []float32 // pre-activation accumulators, [chunk][2·L1], side to move first
	x      []float32 // ClippedReLU(a)
	z      []float32 // L2 pre-activations, [chunk][L2]
	h      []float32 // ClippedReLU(z)
	dz     []float32 // ∂loss/∂z
	dx     []float32 // ∂loss/∂a, [chunk][2·L1]
	order  []int     // row r of the matrices holds position order[r]: positions grouped by bucket
	bucket []int     // bucket of row r
	seg    []int     // rows of bucket k: seg[k] ≤ r < seg[k+1]
	next   []int
}

func newThesisNet(features, virtual, l1, l2, buckets int, outScale float64, s quant.ThesisScheme, seed uint64) *thesisNet {
	m := &thesisNet{f: features, l1: l1, l2: l2, nb: buckets, s: float32(outScale)}
	m.w1 = &tensor{name: "ft.weight", data: make([]float32, (features+virtual)*l1), cols: l1, sparse: true, clip: float32(s.FTClip())}
	m.b1 = &tensor{name: "ft.bias", data: make([]float32, l1), clip: float32(s.FTClip())}
	m.w2 = &tensor{name: "l2.weight", data: make([]float32, buckets*l2*2*l1), clip: float32(s.HiddenClip())}
	m.b2 = &tensor{name: "l2.bias", data: make([]float32, buckets*l2), clip: float32(float64(quant.MaxInt32) / s.L2BiasScale())}
	m.w3 = &tensor{name: "out.weight", data: make([]float32, buckets*l2), clip: float32(s.OutputClip() / outScale)}
	m.b3 = &tensor{name: "out.bias", data: make([]float32, buckets), clip: float32(float64(quant.MaxInt32) / s.OutBiasScale() / outScale)}
	// PyTorch's nn.Linear default initialisation: U(±1/√fan_in) for weights and biases.
	r := rand.New(rand.NewPCG(seed, 0x7472616e))
	uniform(r, m.w1.data[:features*l1], 1/math.Sqrt(float64(features))) // factoriser rows start at 0
	uniform(r, m.b1.data, 1/math.Sqrt(float64(features)))
	uniform(r, m.w2.data, 1/math.Sqrt(float64(2*l1)))
	uniform(r, m.b2.data, 1/math.Sqrt(float64(2*l1)))
	uniform(r, m.w3.data, 1/math.Sqrt(float64(l2)))
	uniform(r, m.b3.data, 1/math.Sqrt(float64(l2)))
	m.w2t = make([]float32, len(m.w2.data))
	m.sync()
	return m
}

func (m *thesisNet) tensors() []*tensor { return []*tensor{m.w1, m.b1, m.w2, m.b2, m.w3, m.b3} }

// sync refreshes W2ᵀ ([2·L1][L2] per bucket), the layout of the forward product Z = X·W2ᵀ.
func (m *thesisNet) sync() {
	in := 2 * m.l1
	for k := range m.nb {
		w, wt := m.w2.data[k*m.l2*in:(k+1)*m.l2*in], m.w2t[k*m.l2*in:(k+1)*m.l2*in]
		for j := range m.l2 {
			for i, v := range w[j*in : (j+1)*in] {
				wt[i*m.l2+j] = v
			}
		}
	}
}

func (m *thesisNet) newScratch() scratch {
	in := 2 * m.l1
	return &thesisScratch{
		a: make([]float32, chunk*in), x: make([]float32, chunk*in), dx: make([]float32, chunk*in),
		z: make([]float32, chunk*m.l2), h: make([]float32, chunk*m.l2), dz: make([]float32, chunk*m.l2),
		order: make([]int, chunk), bucket: make([]int, chunk), seg: make([]int, m.nb+1), next: make([]int, m.nb),
	}
}

// group orders the batch's positions by bucket (stable), so each bucket's rows are one
// contiguous block of the chunk's matrices.
func (m *thesisNet) group(sc *thesisScratch, b *posBatch) {
	n := b.len()
	clear(sc.seg)
	for p := range n {
		sc.seg[quant.OutputBucket(b.pieces[p], m.nb)+1]++
	}
	for k := range m.nb {
		sc.seg[k+1] += sc.seg[k]
	}
	next := append(sc.next[:0], sc.seg[:m.nb]...)
	for p := range n {
		k := quant.OutputBucket(b.pieces[p], m.nb)
		sc.order[next[k]], sc.bucket[next[k]] = p, k
		next[k]++
	}
}

// forward: A = b1 + Σ W1 rows per perspective, X = ClippedReLU(A), Z = b2 + X·W2ᵀ (the
// position's bucket), H = ClippedReLU(Z), out = S·(b3 + H·w3).
func (m *thesisNet) forward(s scratch, b *posBatch) {
	sc := s.(*thesisScratch)
	l1, l2, in, n := m.l1, m.l2, 2*m.l1, b.len()
	m.group(sc, b)
	for r := range n {
		p, k := sc.order[r], sc.bucket[r]
		a := sc.a[r*in : (r+1)*in]
		simd.AddRowsF32(a[:l1], m.b1.data, m.w1.data, b.stm[p])
		simd.AddRowsF32(a[l1:], m.b1.data, m.w1.data, b.nstm[p])
		copy(sc.z[r*l2:(r+1)*l2], m.b2.data[k*l2:(k+1)*l2])
	}
	simd.ClampF32(sc.x[:n*in], sc.a[:n*in])
	for k := range m.nb {
		lo, hi := sc.seg[k], sc.seg[k+1]
		if lo < hi {
			simd.MulAddF32(sc.z[lo*l2:], l2, sc.x[lo*in:], in, 1, m.w2t[k*in*l2:(k+1)*in*l2], l2, hi-lo, l2, in)
		}
	}
	simd.ClampF32(sc.h[:n*l2], sc.z[:n*l2])
	if cap(b.out) < n {
		b.out = make([]float64, n, chunk)
	}
	b.out = b.out[:n]
	for r := range n {
		k := sc.bucket[r]
		out := m.b3.data[k]
		w3 := m.w3.data[k*l2 : (k+1)*l2]
		for j, h := range sc.h[r*l2 : (r+1)*l2] {
			out += w3[j] * h
		}
		b.out[sc.order[r]] = float64(m.s * out)
	}
}

// backward: ∂Z = g·S·w3 masked by ClippedReLU'(Z), ∂W2 += ∂Zᵀ·X, ∂X = ∂Z·W2 (per bucket block)
// masked by ClippedReLU'(A), ∂W1 rows of the active features += ∂X's half.
func (m *thesisNet) backward(s scratch, b *posBatch, gr *grads) {
	sc := s.(*thesisScratch)
	l1, l2, in, n := m.l1, m.l2, 2*m.l1, b.len()
	gw1, gb1, gw2, gb2, gw3, gb3 := gr.g[0], gr.g[1], gr.g[2], gr.g[3], gr.g[4], gr.g[5]
	for r := range n {
		k := sc.bucket[r]
		gs := float32(b.g[sc.order[r]]) * m.s
		gb3[k] += gs
		h, dz := sc.h[r*l2:(r+1)*l2], sc.dz[r*l2:(r+1)*l2]
		g3 := gw3[k*l2 : (k+1)*l2]
		for j, w := range m.w3.data[k*l2 : (k+1)*l2] {
			g3[j] += gs * h[j]
			dz[j] = gs * w
		}
	}
	simd.CReLUMaskF32(sc.dz[:n*l2], sc.z[:n*l2])
	for r := range n {
		k := sc.bucket[r]
		simd.AddF32(gb2[k*l2:(k+1)*l2], sc.dz[r*l2:(r+1)*l2])
	}
	dx := sc.dx[:n*in]
	clear(dx)
	for k := range m.nb {
		lo, hi := sc.seg[k], sc.seg[k+1]
		if lo == hi {
			continue
		}
		w := k * l2 * in
		simd.MulAddF32(gw2[w:w+l2*in], in, sc.dz[lo*l2:], 1, l2, sc.x[lo*in:], in, l2, in, hi-lo)
		simd.MulAddF32(dx[lo*in:], in, sc.dz[lo*l2:], l2, 1, m.w2.data[w:w+l2*in], in, hi-lo, in, l2)
	}
	simd.CReLUMaskF32(dx, sc.a[:n*in])
	for r := range n {
		p := sc.order[r]
		if b.g[p] == 0 {
			continue
		}
		for half, active := range [2][]int32{b.stm[p], b.nstm[p]} {
			d := dx[r*in+half*l1 : r*in+(half+1)*l1]
			simd.AddF32(gb1, d)
			for _, f := range active {
				gr.touch(f)
			}
			simd.AddToRowsF32(gw1, active, d)
		}
	}
}

// cpwNet is the CPW basic network in the trainer's layout:
//
//	W1 [F·N], B1 [N], WOut [buckets·2N], BOut [buckets];
//	output = Scale·(BOut[b] + Σ SCReLU(acc_stm)·WOut[b][:N] + SCReLU(acc_other)·WOut[b][N:])
//
// exactly quant.FloatCPW's function.
type cpwNet struct {
	f, n, buckets int
	scale         float32
	w1, b1, w, b  *tensor
}

type cpwScratch struct {
	a  []float32 // accumulators, [chunk][2N], side to move first
	sq []float32 // SCReLU(a)
	d  []float32 // ∂loss/∂a of one position, 2N
}

func newCPWNet(features, virtual, n, buckets int, s quant.CPWScheme, seed uint64) *cpwNet {
	m := &cpwNet{f: features, n: n, buckets: buckets, scale: float32(s.Scale)}
	m.w1 = &tensor{name: "ft.weight", data: make([]float32, (features+virtual)*n), cols: n, sparse: true, clip: float32(s.FTClip())}
	m.b1 = &tensor{name: "ft.bias", data: make([]float32, n), clip: float32(s.FTClip())}
	m.w = &tensor{name: "out.weight", data: make([]float32, buckets*2*n), clip: float32(s.OutputClip())}
	m.b = &tensor{name: "out.bias", data: make([]float32, buckets), clip: float32(float64(quant.MaxInt32) / (float64(s.QA) * float64(s.QB)))}
	r := rand.New(rand.NewPCG(seed, 0x637077))
	uniform(r, m.w1.data[:features*n], 1/math.Sqrt(float64(features))) // factoriser rows start at 0
	uniform(r, m.b1.data, 1/math.Sqrt(float64(features)))
	uniform(r, m.w.data, 1/math.Sqrt(float64(2*n)))
	uniform(r, m.b.data, 1/math.Sqrt(float64(2*n)))
	return m
}

func (m *cpwNet) tensors() []*tensor { return []*tensor{m.w1, m.b1, m.w, m.b} }

func (m *cpwNet) sync() {}

func (m *cpwNet) newScratch() scratch {
	return &cpwScratch{a: make([]float32, chunk*2*m.n), sq: make([]float32, chunk*2*m.n), d: make([]float32, 2*m.n)}
}

// forward: A = b1 + Σ W1 rows per perspective, out = Scale·(BOut[b] + SCReLU(A)·WOut[b]).
func (m *cpwNet) forward(s scratch, b *posBatch) {
	sc := s.(*cpwScratch)
	n, in, np := m.n, 2*m.n, b.len()
	for p := range np {
		a := sc.a[p*in : (p+1)*in]
		simd.AddRowsF32(a[:n], m.b1.data, m.w1.data, b.stm[p])
		simd.AddRowsF32(a[n:], m.b1.data, m.w1.data, b.nstm[p])
	}
	simd.SqrClampF32(sc.sq[:np*in], sc.a[:np*in])
	b.out = b.out[:0]
	for p := range np {
		k := quant.OutputBucket(b.pieces[p], m.buckets)
		out := m.b.data[k] + simd.DotF32(m.w.data[k*in:(k+1)*in], sc.sq[p*in:(p+1)*in])
		b.out = append(b.out, float64(m.scale*out))
	}
}

// backward: ∂WOut[b] += g·Scale·SCReLU(A), ∂A = g·Scale·WOut[b]·2A on (0, 1), ∂W1 rows of the
// active features += ∂A's half.
func (m *cpwNet) backward(s scratch, b *posBatch, gr *grads) {
	sc := s.(*cpwScratch)
	n, in := m.n, 2*m.n
	gw1, gb1, gw, gb := gr.g[0], gr.g[1], gr.g[2], gr.g[3]
	for p := range b.len() {
		if b.g[p] == 0 {
			continue
		}
		k := quant.OutputBucket(b.pieces[p], m.buckets)
		gs := float32(b.g[p]) * m.scale
		gb[k] += gs
		gsv := [1]float32{gs}
		simd.MulAddF32(gw[k*in:(k+1)*in], in, gsv[:], 0, 0, sc.sq[p*in:(p+1)*in], in, 1, in, 1)
		simd.SCReLUBackF32(sc.d, sc.a[p*in:(p+1)*in], m.w.data[k*in:(k+1)*in], gs)
		for half, active := range [2][]int32{b.stm[p], b.nstm[p]} {
			d := sc.d[half*n : (half+1)*n]
			simd.AddF32(gb1, d)
			for _, f := range active {
				gr.touch(f)
			}
			simd.AddToRowsF32(gw1, active, d)
		}
	}
}
