package simd

import "math/bits"

// RefreshPlanes is Refresh (and, with psqtDst, the PSQT sums) for features given as piece
// planes, the form in which HalfKP and HalfKAv2_hm enumerate a position's features
// (featureset.Set.ActivePlanes): for every set bit s of planes[k] the row
//
//	r = base + 64·k + (s XOR mask)
//
// is active, and RefreshPlanes sets dst[i] = bias[i] + Σ_r weights[r·len(dst) + i] and,
// when psqtDst is not empty, psqtDst[b] = Σ_r psqt[r·len(psqtDst) + b] (int16 and int32
// arithmetic wrapping). It returns the number of rows added (the set bits of planes).
// It is the refresh of Stockfish 13's and 15.1's FeatureTransformer::update_accumulator
// with append_active_indices folded in: the vector kernels walk the bitboards themselves
// and add the 8 PSQT weights of a row with one vector add, so no index list is built in
// Go and no row is checked one by one.
//
// Bounds are checked once for the whole range of rows the planes can name: mask in
// [0, 64), base ≥ 0, base + 64·len(planes) ≤ len(weights)/len(dst) (and as many PSQT rows
// of len(psqtDst) values); RefreshPlanes panics otherwise, before writing anything, as it
// does when len(bias) < len(dst) or len(dst) is 0. The vector kernels take len(dst) a
// multiple of 16, at most 64 set bits in all and 0 or 8 PSQT buckets; anything else runs
// the Go kernel, with the same result at every level.
func RefreshPlanes(dst, bias, weights []int16, planes []uint64, base, mask int, psqtDst, psqt []int32) int {
	n := len(dst)
	if n == 0 {
		panic("simd: RefreshPlanes with an empty accumulator")
	}
	bias = bias[:n]
	// end = one past the last row the planes can name; the checks multiply in 128 bits
	// rather than divide (a 64-bit division costs tens of cycles, more than the rest).
	end := uint64(base) + 64*uint64(len(planes))
	if uint(mask) >= 64 || base < 0 || end < uint64(base) || !fits(end, n, len(weights)) ||
		len(psqtDst) > 0 && !fits(end, len(psqtDst), len(psqt)) {
		panic(errRefreshPlanes)
	}
	if level >= AVX2 && n%16 == 0 && len(planes) > 0 {
		var pd, pw *int32
		switch len(psqtDst) {
		case 0:
		case 8:
			pd, pw = &psqtDst[0], &psqt[0]
		default:
			return refreshPlanesGeneric(dst, bias, weights, planes, base, mask, psqtDst, psqt)
		}
		// The kernel is called from here rather than through a wrapper: one Go frame less
		// on the king-move path (wide is false where there is no assembly).
		c := 0
		if wide {
			c = refreshPlanesAVX512(&dst[0], &bias[0], &weights[0], &planes[0], len(planes), base, mask, n, pd, pw)
		} else {
			c = refreshPlanesAVX2(&dst[0], &bias[0], &weights[0], &planes[0], len(planes), base, mask, n, pd, pw)
		}
		if c >= 0 {
			return c
		}
	}
	return refreshPlanesGeneric(dst, bias, weights, planes, base, mask, psqtDst, psqt)
}

const errRefreshPlanes = "simd: RefreshPlanes rows out of range"

// fits reports rows·width ≤ size without overflow (width, size ≥ 0).
func fits(rows uint64, width, size int) bool {
	hi, lo := bits.Mul64(rows, uint64(width))
	return hi == 0 && lo <= uint64(size)
}

// refreshPlanesGeneric is RefreshPlanes' pure-Go kernel (the reference of the assembly);
// the caller has checked the bounds. It returns the number of rows.
func refreshPlanesGeneric(dst, bias, weights []int16, planes []uint64, base, mask int, psqtDst, psqt []int32) int {
	n := len(dst)
	copy(dst, bias[:n])
	nb := len(psqtDst)
	clear(psqtDst)
	c := 0
	for k, b := range planes {
		c += bits.OnesCount64(b)
		for ; b != 0; b &= b - 1 {
			r := base + 64*k + (bits.TrailingZeros64(b) ^ mask)
			row := weights[r*n : r*n+n]
			d := dst[:len(row)]
			for i, w := range row {
				d[i] += w
			}
			pr := psqt[r*nb : r*nb+nb]
			pd := psqtDst[:len(pr)]
			for j, w := range pr {
				pd[j] += w
			}
		}
	}
	return c
}

// RefreshPSQT is Refresh plus the PSQT sums of the same rows, psqtDst[b] = Σ_r
// psqt[r·len(psqtDst) + b] (int32, wrapping): Stockfish 15.1's refresh
// (FeatureTransformer::update_accumulator), which adds a row's 8 PSQT weights with one
// vector add in the loop over the rows. Every row must satisfy (r+1)·len(dst) ≤
// len(weights) and (r+1)·len(psqtDst) ≤ len(psqt); otherwise it panics (at the vector
// levels before writing anything). The vector kernel takes 1 to 64 rows, 8 buckets and
// len(dst) a multiple of 16; anything else runs Refresh and a Go loop, with the same
// result at every level.
func RefreshPSQT(dst, bias, weights []int16, rows []int, psqtDst, psqt []int32) {
	n := len(dst)
	bias = bias[:n]
	nb := len(psqtDst)
	if nb == 8 && level >= AVX2 && n > 0 && n%16 == 0 && len(rows) > 0 && len(rows) <= 64 {
		nvalid := min(len(weights)/n, len(psqt)/8)
		if refreshListedVec(&dst[0], &bias[0], &weights[0], &rows[0], len(rows), nvalid, n, &psqtDst[0], &psqt[0]) < 0 {
			panic(errRefreshRow)
		}
		return
	}
	refreshPSQTGeneric(dst, bias, weights, rows, psqtDst, psqt)
}

// refreshPSQTGeneric is RefreshPSQT's Go path (the reference of its kernel).
func refreshPSQTGeneric(dst, bias, weights []int16, rows []int, psqtDst, psqt []int32) {
	nb := len(psqtDst)
	if nb > 0 {
		for _, r := range rows {
			if uint(r) >= uint(len(psqt)/nb) {
				panic(errRefreshRow)
			}
		}
	}
	Refresh(dst, bias, weights, rows)
	clear(psqtDst)
	for _, r := range rows {
		pr := psqt[r*nb : r*nb+nb]
		pd := psqtDst[:len(pr)]
		for j, w := range pr {
			pd[j] += w
		}
	}
}
