package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nnuekit/nnuekit/quant"
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

// net is the float model in the trainer's layout; the thesis and CPW models implement it.
// forward runs one position, keeping the activations in sc; backward accumulates the
// gradient of the loss for a derivative g = dLoss/dOutput into gr.
type net interface {
	tensors() []*tensor
	newScratch() scratch
	forward(sc scratch, stm, nstm []int32, pieces int) float64
	backward(sc scratch, stm, nstm []int32, pieces int, g float64, gr *grads)
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

func clamp01f(x float32) float32 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// axpy computes y += a·x.
func axpy(a float32, x, y []float32) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += a * x[i]
	}
}

// addTo computes y += x.
func addTo(x, y []float32) {
	y = y[:len(x)]
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y[i] += x[i]
		y[i+1] += x[i+1]
		y[i+2] += x[i+2]
		y[i+3] += x[i+3]
	}
	for ; i < len(x); i++ {
		y[i] += x[i]
	}
}

func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// accumulate sets acc = bias + Σ_{f ∈ active} w[f·n : (f+1)·n].
func accumulate(acc, bias, w []float32, active []int32) {
	n := len(acc)
	copy(acc, bias)
	for _, f := range active {
		addTo(w[int(f)*n:int(f)*n+n], acc)
	}
}

// thesisNet is the thesis model in the trainer's layout:
//
//	W1 [F·L1] row-major by feature, B1 [L1], W2 [L2·2L1] row-major (out × in), B2 [L2],
//	W3 [L2], B3 [1]; output = S·(B3 + W3·h)
//
// S (OutScale) is a fixed factor that lets the optimizer work with output weights of order 1
// while the model's output is in centipawns; Export multiplies W3 and B3 by S, so the exported
// quant.FloatThesis computes exactly the same function.
type thesisNet struct {
	f, l1, l2              int
	s                      float32
	w1, b1, w2, b2, w3, b3 *tensor
}

type thesisScratch struct {
	acc [2][]float32 // pre-activation accumulators, side to move first
	x   []float32    // ClippedReLU outputs, 2·L1
	z   []float32    // L2 pre-activations
	h   []float32    // L2 ClippedReLU outputs
	dx  []float32
}

func newThesisNet(features, l1, l2 int, outScale float64, s quant.ThesisScheme, seed uint64) *thesisNet {
	m := &thesisNet{f: features, l1: l1, l2: l2, s: float32(outScale)}
	m.w1 = &tensor{name: "ft.weight", data: make([]float32, features*l1), cols: l1, sparse: true, clip: float32(s.FTClip())}
	m.b1 = &tensor{name: "ft.bias", data: make([]float32, l1), clip: float32(s.FTClip())}
	m.w2 = &tensor{name: "l2.weight", data: make([]float32, l2*2*l1), clip: float32(s.HiddenClip())}
	m.b2 = &tensor{name: "l2.bias", data: make([]float32, l2), clip: float32(float64(quant.MaxInt32) / s.L2BiasScale())}
	m.w3 = &tensor{name: "out.weight", data: make([]float32, l2), clip: float32(s.OutputClip() / outScale)}
	m.b3 = &tensor{name: "out.bias", data: make([]float32, 1), clip: float32(float64(quant.MaxInt32) / s.OutBiasScale() / outScale)}
	// PyTorch's nn.Linear default initialisation: U(±1/√fan_in) for weights and biases.
	r := rand.New(rand.NewPCG(seed, 0x7472616e))
	uniform(r, m.w1.data, 1/math.Sqrt(float64(features)))
	uniform(r, m.b1.data, 1/math.Sqrt(float64(features)))
	uniform(r, m.w2.data, 1/math.Sqrt(float64(2*l1)))
	uniform(r, m.b2.data, 1/math.Sqrt(float64(2*l1)))
	uniform(r, m.w3.data, 1/math.Sqrt(float64(l2)))
	uniform(r, m.b3.data, 1/math.Sqrt(float64(l2)))
	return m
}

func (m *thesisNet) tensors() []*tensor { return []*tensor{m.w1, m.b1, m.w2, m.b2, m.w3, m.b3} }

func (m *thesisNet) newScratch() scratch {
	return &thesisScratch{
		acc: [2][]float32{make([]float32, m.l1), make([]float32, m.l1)},
		x:   make([]float32, 2*m.l1), z: make([]float32, m.l2), h: make([]float32, m.l2),
		dx: make([]float32, 2*m.l1),
	}
}

func (m *thesisNet) forward(s scratch, stm, nstm []int32, _ int) float64 {
	sc := s.(*thesisScratch)
	l1 := m.l1
	for half, active := range [2][]int32{stm, nstm} {
		acc := sc.acc[half]
		accumulate(acc, m.b1.data, m.w1.data, active)
		x := sc.x[half*l1 : (half+1)*l1]
		for j, a := range acc {
			x[j] = clamp01f(a)
		}
	}
	w2 := m.w2.data
	out := m.b3.data[0]
	for k := range m.l2 {
		z := m.b2.data[k] + dot(w2[k*2*l1:(k+1)*2*l1], sc.x)
		sc.z[k] = z
		h := clamp01f(z)
		sc.h[k] = h
		out += m.w3.data[k] * h
	}
	return float64(m.s * out)
}

