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

// Update sets dst[i] = src[i] + Σ_{f ∈ added} W[f][i] − Σ_{f ∈ removed} W[f][i] for
// i < Width(), W[f] being row f, in wrapping int16 arithmetic: any number of changed
// features (a capture, castling, the difference to a refresh-table entry) in one pass
// over the accumulator, each tile of it loaded once, every row added or subtracted in
// registers and stored once (Stockfish 15.1 update_accumulator); with both lists empty it
// is a copy. Indices may repeat (each occurrence counts). len(dst) and len(src) must equal
// Width(); dst may alias src. It panics, before writing anything, if a length differs or an
// index is not in [0, Rows()).
func (m *FeatureRows) Update(dst, src []int16, added, removed []int) {
	m.checkLists(dst, src, added, removed)
	n := m.n
	if n&15 != 0 || level < AVX2 {
		m.updateGeneric(dst, src, added, removed)
		return
	}
	var ap, rp *int
	if len(added) > 0 {
		ap = &added[0]
	}
	if len(removed) > 0 {
		rp = &removed[0]
	}
	// Checked above: n > 0, both accumulators n long, every row inside m.w.
	w := unsafe.SliceData(m.w)
	if wide {
		updateRowsAVX512(unsafe.SliceData(dst), unsafe.SliceData(src), w, ap, len(added), rp, len(removed), n)
	} else {
		updateRowsAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), w, ap, len(added), rp, len(removed), n)
	}
}

