//go:build amd64 && !purego

package simd

import "unsafe"

func updateMixedAsm(dst, src16, src8 []int16, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) {
	n, _, _, _ := mixedParts(dst, src16, src8)
	if n == 0 || n%16 != 0 {
		updateMixedGeneric(dst, src16, src8, w16, add16, sub16, w8, add8, sub8)
		return
	}
	checkRowsMixed(n, w16, add16, sub16, w8, add8, sub8)
	f := updateMixedAVX2
	if wide {
		f = updateMixedAVX512
	}
	f(&dst[0], &src16[0], &src8[0], unsafe.SliceData(w16), unsafe.SliceData(add16), len(add16), unsafe.SliceData(sub16), len(sub16),
		unsafe.SliceData(w8), unsafe.SliceData(add8), len(add8), unsafe.SliceData(sub8), len(sub8), n)
}
