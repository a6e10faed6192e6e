package quant

import (
	"fmt"
	"math"
)

// ThesisScheme is the Stockfish-style quantization scheme of the thesis (thesis §4.4.1; Karhan
// Table 4.1; mlomb/cs-master-thesis scripts/lib/serialize.py and model.py) for the network
// (F→L1)×2→L2→1 with ClippedReLU:
//
//	layer              float range        integer type  weight scale      bias scale
//	feature transformer W1, b1  any       int16         ActivationScale   ActivationScale
//	hidden L2          |W2| ≤ 127/64      int8          HiddenWeightScale HiddenWeightScale·ActivationScale
//	output L3          |W3| ≤ 127²/16     int8          OutputScale/ActivationScale   OutputScale
//
// With the defaults (127, 64, 16) the integer evaluation is exactly the thesis engine's: the
// accumulator holds 127·(b1 + Σ W1[f]); ClippedReLU clamps it to [0, 127] (= 127·clamp(x,0,1));
// L2 computes (b2q + Σ in·W2q) >> 6 = 127·(b2 + Σ x·W2), clamped to [0, 127]; the output
// (b3q + Σ h·W3q) = 16·(b3 + Σ y·W3), and >> 4 gives the float model's output, in centipawns
// from the side to move (the thesis trainer's nnue2score is 1). The shifts are log2 of
// HiddenWeightScale and OutputScale, so both must be powers of two.
type ThesisScheme struct {
	// ActivationScale (s_a, "quantized one") is the integer value of a float activation of 1.0,
	// and the scale of the feature-transformer weights and biases. Thesis: 127.
	ActivationScale int
	// HiddenWeightScale (s_W) scales the L2 weights; the L2 biases are scaled by
	// ActivationScale·HiddenWeightScale (127·64 = 8128). Thesis: 64 (a shift by 6).
	HiddenWeightScale int
	// OutputScale scales the output bias; the output weights are scaled by
	// OutputScale/ActivationScale (16/127) because their inputs are already ×ActivationScale.
	// The final integer is shifted right by log2(OutputScale). Thesis: 16 (a shift by 4).
	OutputScale int
}

// Thesis is the scheme of every network in the thesis (thesis §4.4.1; serialize.py):
// activation scale 127, hidden weight scale 64, output scale 16.
var Thesis = ThesisScheme{ActivationScale: 127, HiddenWeightScale: 64, OutputScale: 16}

// Validate reports whether the scheme's scales are usable: all positive, HiddenWeightScale and
// OutputScale powers of two (they become arithmetic shifts), ActivationScale ≤ 127 (the
// ClippedReLU output is an int8).
func (s ThesisScheme) Validate() error {
	switch {
	case s.ActivationScale <= 0 || s.ActivationScale > 127:
		return fmt.Errorf("quant: thesis scheme: activation scale %d outside [1, 127]", s.ActivationScale)
	case s.HiddenWeightScale <= 0 || s.HiddenWeightScale&(s.HiddenWeightScale-1) != 0:
		return fmt.Errorf("quant: thesis scheme: hidden weight scale %d is not a power of two", s.HiddenWeightScale)
	case s.OutputScale <= 0 || s.OutputScale&(s.OutputScale-1) != 0:
		return fmt.Errorf("quant: thesis scheme: output scale %d is not a power of two", s.OutputScale)
	}
	return nil
}

// HiddenShift is log2(HiddenWeightScale): the arithmetic right shift after the L2 affine (6).
func (s ThesisScheme) HiddenShift() int { return log2(s.HiddenWeightScale) }

// OutputShift is log2(OutputScale): the arithmetic right shift of the final output (4).
func (s ThesisScheme) OutputShift() int { return log2(s.OutputScale) }

// FTScale is the scale of the feature-transformer weights and biases (= ActivationScale).
func (s ThesisScheme) FTScale() float64 { return float64(s.ActivationScale) }

// L2WeightScale is the scale of the L2 weights (= HiddenWeightScale, 64).
func (s ThesisScheme) L2WeightScale() float64 { return float64(s.HiddenWeightScale) }

// L2BiasScale is the scale of the L2 biases (= ActivationScale·HiddenWeightScale, 8128).
func (s ThesisScheme) L2BiasScale() float64 {
	return float64(s.ActivationScale) * float64(s.HiddenWeightScale)
}

