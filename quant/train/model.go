package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nnuekit/nnuekit/nnue"
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

// thesisNet is the thesis model and its extensions in the trainer's layout: a feature
// transformer, an activation (ClippedReLU, or the pairwise product), one or two ClippedReLU
// hidden layers and an output, with nb ≥ 1 stacks of dense layers chosen by the piece count
// (output buckets by Config.BucketRule, default quant.OutputBucket; the thesis itself has one stack and one hidden layer):
//
//	W1 [F·L1] row-major by feature, B1 [L1]; per hidden layer i and bucket k: W [k][out·in]
//	row-major (out × in), B [k][out]; W3 [k][last], B3 [k]; output = S·(B3[k] + W3[k]·h)
//
// S (OutScale) is a fixed factor that lets the optimizer work with output weights of order 1
// while the model's output is in centipawns; Export multiplies W3 and B3 by S, so the exported
// model computes exactly the same function. The pairwise product of a perspective's halves is
// y_j = (127/128)·c(a_j)·c(a_{j+L1/2}), c = clamp to [0, 1]: nnue.Pairwise{Max: 127, Shift: 7}'s (A·B) >> 7 on
// values scaled by 127, in the units (1/127) of a ClippedReLU output. With PSQT (Config.PSQT)
// P [F][k] (sparse, the rows of W1's features) adds (Σ_stm P[f][k] − Σ_other P[f][k])/2 inside
// the S factor: output = S·(B3[k] + W3[k]·h + (P_stm − P_other)/2).
type thesisNet struct {
	f, l1, nb int
	rule      nnue.Buckets // output bucket (stack) by piece count
	pairwise  bool
	s         float32
	w1, b1    *tensor
	hidden    []*dense
	w3, b3    *tensor
	psqt      *tensor // nil without PSQT
}

// dense is a hidden layer: per bucket W [out·in] (out × in), B [out], and Wᵀ [in·out] for the
// forward product (refreshed by sync).
type dense struct {
	in, out int
	w, b    *tensor
	wt      []float32
}

// pairwiseScale is (A·B) >> 7's factor 127/128 in ClippedReLU units.
const pairwiseScale = float32(127.0 / 128)

type thesisScratch struct {
	a      []float32   // pre-activation accumulators, [chunk][2·L1], side to move first
	x      [][]float32 // x[0]: the activation of a, [chunk][in of hidden 0]; x[i+1] = ClippedReLU(z[i])
	z      [][]float32 // z[i]: pre-activations of hidden layer i, [chunk][out]
	g      [][]float32 // g[i]: ∂loss/∂x[i] (masked in place into ∂loss/∂z[i−1])
	da     []float32   // ∂loss/∂a, [chunk][2·L1] (g[0] itself for ClippedReLU)
	order  []int       // row r of the matrices holds position order[r]: positions grouped by bucket
	bucket []int       // bucket of row r
	seg    []int       // rows of bucket k: seg[k] ≤ r < seg[k+1]
	next   []int
}

// newThesisNet builds the model: hidden holds the hidden layers' widths (the thesis: [L2]).
// With psqt the PSQT weights start at zero.
func newThesisNet(features, virtual, l1 int, hidden []int, pairwise, psqt bool, rule nnue.Buckets, outScale float64, s quant.ThesisScheme, seed uint64) *thesisNet {
	buckets := rule.Count()
	m := &thesisNet{f: features, l1: l1, nb: buckets, rule: rule, pairwise: pairwise, s: float32(outScale)}
	m.w1 = &tensor{name: "ft.weight", data: make([]float32, (features+virtual)*l1), cols: l1, sparse: true, clip: float32(s.FTClip())}
	m.b1 = &tensor{name: "ft.bias", data: make([]float32, l1), clip: float32(s.FTClip())}
	in := 2 * l1
	if pairwise {
		in = l1
	}
	for i, out := range hidden {
		name := fmt.Sprintf("l%d", i+2)
		m.hidden = append(m.hidden, &dense{in: in, out: out,
			w:  &tensor{name: name + ".weight", data: make([]float32, buckets*out*in), clip: float32(s.HiddenClip())},
			b:  &tensor{name: name + ".bias", data: make([]float32, buckets*out), clip: float32(float64(quant.MaxInt32) / s.L2BiasScale())},
			wt: make([]float32, buckets*out*in)})
		in = out
	}
	m.w3 = &tensor{name: "out.weight", data: make([]float32, buckets*in), clip: float32(s.OutputClip() / outScale)}
	m.b3 = &tensor{name: "out.bias", data: make([]float32, buckets), clip: float32(float64(quant.MaxInt32) / s.OutBiasScale() / outScale)}
	// PyTorch's nn.Linear default initialisation: U(±1/√fan_in) for weights and biases.
	r := rand.New(rand.NewPCG(seed, 0x7472616e))
	uniform(r, m.w1.data[:features*l1], 1/math.Sqrt(float64(features))) // factoriser rows start at 0
	uniform(r, m.b1.data, 1/math.Sqrt(float64(features)))
	for _, d := range m.hidden {
		uniform(r, d.w.data, 1/math.Sqrt(float64(d.in)))
		uniform(r, d.b.data, 1/math.Sqrt(float64(d.in)))
	}
	uniform(r, m.w3.data, 1/math.Sqrt(float64(in)))
	uniform(r, m.b3.data, 1/math.Sqrt(float64(in)))
	if psqt {
		// int32 after ×S·OutputScale (quantizeStack)
		m.psqt = &tensor{name: "psqt.weight", data: make([]float32, (features+virtual)*buckets), cols: buckets, sparse: true,
			clip: float32(float64(quant.MaxInt32) / s.OutBiasScale() / outScale)}
	}
	m.sync()
	return m
}

