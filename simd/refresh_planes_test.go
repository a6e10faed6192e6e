package simd

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// TestRefreshPlanesMatchesGo: RefreshPlanes at every level gives the Go kernel's dst and
// PSQT sums bit for bit, writes nothing outside them, and equals Refresh over the rows the
// planes name (plus the PSQT rows summed in Go): random widths (multiples of 16 and
// others), planes (sparse, dense, more than 64 bits in all), masks, bases and 0, 8 or 3
// PSQT buckets.
func TestRefreshPlanesMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := widthLength(t)
			np := rapid.IntRange(0, 11).Draw(t, "planes")
			extra := rapid.IntRange(0, 64).Draw(t, "extraRows")
			nrows := 64*np + extra
			base := rapid.IntRange(0, extra).Draw(t, "base")
			mask := rapid.IntRange(0, 63).Draw(t, "mask")
			planes := make([]uint64, np)
			for k := range planes {
				switch rapid.IntRange(0, 2).Draw(t, "planeKind") {
				case 0:
					planes[k] = f.r.Uint64() & f.r.Uint64() & f.r.Uint64() // ≈ 8 bits
				case 1:
					planes[k] = f.r.Uint64()
				}
			}
			o := drawRefreshOperands(t, f, n, nrows)
			nb, bias, weights, psqt := o.nb, o.bias, o.weights, o.psqt
			dst, whole, pd, pwhole := o.dst, o.whole, o.pd, o.pwhole

			want := slices.Clone(whole)
			pwant := slices.Clone(pwhole)
			off, poff := len(whole)-guard-n, len(pwhole)-guard-nb
			if np > 0 {
				if c := refreshPlanesGeneric(want[off:off+n], bias, weights, planes, base, mask, pwant[poff:poff+nb], psqt); c != len(rowsOf(planes)) {
					t.Fatalf("Go kernel counted %d rows", c)
				}
			} else {
				copy(want[off:off+n], bias)
				clear(pwant[poff : poff+nb])
			}
			// The rows as an index list, through Refresh and a Go PSQT sum.
			var rows []int
			for k, b := range planes {
				for s := 0; s < 64; s++ {
					if b>>s&1 == 1 {
						rows = append(rows, base+64*k+(s^mask))
					}
				}
			}
			ref := make([]int16, n)
			refreshGeneric(ref, bias, weights, rows)
			checkSame(t, "Go kernel vs Refresh", want[off:off+n], ref)
			pref := make([]int32, nb)
			for _, r := range rows {
				for b := range pref {
					pref[b] += psqt[r*nb+b]
				}
			}
			checkSame(t, "Go kernel PSQT", pwant[poff:poff+nb], pref)

			if c := RefreshPlanes(dst, bias, weights, planes, base, mask, pd, psqt); c != len(rows) {
				t.Fatalf("RefreshPlanes returned %d for %d rows", c, len(rows))
			}
			checkSame(t, "dst buffer", whole, want)
			checkSame(t, "pdst buffer", pwhole, pwant)
		})
	})
}

// rowsOf lists the set bits of planes (one per row).
func rowsOf(planes []uint64) []int {
	var r []int
	for k, b := range planes {
		for s := 0; s < 64; s++ {
			if b>>s&1 == 1 {
				r = append(r, 64*k+s)
			}
		}
	}
	return r
}

// TestRefreshPlanesRejectsBadRange: rows beyond the matrix (or the PSQT table), a
// negative base, a mask outside [0, 64) or an empty accumulator panic before anything is
// written.
func TestRefreshPlanesRejectsBadRange(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		w := make([]int16, 16*128) // 128 rows
		cases := []struct {
			name        string
			n           int
			planes      []uint64
			base, mask  int
			nb, psqtLen int
		}{
			{"past the end", 16, []uint64{1, 1}, 1, 0, 0, 0},
			{"three planes", 16, []uint64{1, 1, 1}, 0, 0, 0, 0},
			{"negative base", 16, []uint64{1}, -1, 0, 0, 0},
			{"huge base", 16, []uint64{1}, int(^uint(0) >> 1), 0, 0, 0},
			{"mask", 16, []uint64{1}, 0, 64, 0, 0},
			{"negative mask", 16, []uint64{1}, 0, -1, 0, 0},
			{"short psqt", 16, []uint64{1, 1}, 0, 0, 8, 8*128 - 1},
			{"empty", 0, []uint64{1}, 0, 0, 0, 0},
		}
		for _, c := range cases {
			dst := filled(c.n, 7)
			panicsUnwritten(t, c.name, dst, func() {
				RefreshPlanes(dst, make([]int16, 16), w, c.planes, c.base, c.mask, make([]int32, c.nb), make([]int32, c.psqtLen))
			})
		}
	})
}

