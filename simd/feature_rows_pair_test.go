package simd

import (
	"fmt"
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
			m, w, f, n, nrows := drawFeatureRows(t)
			inPlace := rapid.Bool().Draw(t, "inPlace")
			v := drawPairValues(t, f, w, n, nrows, inPlace)
			idx := v.idx
			m.AddSubPair(&v.dst, &v.src, idx[0], idx[1], idx[2], idx[3])
			checkSame(t, "dst[0] buffer", v.whole[0], v.want[0])
			checkSame(t, "dst[1] buffer", v.whole[1], v.want[1])
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

// TestFeatureRowsUpdatePairMatchesGo: FeatureRows.UpdatePair == the Go AddSub on each
// perspective's two row slices plus, with PSQT rows (WithPSQT8), the Go sums of the two
// PSQT rows, at every level, any width, in place or not, with no write outside the two
// dst and two pdst slices.
func TestFeatureRowsUpdatePairMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			m, w, f, n, nrows := drawFeatureRows(t)
			m, pw, withPSQT := drawPSQT8(t, m, f, nrows)
			if m.HasPSQT8() != withPSQT {
				t.Fatalf("HasPSQT8 %v, want %v", m.HasPSQT8(), withPSQT)
			}
			inPlace := rapid.Bool().Draw(t, "inPlace")
			v := drawPairValues(t, f, w, n, nrows, inPlace)
			idx := v.idx
			var pdst, psrc [2][]int32
			var pwhole, pwant [2][]int32
			for p := range 2 {
				a, r := idx[2*p], idx[2*p+1]
				ps, psw := buffer(t, "psrc", 8, f.i32)
				psrc[p] = ps
				pdst[p], pwhole[p] = ps, psw
				if !inPlace {
					pdst[p], pwhole[p] = buffer(t, "pdst", 8, f.i32)
				}
				pwant[p] = slices.Clone(pwhole[p])
				if withPSQT {
					pd := pwant[p][len(pwhole[p])-guard-8 : len(pwhole[p])-guard]
					for b := range 8 {
						pd[b] = ps[b] + pw[8*a+b] - pw[8*r+b]
					}
				}
			}
			m.UpdatePair(&v.dst, &v.src, &pdst, &psrc, idx[0], idx[1], idx[2], idx[3])
			checkSame(t, "dst[0] buffer", v.whole[0], v.want[0])
			checkSame(t, "dst[1] buffer", v.whole[1], v.want[1])
			checkSame(t, "pdst[0] buffer", pwhole[0], pwant[0])
			checkSame(t, "pdst[1] buffer", pwhole[1], pwant[1])
		})
	})
}

// TestFeatureRowsUpdatePairRejects: a bad row index, value length or PSQT length in either
// perspective panics naming it, before anything is written; WithPSQT8 rejects a PSQT
// table of the wrong length.
func TestFeatureRowsUpdatePairRejects(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		const n, nrows = rejectWidth, rejectNRows
		m0, m, pw := rejectRows(t)
		if _, err := m0.WithPSQT8(pw[:len(pw)-1]); err == nil {
			t.Fatal("WithPSQT8 accepted a short table")
		}
		for _, tc := range []struct {
			idx        [4]int
			len1, plen int
			want       string
		}{
			{[4]int{0, 1, 2, 3}, n - 1, 8, "lengths"},
			{[4]int{nrows, 1, 2, 3}, n, 8, "row 4"},
			{[4]int{0, 1, 2, -1}, n, 8, "row -1"},
			{[4]int{0, 1, nrows + 7, 3}, n, 8, "row 11"},
			{[4]int{0, 1, 2, 3}, n, 7, "PSQT lengths"},
			{[4]int{0, 1, 2, 3}, n, 9, "PSQT lengths"},
		} {
			dst := [2][]int16{make([]int16, n), make([]int16, tc.len1)}
			src := [2][]int16{make([]int16, n), make([]int16, n)}
			pdst := [2][]int32{make([]int32, 8), make([]int32, tc.plen)}
			psrc := [2][]int32{make([]int32, 8), make([]int32, 8)}
			panicsNamingUnwritten(t, fmt.Sprint(tc.idx), tc.want, func() {
				m.UpdatePair(&dst, &src, &pdst, &psrc, tc.idx[0], tc.idx[1], tc.idx[2], tc.idx[3])
			}, dst[0], dst[1], pdst[0], pdst[1])
		}
		// Without PSQT rows the PSQT slices are not used: nil is fine.
		dst := [2][]int16{make([]int16, n), make([]int16, n)}
		m0.UpdatePair(&dst, &dst, nil, nil, 0, 1, 2, 3)
		if dst[0][0] != int16(0-n) || dst[1][0] != int16(2*n-3*n) {
			t.Fatalf("no-PSQT UpdatePair: %d %d", dst[0][0], dst[1][0])
		}
	})
}

