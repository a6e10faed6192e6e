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

// encode writes tag 6, QA (i16), Div (i32), In = inSize and Out (u32), the Out·In int16
// weights and Out int32 biases.
func (l *SCReLU) encode(e *encoder, inSize int) error {
	e.u8(tagSCReLU)
	e.u16(uint16(l.QA))
	e.i32(l.Div)
	e.u32(uint32(inSize))
	e.u32(uint32(l.Out))
	e.i16s(l.Weights)
	e.i32s(l.Bias)
	return nil
}

func decodeSCReLU(d *decoder, field string, inSize int) (Layer, error) {
	qa, err := d.u16(field + " QA")
	if err != nil {
		return nil, err
	}
	div, err := d.i32(field + " Div")
	if err != nil {
		return nil, err
	}
	in, err := d.u32(field + " In")
	if err != nil {
		return nil, err
	}
	out, err := d.u32(field + " Out")
	if err != nil {
		return nil, err
	}
	if int64(in) != int64(inSize) || out == 0 || out > maxAffineDim {
		d.off -= 8
		return nil, d.errf(field, "SCReLU In %d (input has %d) or Out %d out of range", in, inSize, out)
	}
	if err := d.need(field+" weights", int64(out)*int64(in)*2+4*int64(out), 1); err != nil {
		return nil, err
	}
	l := &SCReLU{QA: int16(qa), Div: div, Out: int(out), Weights: alignedInt16(int(out) * int(in)), Bias: make([]int32, out)}
	if err := d.i16s(field+" weights", l.Weights); err != nil {
		return nil, err
	}
	if err := d.i32s(field+" bias", l.Bias); err != nil {
		return nil, err
	}
	return l, nil
}
