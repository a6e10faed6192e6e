package nnue

import (
	"fmt"
	"strings"
)

// Residual is a skip connection around a sub-stack: it runs Body on its int32 input
// without the last element x and adds x·Mul/Div (int64, truncating division) to Body's
// one output. This is Stockfish 15.1's and 16's layer stack after fc_0
// (nnue_architecture.h: fc_0's 16th output is forwarded as fwdOut = x·(600·16)/(127·64)
// = x·9600/8128 and added to fc_2's output; the body is the dual activation, fc_1, its
// ClippedReLU and fc_2). Input: KindInt32 of n ≥ 2 values; output: KindInt32, one value.
// The body's layers read and write what a stack's layers do, start from KindInt32 and end
// with one int32; they may not be Perspective, Residual or DenseStack. Their output buffers
// follow the Residual's own in the evaluator (Network.flat).
type Residual struct {
	Body     []Layer
	Mul, Div int32
}

// maxResidualBody bounds the layers of a Residual's body.
const maxResidualBody = 8

// InputKind reports the element type read (Layer).
func (*Residual) InputKind() Kind { return KindInt32 }

// OutputKind reports the element type written (Layer).
func (*Residual) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l *Residual) String() string {
	s := make([]string, len(l.Body))
	for i, b := range l.Body {
		s[i] = b.String()
	}
	return fmt.Sprintf("Residual(%s, + last·%d/%d)", strings.Join(s, " → "), l.Mul, l.Div)
}

// OutputSize checks the body on n−1 inputs and returns 1.
func (l *Residual) OutputSize(n int) (int, error) {
	_, err := l.bodySizes(n)
	return 1, err
}

// bodySizes returns the body layers' output sizes for an input of n elements.
func (l *Residual) bodySizes(n int) ([]int, error) {
	if n < 2 {
		return nil, fmt.Errorf("%v: needs at least 2 inputs, has %d", l, n)
	}
	if l.Div == 0 {
		return nil, fmt.Errorf("%v: zero divisor", l)
	}
	if len(l.Body) == 0 || len(l.Body) > maxResidualBody {
		return nil, fmt.Errorf("Residual: body of %d layers, want 1…%d", len(l.Body), maxResidualBody)
	}
	sizes := make([]int, len(l.Body))
	kind, size := KindInt32, n-1
	for i, b := range l.Body {
		switch b.(type) {
		case nil:
			return nil, fmt.Errorf("Residual: body layer %d is nil", i)
		case Perspective, *Residual, *DenseStack:
			return nil, fmt.Errorf("Residual: body layer %d %v is not allowed in a body", i, b)
		}
		if b.InputKind() != kind {
			return nil, fmt.Errorf("Residual: body layer %d %v reads %v but receives %v", i, b, b.InputKind(), kind)
		}
		m, err := b.OutputSize(size)
		if err != nil {
			return nil, err
		}
		kind, size = b.OutputKind(), m
		sizes[i] = m
	}
	if kind != KindInt32 || size != 1 {
		return nil, fmt.Errorf("Residual: body must end with one int32, ends with %d×%v", size, kind)
	}
	return sizes, nil
}

func (l *Residual) propagate(in, out *tensor, st *evalState) {
	n := in.n
	body := st.sub[:len(l.Body)]
	st.view = tensor{n: n - 1, i32: in.i32[: n-1 : n-1]}
	cur := &st.view
	for i, b := range l.Body {
		b.propagate(cur, &body[i], st)
		cur = &body[i]
	}
	out.i32[0] = int32(int64(cur.i32[0]) + int64(in.i32[n-1])*int64(l.Mul)/int64(l.Div))
}
