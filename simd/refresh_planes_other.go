//go:build !amd64 || purego

package simd

// refreshPlanesVec: no vector kernel on this platform or with purego (never called: the
// level is Generic).
func refreshPlanesVec(dst, bias, weights *int16, planes *uint64, nplanes, base, mask, n int, pdst, pw *int32) int {
	return -1
}

// refreshListedVec: no vector kernel here (never called: the level is Generic).
func refreshListedVec(dst, bias, weights *int16, rows *int, nrows, nvalid, n int, pdst, pw *int32) int {
	return -1
}
