package nnue

import "fmt"

// DiffResidual is Stockfish 19's skip connection (nnue_architecture.h propagate: fwdOut =
// fc_2's output + fc_0_out[L2−2] − fc_0_out[L2−1], then scaled to the output units): it
// runs Body on its whole int32 input x of n ≥ 2 values and returns
//
//	(body(x) + x[n−2] − x[n−1]) · Mul / Div      (int64, truncating division)
//
// with Mul/Div = 600·16 / (128·64·2) = 9600/16384 for Stockfish 19. Input: KindInt32;
// output: KindInt32, one value. The body (1 to 8 layers) starts from KindInt32 and ends
// with one int32; it may hold Append but no Perspective, Residual or DiffResidual. Stage
// skipdiff(body…,Mul,Div).
type DiffResidual struct {
	Body     []Layer
	Mul, Div int32

	offs []int // the body's buffer offsets (prepareNested)
}

// InputKind reports the element type read (Layer).
func (*DiffResidual) InputKind() Kind { return KindInt32 }

// OutputKind reports the element type written (Layer).
func (*DiffResidual) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l *DiffResidual) String() string {
	return fmt.Sprintf("DiffResidual(%s, + x[-2] − x[-1], ·%d/%d)", bodyString(l.Body), l.Mul, l.Div)
}

// OutputSize checks the body on n inputs and returns 1.
func (l *DiffResidual) OutputSize(n int) (int, error) {
	if n < 2 {
		return 0, fmt.Errorf("%v: needs at least 2 inputs, has %d", l, n)
	}
	return 1, checkSkip(l.String(), l.Body, l.Div, n)
}

func (l *DiffResidual) bodyLayers() []Layer { return l.Body }

func (l *DiffResidual) setOffsets(offs []int) { l.offs = offs }

func (*DiffResidual) bodyIn(n int) int { return n }

func (l *DiffResidual) propagate(in, out *tensor, st *evalState) {
	n := in.n
	cur := runBody(l.Body, l.offs, in, st.sub, st)
	v := int64(cur.i32[0]) + int64(in.i32[n-2]) - int64(in.i32[n-1])
	out.i32[0] = int32(v * int64(l.Mul) / int64(l.Div))
}