// AddSubPair is AddSub for both perspectives of an accumulator at once (a quiet move:
// one feature in and one out in each): dst[0] = src[0] + W[add0] − W[sub0] and dst[1] =
// src[1] + W[add1] − W[sub1], bit for bit two AddSub calls. Every slice must be Width()
// long; dst[p] may alias src[p]. It panics, before writing anything, if a length differs or
// a row index is not in [0, Rows()).
//
// At AVX2 and above and a width that is a multiple of 16 this is one call of the
// updatePair kernel (avo) without PSQT rows, which walks both perspectives in one loop:
// one Go call and one assembly call per move instead of two each (doc/benchmarks.md).
func (m *FeatureRows) AddSubPair(dst, src *[2][]int16, add0, sub0, add1, sub1 int) {
	n := m.n
	d0, d1, s0, s1 := dst[0], dst[1], src[0], src[1]
	if uint(add0) >= m.rows || uint(sub0) >= m.rows || uint(add1) >= m.rows || uint(sub1) >= m.rows ||
		len(d0) != n || len(d1) != n || len(s0) != n || len(s1) != n {
		m.checkPair(dst, src, add0, sub0, add1, sub1)
		return
	}
	if n&15 != 0 || level < AVX2 {
		addSubGeneric(d0, s0, m.w[add0*n:][:n], m.w[sub0*n:][:n])
		addSubGeneric(d1, s1, m.w[add1*n:][:n], m.w[sub1*n:][:n])
		return
	}
	// Checked above: n > 0, all four accumulators n long, the four rows inside m.w; the
	// kernel without PSQT rows (pw nil) does not read pdst or psrc.
	if wide {
		updatePairAVX512(dst, src, unsafe.SliceData(m.w), nil, nil, nil, add0, sub0, add1, sub1, n)
	} else {
		updatePairAVX2(dst, src, unsafe.SliceData(m.w), nil, nil, nil, add0, sub0, add1, sub1, n)
	}
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
//
// At AVX2 and above and a width that is a multiple of 16 this is one call of the
// updatePair kernel (avo), which applies the PSQT rows first — their cache misses then
// overlap the value rows' — and walks both perspectives' values in one loop.
func (m *FeatureRows) UpdatePair(dst, src *[2][]int16, pdst, psrc *[2][]int32, add0, sub0, add1, sub1 int) {
	n := m.n
	if uint(add0) >= m.rows || uint(sub0) >= m.rows || uint(add1) >= m.rows || uint(sub1) >= m.rows ||
		len(dst[0]) != n || len(dst[1]) != n || len(src[0]) != n || len(src[1]) != n {
		m.checkUpdatePair(dst, src, pdst, psrc, add0, sub0, add1, sub1)
		return
	}
	pw := m.psqt
	if pw != nil && (len(pdst[0]) != 8 || len(pdst[1]) != 8 || len(psrc[0]) != 8 || len(psrc[1]) != 8) {
		m.checkUpdatePair(dst, src, pdst, psrc, add0, sub0, add1, sub1)
		return
	}
	if n&15 != 0 || level < AVX2 {
		m.updatePairGeneric(dst, src, pdst, psrc, add0, sub0, add1, sub1)
		return
	}
	// Checked above: n > 0 (NewFeatureRows), all four accumulators n long, the four rows
	// inside m.w and (with pw) inside pw (WithPSQT8: 8 per row), the PSQT slices 8 long.
	if wide {
		updatePairAVX512(dst, src, unsafe.SliceData(m.w), pdst, psrc, unsafe.SliceData(pw), add0, sub0, add1, sub1, n)
	} else {
		updatePairAVX2(dst, src, unsafe.SliceData(m.w), pdst, psrc, unsafe.SliceData(pw), add0, sub0, add1, sub1, n)
	}
}

// AddSubPSQT is AddSub plus, if m has PSQT rows (WithPSQT8), the PSQT sums of the same
// two features: dst[i] = src[i] + W[add][i] − W[sub][i] for i < Width() (int16, wrapping)
// and pdst[b] = psrc[b] + P[add][b] − P[sub][b] for the 8 buckets b, P[f] being PSQT row
// f (int32, wrapping); without PSQT rows pdst and psrc are not used and may be nil.
// len(dst) and len(src) must equal Width(), len(pdst) and len(psrc) 8 (with PSQT); each
// destination may alias its source. It panics, before writing anything, if a length
// differs or a row index is not in [0, Rows()). The update of one perspective for one
// feature in and one out (Stockfish 15.1 nnue_feature_transformer.h update_accumulator).
//
// At AVX2 and above and a width that is a multiple of 16 this is one call of the
// addSubPSQT kernel (avo), which applies the PSQT rows first, as UpdatePair does.
func (m *FeatureRows) AddSubPSQT(dst, src []int16, pdst, psrc []int32, add, sub int) {
	n := m.n
	if uint(add) >= m.rows || uint(sub) >= m.rows || len(dst) != n || len(src) != n {
		m.badArgs(dst, src, add, sub)
		return
	}
	pw := m.psqt
	if pw != nil && (len(pdst) != 8 || len(psrc) != 8) {
		m.badPSQT(pdst, psrc)
		return
	}
	if n&15 != 0 || level < AVX2 {
		m.addSubPSQTGeneric(dst, src, pdst, psrc, add, sub)
		return
	}
	// Checked above: n > 0, both accumulators n long, rows add and sub inside m.w and
	// (with pw) inside pw (8 per row), the PSQT slices 8 long.
	w := unsafe.Pointer(unsafe.SliceData(m.w))
	ra := (*int16)(unsafe.Add(w, 2*add*n))
	rs := (*int16)(unsafe.Add(w, 2*sub*n))
	var pd, ps, pa, pr *int32
	if pw != nil {
		p := unsafe.Pointer(unsafe.SliceData(pw))
		pd, ps = unsafe.SliceData(pdst), unsafe.SliceData(psrc)
		pa, pr = (*int32)(unsafe.Add(p, 32*add)), (*int32)(unsafe.Add(p, 32*sub))
	}
	if wide {
		addSubPSQTAVX512(unsafe.SliceData(dst), unsafe.SliceData(src), ra, rs, pd, ps, pa, pr, n)
	} else {
		addSubPSQTAVX2(unsafe.SliceData(dst), unsafe.SliceData(src), ra, rs, pd, ps, pa, pr, n)
	}
}
