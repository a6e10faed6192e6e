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
// The body (1 to 8 layers) starts from KindInt32 and ends with one int32; it may hold
// Append but no Perspective, Residual or DiffResidual. Stage skip(body…,Mul,Div).
type Residual struct {
	Body     []Layer
	Mul, Div int32

	offs []int // the body's buffer offsets (prepareNested)
}

// InputKind reports the element type read (Layer).
func (*Residual) InputKind() Kind { return KindInt32 }

// OutputKind reports the element type written (Layer).
func (*Residual) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l *Residual) String() string {
	return fmt.Sprintf("Residual(%s, + last·%d/%d)", bodyString(l.Body), l.Mul, l.Div)
}

// OutputSize checks the body on n−1 inputs and returns 1.
func (l *Residual) OutputSize(n int) (int, error) {
	if n < 2 {
		return 0, fmt.Errorf("%v: needs at least 2 inputs, has %d", l, n)
	}
	return 1, checkSkip(l.String(), l.Body, l.Div, n-1)
}

func (l *Residual) bodyLayers() []Layer { return l.Body }

func (l *Residual) setOffsets(offs []int) { l.offs = offs }

func (*Residual) bodyIn(n int) int { return n - 1 }

func (l *Residual) propagate(in, out *tensor, st *evalState) {
	n := in.n
	st.view = tensor{n: n - 1, i32: in.i32[: n-1 : n-1]}
	cur := runBody(l.Body, l.offs, &st.view, st.sub, st)
	out.i32[0] = int32(int64(cur.i32[0]) + int64(in.i32[n-1])*int64(l.Mul)/int64(l.Div))
}

// checkSkip checks a skip connection's body on n int32 inputs: it must end with one
// int32, and the divisor must not be zero.
func checkSkip(name string, body []Layer, div int32, n int) error {
	if div == 0 {
		return fmt.Errorf("%s: zero divisor", name)
	}
	sizes, kind, err := checkBody(name, body, KindInt32, n)
	if err != nil {
		return err
	}
	if kind != KindInt32 || sizes[len(sizes)-1] != 1 {
		return fmt.Errorf("%s: body must end with one int32, ends with %d×%v", name, sizes[len(sizes)-1], kind)
	}
	return nil
}

// bodyString joins the body layers' descriptions with arrows.
func bodyString(body []Layer) string {
	s := make([]string, len(body))
	for i, b := range body {
		if b == nil {
			s[i] = "nil"
			continue
		}
		s[i] = b.String()
	}
	return strings.Join(s, " → ")
}
