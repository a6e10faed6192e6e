package simd

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// AffineSparse equals the dense Affine (Go kernel) at every level, for sparse and dense
// inputs, with int16 groups of 2 and 3 chunks whenever SparseGroup allows them.
func TestAffineSparseMatchesAffine(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			nin := 32 * rapid.IntRange(1, 80).Draw(t, "nin32") // up to 2560: crosses sparseSeg
			nout := rapid.SampledFrom([]int{1, 8, 16, 32, 48}).Draw(t, "nout")
			zeroPct := rapid.IntRange(0, 100).Draw(t, "zero%")
			in, _ := buffer(t, "in", nin, func() uint8 {
				if f.r.IntN(100) < zeroPct {
					return 0
				}
				return f.u7()
			})
			wmax := rapid.SampledFrom([]int{127, 60, 30}).Draw(t, "wmax")
			weights := make([]int8, nout*nin)
			for i := range weights {
				w := f.i8()
				if int(w) > wmax {
					w = int8(wmax)
				} else if int(w) < -wmax {
					w = int8(-wmax)
				}
				weights[i] = w
			}
			bias, _ := buffer(t, "bias", nout, f.i32)
			wt := SparseWeights(weights, nin, nout)
			group := SparseGroup(wt, nin, nout)
			want := make([]int32, nout)
			affineGeneric(want, in, weights, bias)
			for p := 1; p <= group; p++ {
				out, whole := buffer(t, "out", nout, func() int32 { return -0x55555556 })
				before := slices.Clone(whole)
				AffineSparse(out, in, wt, bias, p)
				if !slices.Equal(out, want) {
					t.Fatalf("group %d: got %v, want %v", p, out, want)
				}
				off := len(whole) - guard - nout
				copy(before[off:off+nout], want)
				checkSame(t, "out buffer", whole, before)
				// AffineSparseIdx: the same with a caller's scratch, dirty from a previous
				// call, of the required length and one entry short (internal array then)
				for _, short := range []int{0, 1} {
					idx := make([]uint16, SparseIdxLen(nin)-short)
					for i := range idx {
						idx[i] = uint16(rapid.IntRange(0, 0xffff).Draw(t, "junk"))
					}
					out2 := make([]int32, nout)
					AffineSparseIdx(out2, in, wt, bias, p, idx)
					if !slices.Equal(out2, want) {
						t.Fatalf("group %d, idx short %d: AffineSparseIdx %v, want %v", p, short, out2, want)
					}
				}
			}
		})
	})
}

func TestSparseGroup(t *testing.T) {
	const nin, nout = 64, 16
	w := make([]int8, nin*nout)
	group := func() int { return SparseGroup(SparseWeights(w, nin, nout), nin, nout) }
	for i := range w {
		w[i] = 43 // pair sums 86: 127·258 = 32766 ≤ 32767 for three
	}
	if g := group(); g != 3 {
		t.Errorf("weights 43: group %d, want 3", g)
	}
	w[5*nin+9] = 44 // 127·(87+86+86) = 32893 > 32767: pairs only
	if g := group(); g != 2 {
		t.Errorf("one weight 44: group %d, want 2", g)
	}
	for i := range w {
		w[i] = 64 // pair sums 128: 127·256 = 32512 for two
	}
	if g := group(); g != 2 {
		t.Errorf("weights 64: group %d, want 2", g)
	}
	w[5*nin+9] = 66
	w[5*nin+17] = 66 // two pair sums of 130 in the same lane: 127·260 = 33020 > 32767
	if g := group(); g != 1 {
		t.Errorf("two weights 66 in the same lane: group %d, want 1", g)
	}
	for i := range w {
		w[i] = -65 // 127·(−260) = −33020 < −32768
	}
	if g := group(); g != 1 {
		t.Errorf("weights −65: group %d, want 1", g)
	}
}
