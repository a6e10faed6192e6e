package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/simd"
)

// SqrClippedReLU is the activation y = min(127, (x·x) >> Shift) from int32 into uint8,
// computed in int64 (Stockfish 15.1 layers/sqr_clipped_relu.h, Shift 19 = 2·6 + 7: the square
// of the weight scale 64 and a division by 128).
type SqrClippedReLU struct {
	Shift uint8 // 0–63
}

// InputKind reports the element type read (Layer).
func (SqrClippedReLU) InputKind() Kind { return KindInt32 }

// OutputKind reports the element type written (Layer).
func (SqrClippedReLU) OutputKind() Kind { return KindUint8 }

// String describes the layer and its parameters.
func (l SqrClippedReLU) String() string { return fmt.Sprintf("SqrClippedReLU(>>%d)", l.Shift) }

// OutputSize returns n.
func (l SqrClippedReLU) OutputSize(n int) (int, error) {
	if l.Shift > 63 {
		return 0, fmt.Errorf("%v: shift > 63", l)
	}
	return n, nil
}

func (l SqrClippedReLU) propagate(in, out *tensor, _ *evalState) {
	simd.SqrClippedReLU32(out.u8[:out.n], in.i32[:out.n], uint(l.Shift))
}