func (m *thesisNet) tensors() []*tensor {
	ts := []*tensor{m.w1, m.b1}
	for _, d := range m.hidden {
		ts = append(ts, d.w, d.b)
	}
	ts = append(ts, m.w3, m.b3)
	if m.psqt != nil {
		ts = append(ts, m.psqt)
	}
	return ts
}

// last is the width of the last hidden layer (the output layer's input).
func (m *thesisNet) last() int { return m.hidden[len(m.hidden)-1].out }

// sync refreshes every hidden layer's Wᵀ ([in][out] per bucket), the layout of the forward
// product Z = X·Wᵀ.
func (m *thesisNet) sync() {
	for _, d := range m.hidden {
		size := d.in * d.out
		for k := range m.nb {
			w, wt := d.w.data[k*size:(k+1)*size], d.wt[k*size:(k+1)*size]
			for j := range d.out {
				for i, v := range w[j*d.in : (j+1)*d.in] {
					wt[i*d.out+j] = v
				}
			}
		}
	}
}

func (m *thesisNet) newScratch() scratch {
	sc := &thesisScratch{
		a:     make([]float32, chunk*2*m.l1),
		order: make([]int, chunk), bucket: make([]int, chunk), seg: make([]int, m.nb+1), next: make([]int, m.nb),
	}
	sc.x = append(sc.x, make([]float32, chunk*m.hidden[0].in))
	sc.g = append(sc.g, make([]float32, chunk*m.hidden[0].in))
	for _, d := range m.hidden {
		sc.z = append(sc.z, make([]float32, chunk*d.out))
		sc.x = append(sc.x, make([]float32, chunk*d.out))
		sc.g = append(sc.g, make([]float32, chunk*d.out))
	}
	sc.da = sc.g[0]
	if m.pairwise {
		sc.da = make([]float32, chunk*2*m.l1)
	}
	return sc
}

// group orders the batch's positions by bucket (stable), so each bucket's rows are one
// contiguous block of the chunk's matrices.
func (m *thesisNet) group(sc *thesisScratch, b *posBatch) {
	n := b.len()
	clear(sc.seg)
	for p := range n {
		sc.seg[m.rule.OfPieces(b.pieces[p])+1]++
	}
	for k := range m.nb {
		sc.seg[k+1] += sc.seg[k]
	}
	next := append(sc.next[:0], sc.seg[:m.nb]...)
	for p := range n {
		k := m.rule.OfPieces(b.pieces[p])
		sc.order[next[k]], sc.bucket[next[k]] = p, k
		next[k]++
	}
}

