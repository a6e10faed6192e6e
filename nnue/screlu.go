package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/simd"
)

// SCReLU is the output layer of a CPW-style 768→N→1 network (CPW "SCReLU", "Lizard SCReLU"):
// the squared clipped ReLU v = clamp(x, 0, QA), v² applied to the perspective-ordered int16
// accumulators (2N values, side to move first) followed by a dense layer with int16 weights:
//
//	out[j] = (Σ_i v_i·v_i·W[j][i]) / Div + Bias[j]   (C-style truncating division)
//
// The sum is computed as Σ int32(int16(v·w))·v (simd.SCReLUDot), which is exact when
// |v·w| < 2^15, i.e. |w| ≤ 128 for QA = 255: trainers clip the weights accordingly. Div is QA
// when the bias is stored at scale QA·QB (the CPW convention, then the output is at scale
// QA·QB) and 1 otherwise. Weights are row-major [Out][2N].
// Input: KindInt16; output: KindInt32 of Out values.
type SCReLU struct {
	QA      int16   // clipping bound, 255 in CPW's nets (1.0 in the float network)
	Div     int32   // divisor of the dot product before the bias, ≥ 1
	Out     int     // number of outputs
	Weights []int16 // Out·2N
	Bias    []int32 // Out
}

// InputKind reports the element type read (Layer).
func (*SCReLU) InputKind() Kind { return KindInt16 }

// OutputKind reports the element type written (Layer).
func (*SCReLU) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l *SCReLU) String() string {
	return fmt.Sprintf("SCReLU(QA=%d, /%d, →%d)", l.QA, l.Div, l.Out)
}

// OutputSize checks the parameters against n = 2N inputs and returns Out.
func (l *SCReLU) OutputSize(n int) (int, error) {
	if err := checkParts(l.String(), n, 16); err != nil {
		return 0, err
	}
	if l.QA <= 0 || l.Div <= 0 {
		return 0, fmt.Errorf("%v: QA and Div must be positive", l)
	}
	if l.Out <= 0 || l.Out > maxAffineDim {
		return 0, fmt.Errorf("%v: output count out of range", l)
	}
	if len(l.Weights) != l.Out*n || len(l.Bias) != l.Out {
		return 0, fmt.Errorf("%v: %d weights and %d biases, want %d×%d and %d", l, len(l.Weights), len(l.Bias), l.Out, n, l.Out)
	}
	return l.Out, nil
}

func (l *SCReLU) propagate(in, out *tensor, _ *evalState) {
	m := len(in.acc[0])
	for j := 0; j < l.Out; j++ {
		w := l.Weights[j*2*m : (j+1)*2*m]
		s := simd.SCReLUDot(in.acc[0], w[:m], l.QA) + simd.SCReLUDot(in.acc[1], w[m:], l.QA)
		out.i32[j] = s/l.Div + l.Bias[j]
	}
}
