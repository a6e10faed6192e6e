package simd

// updateMixedFn is the installed UpdateMixed kernel of the current Level.
var updateMixedFn func(dst, src []int16, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int)

// UpdateMixed is the update (or, with empty sub lists and src the bias, the refresh) of one
// perspective of a feature transformer whose rows are partly int16 and partly int8
// (Stockfish 19: the HalfKAv2_hm rows, and the threat and pawn-pair rows it keeps in int8),
// in one pass over the accumulator:
//
//	dst[i] = src[i] + Σ_{r in add16} w16[r·n + i] − Σ_{r in sub16} w16[r·n + i]
//	                + Σ_{r in add8} int16(w8[r·n + i]) − Σ_{r in sub8} int16(w8[r·n + i])
//
// for i < n = len(dst), wrapping in int16 (so any order of rows gives the same bits);
// len(src) ≥ n; dst may alias src. Every row index r must satisfy (r+1)·n ≤ len(w16)
// (resp. len(w8)), otherwise it panics before writing anything. The assembly (AVX2;
// AVX-512 with 512-bit tiles) keeps a tile of up to 8 (16) vectors in registers while it
// adds every row, for n a multiple of 16; other lengths run the Go twin. One pass, where
// an int16 pass and a separate int8 pass (UpdateI8) would walk the accumulator twice.
func UpdateMixed(dst, src []int16, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) {
	updateMixedFn(dst, src, w16, add16, sub16, w8, add8, sub8)
}

const errUpdateMixedRow = "simd: UpdateMixed row index out of range"

// checkRowsMixed panics unless every row index is a whole row of its matrix (n > 0).
func checkRowsMixed(n int, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) {
	n16, n8 := uint(len(w16)/n), uint(len(w8)/n)
	for _, rows := range [2][]int{add16, sub16} {
		for _, r := range rows {
			if uint(r) >= n16 { // unsigned: r·n could wrap around for a hostile r
				panic(errUpdateMixedRow)
			}
		}
	}
	for _, rows := range [2][]int{add8, sub8} {
		for _, r := range rows {
			if uint(r) >= n8 {
				panic(errUpdateMixedRow)
			}
		}
	}
}

func updateMixedGeneric(dst, src []int16, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) {
	n := len(dst)
	src = src[:n]
	if n == 0 {
		return
	}
	checkRowsMixed(n, w16, add16, sub16, w8, add8, sub8)
	copy(dst, src)
	for _, r := range add16 {
		row := w16[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] += w
		}
	}
	for _, r := range sub16 {
		row := w16[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] -= w
		}
	}
	for _, r := range add8 {
		row := w8[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] += int16(w)
		}
	}
	for _, r := range sub8 {
		row := w8[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] -= int16(w)
		}
	}
}
