package nnue

import "fmt"

// Perspective is the first layer of every stack: it orders the two accumulators of the
// feature transformer, the side to move's first (thesis §4.3: "the side-to-move half first";
// Stockfish feature_transformer.h; CPW "Perspective"), or White's first when WhiteFirst is
// set. Input: KindAccumulator of width M. Output: KindInt16 of 2M values held as two parts of
// M (no copy is made).
type Perspective struct {
	// WhiteFirst puts White's accumulator first regardless of the side to move (for
	// networks trained that way; none of the seeds' networks is).
	WhiteFirst bool
}

// InputKind reports the element type read (Layer).
func (Perspective) InputKind() Kind { return KindAccumulator }

// OutputKind reports the element type written (Layer).
func (Perspective) OutputKind() Kind { return KindInt16 }

// OutputSize returns 2·m.
func (Perspective) OutputSize(m int) (int, error) { return 2 * m, nil }

// String describes the layer and its parameters.
func (l Perspective) String() string {
	if l.WhiteFirst {
		return "Perspective(white first)"
	}
	return "Perspective(side to move first)"
}

func (l Perspective) propagate(in, out *tensor, st *evalState) {
	first := st.stm
	if l.WhiteFirst {
		first = 0
	}
	out.acc[0], out.acc[1] = in.acc[first], in.acc[first^1]
}

// checkParts verifies that a KindInt16 input of n values splits into two equal parts whose
// width is a multiple of mult.
func checkParts(name string, n, mult int) error {
	if n%2 != 0 || (n/2)%mult != 0 || n == 0 {
		return fmt.Errorf("%s: input of %d int16 must be two parts of a multiple of %d", name, n, mult)
	}
	return nil
}