// TestRefreshListLengths: Refresh at every level equals the Go kernel for row lists on
// both sides of the 64 rows its checked-list kernel takes (longer lists keep the wrapper's
// check and the original kernel), and a bad row anywhere in a list panics — at the vector
// levels with the destination untouched (the Go kernel checks as it goes).
func TestRefreshListLengths(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := 16 * rapid.IntRange(1, 40).Draw(t, "n16")
			nfeat := rapid.IntRange(1, 200).Draw(t, "features")
			bias, _ := buffer(t, "bias", n, f.i16)
			weights, _ := buffer(t, "weights", nfeat*n, f.i16)
			rows := rapid.SliceOfN(rapid.IntRange(0, nfeat-1), 55, 140).Draw(t, "rows")
			dst, whole := buffer(t, "dst", n, f.i16)
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			refreshGeneric(want[off:off+n], bias, weights, rows)
			if rapid.Bool().Draw(t, "bad") {
				rows[rapid.IntRange(0, len(rows)-1).Draw(t, "at")] = []int{-1, nfeat, hugePosIndex}[rapid.IntRange(0, 2).Draw(t, "which")]
				before := slices.Clone(whole)
				func() {
					defer func() {
						if recover() == nil {
							t.Fatalf("no panic for a bad row in %d rows", len(rows))
						}
					}()
					Refresh(dst, bias, weights, rows)
				}()
				if Level() >= AVX2 {
					checkSame(t, "dst buffer after a bad row", whole, before)
				}
				return
			}
			Refresh(dst, bias, weights, rows)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

// TestRefreshPSQTMatchesGo: RefreshPSQT at every level equals Refresh plus a Go sum of
// the rows' PSQT weights, for 0 to 100 rows, 8, 3 or no buckets, any width; a row beyond
// the weights or the PSQT table panics (at the vector levels with nothing written).
func TestRefreshPSQTMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := widthLength(t)
			nfeat := rapid.IntRange(1, 120).Draw(t, "features")
			nb := []int{8, 3, 0}[rapid.IntRange(0, 2).Draw(t, "buckets")]
			psqtRows := nfeat - rapid.IntRange(0, 1).Draw(t, "psqtShort")
			bias, _ := buffer(t, "bias", n, f.i16)
			weights, _ := buffer(t, "weights", nfeat*n, f.i16)
			psqt, _ := buffer(t, "psqt", psqtRows*nb, f.i32)
			rows := rapid.SliceOfN(rapid.IntRange(0, max(0, psqtRows-1)), 0, 100).Draw(t, "rows")
			if psqtRows == 0 {
				rows = nil
			}
			dst, whole := buffer(t, "dst", n, f.i16)
			pd, pwhole := buffer(t, "pdst", nb, f.i32)
			if rapid.Bool().Draw(t, "bad") {
				rows = append(rows, []int{-1, nfeat, psqtRows, hugePosIndex}[rapid.IntRange(0, 3).Draw(t, "which")])
				if nb == 0 && rows[len(rows)-1] == psqtRows && psqtRows < nfeat {
					rows = rows[:len(rows)-1] // a valid row when there is no PSQT table to exceed
				} else {
					before, pbefore := slices.Clone(whole), slices.Clone(pwhole)
					func() {
						defer func() {
							if recover() == nil {
								t.Fatalf("no panic for row %d", rows[len(rows)-1])
							}
						}()
						RefreshPSQT(dst, bias, weights, rows, pd, psqt)
					}()
					if Level() >= AVX2 && nb == 8 && n%16 == 0 && len(rows) <= 64 {
						checkSame(t, "dst after a bad row", whole, before)
						checkSame(t, "pdst after a bad row", pwhole, pbefore)
					}
					return
				}
			}
			want, pwant := slices.Clone(whole), slices.Clone(pwhole)
			off, poff := len(whole)-guard-n, len(pwhole)-guard-nb
			refreshGeneric(want[off:off+n], bias, weights, rows)
			clear(pwant[poff : poff+nb])
			for _, r := range rows {
				for b := 0; b < nb; b++ {
					pwant[poff+b] += psqt[r*nb+b]
				}
			}
			RefreshPSQT(dst, bias, weights, rows, pd, psqt)
			checkSame(t, "dst buffer", whole, want)
			checkSame(t, "pdst buffer", pwhole, pwant)
		})
	})
}

