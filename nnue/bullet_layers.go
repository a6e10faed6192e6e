package nnue

import (
	"fmt"
	"math"

	"github.com/nnuekit/nnuekit/simd"
)

// The float stages of bullet's multi-layer networks (pairwise → int8 L1 → float L2 → float
// L3, as Alexandria, Obsidian and others run them; doc/bullet.md): Dequantise turns the
// int32 sums of an int8 Affine into float32, FloatActivation clips them, FloatAffine is a
// float32 dense layer in a declared summation order, FloatOutput scales and truncates the
// final float to the integer the engine prints. Every operation is an IEEE float32
// operation rounded to nearest even (Go's float32 arithmetic; an explicit conversion after
// each product keeps the compiler from fusing), or simd.FMA32 where the layer declares FMA, so
// the result is the engine's bit for bit when the engine's order is declared.

// maxFloatLanes bounds FloatAffine.Lanes.
const maxFloatLanes = 64

// Dequantise rescales the int32 output of an integer layer to float32 with the float32
// multiplier mul = float32(Num)/float32(Den) (one rounded float32 division):
//
//	out[j] = fma(float32(in[j]), mul, Bias[j])   (FMA set: one rounding)
//	out[j] = float32(in[j])·mul + Bias[j]        (FMA unset: two roundings)
//
// float32(in[j]) is the round-to-nearest conversion (x86 cvtdq2ps). Alexandria's L1:
// Num 2^10, Den 362²·32, Bias the float L1 biases of the bucket; stage dequant.f32(Num,Den).
// Input KindInt32 of n values, output KindFloat32 of n values.
type Dequantise struct {
	Num, Den int32
	Bias     []float32 // n
	FMA      bool
}

// mul returns float32(Num)/float32(Den).
func (l *Dequantise) mul() float32 { return float32(l.Num) / float32(l.Den) }

// InputKind reports the element type read (Layer).
func (*Dequantise) InputKind() Kind { return KindInt32 }

// OutputKind reports the element type written (Layer).
func (*Dequantise) OutputKind() Kind { return KindFloat32 }

// String describes the layer and its parameters.
func (l *Dequantise) String() string {
	return fmt.Sprintf("Dequantise(×%d/%d+bias%s, %d)", l.Num, l.Den, fmaTag(l.FMA), len(l.Bias))
}

func fmaTag(f bool) string {
	if f {
		return ", fma"
	}
	return ""
}

// OutputSize checks that there is one bias per input and returns n.
func (l *Dequantise) OutputSize(n int) (int, error) {
	if len(l.Bias) != n || n <= 0 {
		return 0, fmt.Errorf("%v: %d biases for %d inputs", l, len(l.Bias), n)
	}
	if l.Num <= 0 || l.Den <= 0 || !allFinite32(l.Bias) {
		return 0, fmt.Errorf("%v: scale not positive or biases not finite", l)
	}
	return n, nil
}

func (l *Dequantise) propagate(in, out *tensor, _ *evalState) {
	n := len(l.Bias)
	simd.DequantiseF32(out.f32[:n], in.i32[:n], l.mul(), l.Bias, l.FMA)
}

// FloatAct names the activation of a FloatActivation.
type FloatAct uint8

const (
	// FloatReLU is max(x, 0) (x when x > 0, else +0: simd.ReLUF32).
	FloatReLU FloatAct = iota + 1
	// FloatCReLU is min(max(x, 0), 1) (simd.CReLUF32).
	FloatCReLU
	// FloatSCReLU is c·c with c = min(max(x, 0), 1) (clamp, then one rounded multiply:
	// simd.SCReLUF32).
	FloatSCReLU
)

// String returns "relu", "crelu" or "screlu".
func (a FloatAct) String() string {
	switch a {
	case FloatReLU:
		return "relu"
	case FloatCReLU:
		return "crelu"
	case FloatSCReLU:
		return "screlu"
	}
	return fmt.Sprintf("FloatAct(%d)", uint8(a))
}

// FloatActivation applies Act to each float32 value. Input and output KindFloat32 of n values.
type FloatActivation struct {
	Act FloatAct
}

// InputKind reports the element type read (Layer).
func (FloatActivation) InputKind() Kind { return KindFloat32 }

// OutputKind reports the element type written (Layer).
func (FloatActivation) OutputKind() Kind { return KindFloat32 }

// String describes the layer.
func (l FloatActivation) String() string { return "FloatActivation(" + l.Act.String() + ")" }

// OutputSize returns n for a known activation.
func (l FloatActivation) OutputSize(n int) (int, error) {
	if l.Act < FloatReLU || l.Act > FloatSCReLU {
		return 0, fmt.Errorf("nnue: unknown float activation %d", uint8(l.Act))
	}
	return n, nil
}

func (l FloatActivation) propagate(in, out *tensor, _ *evalState) {
	x := in.f32[:in.n]
	o := out.f32[:len(x)]
	switch l.Act {
	case FloatReLU:
		simd.ReLUF32(o, x)
	case FloatCReLU:
		simd.CReLUF32(o, x)
	case FloatSCReLU:
		simd.SCReLUF32(o, x)
	}
}