// TestFeatureRowsAddSubPSQTMatchesGo: FeatureRows.AddSubPSQT == the Go AddSub on the two
// row slices plus, with PSQT rows (WithPSQT8), the Go sums of the two PSQT rows, at every
// level, any width, in place or not, with no write outside dst and pdst.
func TestFeatureRowsAddSubPSQTMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			m, w, f, n, nrows := drawFeatureRows(t)
			m, pw, withPSQT := drawPSQT8(t, m, f, nrows)
			inPlace := rapid.Bool().Draw(t, "inPlace")
			a := rapid.IntRange(0, nrows-1).Draw(t, "add")
			r := rapid.IntRange(0, nrows-1).Draw(t, "sub")
			src, sw := buffer(t, "src", n, f.i16)
			dst, whole := src, sw
			if !inPlace {
				dst, whole = buffer(t, "dst", n, f.i16)
			}
			want := slices.Clone(whole)
			wdst := want[len(whole)-guard-n : len(whole)-guard]
			wsrc := slices.Clone(src)
			addSubGeneric(wdst, wsrc, w[a*n:(a+1)*n], w[r*n:(r+1)*n])
			psrc, psw := buffer(t, "psrc", 8, f.i32)
			pdst, pwhole := psrc, psw
			if !inPlace {
				pdst, pwhole = buffer(t, "pdst", 8, f.i32)
			}
			pwant := slices.Clone(pwhole)
			if withPSQT {
				pd := pwant[len(pwhole)-guard-8 : len(pwhole)-guard]
				ps := slices.Clone(psrc)
				for b := range 8 {
					pd[b] = ps[b] + pw[8*a+b] - pw[8*r+b]
				}
			}
			m.AddSubPSQT(dst, src, pdst, psrc, a, r)
			checkSame(t, "dst buffer", whole, want)
			checkSame(t, "pdst buffer", pwhole, pwant)
		})
	})
}

// TestFeatureRowsAddSubPSQTRejects: a bad row index, value length or PSQT length panics
// naming it, before anything is written; without PSQT rows nil PSQT slices are fine.
func TestFeatureRowsAddSubPSQTRejects(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		const n, nrows = rejectWidth, rejectNRows
		m0, m, _ := rejectRows(t)
		for _, tc := range []struct {
			add, sub, dlen, plen int
			want                 string
		}{
			{0, 1, n - 1, 8, "lengths"},
			{nrows, 1, n, 8, "row 4"},
			{0, -1, n, 8, "row -1"},
			{0, 1, n, 7, "PSQT lengths"},
			{0, 1, n, 0, "PSQT lengths"},
		} {
			dst, src := make([]int16, tc.dlen), make([]int16, n)
			pdst, psrc := make([]int32, tc.plen), make([]int32, 8)
			panicsNamingUnwritten(t, fmt.Sprint(tc.add, tc.sub), tc.want, func() {
				m.AddSubPSQT(dst, src, pdst, psrc, tc.add, tc.sub)
			}, dst, pdst)
		}
		dst := make([]int16, n)
		m0.AddSubPSQT(dst, dst, nil, nil, 0, 1)
		if dst[0] != int16(-n) {
			t.Fatalf("no-PSQT AddSubPSQT: %d", dst[0])
		}
	})
}

// drawFeatureRows draws a filler, a width n ≥ 1, 1–12 rows of n int16 weights and the
// FeatureRows over them (and the weights, row-major).
func drawFeatureRows(t *rapid.T) (m FeatureRows, w []int16, f *filler, n, nrows int) {
	f = drawFiller(t)
	n = max(1, length(t, "n", 16))
	nrows = rapid.IntRange(1, 12).Draw(t, "rows")
	w, _ = buffer(t, "w", nrows*n, f.i16)
	m, err := NewFeatureRows(w, n)
	if err != nil {
		t.Fatal(err)
	}
	return m, w, f, n, nrows
}

