package nnue

import (
	"fmt"
	"strconv"
	"strings"
)

// SpecString returns the network of a declared in the project's architecture-string grammar
// (doc/nnue.md "Architecture strings"), extended as doc/bullet.md "Mapping to the
// declared-architecture grammar" proposes for what that grammar cannot express yet: king
// buckets as a feature-set factor kb(…) of one hexadecimal digit per king square, the float
// stages dot.f32(L) (a one-output float layer summed in L lanes added in halves), clamp.f32
// and relu.f32, and the field fma (every float stage fuses its multiply-adds). A stack ending
// in float32 is converted by out=*SCALE as trunc(float32(x·SCALE)). The file-layout parts of a
// (header, transposed, float, wrap) are not architecture and do not appear.
//
// Errors: those of a's validation.
func (a BulletArch) SpecString() (string, error) {
	a = a.withDefaults()
	if err := a.validate(); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("ft=")
	if len(a.KingBuckets) > 0 {
		table, n, _ := a.kingTable()
		if n > 16 {
			return "", fmt.Errorf("nnue: bullet: %d king buckets, the kb(…) form holds at most 16", n)
		}
		b.WriteString("kb(")
		for _, x := range table {
			b.WriteString(strconv.FormatInt(int64(x), 16))
		}
		b.WriteString(")*")
	}
	b.WriteString("all")
	if a.Mirror {
		b.WriteString("@hm")
	}
	fmt.Fprintf(&b, ":i16 width=%d stack=stm", a.Hidden)
	switch {
	case a.Pairwise:
		fmt.Fprintf(&b, ">pairwise(%d,%d)", a.Clip, a.Shift)
		for i, l := range a.Layers {
			switch {
			case i == 0:
				fmt.Fprintf(&b, ">affine.i8f32(%d,%d,%d)", l.Out, int64(1)<<a.Shift, int64(a.QA)*int64(a.QA)*int64(a.QB))
			case l.Lanes != 0:
				fmt.Fprintf(&b, ">dot.f32(%d)", l.Lanes)
			default:
				fmt.Fprintf(&b, ">affine.f32(%d)", l.Out)
			}
			switch l.Act {
			case FloatReLU:
				b.WriteString(">relu.f32")
			case FloatCReLU:
				b.WriteString(">clamp.f32")
			case FloatSCReLU:
				b.WriteString(">sqrclamp.f32")
			}
		}
	case a.SCReLU:
		fmt.Fprintf(&b, ">screlu_affine.i16(%d,%d,1)", a.QA, a.QA)
	default:
		fmt.Fprintf(&b, ">crelu_affine.i16(%d)", a.QA)
	}
	if nb := a.OutputBuckets; nb > 1 {
		if len(a.BucketTable) > 0 {
			b.WriteString(" buckets=table(")
			for n := 0; n <= 32; n++ {
				if n > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(a.BucketTable[min(n, len(a.BucketTable)-1)]))
			}
			b.WriteByte(')')
		} else {
			fmt.Fprintf(&b, " buckets=pieces(%d,2,%d)", nb, (32+nb-1)/nb)
		}
	}
	if a.Pairwise {
		fmt.Fprintf(&b, " out=*%d", a.Scale)
		if a.FMA {
			b.WriteString(" fma")
		}
	} else {
		fmt.Fprintf(&b, " out=*%d/%d", a.Scale, a.QA*a.QB)
	}
	b.WriteString(" pawn=100")
	return b.String(), nil
}
