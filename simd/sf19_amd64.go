//go:build amd64 && !purego

package simd

import "unsafe"

// zero8 is the PSQT source of 8 buckets that a nil psqt16 or psqt8 stands for.
var zero8 [8]int32

func updateMixedAsm(dst, src16, src8 []int16, psqt, psqt16, psqt8 []int32, m *MixedRows, add16, sub16, add8, sub8 []int) {
	n, _, _, _ := mixedParts(dst, src16, src8, psqt, psqt16, psqt8, m)
	if n == 0 || n%16 != 0 {
		updateMixedGeneric(dst, src16, src8, psqt, psqt16, psqt8, m, add16, sub16, add8, sub8)
		return
	}
	checkRowsMixed(n, m.W16, add16, sub16, m.W8, add8, sub8)
	f := updateMixedAVX2
	if wide {
		f = updateMixedAVX512
	}
	var pdst, ps16, ps8 *int32 // nil: no PSQT sums in the kernel
	if m.Buckets == 8 {
		pdst, ps16, ps8 = &psqt[0], &zero8[0], &zero8[0]
		if psqt16 != nil {
			ps16 = &psqt16[0]
		}
		if psqt8 != nil {
			ps8 = &psqt8[0]
		}
	}
	f(&dst[0], &src16[0], &src8[0], unsafe.SliceData(m.W16), unsafe.SliceData(add16), len(add16), unsafe.SliceData(sub16), len(sub16),
		unsafe.SliceData(m.W8), unsafe.SliceData(add8), len(add8), unsafe.SliceData(sub8), len(sub8), n,
		unsafe.SliceData(m.PSQT16), unsafe.SliceData(m.PSQT8), 4*m.Buckets, pdst, ps16, ps8)
	if m.Buckets != 8 {
		mixedPSQT(psqt, psqt16, psqt8, m, add16, sub16, add8, sub8)
	}
}

func prefetchMixedAsm(m *MixedRows, n int, add16, sub16, add8, sub8 []int) {
	if n <= 0 || n%16 != 0 || !rowsMixedOK(n, m.W16, add16, sub16, m.W8, add8, sub8) {
		return
	}
	f := prefetchMixedAVX2
	if wide {
		f = prefetchMixedAVX512
	}
	f(unsafe.SliceData(m.W16), unsafe.SliceData(add16), len(add16), unsafe.SliceData(sub16), len(sub16),
		unsafe.SliceData(m.W8), unsafe.SliceData(add8), len(add8), unsafe.SliceData(sub8), len(sub8), n,
		unsafe.SliceData(m.PSQT16), unsafe.SliceData(m.PSQT8), 4*m.Buckets)
}