func (m *thesisNet) backward(s scratch, stm, nstm []int32, _ int, g float64, gr *grads) {
	sc := s.(*thesisScratch)
	l1 := m.l1
	gs := float32(g) * m.s
	gw1, gb1, gw2, gb2, gw3, gb3 := gr.g[0], gr.g[1], gr.g[2], gr.g[3], gr.g[4], gr.g[5]
	gb3[0] += gs
	clear(sc.dx)
	w2 := m.w2.data
	for k := range m.l2 {
		gw3[k] += gs * sc.h[k]
		if z := sc.z[k]; z <= 0 || z >= 1 {
			continue
		}
		dz := gs * m.w3.data[k]
		gb2[k] += dz
		axpy(dz, sc.x, gw2[k*2*l1:(k+1)*2*l1])
		axpy(dz, w2[k*2*l1:(k+1)*2*l1], sc.dx)
	}
	for half, active := range [2][]int32{stm, nstm} {
		acc := sc.acc[half]
		d := sc.dx[half*l1 : (half+1)*l1]
		for j, a := range acc {
			if a <= 0 || a >= 1 {
				d[j] = 0
			}
		}
		addTo(d, gb1)
		for _, f := range active {
			gr.touch(f)
			addTo(d, gw1[int(f)*l1:int(f)*l1+l1])
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
	acc [2][]float32
	sq  []float32 // SCReLU outputs, 2N
}

func newCPWNet(features, n, buckets int, s quant.CPWScheme, seed uint64) *cpwNet {
	m := &cpwNet{f: features, n: n, buckets: buckets, scale: float32(s.Scale)}
	m.w1 = &tensor{name: "ft.weight", data: make([]float32, features*n), cols: n, sparse: true, clip: float32(s.FTClip())}
	m.b1 = &tensor{name: "ft.bias", data: make([]float32, n), clip: float32(s.FTClip())}
	m.w = &tensor{name: "out.weight", data: make([]float32, buckets*2*n), clip: float32(s.OutputClip())}
	m.b = &tensor{name: "out.bias", data: make([]float32, buckets), clip: float32(float64(quant.MaxInt32) / (float64(s.QA) * float64(s.QB)))}
	r := rand.New(rand.NewPCG(seed, 0x637077))
	uniform(r, m.w1.data, 1/math.Sqrt(float64(features)))
	uniform(r, m.b1.data, 1/math.Sqrt(float64(features)))
	uniform(r, m.w.data, 1/math.Sqrt(float64(2*n)))
	uniform(r, m.b.data, 1/math.Sqrt(float64(2*n)))
	return m
}

func (m *cpwNet) tensors() []*tensor { return []*tensor{m.w1, m.b1, m.w, m.b} }

func (m *cpwNet) newScratch() scratch {
	return &cpwScratch{acc: [2][]float32{make([]float32, m.n), make([]float32, m.n)}, sq: make([]float32, 2*m.n)}
}

func (m *cpwNet) forward(s scratch, stm, nstm []int32, pieces int) float64 {
	sc := s.(*cpwScratch)
	b := quant.OutputBucket(pieces, m.buckets)
	for half, active := range [2][]int32{stm, nstm} {
		acc := sc.acc[half]
		accumulate(acc, m.b1.data, m.w1.data, active)
		sq := sc.sq[half*m.n : (half+1)*m.n]
		for j, a := range acc {
			c := clamp01f(a)
			sq[j] = c * c
		}
	}
	out := m.b.data[b] + dot(m.w.data[b*2*m.n:(b+1)*2*m.n], sc.sq)
	return float64(m.scale * out)
}

func (m *cpwNet) backward(s scratch, stm, nstm []int32, pieces int, g float64, gr *grads) {
	sc := s.(*cpwScratch)
	b := quant.OutputBucket(pieces, m.buckets)
	n := m.n
	gs := float32(g) * m.scale
	gw1, gb1, gw, gb := gr.g[0], gr.g[1], gr.g[2], gr.g[3]
	gb[b] += gs
	axpy(gs, sc.sq, gw[b*2*n:(b+1)*2*n])
	wo := m.w.data[b*2*n : (b+1)*2*n]
	for half, active := range [2][]int32{stm, nstm} {
		acc := sc.acc[half]
		// reuse sq as the accumulator gradient: d SCReLU/d a = 2a on (0, 1)
		d := sc.sq[half*n : (half+1)*n]
		w := wo[half*n : (half+1)*n]
		for j, a := range acc {
			if a <= 0 || a >= 1 {
				d[j] = 0
			} else {
				d[j] = gs * w[j] * 2 * a
			}
		}
		addTo(d, gb1)
		for _, f := range active {
			gr.touch(f)
			addTo(d, gw1[int(f)*n:int(f)*n+n])
		}
	}
}
