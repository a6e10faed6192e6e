//go:build amd64 && !purego

package simd

// refreshPlanesVec runs RefreshPlanes' vector kernel at the current level (AVX2 or above:
// the caller checks) and returns the number of rows, or −1 when the planes hold more than
// 64 bits (nothing written; the caller takes the Go kernel). pw nil: no PSQT.
func refreshPlanesVec(dst, bias, weights *int16, planes *uint64, nplanes, base, mask, n int, pdst, pw *int32) int {
	if wide {
		return refreshPlanesAVX512(dst, bias, weights, planes, nplanes, base, mask, n, pdst, pw)
	}
	return refreshPlanesAVX2(dst, bias, weights, planes, nplanes, base, mask, n, pdst, pw)
}

// refreshListedVec runs RefreshPSQT's vector kernel at the current level (AVX2 or above:
// the caller checks) for 1 to 64 rows and 8 PSQT buckets; it returns −1, writing nothing,
// when a row is not below nvalid.
func refreshListedVec(dst, bias, weights *int16, rows *int, nrows, nvalid, n int, pdst, pw *int32) int {
	if wide {
		return refreshListedAVX512(dst, bias, weights, rows, nrows, nvalid, n, pdst, pw)
	}
	return refreshListedAVX2(dst, bias, weights, rows, nrows, nvalid, n, pdst, pw)
}