// FloatAffine is a float32 dense layer, out[k] = Bias[k] + Σ_i in[i]·W[i][k], summed in a
// declared order so that the result is an engine's bit for bit:
//
//   - Lanes 0 (one running sum per output, the order of a kernel vectorised over the
//     outputs): t = Bias[k], then for i = 0, 1, …: t = fma(in[i], W[i][k], t)
//     (simd.AffineF32);
//   - Lanes L, one output (a kernel vectorised over the inputs with L lanes): lane l starts
//     at +0 and takes t_l = fma(in[i], W[i], t_l) for i = l, l+L, l+2L, …; the lanes are
//     then added in halves (t_l += t_{l+L/2} for l < L/2, then L/4, … down to one value, the
//     tree of _mm512_reduce_add_ps for L = 16) and Bias is added last (simd.DotLanesF32).
//
// Without FMA every fma(a, b, t) above is float32(a·b) + t (two roundings).
// Weights are input-major [In][Out] (bullet's order within a bucket). Input KindFloat32 of In
// values, output KindFloat32 of Out.
type FloatAffine struct {
	In, Out int
	Weights []float32 // In·Out
	Bias    []float32 // Out
	Lanes   int       // 0, or (with Out 1) a power of two in [2, 64] dividing In
	FMA     bool
}

// InputKind reports the element type read (Layer).
func (*FloatAffine) InputKind() Kind { return KindFloat32 }

// OutputKind reports the element type written (Layer).
func (*FloatAffine) OutputKind() Kind { return KindFloat32 }

// String describes the layer and its parameters.
func (l *FloatAffine) String() string {
	s := fmt.Sprintf("FloatAffine(%d→%d", l.In, l.Out)
	if l.Lanes > 0 {
		s += fmt.Sprintf(", %d lanes", l.Lanes)
	}
	return s + fmaTag(l.FMA) + ")"
}

// OutputSize checks n == In, the parameter lengths and the lane count and returns Out.
func (l *FloatAffine) OutputSize(n int) (int, error) {
	if l.In <= 0 || l.Out <= 0 || l.In > maxAffineDim || l.Out > maxAffineDim || n != l.In {
		return 0, fmt.Errorf("%v: receives %d inputs", l, n)
	}
	if len(l.Weights) != l.In*l.Out || len(l.Bias) != l.Out {
		return 0, fmt.Errorf("%v: %d weights and %d biases, want %d and %d", l, len(l.Weights), len(l.Bias), l.In*l.Out, l.Out)
	}
	if l.Lanes != 0 && (l.Out != 1 || l.Lanes < 2 || l.Lanes > maxFloatLanes || l.Lanes&(l.Lanes-1) != 0 || l.In%l.Lanes != 0) {
		return 0, fmt.Errorf("%v: lanes must be 0, or with one output a power of two in [2, %d] dividing %d", l, maxFloatLanes, l.In)
	}
	if !allFinite32(l.Weights) || !allFinite32(l.Bias) {
		return 0, fmt.Errorf("%v: weights or biases not finite", l)
	}
	return l.Out, nil
}

func (l *FloatAffine) propagate(in, out *tensor, _ *evalState) {
	x := in.f32[:l.In]
	if l.Lanes == 0 {
		simd.AffineF32(out.f32[:l.Out], x, l.Weights, l.Bias, l.FMA)
		return
	}
	out.f32[0] = simd.DotLanesF32(x, l.Weights, l.Lanes, l.FMA) + l.Bias[0]
}

// FloatOutput turns the network's final float32 into its integer output: int32 of
// float32(x·Scale), truncated toward zero (C's and Go's float → int conversion, the value
// Alexandria prints as its raw eval), saturated to the int32 range, NaN giving 0.
// Input KindFloat32 of one value, output KindInt32 of one value.
type FloatOutput struct {
	Scale float32
}

// InputKind reports the element type read (Layer).
func (FloatOutput) InputKind() Kind { return KindFloat32 }

// OutputKind reports the element type written (Layer).
func (FloatOutput) OutputKind() Kind { return KindInt32 }

// String describes the layer.
func (l FloatOutput) String() string { return fmt.Sprintf("FloatOutput(×%g, truncate)", l.Scale) }

// OutputSize checks for one input and a finite scale and returns 1.
func (l FloatOutput) OutputSize(n int) (int, error) {
	if n != 1 || !finite32(l.Scale) {
		return 0, fmt.Errorf("%v: needs one input and a finite scale, has %d inputs", l, n)
	}
	return 1, nil
}

func (l FloatOutput) propagate(in, out *tensor, _ *evalState) {
	out.i32[0] = truncInt32(float32(in.f32[0] * l.Scale))
}

// truncInt32 converts v to int32 truncating toward zero, saturating out-of-range values
// and mapping NaN to 0 (Go's conversion of such values is implementation-defined).
func truncInt32(v float32) int32 {
	switch {
	case v != v:
		return 0
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}

func finite32(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func allFinite32(v []float32) bool {
	for _, x := range v {
		if !finite32(x) {
			return false
		}
	}
	return true
}
