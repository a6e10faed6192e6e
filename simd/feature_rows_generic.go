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

// Update sets dst[i] = src[i] + Σ_{f ∈ added} W[f][i] − Σ_{f ∈ removed} W[f][i] for
// i < Width(), W[f] being row f, in wrapping int16 arithmetic: any number of changed
// features (a capture, castling, the difference to a refresh-table entry) in one pass
// (Stockfish 15.1 update_accumulator); with both lists empty it is a copy. Indices may
// repeat (each occurrence counts). len(dst) and len(src) must equal Width(); dst may alias
// src. It panics, before writing anything, if a length differs or an index is not in
// [0, Rows()).
func (m *FeatureRows) Update(dst, src []int16, added, removed []int) {
	m.checkLists(dst, src, added, removed)
	m.updateGeneric(dst, src, added, removed)
}

// AddSubPair is AddSub for both perspectives of an accumulator at once (a quiet move:
// one feature in and one out in each): dst[0] = src[0] + W[add0] − W[sub0] and dst[1] =
// src[1] + W[add1] − W[sub1], bit for bit two AddSub calls. Every slice must be Width()
// long; dst[p] may alias src[p]. It panics, before writing anything, if a length differs or
// a row index is not in [0, Rows()).
func (m *FeatureRows) AddSubPair(dst, src *[2][]int16, add0, sub0, add1, sub1 int) {
	m.checkPair(dst, src, add0, sub0, add1, sub1)
	m.AddSub(dst[0], src[0], add0, sub0)
	m.AddSub(dst[1], src[1], add1, sub1)
}

// UpdatePair is a quiet move's whole update of both perspectives of an accumulator in one
// call: dst[p] = src[p] + W[add_p] − W[sub_p] for p = 0, 1 (AddSubPair), and, if m has PSQT
// rows (WithPSQT8), pdst[p][b] = psrc[p][b] + P[add_p][b] − P[sub_p][b] for the 8 buckets
// b, P[f] being PSQT row f (int32, wrapping); without PSQT rows pdst and psrc are not
// used and may be nil. dst[p] and src[p] must be Width() long, pdst[p] and psrc[p] 8 long
// (with PSQT); each destination may alias its source. It panics, before writing anything,
// if a length differs or a row index is not in [0, Rows()). Bit for bit two AddSub calls
// plus the PSQT sums (Stockfish 15.1 nnue_feature_transformer.h update_accumulator for a
// one-in one-out change).
func (m *FeatureRows) UpdatePair(dst, src *[2][]int16, pdst, psrc *[2][]int32, add0, sub0, add1, sub1 int) {
	m.checkUpdatePair(dst, src, pdst, psrc, add0, sub0, add1, sub1)
	m.updatePairGeneric(dst, src, pdst, psrc, add0, sub0, add1, sub1)
}

// AddSubPSQT is AddSub plus, if m has PSQT rows (WithPSQT8), the PSQT sums of the same
// two features: dst[i] = src[i] + W[add][i] − W[sub][i] for i < Width() (int16, wrapping)
// and pdst[b] = psrc[b] + P[add][b] − P[sub][b] for the 8 buckets b, P[f] being PSQT row
// f (int32, wrapping); without PSQT rows pdst and psrc are not used and may be nil.
// len(dst) and len(src) must equal Width(), len(pdst) and len(psrc) 8 (with PSQT); each
// destination may alias its source. It panics, before writing anything, if a length
// differs or a row index is not in [0, Rows()). The update of one perspective for one
// feature in and one out (Stockfish 15.1 nnue_feature_transformer.h update_accumulator).
func (m *FeatureRows) AddSubPSQT(dst, src []int16, pdst, psrc []int32, add, sub int) {
	n := m.n
	if uint(add) >= m.rows || uint(sub) >= m.rows || len(dst) != n || len(src) != n {
		m.badArgs(dst, src, add, sub)
	}
	if m.psqt != nil && (len(pdst) != 8 || len(psrc) != 8) {
		m.badPSQT(pdst, psrc)
	}
	m.addSubPSQTGeneric(dst, src, pdst, psrc, add, sub)
}
