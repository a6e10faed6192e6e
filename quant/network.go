package quant

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
)

// QuantizeThesis converts the float model m into an integer nnue.Network with scheme s: every
// value is multiplied by its scale (ThesisScheme), rounded half to even (Round) and saturated
// to its integer range (int16 for the feature transformer, int8 for hidden and output weights,
// int32 for hidden and output biases). The network has the thesis composition
// (nnue.ThesisArchitecture for the default scheme: Perspective, ClippedReLU, Affine 2·L1→L2,
// ClippedReLU >> log2(HiddenWeightScale), Affine L2→1, output >> log2(OutputScale)), so with
// s == Thesis it can be written with nnue.WriteThesis.
//
// The ClipReport lists, per tensor, the values that were saturated (a trainer that clips its
// weights with FloatThesis.Clip sees none). Errors: an invalid model (FloatThesis.Validate) or
// scheme, s.ActivationScale ≠ 127 (nnue's ClippedReLU clamps to [0, 127]), an unknown feature-set
// spec or one whose size differs from len(W1), and nnue's own shape rules (L1 a multiple of 32).
func QuantizeThesis(m *FloatThesis, s ThesisScheme) (*nnue.Network, *ClipReport, error) {
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if s.ActivationScale != 127 {
		return nil, nil, fmt.Errorf("quant: QuantizeThesis: nnue networks need activation scale 127, scheme has %d", s.ActivationScale)
	}
	set, err := parseSet(m.FeatureSet, m.Features())
	if err != nil {
		return nil, nil, err
	}
	t, rep := quantizeThesis(m, s)
	ft, err := nnue.NewFeatureTransformer(set, t.l1, t.w1, t.b1, 0, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("quant: QuantizeThesis: %w", err)
	}
	hidden := nnue.NewAffine(2*t.l1, t.l2)
	for j := 0; j < t.l2; j++ {
		copy(hidden.Row(j), t.w2[j*2*t.l1:(j+1)*2*t.l1])
	}
	copy(hidden.Bias, t.b2)
	out := nnue.NewAffine(t.l2, 1)
	copy(out.Row(0), t.w3)
	out.Bias[0] = t.b3
	arch := nnue.ThesisArchitecture(hidden, out)
	if s != Thesis {
		arch.Stacks[0][3] = nnue.ClippedReLU{Input: nnue.KindInt32, Shift: uint8(s.HiddenShift())}
		arch.Output = nnue.OutputScale{Shift: uint8(s.OutputShift())}
		arch.Quantization = fmt.Sprintf("thesis-style: FT ×%d, hidden weights ×%d, hidden bias ×%d, output weights ×%d/%d, output bias ×%d; output >>%d",
			s.ActivationScale, s.HiddenWeightScale, s.ActivationScale*s.HiddenWeightScale, s.OutputScale, s.ActivationScale, s.OutputScale, s.OutputShift())
	}
	n, err := nnue.NewNetwork(ft, arch, "quantized by nnuekit/quant")
	if err != nil {
		return nil, nil, fmt.Errorf("quant: QuantizeThesis: %w", err)
	}
	overflowWarning(rep, ft)
	return n, rep, nil
}

// DequantizeThesis returns the float model of a network with the thesis composition (as
// nnue.Load returns for a thesis .nn file, or QuantizeThesis builds) under scheme s: every
// integer divided by its scale, stored as float32. Quantizing the result with the same scheme
// gives back the same integers (for biases below 2^23 in magnitude, where float32 is exact
// enough), so Dequantize is the exact inverse of Quantize up to rounding. The network's shifts
// must match the scheme (6 and 4 for Thesis). Errors name what does not match.
func DequantizeThesis(n *nnue.Network, s ThesisScheme) (*FloatThesis, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	a := n.Architecture()
	ft := n.FeatureTransformer()
	if a.Buckets.Count() != 1 || len(a.Stacks) != 1 || len(a.Stacks[0]) != 5 || ft.PSQTBuckets() != 0 {
		return nil, fmt.Errorf("quant: DequantizeThesis: %v is not the thesis composition", n)
	}
	st := a.Stacks[0]
	p, ok0 := st[0].(nnue.Perspective)
	c1, ok1 := st[1].(nnue.ClippedReLU)
	hidden, ok2 := st[2].(*nnue.Affine)
	c2, ok3 := st[3].(nnue.ClippedReLU)
	out, ok4 := st[4].(*nnue.Affine)
	if !ok0 || !ok1 || !ok2 || !ok3 || !ok4 || p.WhiteFirst || c1.Input != nnue.KindInt16 || c2.Input != nnue.KindInt32 || out.Out != 1 {
		return nil, fmt.Errorf("quant: DequantizeThesis: %v is not the thesis composition", n)
	}
	if int(c2.Shift) != s.HiddenShift() || int(a.Output.Shift) != s.OutputShift() || a.Output.Mul > 1 || a.Output.Div > 1 {
		return nil, fmt.Errorf("quant: DequantizeThesis: network shifts >>%d, >>%d (×%d/%d) do not match the scheme's >>%d, >>%d",
			c2.Shift, a.Output.Shift, a.Output.Mul, a.Output.Div, s.HiddenShift(), s.OutputShift())
	}
	l1, l2 := ft.Width(), hidden.Out
	t := &thesisInts{set: ft.Set().String(), f: ft.Features(), l1: l1, l2: l2,
		w1: make([]int16, ft.Features()*l1), b1: append([]int16(nil), ft.Bias()...),
		w2: make([]int8, l2*2*l1), b2: append([]int32(nil), hidden.Bias...),
		w3: make([]int8, l2), b3: out.Bias[0]}
	for f := 0; f < t.f; f++ {
		copy(t.w1[f*l1:], ft.Weights(f))
	}
	for j := 0; j < l2; j++ {
		copy(t.w2[j*2*l1:(j+1)*2*l1], hidden.Row(j))
	}
	copy(t.w3, out.Row(0)[:l2])
	return dequantizeThesis(t, s), nil
}

