//go:build amd64 && !purego

package simd

import "unsafe"

// AddSub sets dst[i] = src[i] + W[add][i] − W[sub][i] for i < Width(), W[f] being row f:
// bit for bit AddSub(dst, src, m.Row(add), m.Row(sub)) at every level, with wrapping
// int16 arithmetic. len(dst) and len(src) must equal Width(); dst may alias src (an
// in-place update). It panics, before writing anything, if a length differs or a row index
// is not in [0, Rows()).
//
// At AVX2 and above and a width that is a multiple of 16 this is one call of the
// addSub kernel with the rows' addresses (no wrapper, no slice headers).
func (m *FeatureRows) AddSub(dst, src []int16, add, sub int) {
	n := m.n
	if uint(add) >= m.rows || uint(sub) >= m.rows || len(dst) != n || len(src) != n {
		m.badArgs(dst, src, add, sub)
		return
	}
	if n&15 != 0 || level < AVX2 {
		addSubGeneric(dst, src, m.w[add*n:][:n], m.w[sub*n:][:n])
		return
	}
	// Checked above: n > 0 (NewFeatureRows; the zero value has no rows), len(dst) ==
	// len(src) == n and rows add, sub lie inside m.w, so these addresses start n valid
	// elements each.
	w := unsafe.Pointer(unsafe.SliceData(m.w))
	ra := (*int16)(unsafe.Add(w, 2*add*n))
	rs := (*int16)(unsafe.Add(w, 2*sub*n))
	if wide {
		addSubAVX512(unsafe.SliceData(dst), unsafe.SliceData(src), ra, rs, n)
	} else {
		addSubAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), ra, rs, n)
	}
}
