package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/simd"
)

// Pairwise is the pairwise product after the feature transformer (Stockfish 15.1 and 16
// feature_transformer.h, SFNNv5; Stockfish 19 nnue_feature_transformer.h; bullet's
// pairwise_mul): for each perspective part p of width M (side to move first),
//
//	out[p·M/2 + j] = clamp(p[j], 0, Max) · clamp(p[j + M/2], 0, Max) >> Shift   for j < M/2,
//
// the product in int32. Stockfish 15.1 and 16: Max 127, Shift 7; Stockfish 19: Max 255,
// Shift 9 (÷512), values in 0…127; Alexandria: Max 362, Shift 10. Input: KindInt16
// (after Perspective), output: KindUint8 of M values (half the input); M/2 must be a
// multiple of 32 and Max² >> Shift at most 255. Computed by simd.PairwiseClip; stage
// pairwise(Max,Shift).
type Pairwise struct {
	Max   int16
	Shift uint8
}

// InputKind reports the element type read (Layer).
func (Pairwise) InputKind() Kind { return KindInt16 }

// OutputKind reports the element type written (Layer).
func (Pairwise) OutputKind() Kind { return KindUint8 }

// String describes the layer and its parameters, e.g. "Pairwise(0..127, >>7)".
func (l Pairwise) String() string {
	return fmt.Sprintf("Pairwise(0..%d, >>%d)", l.Max, l.Shift)
}

// OutputSize returns n/2. It fails when n is not two parts of a multiple of 64, or when
// the products do not fit in uint8 (Max ≤ 0, Shift > 30 or Max² >> Shift > 255).
func (l Pairwise) OutputSize(n int) (int, error) {
	if err := checkParts(l.String(), n, 64); err != nil {
		return 0, err
	}
	if l.Max <= 0 || l.Shift > 30 || (int64(l.Max)*int64(l.Max))>>l.Shift > 255 {
		return 0, fmt.Errorf("%v: products do not fit in uint8", l)
	}
	return n / 2, nil
}

func (l Pairwise) propagate(in, out *tensor, _ *evalState) {
	m := len(in.acc[0])
	h := m / 2
	for k := 0; k < 2; k++ {
		simd.PairwiseClip(out.u8[k*h:(k+1)*h], in.acc[k][:h], in.acc[k][h:m], l.Max, l.Shift)
	}
}
