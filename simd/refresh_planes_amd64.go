//go:build amd64 && !purego

package simd

// refreshListedVec runs RefreshPSQT's vector kernel at the current level (AVX2 or above:
// the caller checks) for 1 to 64 rows and 8 PSQT buckets (or none: pdst and pw nil); it returns −1, writing nothing,
// when a row is not below nvalid.
func refreshListedVec(dst, bias, weights *int16, rows *int, nrows, nvalid, n int, pdst, pw *int32) int {
	if wide {
		return refreshListedAVX512(dst, bias, weights, rows, nrows, nvalid, n, pdst, pw)
	}
	return refreshListedAVX2(dst, bias, weights, rows, nrows, nvalid, n, pdst, pw)
}