// OutWeightScale is the scale of the output weights (= OutputScale/ActivationScale, 16/127).
func (s ThesisScheme) OutWeightScale() float64 {
	return float64(s.OutputScale) / float64(s.ActivationScale)
}

// OutBiasScale is the scale of the output bias (= OutputScale, 16).
func (s ThesisScheme) OutBiasScale() float64 { return float64(s.OutputScale) }

// HiddenClip is the float range of the L2 weights, ±127/HiddenWeightScale (±1.984375 for the
// thesis): the trainer must clip to it (thesis §4.4.1).
func (s ThesisScheme) HiddenClip() float64 { return float64(MaxInt8) / s.L2WeightScale() }

// OutputClip is the float range of the output weights, ±127/(16/127) = ±1008.0625 for the thesis.
func (s ThesisScheme) OutputClip() float64 { return float64(MaxInt8) / s.OutWeightScale() }

// FTClip is the float range of the feature-transformer weights and biases, ±32767/127 ≈ ±258.0.
func (s ThesisScheme) FTClip() float64 { return float64(MaxInt16) / s.FTScale() }

// CPWScheme is the quantization of the Chess Programming Wiki's basic network (CPW: NNUE,
// "Quantization"): feature-transformer weights and biases ×QA (int16), output weights ×QB
// (int16, at most ±OutputLimit), output bias ×QA·QB (int32 here; see doc/quant.md), and the
// integer output
//
//	eval = ((Σ SCReLU_q(acc)·w) / QA + bias) · Scale / (QA·QB)
//
// with SCReLU_q(a) = clamp(a, 0, QA)², Go's truncating division, in SCALE-based centipawns.
type CPWScheme struct {
	QA    int // activation scale of the accumulator; CPW: 255
	QB    int // output weight scale; CPW: 64
	Scale int // evaluation scale (sigmoid(eval/Scale) is the training target); CPW: 400
}

// CPW is the scheme with the CPW page's "commonly used values as of 2024": QA=255, QB=64,
// SCALE=400.
var CPW = CPWScheme{QA: 255, QB: 64, Scale: 400}

// Validate reports whether all three constants are positive and QA ≤ 32767 (the accumulator
// is int16).
func (s CPWScheme) Validate() error {
	if s.QA <= 0 || s.QA > MaxInt16 || s.QB <= 0 || s.Scale <= 0 {
		return fmt.Errorf("quant: CPW scheme: QA=%d QB=%d SCALE=%d must be positive (QA ≤ 32767)", s.QA, s.QB, s.Scale)
	}
	return nil
}

// OutputLimit is the largest integer output weight, ⌊32767/QA⌋ (128 for QA = 255): it keeps the
// Lizard SCReLU product v·w (v ≤ QA) inside int16, the condition under which nnue's SCReLU
// layer is exact (CPW: "Lizard SCReLU"; simd.SCReLUDot).
func (s CPWScheme) OutputLimit() int { return MaxInt16 / s.QA }

// OutputClip is the float range of the output weights, OutputLimit/QB (±2.0 for the defaults;
// the CPW page clips to ±1.98). Quantize saturates beyond it and reports the values clipped.
func (s CPWScheme) OutputClip() float64 { return float64(s.OutputLimit()) / float64(s.QB) }

// FTClip is the float range of the feature-transformer weights and biases, ±32767/QA.
func (s CPWScheme) FTClip() float64 { return float64(MaxInt16) / float64(s.QA) }

// Integer ranges used by the schemes. Weight ranges are symmetric (−127…127, −32767…32767), as the
// trainers clip symmetrically; a stored −128 or −32768 is still read and dequantized.
const (
	MaxInt8  = 127
	MaxInt16 = 32767
	MaxInt32 = math.MaxInt32
)

func log2(v int) int {
	n := 0
	for v > 1 {
		v >>= 1
		n++
	}
	return n
}

// Round rounds x to the nearest integer, ties to even. This is torch.round (and numpy.round),
// which the thesis trainer's serializer uses (serialize.py: weight.mul(scale).round()).
func Round(x float64) float64 { return math.RoundToEven(x) }

