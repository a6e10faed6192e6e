package nnue

import "fmt"

// Append is a dense connection: its output is its uint8 input followed by the output of
// Body run on that input, in ‖ body(in) (Stockfish 19 nnue_architecture.h: fc_2 reads the
// concat buffer holding ac_sqr_0 ‖ ac_0 followed by ac_sqr_1 ‖ ac_1 of fc_1's output).
// Input: KindUint8 of n values; output: KindUint8 of n + k values, zero-padded to a
// multiple of 32 for the next Affine layer, where k is the body's output size. The body
// (1 to 8 layers) starts from KindUint8 and ends with KindUint8; it may hold Append but
// no Perspective, Residual or DiffResidual. Stage append(body…).
type Append struct {
	Body []Layer

	offs []int // the body's buffer offsets (prepareNested)
}

// InputKind reports the element type read (Layer).
func (*Append) InputKind() Kind { return KindUint8 }

// OutputKind reports the element type written (Layer).
func (*Append) OutputKind() Kind { return KindUint8 }

// String describes the layer, e.g. "Append(Affine(64→32) → Concat(…))".
func (l *Append) String() string { return "Append(" + bodyString(l.Body) + ")" }

// OutputSize checks the body on n inputs and returns n plus its output size.
func (l *Append) OutputSize(n int) (int, error) {
	sizes, kind, err := checkBody(l.String(), l.Body, KindUint8, n)
	if err != nil {
		return 0, err
	}
	if kind != KindUint8 {
		return 0, fmt.Errorf("%v: body must end with uint8, ends with %v", l, kind)
	}
	return n + sizes[len(sizes)-1], nil
}

func (l *Append) bodyLayers() []Layer { return l.Body }

func (l *Append) setOffsets(offs []int) { l.offs = offs }

func (*Append) bodyIn(n int) int { return n }

func (l *Append) propagate(in, out *tensor, st *evalState) {
	n := in.n
	copy(out.u8[:n], in.u8[:n])
	cur := runBody(l.Body, l.offs, in, st.sub, st)
	copy(out.u8[n:n+cur.n], cur.u8[:cur.n])
}