// QuantizeCPW converts the float CPW model m into an nnue.Network: feature transformer ×QA
// (int16), output weights ×QB (int16, saturated to ±⌊32767/QA⌋ = ±128 so that nnue's Lizard
// SCReLU product v·w stays inside int16 and the evaluation is exact), output biases ×QA·QB
// (int32). The composition is nnue.CPWArchitecture: Perspective → SCReLU{QA, Div: QA} (with
// m.CReLU: nnue.BulletCReLU{QA}, bullet's CReLU single layer) with the output scaled by
// Scale/(QA·QB); with more than one bucket, one stack per bucket selected by
// m.BucketRule, or nnue.Buckets{N, Sub: 2, Div: ⌈32/N⌉} when it is zero (CPW "Output Buckets",
// OutputBucket; Buckets). m.Scale must
// equal s.Scale. Errors as for QuantizeThesis; nnue requires N to be a multiple of 32 (feature-transformer width).
func QuantizeCPW(m *FloatCPW, s CPWScheme) (*nnue.Network, *ClipReport, error) {
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if m.Scale != float32(s.Scale) {
		return nil, nil, fmt.Errorf("quant: QuantizeCPW: model Scale %v differs from the scheme's %d", m.Scale, s.Scale)
	}
	if int64(s.QA)*int64(s.QB) > MaxInt32 {
		return nil, nil, fmt.Errorf("quant: QuantizeCPW: QA·QB = %d overflows int32", int64(s.QA)*int64(s.QB))
	}
	set, err := parseSet(m.FeatureSet, m.Features())
	if err != nil {
		return nil, nil, err
	}
	t, rep := quantizeCPW(m, s)
	ft, err := nnue.NewFeatureTransformer(set, t.n, t.w1, t.b1, 0, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("quant: QuantizeCPW: %w", err)
	}
	buckets := Buckets(m.BucketRule, t.b)
	outs := make([]nnue.Layer, t.b)
	for k := range outs {
		w, b := append([]int16(nil), t.wout[k*2*t.n:(k+1)*2*t.n]...), []int32{t.bout[k]}
		if m.CReLU {
			outs[k] = &nnue.BulletCReLU{QA: int16(s.QA), Weights: w, Bias: b}
		} else {
			outs[k] = &nnue.SCReLU{QA: int16(s.QA), Div: int32(s.QA), Out: 1, Weights: w, Bias: b}
		}
	}
	arch, err := nnue.CPWArchitecture(buckets, outs, int32(s.QA), int32(s.QB), int32(s.Scale))
	if err != nil {
		return nil, nil, fmt.Errorf("quant: QuantizeCPW: %w", err)
	}
	n, err := nnue.NewNetwork(ft, arch, "quantized by nnuekit/quant")
	if err != nil {
		return nil, nil, fmt.Errorf("quant: QuantizeCPW: %w", err)
	}
	overflowWarning(rep, ft)
	for k := 0; k < t.b; k++ {
		// worst case of nnue's int32 SCReLU sum: every accumulator saturated at QA
		var worst int64
		for _, w := range t.wout[k*2*t.n : (k+1)*2*t.n] {
			worst += int64(s.QA) * int64(max(w, -w))
		}
		if !m.CReLU {
			worst *= int64(s.QA)
		}
		if worst > MaxInt32 {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(
				"bucket %d: Σ QA²·|w| = %d exceeds int32; the SCReLU sum can wrap if many accumulators saturate (CPW: \"BEWARE of integer overflows\")", k, worst))
			break
		}
	}
	return n, rep, nil
}

