//go:build !amd64 || purego

package simd

// refreshPlanesAsm: no vector kernel on this platform or with purego.
func refreshPlanesAsm(dst, bias, weights []int16, planes []uint64, base, mask int, psqtDst, psqt []int32) bool {
	return false
}
