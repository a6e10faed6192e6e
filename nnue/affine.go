package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/simd"
)

// Affine is a dense layer out[j] = Bias[j] + Σ_i in[i]·W[j][i] with uint8 inputs (≤ 127,
// the output of an activation), int8 weights and int32 biases and outputs (thesis §4.1;
// Stockfish layers/affine_transform.h).
//
// Weights are row-major [Out][pad32(In)]: each output's row is padded with weights for the
// zero inputs up to a multiple of 32, as Stockfish stores them (its PaddedInputDimensions);
// for In a multiple of 32 there is no padding. Scales: with inputs scaled by 127 and weights by
// 64 the output is at scale 127·64 and the following ClippedReLU shifts by 6.
type Affine struct {
	In, Out int
	Weights []int8  // Out·pad32(In), row-major
	Bias    []int32 // Out

	// sparse is the prepared sparse-input form of the layer, made by prepare when
	// NewNetwork takes the layer in (nil for layers it does not pay for).
	sparse *simd.SparseAffine
}

// sparseMinIn is the smallest padded input width for which Affine uses the sparse-input
// form: the wide layers right after the feature transformer (Stockfish 15.1: 1024→16,
// 13: 512→32, 19: 1024→32, thesis nets: 2M→32), whose inputs are mostly zero.
const sparseMinIn = 256

// prepare decides, once per layer when a Network is built, whether the layer runs
// simd.SparseAffine (which picks the kernel of the current level; both give the bits of
// the dense kernel).
func (l *Affine) prepare() {
	if l.sparse != nil || (l.Out != 16 && l.Out != 32) || pad32(l.In) < sparseMinIn {
		return
	}
	l.sparse = simd.NewSparseAffine(l.Weights, pad32(l.In), l.Out)
}

// prepareAffine prepares l if it is an Affine layer, and the Affine layers of its body
// if it is nested; NewNetwork calls it on the layers of every stack that runs the
// generic path.
func prepareAffine(l Layer) {
	switch l := l.(type) {
	case *Affine:
		l.prepare()
	case nested:
		for _, b := range l.bodyLayers() {
			prepareAffine(b)
		}
	}
}

// NewAffine allocates a zero Affine layer with 64-byte-aligned weights.
func NewAffine(in, out int) *Affine {
	return &Affine{In: in, Out: out, Weights: alignedInt8(out * pad32(in)), Bias: alignedInt32(out)}
}

// InputKind reports the element type read (Layer).
func (*Affine) InputKind() Kind { return KindUint8 }

// OutputKind reports the element type written (Layer).
func (*Affine) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l *Affine) String() string { return fmt.Sprintf("Affine(%d→%d)", l.In, l.Out) }

// maxAffineDim bounds the dimensions of one affine layer.
const maxAffineDim = 1 << 16

// OutputSize checks n == In and the parameter lengths and returns Out.
func (l *Affine) OutputSize(n int) (int, error) {
	if l.In <= 0 || l.Out <= 0 || l.In > maxAffineDim || l.Out > maxAffineDim {
		return 0, fmt.Errorf("%v: dimensions out of range [1, %d]", l, maxAffineDim)
	}
	if n != l.In {
		return 0, fmt.Errorf("%v: receives %d inputs", l, n)
	}
	if len(l.Weights) != l.Out*pad32(l.In) {
		return 0, fmt.Errorf("%v: %d weights, want %d×%d", l, len(l.Weights), l.Out, pad32(l.In))
	}
	if len(l.Bias) != l.Out {
		return 0, fmt.Errorf("%v: %d biases, want %d", l, len(l.Bias), l.Out)
	}
	return l.Out, nil
}

// Row returns output j's pad32(In) weights.
func (l *Affine) Row(j int) []int8 {
	p := pad32(l.In)
	return l.Weights[j*p : (j+1)*p]
}

func (l *Affine) propagate(in, out *tensor, _ *evalState) {
	if s := l.sparse; s != nil {
		s.Forward(out.i32[:l.Out], in.u8[:pad32(l.In)], l.Bias, in.idx)
		return
	}
	simd.Affine(out.i32[:l.Out], in.u8[:pad32(l.In)], l.Weights, l.Bias)
}
