package quant

import (
	"fmt"

	"github.com/nnuekit/nnuekit/nnue"
)

// thesisInts holds the integer parameters of a thesis network exactly as the .nn file lays them
// out (thesis-models/README.md): w1 feature-major [f][l1], w2 row-major [l2][2·l1].
type thesisInts struct {
	set        string
	f, l1, l2  int
	w1, b1     []int16
	w2         []int8
	b2         []int32
	w3         []int8
	b3         int32
	activation int // clamp bound of ClippedReLU (scheme ActivationScale)
	hShift     int
	oShift     int
}

// quantizeThesis converts m with scheme s. m must be valid.
func quantizeThesis(m *FloatThesis, s ThesisScheme) (*thesisInts, *ClipReport) {
	f, l1, l2 := m.Features(), m.L1(), m.L2()
	t := &thesisInts{
		set: m.FeatureSet, f: f, l1: l1, l2: l2,
		w1: make([]int16, f*l1), b1: make([]int16, l1),
		w2: make([]int8, l2*2*l1), b2: make([]int32, l2),
		w3:         make([]int8, l2),
		activation: s.ActivationScale, hShift: s.HiddenShift(), oShift: s.OutputShift(),
	}
	qw1 := newQuantizer("ft.weight", s.FTScale(), MaxInt16)
	for i, row := range m.W1 {
		for j, w := range row {
			t.w1[i*l1+j] = int16(qw1.q(w))
		}
	}
	qb1 := newQuantizer("ft.bias", s.FTScale(), MaxInt16)
	for j, b := range m.B1 {
		t.b1[j] = int16(qb1.q(b))
	}
	qw2 := newQuantizer("l2.weight", s.L2WeightScale(), MaxInt8)
	for j, row := range m.W2 {
		for i, w := range row {
			t.w2[j*2*l1+i] = int8(qw2.q(w))
		}
	}
	qb2 := newQuantizer("l2.bias", s.L2BiasScale(), MaxInt32)
	for j, b := range m.B2 {
		t.b2[j] = int32(qb2.q(b))
	}
	qw3 := newQuantizer("out.weight", s.OutWeightScale(), MaxInt8)
	for j, w := range m.W3 {
		t.w3[j] = int8(qw3.q(w))
	}
	qb3 := newQuantizer("out.bias", s.OutBiasScale(), MaxInt32)
	t.b3 = int32(qb3.q(m.B3))
	rep := &ClipReport{}
	for _, q := range []*quantizer{qw1, qb1, qw2, qb2, qw3, qb3} {
		rep.Layers = append(rep.Layers, q.lc)
	}
	return t, rep
}

// dequantizeThesis is the inverse of quantizeThesis: every integer divided by its scale.
func dequantizeThesis(t *thesisInts, s ThesisScheme) *FloatThesis {
	m := NewFloatThesis(t.set, t.f, t.l1, t.l2)
	for i := range m.W1 {
		for j := range m.W1[i] {
			m.W1[i][j] = dequantizeValue(int64(t.w1[i*t.l1+j]), s.FTScale())
		}
	}
	for j := range m.B1 {
		m.B1[j] = dequantizeValue(int64(t.b1[j]), s.FTScale())
	}
	for j := range m.W2 {
		for i := range m.W2[j] {
			m.W2[j][i] = dequantizeValue(int64(t.w2[j*2*t.l1+i]), s.L2WeightScale())
		}
		m.B2[j] = dequantizeValue(int64(t.b2[j]), s.L2BiasScale())
		m.W3[j] = dequantizeValue(int64(t.w3[j]), s.OutWeightScale())
	}
	m.B3 = dequantizeValue(int64(t.b3), s.OutBiasScale())
	return m
}

// eval is the integer reference of the thesis engine's arithmetic (thesis-models/README.md
// "Evaluation arithmetic"): int16 wrapping accumulators, ClippedReLU to [0, activation], L2 with
// an arithmetic shift, output with an arithmetic shift. It is used to test the schemes
// independently of package nnue.
func (t *thesisInts) eval(stm, nstm []int) (int32, error) {
	in := make([]int32, 2*t.l1)
	acc := make([]int16, t.l1)
	for half, active := range [2][]int{stm, nstm} {
		copy(acc, t.b1)
		for _, f := range active {
			if f < 0 || f >= t.f {
				return 0, fmt.Errorf("quant: feature %d outside [0, %d)", f, t.f)
			}
			row := t.w1[f*t.l1 : (f+1)*t.l1]
			for j, w := range row {
				acc[j] += w
			}
		}
		for j, a := range acc {
			in[half*t.l1+j] = min(max(int32(a), 0), int32(t.activation))
		}
	}
	out := t.b3
	for j := 0; j < t.l2; j++ {
		s := t.b2[j]
		row := t.w2[j*2*t.l1 : (j+1)*2*t.l1]
		for i, w := range row {
			s += in[i] * int32(w)
		}
		h := min(max(s>>t.hShift, 0), int32(t.activation))
		out += h * int32(t.w3[j])
	}
	return out >> t.oShift, nil
}

