//go:build amd64 && !purego

package simd

// refreshPlanesAsm runs RefreshPlanes' vector kernel when the level and the shapes allow
// (AVX2 or above, len(dst) a multiple of 16, 0 or 8 PSQT buckets, at most 64 rows) and
// reports whether it did; the caller has checked the bounds and that planes is not empty.
func refreshPlanesAsm(dst, bias, weights []int16, planes []uint64, base, mask int, psqtDst, psqt []int32) bool {
	n := len(dst)
	if level < AVX2 || n%16 != 0 {
		return false
	}
	var c int
	switch len(psqtDst) {
	case 0:
		if wide {
			c = refreshPlanesAVX512(&dst[0], &bias[0], &weights[0], &planes[0], len(planes), base, mask, n)
		} else {
			c = refreshPlanesAVX2(&dst[0], &bias[0], &weights[0], &planes[0], len(planes), base, mask, n)
		}
	case 8:
		if wide {
			c = refreshPlanesPSQT8AVX512(&dst[0], &bias[0], &weights[0], &planes[0], len(planes), base, mask, n, &psqtDst[0], &psqt[0])
		} else {
			c = refreshPlanesPSQT8AVX2(&dst[0], &bias[0], &weights[0], &planes[0], len(planes), base, mask, n, &psqtDst[0], &psqt[0])
		}
	default:
		return false
	}
	return c >= 0
}
