package nnue

import (
	"fmt"
	"strings"
)

// Concat applies several activations to the same input and concatenates their outputs
// (Stockfish 15.1 nnue_architecture.h: fc_1's input is SqrClippedReLU(fc_0) followed by
// ClippedReLU(fc_0)). Every part must read the Concat's input kind and write KindUint8; the
// output is zero-padded to a multiple of 32 for the next Affine layer.
type Concat struct {
	Parts []Layer
}

// InputKind reports the element type read (Layer).
func (l *Concat) InputKind() Kind {
	if len(l.Parts) == 0 {
		return KindInt32
	}
	return l.Parts[0].InputKind()
}

// OutputKind reports the element type written (Layer).
func (*Concat) OutputKind() Kind { return KindUint8 }

// String describes the layer and its parameters.
func (l *Concat) String() string {
	s := make([]string, len(l.Parts))
	for i, p := range l.Parts {
		s[i] = p.String()
	}
	return "Concat(" + strings.Join(s, ", ") + ")"
}

// OutputSize returns the sum of the parts' output sizes.
func (l *Concat) OutputSize(n int) (int, error) {
	if len(l.Parts) == 0 || len(l.Parts) > 8 {
		return 0, fmt.Errorf("Concat: needs 1 to 8 parts, has %d", len(l.Parts))
	}
	total := 0
	for i, p := range l.Parts {
		if p == nil {
			return 0, fmt.Errorf("Concat: part %d is nil", i)
		}
		if p.InputKind() != l.Parts[0].InputKind() || p.InputKind() == KindAccumulator {
			return 0, fmt.Errorf("%v: parts read different kinds", l)
		}
		if p.OutputKind() != KindUint8 {
			return 0, fmt.Errorf("%v: part %d writes %v, want uint8", l, i, p.OutputKind())
		}
		if _, ok := p.(*Concat); ok {
			return 0, fmt.Errorf("%v: nested Concat", l)
		}
		k, err := p.OutputSize(n)
		if err != nil {
			return 0, err
		}
		total += k
	}
	return total, nil
}

func (l *Concat) propagate(in, out *tensor, st *evalState) {
	off := 0
	for i, p := range l.Parts {
		k, _ := p.OutputSize(in.n) // validated at construction; cheap
		sub := &st.part[i]
		*sub = tensor{n: k, u8: out.u8[off : off+k]}
		p.propagate(in, sub, st)
		off += k
	}
}