// forward: A = b1 + Σ W1 rows per perspective, X = ClippedReLU(A) or the pairwise product,
// for each hidden layer Z = b + X·Wᵀ (the position's bucket) and X = ClippedReLU(Z), then
// out = S·(b3 + X·w3).
func (m *thesisNet) forward(s scratch, b *posBatch) {
	sc := s.(*thesisScratch)
	l1, n := m.l1, b.len()
	m.group(sc, b)
	for r := range n {
		p := sc.order[r]
		a := sc.a[r*2*l1 : (r+1)*2*l1]
		simd.AddRowsF32(a[:l1], m.b1.data, m.w1.data, b.stm[p])
		simd.AddRowsF32(a[l1:], m.b1.data, m.w1.data, b.nstm[p])
	}
	if m.pairwise {
		half := l1 / 2
		for r := range n {
			for h := range 2 {
				a := sc.a[r*2*l1+h*l1 : r*2*l1+(h+1)*l1]
				x := sc.x[0][r*l1+h*half : r*l1+(h+1)*half]
				for j := range x {
					x[j] = pairwiseScale * clamp01(a[j]) * clamp01(a[half+j])
				}
			}
		}
	} else {
		simd.ClampF32(sc.x[0][:n*2*l1], sc.a[:n*2*l1])
	}
	for i, d := range m.hidden {
		z, x := sc.z[i], sc.x[i]
		for r := range n {
			k := sc.bucket[r]
			copy(z[r*d.out:(r+1)*d.out], d.b.data[k*d.out:(k+1)*d.out])
		}
		for k := range m.nb {
			lo, hi := sc.seg[k], sc.seg[k+1]
			if lo < hi {
				simd.MulAddF32(z[lo*d.out:], d.out, x[lo*d.in:], d.in, 1, d.wt[k*d.in*d.out:(k+1)*d.in*d.out], d.out, hi-lo, d.out, d.in)
			}
		}
		simd.ClampF32(sc.x[i+1][:n*d.out], z[:n*d.out])
	}
	last, h := m.last(), sc.x[len(m.hidden)]
	if cap(b.out) < n {
		b.out = make([]float64, n, chunk)
	}
	b.out = b.out[:n]
	for r := range n {
		k := sc.bucket[r]
		out := m.b3.data[k]
		w3 := m.w3.data[k*last : (k+1)*last]
		for j, v := range h[r*last : (r+1)*last] {
			out += w3[j] * v
		}
		if m.psqt != nil {
			p, ps := sc.order[r], m.psqt.data
			var d float32
			for _, f := range b.stm[p] {
				d += ps[int(f)*m.nb+k]
			}
			for _, f := range b.nstm[p] {
				d -= ps[int(f)*m.nb+k]
			}
			out += d / 2
		}
		b.out[sc.order[r]] = float64(m.s * out)
	}
}

// backward: ∂X_last = g·S·w3; per hidden layer from the last: ∂Z = ∂X masked by
// ClippedReLU'(Z), ∂W += ∂Zᵀ·X, ∂X = ∂Z·W (per bucket block); ∂A from the activation's
// derivative; ∂W1 rows of the active features += ∂A's half.
func (m *thesisNet) backward(s scratch, b *posBatch, gr *grads) {
	sc := s.(*thesisScratch)
	l1, n, nh := m.l1, b.len(), len(m.hidden)
	gw1, gb1 := gr.g[0], gr.g[1]
	gw3, gb3 := gr.g[2+2*nh], gr.g[3+2*nh]
	last, h, gl := m.last(), sc.x[nh], sc.g[nh]
	for r := range n {
		k := sc.bucket[r]
		gs := float32(b.g[sc.order[r]]) * m.s
		gb3[k] += gs
		hr, dr := h[r*last:(r+1)*last], gl[r*last:(r+1)*last]
		g3 := gw3[k*last : (k+1)*last]
		for j, w := range m.w3.data[k*last : (k+1)*last] {
			g3[j] += gs * hr[j]
			dr[j] = gs * w
		}
	}
	for i := nh - 1; i >= 0; i-- {
		d := m.hidden[i]
		gw, gb := gr.g[2+2*i], gr.g[3+2*i]
		dz := sc.g[i+1][:n*d.out]
		simd.CReLUMaskF32(dz, sc.z[i][:n*d.out])
		for r := range n {
			k := sc.bucket[r]
			simd.AddF32(gb[k*d.out:(k+1)*d.out], dz[r*d.out:(r+1)*d.out])
		}
		dx := sc.g[i][:n*d.in]
		clear(dx)
		size := d.in * d.out
		for k := range m.nb {
			lo, hi := sc.seg[k], sc.seg[k+1]
			if lo == hi {
				continue
			}
			simd.MulAddF32(gw[k*size:(k+1)*size], d.in, dz[lo*d.out:], 1, d.out, sc.x[i][lo*d.in:], d.in, d.out, d.in, hi-lo)
			simd.MulAddF32(dx[lo*d.in:], d.in, dz[lo*d.out:], d.out, 1, d.w.data[k*size:(k+1)*size], d.in, hi-lo, d.in, d.out)
		}
	}
	da := sc.da[:n*2*l1]
	if m.pairwise {
		half := l1 / 2
		for r := range n {
			for hh := range 2 {
				a := sc.a[r*2*l1+hh*l1 : r*2*l1+(hh+1)*l1]
				d := da[r*2*l1+hh*l1 : r*2*l1+(hh+1)*l1]
				g := sc.g[0][r*l1+hh*half : r*l1+(hh+1)*half]
				for j, gj := range g {
					p, q := a[j], a[half+j]
					kg := pairwiseScale * gj
					d[j], d[half+j] = 0, 0
					if p > 0 && p < 1 {
						d[j] = kg * clamp01(q)
					}
					if q > 0 && q < 1 {
						d[half+j] = kg * clamp01(p)
					}
				}
			}
		}
	} else {
		simd.CReLUMaskF32(da, sc.a[:n*2*l1])
	}
	for r := range n {
		p := sc.order[r]
		if b.g[p] == 0 {
			continue
		}
		if m.psqt != nil {
			gp, k := gr.g[4+2*nh], sc.bucket[r]
			gs := float32(b.g[p]) * m.s / 2
			for _, f := range b.stm[p] {
				gp[int(f)*m.nb+k] += gs
			}
			for _, f := range b.nstm[p] {
				gp[int(f)*m.nb+k] -= gs
			}
		}
		for half, active := range [2][]int32{b.stm[p], b.nstm[p]} {
			d := da[r*2*l1+half*l1 : r*2*l1+(half+1)*l1]
			simd.AddF32(gb1, d)
			for _, f := range active {
				gr.touch(f)
			}
			simd.AddToRowsF32(gw1, active, d)
		}
	}
}

