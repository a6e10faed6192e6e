package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// i8Case runs one int8-row kernel against its Go twin at every level: random lengths
// (mostly multiples of 16), unaligned buffers with guard zones, in place or not.
func i8Case(t *testing.T, nops int, kernel func(dst, src []int16, ops [][]int8), twin func(dst, src []int16, ops [][]int8)) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 16)
			src, srcWhole := buffer(t, "src", n, f.i16)
			var ops [][]int8
			for j := range nops {
				o, _ := buffer(t, fmt.Sprint("op", j), n, f.i8)
				ops = append(ops, o)
			}
			dst, whole := src, srcWhole
			if !rapid.Bool().Draw(t, "inPlace") {
				dst, whole = buffer(t, "dst", n, f.i16)
			}
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			wdst := want[off : off+n]
			twin(wdst, slices.Clone(src), ops)
			kernel(dst, src, ops)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestAddI8MatchesGo(t *testing.T) {
	i8Case(t, 1, func(d, s []int16, o [][]int8) { AddI8(d, s, o[0]) },
		func(d, s []int16, o [][]int8) { addI8Generic(d, s, o[0]) })
}

func TestSubI8MatchesGo(t *testing.T) {
	i8Case(t, 1, func(d, s []int16, o [][]int8) { SubI8(d, s, o[0]) },
		func(d, s []int16, o [][]int8) { subI8Generic(d, s, o[0]) })
}

func TestAddSubI8MatchesGo(t *testing.T) {
	i8Case(t, 2, func(d, s []int16, o [][]int8) { AddSubI8(d, s, o[0], o[1]) },
		func(d, s []int16, o [][]int8) { addSubI8Generic(d, s, o[0], o[1]) })
}

func TestUpdateI8MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 16)
			nfeat := rapid.IntRange(1, 48).Draw(t, "features")
			src, _ := buffer(t, "src", n, f.i16)
			weights, _ := buffer(t, "weights", nfeat*n, f.i8)
			add := rapid.SliceOfN(rapid.IntRange(0, nfeat-1), 0, 40).Draw(t, "add")
			sub := rapid.SliceOfN(rapid.IntRange(0, nfeat-1), 0, 40).Draw(t, "sub")
			dst, whole := buffer(t, "dst", n, f.i16)
			inPlace := rapid.Bool().Draw(t, "inPlace")
			if inPlace {
				dst = src
			}
			want := make([]int16, n)
			updateI8Generic(want, slices.Clone(src), weights, add, sub)
			before := slices.Clone(whole)
			UpdateI8(dst, src, weights, add, sub)
			checkSame(t, "dst", dst, want)
			if !inPlace {
				off := len(whole) - guard - n
				copy(before[off:], want)
				checkSame(t, "dst buffer", whole, before)
			}
		})
	})
}

// By hand: int8 −128 widens to −128 (sign extension), int16 wraps.
func TestI8KernelsByHand(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		n := 48
		src, dst := make([]int16, n), make([]int16, n)
		a, s := make([]int8, n), make([]int8, n)
		for i := range src {
			src[i] = int16(i)
			a[i], s[i] = -128, 127
		}
		src[0], a[0], s[0] = math.MaxInt16, 1, 0
		AddSubI8(dst, src, a, s)
		if dst[0] != math.MinInt16 || dst[5] != 5-128-127 {
			t.Errorf("AddSubI8: %d %d", dst[0], dst[5])
		}
		w := []int8{}
		for r := 0; r < 3; r++ {
			for i := 0; i < n; i++ {
				w = append(w, int8(r*10-15))
			}
		}
		UpdateI8(dst, src, w, []int{0, 2, 2}, []int{1})
		if dst[7] != 7-15+5+5-(-5) { // rows −15, −5, 5
			t.Errorf("UpdateI8: %d", dst[7])
		}
		for _, r := range []int{-1, 3, math.MaxInt, int(^uint(0)>>4 + 2)} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("row %d: no panic", r)
					}
				}()
				UpdateI8(dst, src, w, []int{0}, []int{r})
			}()
		}
	})
}

// BenchmarkUpdateI8 is a Stockfish 19 quiet move's threat and pawn-pair diff: 8 int8 rows
// added and 8 subtracted (doc/featuresets.md measures ~8 per side per move) out of 64,368.
func BenchmarkUpdateI8(b *testing.B) {
	const rows, features = 8, 64368
	for _, n := range []int{1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dst, src := AlignedInt16(n), randInt16(n, -100, 100)
			weights := make([]int8, features*n)
			r := rand.New(rand.NewPCG(7, 7))
			for i := range weights {
				weights[i] = int8(r.IntN(256) - 128)
			}
			add, sub := make([]int, rows), make([]int, rows)
			for i := range add {
				add[i], sub[i] = r.IntN(features), r.IntN(features)
			}
			b.SetBytes(int64(4*n + 2*rows*n))
			loop(b, func() { UpdateI8(dst, src, weights, add, sub) })
		})
	}
}

func BenchmarkAddSubI8(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dst, src := AlignedInt16(n), randInt16(n, -100, 100)
			a, s := make([]int8, n), make([]int8, n)
			for i := range a {
				a[i], s[i] = int8(i), int8(-i)
			}
			b.SetBytes(int64(6 * n))
			loop(b, func() { AddSubI8(dst, src, a, s) })
		})
	}
}
