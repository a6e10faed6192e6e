package simd

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// mixedRef is UpdateMixed written plainly: per element, the int64 sums of each source and
// its signed rows, wrapped to int16 once at the end (wrapping sums are order-independent),
// then the wrapped sum of the two parts: sum ++ int16 part ++ int8 part.
func mixedRef(n int, src16, src8, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) []int16 {
	out := make([]int16, 3*n)
	for i := range n {
		v16, v8 := int64(src16[i]), int64(src8[i])
		for _, r := range add16 {
			v16 += int64(w16[r*n+i])
		}
		for _, r := range sub16 {
			v16 -= int64(w16[r*n+i])
		}
		for _, r := range add8 {
			v8 += int64(w8[r*n+i])
		}
		for _, r := range sub8 {
			v8 -= int64(w8[r*n+i])
		}
		out[n+i], out[2*n+i] = int16(v16), int16(v8)
		out[i] = int16(v16 + v8)
	}
	return out
}

// psqtRef is UpdateMixed's PSQT sums written plainly (int64 sums wrapped once): the sum,
// the int16 part, the int8 part; nil sources are zero.
func psqtRef(nb int, ps16, ps8 []int32, m *MixedRows, add16, sub16, add8, sub8 []int) []int32 {
	out := make([]int32, 3*nb)
	for j := range nb {
		var v16, v8 int64
		if ps16 != nil {
			v16 = int64(ps16[j])
		}
		if ps8 != nil {
			v8 = int64(ps8[j])
		}
		for _, r := range add16 {
			v16 += int64(m.PSQT16[r*nb+j])
		}
		for _, r := range sub16 {
			v16 -= int64(m.PSQT16[r*nb+j])
		}
		for _, r := range add8 {
			v8 += int64(m.PSQT8[r*nb+j])
		}
		for _, r := range sub8 {
			v8 -= int64(m.PSQT8[r*nb+j])
		}
		out[nb+j], out[2*nb+j], out[j] = int32(v16), int32(v8), int32(v16+v8)
	}
	return out
}

// TestUpdateMixedMatchesGo: UpdateMixed at every level equals the plain reference (and so
// the Go twin), in place (the sources the parts of dst) or not, guard zones untouched,
// for any row lists (repeats, empty lists) and lengths, with the PSQT sums of 0, 3 or 8
// buckets (the kernel's own sums and the Go path), from sources or from zero.
func TestUpdateMixedMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 16)
			n16 := rapid.IntRange(1, 24).Draw(t, "rows16")
			n8 := rapid.IntRange(1, 48).Draw(t, "rows8")
			src16, _ := buffer(t, "src16", n, f.i16)
			src8, _ := buffer(t, "src8", n, f.i16)
			w16, _ := buffer(t, "w16", n16*n, f.i16)
			w8, _ := buffer(t, "w8", n8*n, f.i8)
			rows := func(nr, k int, name string) []int {
				return rapid.SliceOfN(rapid.IntRange(0, nr-1), 0, k).Draw(t, name)
			}
			add16, sub16 := rows(n16, 6, "add16"), rows(n16, 6, "sub16")
			add8, sub8 := rows(n8, 40, "add8"), rows(n8, 40, "sub8")
			dst, whole := buffer(t, "dst", 3*n, f.i16)
			inPlace := rapid.Bool().Draw(t, "inPlace")
			if inPlace {
				copy(dst[n:], src16)
				copy(dst[2*n:], src8)
				src16, src8 = dst[n:2*n], dst[2*n:]
			}
			want := mixedRef(n, src16, src8, w16, add16, sub16, w8, add8, sub8)
			before := slices.Clone(whole)
			m := &MixedRows{W16: w16, W8: w8}
			var psqt, ps16, ps8, wantP []int32
			if nb := rapid.SampledFrom([]int{0, 8, 3}).Draw(t, "buckets"); nb > 0 && n > 0 {
				i32 := func(k int, name string) []int32 {
					return rapid.SliceOfN(rapid.Int32(), k, k).Draw(t, name)
				}
				m.PSQT16, m.PSQT8, m.Buckets = i32(nb*n16, "psqt16rows"), i32(nb*n8, "psqt8rows"), nb
				psqt = i32(3*nb, "psqt")
				if rapid.Bool().Draw(t, "psqtSources") {
					ps16, ps8 = i32(nb, "ps16"), i32(nb, "ps8")
					if inPlace {
						copy(psqt[nb:], ps16)
						copy(psqt[2*nb:], ps8)
						ps16, ps8 = psqt[nb:2*nb], psqt[2*nb:]
					}
				}
				wantP = psqtRef(nb, ps16, ps8, m, add16, sub16, add8, sub8)
			}
			UpdateMixed(dst, src16, src8, psqt, ps16, ps8, m, add16, sub16, add8, sub8)
			if m.Buckets > 0 {
				if !slices.Equal(psqt, wantP) {
					t.Fatalf("psqt %v, want %v", psqt, wantP)
				}
			}
			checkSame(t, "dst", dst, want)
			off := len(whole) - guard - 3*n
			copy(before[off:], want)
			checkSame(t, "dst buffer", whole, before)
		})
	})
}