// drawPSQT8 draws 8 PSQT int32 per row of m (nrows rows) and whether to attach them
// (WithPSQT8); it returns m with or without them, the rows and that choice.
func drawPSQT8(t *rapid.T, m FeatureRows, f *filler, nrows int) (FeatureRows, []int32, bool) {
	withPSQT := rapid.Bool().Draw(t, "psqt")
	pw, _ := buffer(t, "pw", 8*nrows, f.i32)
	if withPSQT {
		var err error
		if m, err = m.WithPSQT8(pw); err != nil {
			t.Fatal(err)
		}
	}
	return m, pw, withPSQT
}

// The reject tests' rows: rejectWidth int16 each, rejectNRows of them.
const rejectWidth, rejectNRows = 32, 4

// rejectRows is the reject tests' fixture: the rows (element i of the weights holds i) as
// m0, and with 8 PSQT int32 per row (1, 2, …) as m; pw are those PSQT rows.
func rejectRows(t *testing.T) (m0, m FeatureRows, pw []int32) {
	t.Helper()
	const n, nrows = rejectWidth, rejectNRows
	w := make([]int16, n*nrows)
	pw = make([]int32, 8*nrows)
	for i := range w {
		w[i] = int16(i)
	}
	for i := range pw {
		pw[i] = int32(i + 1)
	}
	m0, err := NewFeatureRows(w, n)
	if err != nil {
		t.Fatal(err)
	}
	if m, err = m0.WithPSQT8(pw); err != nil {
		t.Fatal(err)
	}
	return m0, m, pw
}

// panicsNamingUnwritten reports an error unless f panics with a message containing want,
// and a fatal one if f wrote any of outs (int16 or int32 slices, all zero before).
func panicsNamingUnwritten(t *testing.T, name, want string, f func(), outs ...any) {
	t.Helper()
	func() {
		defer func() {
			r, _ := recover().(string)
			if !strings.Contains(r, want) {
				t.Errorf("%s: panic %q, want one naming %q", name, r, want)
			}
		}()
		f()
	}()
	for k, o := range outs {
		var dirty bool
		switch o := o.(type) {
		case []int16:
			dirty = slices.ContainsFunc(o, func(x int16) bool { return x != 0 })
		case []int32:
			dirty = slices.ContainsFunc(o, func(x int32) bool { return x != 0 })
		}
		if dirty {
			t.Fatalf("%s: output %d written before the panic", name, k)
		}
	}
}

// pairValues is a two-perspective update's value operands (guarded buffers: whole[p]
// holds dst[p]) and the buffers expected afterwards, for row indices idx (perspective p
// adds row idx[2p] and subtracts row idx[2p+1]).
type pairValues struct {
	dst, src, whole, want [2][]int16
	idx                   [4]int
}

// drawPairValues draws the rows of a two-perspective update among nrows rows of n int16
// (w, row-major) and each perspective's source and destination (the same slice when
// inPlace), with the expected buffers from the Go AddSub.
func drawPairValues(t *rapid.T, f *filler, w []int16, n, nrows int, inPlace bool) pairValues {
	var v pairValues
	for i := range v.idx {
		v.idx[i] = rapid.IntRange(0, nrows-1).Draw(t, "row")
	}
	for p := range 2 {
		s, sw := buffer(t, "src", n, f.i16)
		v.src[p] = s
		v.dst[p], v.whole[p] = s, sw
		if !inPlace {
			v.dst[p], v.whole[p] = buffer(t, "dst", n, f.i16)
		}
		v.want[p] = slices.Clone(v.whole[p])
		wdst := v.want[p][len(v.whole[p])-guard-n : len(v.whole[p])-guard]
		wsrc := slices.Clone(s)
		if inPlace {
			wsrc = wdst
		}
		a, r := v.idx[2*p], v.idx[2*p+1]
		addSubGeneric(wdst, wsrc, w[a*n:(a+1)*n], w[r*n:(r+1)*n])
	}
	return v
}