// clamp01 is ClippedReLU's clamp to [0, 1].
func clamp01(x float32) float32 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// cpwNet is the CPW basic network in the trainer's layout:
//
//	W1 [F·N], B1 [N], WOut [buckets·2N], BOut [buckets];
//	output = Scale·(BOut[b] + Σ SCReLU(acc_stm)·WOut[b][:N] + SCReLU(acc_other)·WOut[b][N:])
//
// exactly quant.FloatCPW's function.
type cpwNet struct {
	f, n, buckets int
	crelu         bool         // clamp(x, 0, 1) instead of SCReLU
	rule          nnue.Buckets // output bucket by piece count
	scale         float32
	w1, b1, w, b  *tensor
}

type cpwScratch struct {
	a  []float32 // accumulators, [chunk][2N], side to move first
	sq []float32 // SCReLU(a), or clamp(a, 0, 1) with CReLU
	d  []float32 // ∂loss/∂a of one position, 2N
}

func newCPWNet(features, virtual, n int, rule nnue.Buckets, crelu bool, s quant.CPWScheme, seed uint64) *cpwNet {
	buckets := rule.Count()
	m := &cpwNet{f: features, n: n, buckets: buckets, crelu: crelu, rule: rule, scale: float32(s.Scale)}
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

// forward: A = b1 + Σ W1 rows per perspective, out = Scale·(BOut[b] + SCReLU(A)·WOut[b])
// (CReLU: clamp(A, 0, 1) in place of SCReLU(A)).
func (m *cpwNet) forward(s scratch, b *posBatch) {
	sc := s.(*cpwScratch)
	n, in, np := m.n, 2*m.n, b.len()
	for p := range np {
		a := sc.a[p*in : (p+1)*in]
		simd.AddRowsF32(a[:n], m.b1.data, m.w1.data, b.stm[p])
		simd.AddRowsF32(a[n:], m.b1.data, m.w1.data, b.nstm[p])
	}
	if m.crelu {
		simd.ClampF32(sc.sq[:np*in], sc.a[:np*in])
	} else {
		simd.SqrClampF32(sc.sq[:np*in], sc.a[:np*in])
	}
	b.out = b.out[:0]
	for p := range np {
		k := m.rule.OfPieces(b.pieces[p])
		out := m.b.data[k] + simd.DotF32(m.w.data[k*in:(k+1)*in], sc.sq[p*in:(p+1)*in])
		b.out = append(b.out, float64(m.scale*out))
	}
}

// backward: ∂WOut[b] += g·Scale·SCReLU(A), ∂A = g·Scale·WOut[b]·2A on (0, 1) (CReLU:
// g·Scale·WOut[b] on (0, 1)), ∂W1 rows of the active features += ∂A's half.
func (m *cpwNet) backward(s scratch, b *posBatch, gr *grads) {
	sc := s.(*cpwScratch)
	n, in := m.n, 2*m.n
	gw1, gb1, gw, gb := gr.g[0], gr.g[1], gr.g[2], gr.g[3]
	for p := range b.len() {
		if b.g[p] == 0 {
			continue
		}
		k := m.rule.OfPieces(b.pieces[p])
		gs := float32(b.g[p]) * m.scale
		gb[k] += gs
		gsv := [1]float32{gs}
		simd.MulAddF32(gw[k*in:(k+1)*in], in, gsv[:], 0, 0, sc.sq[p*in:(p+1)*in], in, 1, in, 1)
		if m.crelu {
			// ∂A = g·Scale·WOut[b] where 0 < A < 1
			clear(sc.d)
			simd.MulAddF32(sc.d, in, gsv[:], 0, 0, m.w.data[k*in:(k+1)*in], in, 1, in, 1)
			simd.CReLUMaskF32(sc.d, sc.a[p*in:(p+1)*in])
		} else {
			simd.SCReLUBackF32(sc.d, sc.a[p*in:(p+1)*in], m.w.data[k*in:(k+1)*in], gs)
		}
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