// DequantizeCPW returns the float model of a CPW network (Perspective → SCReLU{QA, Div: QA,
// Out: 1}, or → BulletCReLU{QA} (FloatCPW.CReLU), per bucket, output ×Scale/(QA·QB), as
// QuantizeCPW builds) under scheme s, which must match the network's QA, QB and Scale; buckets
// other than the CPW formula become FloatCPW.BucketRule.
func DequantizeCPW(n *nnue.Network, s CPWScheme) (*FloatCPW, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	a := n.Architecture()
	ft := n.FeatureTransformer()
	nb := a.Buckets.Count()
	if ft.PSQTBuckets() != 0 || len(a.Stacks) != nb {
		return nil, fmt.Errorf("quant: DequantizeCPW: %v is not a CPW network", n)
	}
	var rule nnue.BucketRule
	if cpw := Buckets(nnue.BucketRule{}, nb); nb > 1 && (a.Buckets.N != cpw.N || a.Buckets.Sub != cpw.Sub || a.Buckets.Div != cpw.Div || a.Buckets.Table != nil) {
		sp, err := n.Spec()
		if err != nil {
			return nil, fmt.Errorf("quant: DequantizeCPW: %w", err)
		}
		rule = sp.Buckets
	}
	if a.Output != (nnue.OutputScale{Mul: int32(s.Scale), Div: int32(s.QA * s.QB)}) {
		return nil, fmt.Errorf("quant: DequantizeCPW: output scale %+v does not match SCALE/(QA·QB) = %d/%d", a.Output, s.Scale, s.QA*s.QB)
	}
	w := ft.Width()
	t := &cpwInts{set: ft.Set().String(), f: ft.Features(), n: w, b: nb, s: s, rule: rule,
		w1: make([]int16, ft.Features()*w), b1: append([]int16(nil), ft.Bias()...),
		wout: make([]int16, nb*2*w), bout: make([]int32, nb)}
	for f := 0; f < t.f; f++ {
		copy(t.w1[f*w:], ft.Weights(f))
	}
	for k, st := range a.Stacks {
		var weights []int16
		var bias []int32
		if len(st) == 2 {
			p, ok := st[0].(nnue.Perspective)
			switch l := st[1].(type) {
			case *nnue.SCReLU:
				if ok && !p.WhiteFirst && l.Out == 1 && int(l.QA) == s.QA && int(l.Div) == s.QA && (k == 0 || !t.crelu) {
					weights, bias = l.Weights, l.Bias
				}
			case *nnue.BulletCReLU:
				if ok && !p.WhiteFirst && int(l.QA) == s.QA && (k == 0 || t.crelu) {
					weights, bias, t.crelu = l.Weights, l.Bias, true
				}
			}
		}
		if len(weights) != 2*w || len(bias) != 1 {
			return nil, fmt.Errorf("quant: DequantizeCPW: stack %d of %v is not Perspective → SCReLU{QA: %d, Div: %d, Out: 1} or BulletCReLU{QA: %d} (the same in every bucket)", k, n, s.QA, s.QA, s.QA)
		}
		copy(t.wout[k*2*w:], weights)
		t.bout[k] = bias[0]
	}
	return dequantizeCPW(t), nil
}

// overflowWarning adds a warning when the feature transformer's worst-case accumulator can leave
// int16 (nnue.AccumulatorBound): the accumulators then wrap, as in the reference engines.
func overflowWarning(rep *ClipReport, ft *nnue.FeatureTransformer) {
	if b := ft.Bound(); b.CanOverflow {
		rep.Warnings = append(rep.Warnings, "feature transformer: int16 accumulator overflow possible ("+b.String()+"); accumulators wrap")
	}
}

func parseSet(spec string, features int) (*featureset.Set, error) {
	set, err := featureset.Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("quant: feature set %q: %w", spec, err)
	}
	if set.Size() != features {
		return nil, fmt.Errorf("quant: feature set %q has %d features, model has %d", spec, set.Size(), features)
	}
	return set, nil
}

// EvaluatePosition runs Forward on pos's active features of set (side to move first),
// returning centipawns from the side to move. set must have Features() features; it is
// normally featureset.Parse(m.FeatureSet), parsed once by the caller.
func (m *FloatThesis) EvaluatePosition(set *featureset.Set, pos *board.Position) (float64, error) {
	if set.Size() != m.Features() {
		return 0, fmt.Errorf("quant: feature set %v has %d features, model has %d", set, set.Size(), m.Features())
	}
	stm := pos.SideToMove()
	a := set.Active(pos, stm, make([]int, 0, set.MaxActive()))
	b := set.Active(pos, stm.Other(), make([]int, 0, set.MaxActive()))
	return m.Forward(a, b)
}

// EvaluatePosition runs Forward on pos's active features of set (side to move first) with
// the output bucket of pos's piece count (Bucket), returning Scale-based centipawns from
// the side to move.
func (m *FloatCPW) EvaluatePosition(set *featureset.Set, pos *board.Position) (float64, error) {
	if set.Size() != m.Features() {
		return 0, fmt.Errorf("quant: feature set %v has %d features, model has %d", set, set.Size(), m.Features())
	}
	stm := pos.SideToMove()
	a := set.Active(pos, stm, make([]int, 0, set.MaxActive()))
	b := set.Active(pos, stm.Other(), make([]int, 0, set.MaxActive()))
	return m.Forward(a, b, m.Bucket(pos.PieceCount()))
}
