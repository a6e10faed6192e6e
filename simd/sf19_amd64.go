//go:build amd64 && !purego

package simd

import "unsafe"

func pairwiseClipAsm(dst []uint8, a, b []int16, mx int16, shift uint) {
	n := len(dst)
	a, b = a[:n], b[:n]
	if m := n &^ 31; m > 0 && mx >= 0 && mx <= 255 && shift <= 63 {
		if wide {
			pairwiseClipAVX512(&dst[0], &a[0], &b[0], m, int(mx), int(shift))
		} else {
			pairwiseClipAVX2(&dst[0], &a[0], &b[0], m, int(mx), int(shift))
		}
		if m == n {
			return
		}
		dst, a, b = dst[m:], a[m:], b[m:]
	}
	pairwiseClipGeneric(dst, a, b, mx, shift)
}

func updateMixedAsm(dst, src []int16, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) {
	n := len(dst)
	src = src[:n]
	if n == 0 || n%16 != 0 {
		updateMixedGeneric(dst, src, w16, add16, sub16, w8, add8, sub8)
		return
	}
	checkRowsMixed(n, w16, add16, sub16, w8, add8, sub8)
	f := updateMixedAVX2
	if wide {
		f = updateMixedAVX512
	}
	f(&dst[0], &src[0], unsafe.SliceData(w16), unsafe.SliceData(add16), len(add16), unsafe.SliceData(sub16), len(sub16),
		unsafe.SliceData(w8), unsafe.SliceData(add8), len(add8), unsafe.SliceData(sub8), len(sub8), n)
}
