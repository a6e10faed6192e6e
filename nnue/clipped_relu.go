package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/simd"
)

// ClippedReLU is the activation y = clamp(x >> Shift, 0, 127) into uint8 (thesis §4.1 and
// §4.4.1; Stockfish layers/clipped_relu.h). The shift is arithmetic (floor) and removes the
// weight scale of the previous Affine layer: 6 for weights scaled by 64.
//
// With Input == KindInt16 it activates the perspective-ordered accumulators (the thesis and
// Stockfish 12/13 feature transformer output: clamp(acc, 0, 127), side to move first);
// Shift must then be 0 and each part a multiple of 32. With Input == KindInt32 (the default
// zero value is KindAccumulator, so set it) it follows an Affine layer.
type ClippedReLU struct {
	Input Kind  // KindInt16 or KindInt32
	Shift uint8 // arithmetic right shift before clamping (0–31)
}

// InputKind reports the element type read (Layer).
func (l ClippedReLU) InputKind() Kind { return l.Input }

// OutputKind reports the element type written (Layer).
func (ClippedReLU) OutputKind() Kind { return KindUint8 }

// String describes the layer and its parameters.
func (l ClippedReLU) String() string { return fmt.Sprintf("ClippedReLU(%v, >>%d)", l.Input, l.Shift) }

// OutputSize returns n; it checks the input kind and shift.
func (l ClippedReLU) OutputSize(n int) (int, error) {
	switch l.Input {
	case KindInt16:
		if l.Shift != 0 {
			return 0, fmt.Errorf("%v: a shift is not supported on int16 input", l)
		}
		return n, checkParts(l.String(), n, 32)
	case KindInt32:
		if l.Shift > 31 {
			return 0, fmt.Errorf("%v: shift > 31", l)
		}
		return n, nil
	}
	return 0, fmt.Errorf("%v: input kind must be int16 or int32", l)
}

func (l ClippedReLU) propagate(in, out *tensor, _ *evalState) {
	if l.Input == KindInt16 {
		m := len(in.acc[0])
		simd.ClippedReLU16(out.u8[:m], in.acc[0])
		simd.ClippedReLU16(out.u8[m:2*m], in.acc[1])
		return
	}
	simd.ClippedReLU32(out.u8[:out.n], in.i32[:out.n], uint(l.Shift))
}
