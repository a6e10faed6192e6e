package simd

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestFeatureRowsAddSubMatchesGo: FeatureRows.AddSub == the Go AddSub on the two row
// slices, at every level, any width (multiples of 16 and others), in place or not, with
// no write outside dst.
func TestFeatureRowsAddSubMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := max(1, length(t, "n", 16))
			nrows := rapid.IntRange(1, 12).Draw(t, "rows")
			w, _ := buffer(t, "w", nrows*n+rapid.IntRange(0, n-1).Draw(t, "partial"), f.i16)
			m, err := NewFeatureRows(w, n)
			if err != nil {
				t.Fatal(err)
			}
			if m.Rows() != nrows || m.Width() != n {
				t.Fatalf("Rows %d Width %d, want %d %d", m.Rows(), m.Width(), nrows, n)
			}
			add := rapid.IntRange(0, nrows-1).Draw(t, "add")
			sub := rapid.IntRange(0, nrows-1).Draw(t, "sub")
			src, srcWhole := buffer(t, "src", n, f.i16)
			dst, whole := src, srcWhole
			inPlace := rapid.Bool().Draw(t, "inPlace")
			if !inPlace {
				dst, whole = buffer(t, "dst", n, f.i16)
			}
			want := slices.Clone(whole)
			wdst := want[len(whole)-guard-n : len(whole)-guard]
			wsrc := slices.Clone(src)
			if inPlace {
				wsrc = wdst
			}
			addSubGeneric(wdst, wsrc, w[add*n:(add+1)*n], w[sub*n:(sub+1)*n])
			m.AddSub(dst, src, add, sub)
			checkSame(t, "dst buffer", whole, want)
			if !slices.Equal(m.Row(add), w[add*n:(add+1)*n]) {
				t.Fatalf("Row(%d) differs", add)
			}
		})
	})
}

// TestFeatureRowsRejects: bad row indices and lengths panic with a message naming them,
// before anything is written, at every level; a width ≤ 0 is an error.
func TestFeatureRowsRejects(t *testing.T) {
	if _, err := NewFeatureRows(make([]int16, 32), 0); err == nil {
		t.Error("NewFeatureRows width 0 accepted")
	}
	forLevels(t, func(t *testing.T) {
		w := make([]int16, 3*32+5) // 3 rows of 32 and a partial one
		for i := range w {
			w[i] = int16(i)
		}
		m, err := NewFeatureRows(w, 32)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]int16, 32)
		for _, c := range []struct {
			dst, src []int16
			add, sub int
			want     string
		}{
			{dst, dst, 3, 0, "row 3 out of range [0, 3)"},
			{dst, dst, 0, -1, "row -1 out of range [0, 3)"},
			{dst, dst, wideIndex, 0, "out of range [0, 3)"},
			{dst, dst, 0, hugeNegIndex, "out of range [0, 3)"},
			{dst[:16], dst, 0, 1, "lengths dst 16, src 32, want the width 32"},
			{dst, make([]int16, 48), 0, 1, "lengths dst 32, src 48"},
		} {
			func() {
				defer func() {
					if msg := fmt.Sprint(recover()); !strings.Contains(msg, c.want) {
						t.Errorf("AddSub(rows %d, %d): panic %q, want %q", c.add, c.sub, msg, c.want)
					}
				}()
				m.AddSub(c.dst, c.src, c.add, c.sub)
			}()
			for i, v := range dst {
				if v != 0 {
					t.Fatalf("dst[%d] = %d written before the panic", i, v)
				}
			}
		}
		var zero FeatureRows
		func() {
			defer func() {
				if recover() == nil {
					t.Error("zero FeatureRows accepted a row")
				}
			}()
			zero.AddSub(nil, nil, 0, 0)
		}()
	})
}

// BenchmarkFeatureRowsAddSub: one quiet-move update of a 256-wide perspective through
// FeatureRows.AddSub against the AddSub function value with row slices (the glue saved).
func BenchmarkFeatureRowsAddSub(b *testing.B) {
	const n = 256
	w := AlignedInt16(64 * n)
	acc := AlignedInt16(2 * n)
	m, _ := NewFeatureRows(w, n)
	b.Run("FeatureRows", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			m.AddSub(acc[:n], acc[n:], i&63, (i+7)&63)
		}
	})
	b.Run("AddSub", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			fa, fr := i&63, (i+7)&63
			AddSub(acc[:n], acc[n:], w[fa*n:][:n], w[fr*n:][:n])
		}
	})
}

// TestFeatureRowsUpdateMatchesGo: FeatureRows.Update == src plus addGeneric/subGeneric of
// every listed row, at every level, any width, 0–12 rows per list (repeats allowed), in
// place or not, with no write outside dst.
func TestFeatureRowsUpdateMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			m, w, f, n, nrows := drawFeatureRows(t)
			idx := rapid.SliceOfN(rapid.IntRange(0, nrows-1), 0, 12)
			added, removed := idx.Draw(t, "added"), idx.Draw(t, "removed")
			src, srcWhole := buffer(t, "src", n, f.i16)
			dst, whole := src, srcWhole
			inPlace := rapid.Bool().Draw(t, "inPlace")
			if !inPlace {
				dst, whole = buffer(t, "dst", n, f.i16)
			}
			want := slices.Clone(whole)
			wdst := want[len(whole)-guard-n : len(whole)-guard]
			copy(wdst, src)
			for _, r := range added {
				addGeneric(wdst, wdst, w[r*n:(r+1)*n])
			}
			for _, r := range removed {
				subGeneric(wdst, wdst, w[r*n:(r+1)*n])
			}
			m.Update(dst, src, added, removed)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

// TestFeatureRowsUpdateRejects: a bad index in either list or a bad length panics naming
// it, before anything is written, at every level.
func TestFeatureRowsUpdateRejects(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		w := make([]int16, 3*32)
		for i := range w {
			w[i] = int16(i + 1)
		}
		m, _ := NewFeatureRows(w, 32)
		dst := make([]int16, 32)
		for _, c := range []struct {
			dst          []int16
			added, remov []int
			want         string
		}{
			{dst, []int{0, 3}, nil, "row 3 out of range [0, 3)"},
			{dst, []int{1}, []int{2, -1}, "row -1 out of range [0, 3)"},
			{dst, nil, []int{wideIndex}, "out of range [0, 3)"},
			{dst[:31], nil, nil, "lengths dst 31, src 32"},
		} {
			func() {
				defer func() {
					if msg := fmt.Sprint(recover()); !strings.Contains(msg, c.want) {
						t.Errorf("Update(%v, %v): panic %q, want %q", c.added, c.remov, msg, c.want)
					}
				}()
				m.Update(c.dst, dst, c.added, c.remov)
			}()
			for i, v := range dst {
				if v != 0 {
					t.Fatalf("dst[%d] = %d written before the panic", i, v)
				}
			}
		}
	})
}

// Out-of-range indices for the bound-check tests, valid constants on 32- and 64-bit
// targets: wideIndex is 1<<40 on 64-bit (its low 32 bits are 0, so a check that truncated
// to int32 would pass it), hugePosIndex and hugeNegIndex are ±2^62 there.
const (
	wideIndex    = 1 << (bits.UintSize - 24)
	hugePosIndex = 1 << (bits.UintSize - 2)
	hugeNegIndex = -1 << (bits.UintSize - 2)
)