// BenchmarkRefreshPlanes: a HalfKAv2_hm-shaped refresh (704 rows, 11 planes, 30 pieces)
// through RefreshPlanes with and without 8 PSQT buckets, and the same rows as an index
// list through Refresh and RefreshPSQT; hot rows (the kernels' own cost).
func BenchmarkRefreshPlanes(b *testing.B) {
	const features = 704
	r := rand.New(rand.NewPCG(9, 9))
	var planes [11]uint64
	var rows []int
	for len(rows) < 30 {
		k, s := r.IntN(11), r.IntN(64)
		if planes[k]>>s&1 == 0 {
			planes[k] |= 1 << s
			rows = append(rows, 64*k+s)
		}
	}
	psqt := randInt32(features*8, -1000, 1000)
	pd := make([]int32, 8)
	for _, n := range benchWidths {
		dst, bias := AlignedInt16(n), randInt16(n, -100, 100)
		weights := randInt16(features*n, -100, 100)
		b.Run(fmt.Sprintf("planes/%d", n), func(b *testing.B) {
			loop(b, func() { RefreshPlanes(dst, bias, weights, planes[:], 0, 0, nil, nil) })
		})
		b.Run(fmt.Sprintf("planes+psqt/%d", n), func(b *testing.B) {
			loop(b, func() { RefreshPlanes(dst, bias, weights, planes[:], 0, 0, pd, psqt) })
		})
		b.Run(fmt.Sprintf("list/%d", n), func(b *testing.B) {
			loop(b, func() { Refresh(dst, bias, weights, rows) })
		})
		b.Run(fmt.Sprintf("list+psqt/%d", n), func(b *testing.B) {
			loop(b, func() { RefreshPSQT(dst, bias, weights, rows, pd, psqt) })
		})
	}
}

// TestPlaneRefresherMatchesGo: PlaneRefresher.Refresh at every level gives the
// reference's dst and PSQT sums bit for bit (the rows base + planeRows[k] + (s XOR mask)
// for the set bits s of boards[2+k/2] & boards[k%2], added by the Go Refresh and a Go
// PSQT sum) and writes nothing outside them: random widths (multiples of 16 and others),
// plane layouts (2 to 12 planes, rows anywhere, shared as HalfKAv2_hm's kings share
// one), bitboards (disjoint as a position's, or arbitrary: more than 64 bits in all must
// return −1 with nothing written, at every level), masks, bases and 0, 8 or 3 PSQT
// buckets.
func TestPlaneRefresherMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := widthLength(t)
			np := 2 * rapid.IntRange(1, MaxBoardPlanes/2).Draw(t, "pairs")
			nrows := 64 + rapid.IntRange(0, 800).Draw(t, "extraRows")
			prows := make([]int, np)
			span := 0
			for k := range prows {
				switch {
				case rapid.Bool().Draw(t, "shared") && k > 0:
					prows[k] = prows[k-1]
				default:
					prows[k] = rapid.IntRange(0, nrows-64).Draw(t, "planeRow")
				}
				span = max(span, prows[k]+64)
			}
			base := rapid.IntRange(0, nrows-span).Draw(t, "base")
			mask := rapid.IntRange(0, 63).Draw(t, "mask")
			var boards [8]uint64
			if rapid.Bool().Draw(t, "arbitrary") {
				for i := range boards {
					boards[i] = f.r.Uint64()
				}
			} else { // a position's: every square at most one (side, role)
				for sq := range 64 {
					if f.r.IntN(3) == 0 {
						boards[f.r.IntN(2)] |= 1 << sq
						boards[2+f.r.IntN(6)] |= 1 << sq
					}
				}
			}
			o := drawRefreshOperands(t, f, n, nrows)
			nb, bias, weights, psqt := o.nb, o.bias, o.weights, o.psqt
			dst, whole, pd, pwhole := o.dst, o.whole, o.pd, o.pwhole

			var rows []int
			for k, o := range prows {
				b := boards[2+k/2] & boards[k%2]
				for s := range 64 {
					if b>>s&1 == 1 {
						rows = append(rows, base+o+(s^mask))
					}
				}
			}
			want, pwant := slices.Clone(whole), slices.Clone(pwhole)
			wantC := -1
			if len(rows) <= 64 {
				wantC = len(rows)
				off, poff := len(whole)-guard-n, len(pwhole)-guard-nb
				refreshGeneric(want[off:off+n], bias, weights, rows)
				pref := pwant[poff : poff+nb]
				clear(pref)
				for _, r := range rows {
					for b := range pref {
						pref[b] += psqt[r*nb+b]
					}
				}
			}
			pr, err := NewPlaneRefresher(bias, weights, n, psqt, nb, prows)
			if err != nil {
				t.Fatal(err)
			}
			if pr.Planes() != np {
				t.Fatalf("Planes() = %d, want %d", pr.Planes(), np)
			}
			if c := pr.Refresh(dst, pd, &boards, base, mask); c != wantC {
				t.Fatalf("Refresh returned %d for %d rows", c, len(rows))
			}
			checkSame(t, "dst buffer", whole, want)
			checkSame(t, "pdst buffer", pwhole, pwant)
		})
	})
}

