package nnue

import "fmt"

// Forward splits off the last element x of its int32 input and adds x·Mul/Div (computed in
// int64, truncating division) to the stack's final output; the other elements pass through.
// This is Stockfish 15.1's skip connection (nnue_architecture.h: fc_0 output 15 is forwarded
// as fwdOut = x·(600·16)/(127·64) = x·9600/8128 and added to fc_2's output).
// Input: KindInt32 of n values; output: KindInt32 of n−1 values (a view, no copy).
type Forward struct {
	Mul, Div int32
}

// InputKind reports the element type read (Layer).
func (Forward) InputKind() Kind { return KindInt32 }

// OutputKind reports the element type written (Layer).
func (Forward) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l Forward) String() string { return fmt.Sprintf("Forward(last·%d/%d)", l.Mul, l.Div) }

// OutputSize returns n−1.
func (l Forward) OutputSize(n int) (int, error) {
	if n < 2 {
		return 0, fmt.Errorf("%v: needs at least 2 inputs, has %d", l, n)
	}
	if l.Div == 0 {
		return 0, fmt.Errorf("%v: zero divisor", l)
	}
	return n - 1, nil
}

func (l Forward) propagate(in, out *tensor, st *evalState) {
	n := in.n
	st.skip += int64(in.i32[n-1]) * int64(l.Mul) / int64(l.Div)
	out.i32 = in.i32[: n-1 : n-1]
}
