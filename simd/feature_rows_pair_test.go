package simd

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestFeatureRowsAddSubPairMatchesGo: FeatureRows.AddSubPair == the Go AddSub on each
// perspective's two row slices, at every level, any width, in place or not, with no write
// outside the two dst slices.
func TestFeatureRowsAddSubPairMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := max(1, length(t, "n", 16))
			nrows := rapid.IntRange(1, 12).Draw(t, "rows")
			w, _ := buffer(t, "w", nrows*n, f.i16)
			m, err := NewFeatureRows(w, n)
			if err != nil {
				t.Fatal(err)
			}
			inPlace := rapid.Bool().Draw(t, "inPlace")
			var dst, src [2][]int16
			var whole, want [2][]int16
			var idx [4]int
			for i := range idx {
				idx[i] = rapid.IntRange(0, nrows-1).Draw(t, "row")
			}
			for p := range 2 {
				s, sw := buffer(t, "src", n, f.i16)
				src[p] = s
				dst[p], whole[p] = s, sw
				if !inPlace {
					dst[p], whole[p] = buffer(t, "dst", n, f.i16)
				}
				want[p] = slices.Clone(whole[p])
				wdst := want[p][len(whole[p])-guard-n : len(whole[p])-guard]
				wsrc := slices.Clone(s)
				if inPlace {
					wsrc = wdst
				}
				a, r := idx[2*p], idx[2*p+1]
				addSubGeneric(wdst, wsrc, w[a*n:(a+1)*n], w[r*n:(r+1)*n])
			}
			m.AddSubPair(&dst, &src, idx[0], idx[1], idx[2], idx[3])
			checkSame(t, "dst[0] buffer", whole[0], want[0])
			checkSame(t, "dst[1] buffer", whole[1], want[1])
		})
	})
}

// TestFeatureRowsAddSubPairRejects: a bad row index or length in either perspective panics
// naming it, before anything is written.
func TestFeatureRowsAddSubPairRejects(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		const n, nrows = 32, 4
		w := make([]int16, n*nrows)
		for i := range w {
			w[i] = int16(i)
		}
		m, err := NewFeatureRows(w, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			idx  [4]int
			len1 int
			want string
		}{
			{[4]int{0, 1, 2, 3}, n - 1, "lengths"},
			{[4]int{nrows, 1, 2, 3}, n, "row 4"},
			{[4]int{0, 1, 2, -1}, n, "row -1"},
			{[4]int{0, 1, nrows + 7, 3}, n, "row 11"},
		} {
			dst := [2][]int16{make([]int16, n), make([]int16, tc.len1)}
			src := [2][]int16{make([]int16, n), make([]int16, n)}
			func() {
				defer func() {
					r, _ := recover().(string)
					if !strings.Contains(r, tc.want) {
						t.Errorf("%v: panic %q, want one naming %q", tc.idx, r, tc.want)
					}
				}()
				m.AddSubPair(&dst, &src, tc.idx[0], tc.idx[1], tc.idx[2], tc.idx[3])
			}()
			for p := range dst {
				for _, x := range dst[p] {
					if x != 0 {
						t.Fatalf("%v: dst[%d] written before the panic", tc.idx, p)
					}
				}
			}
		}
	})
}