// TestPlaneRefresherRejectsBadArgs: NewPlaneRefresher rejects plane layouts of odd length,
// more than MaxBoardPlanes planes, negative rows or rows past the matrix; Refresh
// panics, before writing anything, for a base past the last one every plane fits, a
// negative base, a mask outside [0, 64), destinations of the wrong length, and on a
// refresher bound without planes.
func TestPlaneRefresherRejectsBadArgs(t *testing.T) {
	w := make([]int16, 16*128) // 128 rows
	for _, rows := range [][]int{nil, {0}, make([]int, MaxBoardPlanes+2), {0, -1}, {0, 65}} {
		if _, err := NewPlaneRefresher(make([]int16, 16), w, 16, nil, 0, rows); err == nil {
			t.Errorf("NewPlaneRefresher with plane rows %v: no error", rows)
		}
	}
	forLevels(t, func(t *testing.T) {
		cases := []struct {
			name       string
			n, nb      int
			prows      []int
			base, mask int
		}{
			{"past the end", 16, 0, []int{0, 64}, 1, 0},
			{"negative base", 16, 0, []int{0, 0}, -1, 0},
			{"huge base", 16, 0, []int{0, 0}, int(^uint(0) >> 1), 0},
			{"mask", 16, 0, []int{0, 0}, 0, 64},
			{"negative mask", 16, 0, []int{0, 0}, 0, -1},
			{"short dst", 15, 0, []int{0, 0}, 0, 0},
			{"psqt dst", 16, 3, []int{0, 0}, 0, 0},
		}
		for _, c := range cases {
			pr, err := NewPlaneRefresher(make([]int16, 16), w, 16, nil, 0, c.prows)
			if err != nil {
				t.Fatal(err)
			}
			dst := filled(c.n, 7)
			boards := [8]uint64{1, 0, 1}
			panicsUnwritten(t, c.name, dst, func() {
				pr.Refresh(dst, make([]int32, c.nb), &boards, c.base, c.mask)
			})
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("zero PlaneRefresher: no panic")
				}
			}()
			var zero PlaneRefresher
			zero.Refresh(nil, nil, &[8]uint64{}, 0, 0)
		}()
	})
}

// TestPlaneKernelLayout: planeKernel's fields lie at the offsets refreshBoards reads
// (pk* in simd/_asm/refresh_planes.go).
func TestPlaneKernelLayout(t *testing.T) {
	var k planeKernel
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the assembly is amd64's")
	}
	got := []uintptr{unsafe.Offsetof(k.bias), unsafe.Offsetof(k.weights), unsafe.Offsetof(k.psqt),
		unsafe.Offsetof(k.n), unsafe.Offsetof(k.np), unsafe.Offsetof(k.rows), unsafe.Sizeof(k.rows[0])}
	if want := []uintptr{0, 8, 16, 24, 32, 40, 8}; !slices.Equal(got, want) {
		t.Fatalf("planeKernel offsets %v, want %v", got, want)
	}
}

// filled returns n int16 set to v.
func filled(n int, v int16) []int16 {
	s := make([]int16, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// panicsUnwritten reports an error unless f panics and leaves dst (filled with 7) as it
// was: the refreshes check their arguments before writing anything.
func panicsUnwritten(t *testing.T, name string, dst []int16, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
		for _, v := range dst {
			if v != 7 {
				t.Errorf("%s: dst written", name)
				break
			}
		}
	}()
	f()
}

// refreshOperands are a refresh test's tables and destinations: nb PSQT buckets (0, 8 or
// 3), n biases, nrows rows of n weights and of nb PSQT weights, and the guarded
// destinations dst (in whole) and pd (in pwhole).
type refreshOperands struct {
	nb            int
	bias, weights []int16
	psqt          []int32
	dst, whole    []int16
	pd, pwhole    []int32
}

// drawRefreshOperands draws refreshOperands for width n and nrows rows.
func drawRefreshOperands(t *rapid.T, f *filler, n, nrows int) refreshOperands {
	var o refreshOperands
	o.nb = []int{0, 8, 3}[rapid.IntRange(0, 2).Draw(t, "buckets")]
	o.bias, _ = buffer(t, "bias", n, f.i16)
	o.weights, _ = buffer(t, "weights", nrows*n, f.i16)
	o.psqt, _ = buffer(t, "psqt", nrows*o.nb, f.i32)
	o.dst, o.whole = buffer(t, "dst", n, f.i16)
	o.pd, o.pwhole = buffer(t, "pdst", o.nb, f.i32)
	return o
}
