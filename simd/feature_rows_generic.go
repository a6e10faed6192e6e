//go:build !amd64 || purego

package simd

// AddSub sets dst[i] = src[i] + W[add][i] − W[sub][i] for i < Width(), W[f] being row f:
// bit for bit AddSub(dst, src, m.Row(add), m.Row(sub)) at every level, with wrapping
// int16 arithmetic. len(dst) and len(src) must equal Width(); dst may alias src (an
// in-place update). It panics, before writing anything, if a length differs or a row index
// is not in [0, Rows()).
func (m *FeatureRows) AddSub(dst, src []int16, add, sub int) {
	n := m.n
	if uint(add) >= m.rows || uint(sub) >= m.rows || len(dst) != n || len(src) != n {
		m.badArgs(dst, src, add, sub)
	}
	w := m.w
	ra, rs := add*n, sub*n
	addSubGeneric(dst, src, w[ra:ra+n], w[rs:rs+n])
}