// quantizeValue returns Round(float32(w)·float32(scale)) saturated to [-limit, limit]; clipped
// tells whether it saturated (NaN quantizes to 0 and counts as clipped), excess is |w| − limit/scale
// then. The product is taken in float32, as torch does for a float32 tensor times a Python scalar.
func quantizeValue(w float32, scale float64, limit int64) (v int64, clipped bool, excess float64) {
	p := float64(w * float32(scale))
	if math.IsNaN(p) {
		return 0, true, math.NaN()
	}
	r := Round(p)
	switch {
	case r > float64(limit):
		return limit, true, math.Abs(float64(w)) - float64(limit)/scale
	case r < -float64(limit):
		return -limit, true, math.Abs(float64(w)) - float64(limit)/scale
	}
	return int64(r), false, 0
}

// dequantizeValue returns q/scale as float32.
func dequantizeValue(q int64, scale float64) float32 { return float32(float64(q) / scale) }

// LayerClip is the clipping record of one parameter tensor during Quantize.
type LayerClip struct {
	// Name of the tensor: "ft.weight", "ft.bias", "l2.weight", "l2.bias", "out.weight",
	// "out.bias" (CPW: "ft.*", "out.weight", "out.bias").
	Name string
	// Total is the number of values in the tensor.
	Total int
	// Clipped is how many values fell outside the integer range after scaling and rounding and were
	// saturated to ±Limit.
	Clipped int
	// MaxExcess is the largest |w| − Limit/Scale over the clipped values, in float units (0 when none).
	MaxExcess float64
	// NaN counts NaN inputs; they quantize to 0 and also count as clipped.
	NaN int
	// Scale is the factor the float values were multiplied by; Limit the saturation bound.
	Scale float64
	Limit int64
}

// ClipReport lists, per tensor, how many weights Quantize had to saturate. A trainer that clips
// to the scheme's ranges (ThesisScheme.HiddenClip, …) produces a report with Clipped = 0
// everywhere.
type ClipReport struct {
	// Layers holds one record per tensor, in file order (thesis: ft.weight, ft.bias,
	// l2.weight, l2.bias, out.weight, out.bias; CPW: ft.weight, ft.bias, out.weight, out.bias).
	Layers []LayerClip
	// Warnings are problems that are not clipping: an int16 accumulator that can overflow for
	// some legal position (nnue.AccumulatorBound.CanOverflow; it then wraps, as in the thesis
	// engine), or a CPW output layer whose int32 SCReLU sum can overflow.
	Warnings []string
}

// TotalClipped is the number of saturated values over all tensors.
func (r *ClipReport) TotalClipped() int {
	n := 0
	for _, l := range r.Layers {
		n += l.Clipped
	}
	return n
}

// String formats the report as one line per tensor.
func (r *ClipReport) String() string {
	s := ""
	for _, l := range r.Layers {
		s += fmt.Sprintf("%-10s scale %-10.6g limit ±%-10d clipped %d/%d max excess %.6g\n",
			l.Name, l.Scale, l.Limit, l.Clipped, l.Total, l.MaxExcess)
	}
	for _, w := range r.Warnings {
		s += "warning: " + w + "\n"
	}
	return s
}

// QuantizeValues quantizes a tensor the way QuantizeThesis and QuantizeCPW quantize each of
// theirs: every value times scale, rounded to even (Round) and saturated to ±limit, with the
// tensor's LayerClip record under name. A trainer that builds a network of another composition
// from a scheme's scales (quant/train's stacks with the pairwise product or two hidden layers)
// quantizes through it.
func QuantizeValues(name string, w []float32, scale float64, limit int64) ([]int64, LayerClip) {
	q := newQuantizer(name, scale, limit)
	out := make([]int64, len(w))
	for i, v := range w {
		out[i] = q.q(v)
	}
	return out, q.lc
}

// quantizer accumulates one LayerClip while quantizing a tensor.
type quantizer struct {
	lc LayerClip
}

func newQuantizer(name string, scale float64, limit int64) *quantizer {
	return &quantizer{lc: LayerClip{Name: name, Scale: scale, Limit: limit}}
}

func (q *quantizer) q(w float32) int64 {
	v, clipped, ex := quantizeValue(w, q.lc.Scale, q.lc.Limit)
	q.lc.Total++
	if clipped {
		q.lc.Clipped++
		if math.IsNaN(ex) {
			q.lc.NaN++
		} else if ex > q.lc.MaxExcess {
			q.lc.MaxExcess = ex
		}
	}
	return v
}
