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

// PairwiseAffineSparse equals PairwiseMul of both halves + the dense Affine (Go kernels) at
// every level, in dst as in out, with a junk-filled idx of the needed length or shorter, for
// accumulators with few to all products non-zero; the pairwiseMulNNZ Go twin lists exactly
// the non-zero chunks.
//
// With relu it checks ClippedReLUAffineSparse the same way against ClippedReLU16 twice.
func TestPairwiseAffineSparseMatches(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			relu := rapid.Bool().Draw(t, "relu")
			f := drawFiller(t)
			h := 32 * rapid.IntRange(1, 40).Draw(t, "h32") // dst up to 2560: odd and even vector counts
			n := 2 * h
			nout := rapid.SampledFrom([]int{8, 16, 32}).Draw(t, "nout")
			zeroPct := rapid.IntRange(0, 100).Draw(t, "zero%")
			acc := func(name string) []int16 {
				s, _ := buffer(t, name, n, func() int16 {
					if f.r.IntN(100) < zeroPct {
						return int16(-f.r.IntN(300)) // ≤ 0: a zero product
					}
					return f.i16()
				})
				return s
			}
			a, b := acc("a"), acc("b")
			weights := make([]int8, nout*n)
			for i := range weights {
				weights[i] = int8(max(min(f.i8(), 30), -30))
			}
			bias, _ := buffer(t, "bias", nout, f.i32)
			wt := SparseWeights(weights, n, nout)
			group := SparseGroup(wt, n, nout)
			wantDst := make([]uint8, n)
			if relu {
				clippedReLU16Generic(wantDst[:h], a[:h])
				clippedReLU16Generic(wantDst[h:], b[:h])
			} else {
				pairwiseMulGeneric(wantDst[:h], a[:h], a[h:])
				pairwiseMulGeneric(wantDst[h:], b[:h], b[h:])
			}
			want := make([]int32, nout)
			affineGeneric(want, wantDst, weights, bias)
			var nz []uint16
			for c := 0; c < n/4; c++ {
				if wantDst[4*c]|wantDst[4*c+1]|wantDst[4*c+2]|wantDst[4*c+3] != 0 {
					nz = append(nz, uint16(c))
				}
			}
			idx := make([]uint16, n/4)
			nzA := nz[:0:0]
			for _, c := range nz {
				if int(c) < h/4 {
					nzA = append(nzA, c)
				}
			}
			var k int
			if relu {
				k = clippedReLU16NNZGeneric(make([]uint8, h), a[:h], idx, 0)
			} else {
				k = pairwiseMulNNZGeneric(make([]uint8, h), a[:h], a[h:], idx, 0)
			}
			if !slices.Equal(idx[:k], nzA) {
				t.Fatalf("NNZ twin lists %v, want %v", idx[:k], nzA)
			}
			for p := 1; p <= group; p++ {
				for _, short := range []int{0, 1} {
					idx := make([]uint16, n/4-short)
					for i := range idx {
						idx[i] = uint16(f.r.IntN(0x10000))
					}
					out, whole := buffer(t, "out", nout, func() int32 { return -0x55555556 })
					before := slices.Clone(whole)
					dst, dwhole := buffer(t, "dst", n, func() uint8 { return 0xA5 })
					dbefore := slices.Clone(dwhole)
					if relu {
						ClippedReLUAffineSparse(out, dst, a, b, wt, bias, p, idx)
					} else {
						PairwiseAffineSparse(out, dst, a, b, wt, bias, p, idx)
					}
					if !slices.Equal(dst, wantDst) {
						t.Fatalf("group %d, idx short %d: dst %v, want %v", p, short, dst, wantDst)
					}
					if !slices.Equal(out, want) {
						t.Fatalf("group %d, idx short %d: out %v, want %v", p, short, out, want)
					}
					off := len(whole) - guard - nout
					copy(before[off:off+nout], want)
					checkSame(t, "out buffer", whole, before)
					off = len(dwhole) - guard - n
					copy(dbefore[off:off+n], wantDst)
					checkSame(t, "dst buffer", dwhole, dbefore)
				}
			}
		})
	})
}

// SparseAffine.Forward equals the dense Affine (Go kernel) at every level, whichever
// kernel the level picks, and its constructor and Forward refuse mismatched shapes.
func TestSparseAffineMatchesAffine(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			nin := 32 * rapid.IntRange(1, 64).Draw(t, "nin32")
			nout := rapid.SampledFrom([]int{16, 32}).Draw(t, "nout")
			zeroPct := rapid.IntRange(0, 100).Draw(t, "zero%")
			in, _ := buffer(t, "in", nin, func() uint8 {
				if f.r.IntN(100) < zeroPct {
					return 0
				}
				return f.u7()
			})
			weights := make([]int8, nout*nin)
			for i := range weights {
				weights[i] = f.i8()
			}
			bias, _ := buffer(t, "bias", nout, f.i32)
			want := make([]int32, nout)
			affineGeneric(want, in, weights, bias)
			s := NewSparseAffine(weights, nin, nout)
			got := make([]int32, nout)
			s.Forward(got, in, bias, make([]uint16, SparseIdxLen(nin)))
			if !slices.Equal(got, want) {
				t.Fatalf("level %v: got %v, want %v", Level(), got, want)
			}
		})
	})
	mustPanic(t, "NewSparseAffine with 31 inputs", func() { NewSparseAffine(make([]int8, 31*16), 31, 16) })
	mustPanic(t, "NewSparseAffine with a short weight slice", func() { NewSparseAffine(make([]int8, 32*16-1), 32, 16) })
	s := NewSparseAffine(make([]int8, 32*16), 32, 16)
	mustPanic(t, "Forward with 64 inputs", func() { s.Forward(make([]int32, 16), make([]uint8, 64), make([]int32, 16), nil) })
}

// mustPanic fails t unless f panics.
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}