// cpwInts holds the integer parameters of a CPW network: w1 feature-major [f][n], wout
// [buckets][2n].
type cpwInts struct {
	set     string
	f, n, b int
	crelu   bool
	rule    nnue.BucketRule
	w1, b1  []int16
	wout    []int16
	bout    []int32
	s       CPWScheme
}

func quantizeCPW(m *FloatCPW, s CPWScheme) (*cpwInts, *ClipReport) {
	f, n, nb := m.Features(), m.Hidden(), m.Buckets()
	t := &cpwInts{set: m.FeatureSet, f: f, n: n, b: nb, s: s, crelu: m.CReLU, rule: m.BucketRule,
		w1: make([]int16, f*n), b1: make([]int16, n),
		wout: make([]int16, nb*2*n), bout: make([]int32, nb)}
	qw1 := newQuantizer("ft.weight", float64(s.QA), MaxInt16)
	for i, row := range m.W1 {
		for j, w := range row {
			t.w1[i*n+j] = int16(qw1.q(w))
		}
	}
	qb1 := newQuantizer("ft.bias", float64(s.QA), MaxInt16)
	for j, b := range m.B1 {
		t.b1[j] = int16(qb1.q(b))
	}
	qwo := newQuantizer("out.weight", float64(s.QB), int64(s.OutputLimit()))
	for k, row := range m.WOut {
		for i, w := range row {
			t.wout[k*2*n+i] = int16(qwo.q(w))
		}
	}
	qbo := newQuantizer("out.bias", float64(s.QA)*float64(s.QB), MaxInt32)
	for k, b := range m.BOut {
		t.bout[k] = int32(qbo.q(b))
	}
	rep := &ClipReport{}
	for _, q := range []*quantizer{qw1, qb1, qwo, qbo} {
		rep.Layers = append(rep.Layers, q.lc)
	}
	return t, rep
}

func dequantizeCPW(t *cpwInts) *FloatCPW {
	s := t.s
	m := NewFloatCPW(t.set, t.f, t.n, t.b)
	m.Scale = float32(s.Scale)
	m.CReLU, m.BucketRule = t.crelu, t.rule
	for i := range m.W1 {
		for j := range m.W1[i] {
			m.W1[i][j] = dequantizeValue(int64(t.w1[i*t.n+j]), float64(s.QA))
		}
	}
	for j := range m.B1 {
		m.B1[j] = dequantizeValue(int64(t.b1[j]), float64(s.QA))
	}
	for k := range m.WOut {
		for i := range m.WOut[k] {
			m.WOut[k][i] = dequantizeValue(int64(t.wout[k*2*t.n+i]), float64(s.QB))
		}
		m.BOut[k] = dequantizeValue(int64(t.bout[k]), float64(s.QA)*float64(s.QB))
	}
	return m
}

// eval is the integer reference of the CPW page's forward pass with SCReLU and the QA division
// before the bias (CPW: "SCReLU makes things messier"), or with CReLU (no division), in int64
// so it cannot overflow.
func (t *cpwInts) eval(stm, nstm []int, bucket int) (int64, error) {
	if bucket < 0 || bucket >= t.b {
		return 0, fmt.Errorf("quant: bucket %d outside [0, %d)", bucket, t.b)
	}
	qa := int64(t.s.QA)
	w := t.wout[bucket*2*t.n : (bucket+1)*2*t.n]
	acc := make([]int16, t.n)
	var sum int64
	for half, active := range [2][]int{stm, nstm} {
		copy(acc, t.b1)
		for _, f := range active {
			if f < 0 || f >= t.f {
				return 0, fmt.Errorf("quant: feature %d outside [0, %d)", f, t.f)
			}
			for j, v := range t.w1[f*t.n : (f+1)*t.n] {
				acc[j] += v
			}
		}
		for j, a := range acc {
			v := min(max(int64(a), 0), qa)
			if !t.crelu {
				v *= v
			}
			sum += v * int64(w[half*t.n+j])
		}
	}
	if !t.crelu {
		sum /= qa
	}
	e := sum + int64(t.bout[bucket])
	return e * int64(t.s.Scale) / (qa * int64(t.s.QB)), nil
}