// TestUpdateMixedRowBounds: a row index outside either matrix panics with the kernel's
// message before anything is written, at every level.
func TestUpdateMixedRowBounds(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		n := 32
		src, dst := make([]int16, n), make([]int16, 3*n)
		for i := range dst {
			dst[i] = 7
		}
		w16, w8 := make([]int16, 2*n), make([]int8, 3*n)
		for _, c := range []struct{ a16, s16, a8, s8 []int }{
			{a16: []int{2}}, {s16: []int{-1}}, {a8: []int{0, 3}}, {s8: []int{1 << 30}},
		} {
			func() {
				defer func() {
					r := recover()
					if s, _ := r.(string); !strings.Contains(s, "UpdateMixed row index out of range") {
						t.Errorf("%+v: recovered %v", c, r)
					}
				}()
				UpdateMixed(dst, src, src, nil, nil, nil, &MixedRows{W16: w16, W8: w8}, c.a16, c.s16, c.a8, c.s8)
			}()
			if dst[0] != 7 || dst[3*n-1] != 7 {
				t.Fatalf("%+v: dst written before the panic", c)
			}
		}
	})
}

// TestUpdateMixedLengths: a dst that is not three vectors, or a source shorter than one,
// panics with UpdateMixed's message, at every level.
func TestUpdateMixedLengths(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		m := &MixedRows{W16: make([]int16, 64), W8: make([]int8, 64)}
		for _, c := range []struct{ dst, src16, src8 int }{{97, 32, 32}, {96, 31, 32}, {96, 32, 16}} {
			func() {
				defer func() {
					if s, _ := recover().(string); !strings.Contains(s, "UpdateMixed: dst is not three vectors") {
						t.Errorf("%+v: recovered %q", c, s)
					}
				}()
				UpdateMixed(make([]int16, c.dst), make([]int16, c.src16), make([]int16, c.src8), nil, nil, nil, m, []int{0}, nil, nil, nil)
			}()
		}
	})
}

// TestPrefetchMixedHint: PrefetchMixed is a hint at every level — valid rows (with and
// without PSQT tables), out-of-range rows, n of 0 or not a multiple of 16 neither panic nor
// allocate nor change the rows.
func TestPrefetchMixedHint(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		n := 32
		w16, w8 := make([]int16, 4*n), make([]int8, 5*n)
		for i := range w16 {
			w16[i] = int16(i)
		}
		for i := range w8 {
			w8[i] = int8(i)
		}
		m := &MixedRows{W16: w16, W8: w8, PSQT16: make([]int32, 4*8), PSQT8: make([]int32, 5*8), Buckets: 8}
		bare := &MixedRows{W16: w16, W8: w8}
		want16, want8 := slices.Clone(w16), slices.Clone(w8)
		for _, c := range []struct {
			m                *MixedRows
			n                int
			a16, s16, a8, s8 []int
		}{
			{m, n, []int{0, 3}, []int{1}, []int{4, 4, 0}, []int{2}},
			{bare, n, []int{3}, nil, nil, []int{4}},
			{m, n, []int{4}, nil, nil, nil},       // int16 row out of range
			{m, n, nil, nil, []int{-1}, nil},      // negative
			{m, n, nil, nil, nil, []int{1 << 30}}, // far out
			{m, 0, []int{0}, nil, nil, nil},
			{m, 24, []int{0}, nil, []int{0}, nil},
		} {
			if a := testing.AllocsPerRun(5, func() { PrefetchMixed(c.m, c.n, c.a16, c.s16, c.a8, c.s8) }); a != 0 {
				t.Errorf("%+v: %v allocations", c, a)
			}
		}
		if !slices.Equal(w16, want16) || !slices.Equal(w8, want8) {
			t.Error("PrefetchMixed changed the rows")
		}
	})
}
