package simd

import "fmt"

// FeatureRows is a feature-major int16 weight matrix checked once: Rows() rows of Width()
// int16 each, row f being the feature transformer's column of feature f (the layout of
// Refresh's weights). Its AddSub is the incremental update of one perspective for a quiet
// move — one feature row in, one out — as a single direct kernel call taking the two row
// indices: no row slice headers, no function value, and the width and row count checked
// here once instead of on every call. With AddSub (an indirect call) and row slices the
// Go glue around a 256-wide update cost as many instructions as the kernel itself
// (doc/benchmarks.md). Source: Stockfish 13
// nnue_feature_transformer.h update_accumulator (the same fused add and subtract of the
// changed features' rows over the accumulator).
//
// The zero value has no rows (every AddSub panics). A FeatureRows is immutable and safe
// for concurrent use; it aliases the weights it was made from.
type FeatureRows struct {
	w    []int16
	n    int
	rows uint
	psqt []int32 // PSQT8 rows (8 int32 per row, WithPSQT8) or nil
}

// NewFeatureRows returns weights viewed as rows of n int16: len(weights)/n rows (a
// partial last row is not one). It returns an error if n ≤ 0.
func NewFeatureRows(weights []int16, n int) (FeatureRows, error) {
	if n <= 0 {
		return FeatureRows{}, fmt.Errorf("simd: FeatureRows width %d, want > 0", n)
	}
	r := len(weights) / n
	return FeatureRows{w: weights[: r*n : r*n], n: n, rows: uint(r)}, nil
}

// WithPSQT8 returns m with PSQT weights attached for UpdatePair and AddSubPSQT, which then
// also update the PSQT accumulators (the other methods ignore them): psqt holds 8 int32
// per row, row f's at psqt[8f : 8f+8] (Stockfish 15.1's psqtWeights, feature-major, 8
// buckets; nnue_feature_transformer.h). It returns an error unless len(psqt) == 8·Rows().
// m itself is unchanged; the result aliases psqt.
func (m FeatureRows) WithPSQT8(psqt []int32) (FeatureRows, error) {
	if uint(len(psqt)) != 8*m.rows {
		return FeatureRows{}, fmt.Errorf("simd: FeatureRows PSQT length %d, want 8 × %d rows", len(psqt), m.rows)
	}
	m.psqt = psqt[:len(psqt):len(psqt)]
	return m, nil
}

// HasPSQT8 reports whether m has PSQT rows attached (WithPSQT8).
func (m *FeatureRows) HasPSQT8() bool { return m.psqt != nil }

// Width returns the row width n (int16 per row: the accumulator width of one perspective).
func (m *FeatureRows) Width() int { return m.n }

// Rows returns the number of rows (features).
func (m *FeatureRows) Rows() int { return int(m.rows) }

// Row returns row f (Width() int16, aliasing the weights). It panics if f is not in
// [0, Rows()).
func (m *FeatureRows) Row(f int) []int16 {
	if uint(f) >= m.rows {
		m.badRow(f)
	}
	return m.w[f*m.n : (f+1)*m.n : (f+1)*m.n]
}

// badArgs panics with the reason AddSub rejects its arguments.
func (m *FeatureRows) badArgs(dst, src []int16, add, sub int) {
	if len(dst) != m.n || len(src) != m.n {
		panic(fmt.Sprintf("simd: FeatureRows.AddSub lengths dst %d, src %d, want the width %d", len(dst), len(src), m.n))
	}
	if uint(add) >= m.rows {
		m.badRow(add)
	}
	if uint(sub) >= m.rows {
		m.badRow(sub)
	}
}

// badRow panics naming the row index f.
func (m *FeatureRows) badRow(f int) {
	panic(fmt.Sprintf("simd: FeatureRows row %d out of range [0, %d)", f, m.rows))
}

// checkLists panics (badArgs, badRow) unless len(dst) == len(src) == Width() and every
// index of added and removed is a row.
func (m *FeatureRows) checkLists(dst, src []int16, added, removed []int) {
	if len(dst) != m.n || len(src) != m.n {
		m.badArgs(dst, src, 0, 0)
	}
	for _, f := range added {
		if uint(f) >= m.rows {
			m.badRow(f)
		}
	}
	for _, f := range removed {
		if uint(f) >= m.rows {
			m.badRow(f)
		}
	}
}

// updateGeneric is Update in Go: the reference of the assembly (int16 sums wrap, so the
// order of the rows does not matter).
func (m *FeatureRows) updateGeneric(dst, src []int16, added, removed []int) {
	n := m.n
	copy(dst, src)
	for _, f := range added {
		row := m.w[f*n:][:n]
		for i := range dst {
			dst[i] += row[i]
		}
	}
	for _, f := range removed {
		row := m.w[f*n:][:n]
		for i := range dst {
			dst[i] -= row[i]
		}
	}
}

// checkUpdatePair panics (badArgs, badRow, badPSQT) unless UpdatePair's arguments are
// valid.
func (m *FeatureRows) checkUpdatePair(dst, src *[2][]int16, pdst, psrc *[2][]int32, add0, sub0, add1, sub1 int) {
	m.checkPair(dst, src, add0, sub0, add1, sub1)
	if m.psqt != nil {
		for p := range 2 {
			if len(pdst[p]) != 8 || len(psrc[p]) != 8 {
				panic(fmt.Sprintf("simd: FeatureRows.UpdatePair PSQT lengths pdst[%d] %d, psrc[%d] %d, want 8", p, len(pdst[p]), p, len(psrc[p])))
			}
		}
	}
}

// badPSQT panics naming AddSubPSQT's PSQT slice lengths.
func (m *FeatureRows) badPSQT(pdst, psrc []int32) {
	panic(fmt.Sprintf("simd: FeatureRows.AddSubPSQT PSQT lengths pdst %d, psrc %d, want 8", len(pdst), len(psrc)))
}

// addSubPSQTGeneric is AddSubPSQT in Go after the checks.
func (m *FeatureRows) addSubPSQTGeneric(dst, src []int16, pdst, psrc []int32, add, sub int) {
	n := m.n
	if pw := m.psqt; pw != nil {
		d, s := (*[8]int32)(pdst), (*[8]int32)(psrc)
		ra, rr := (*[8]int32)(pw[add*8:]), (*[8]int32)(pw[sub*8:])
		for i := range d {
			d[i] = s[i] + ra[i] - rr[i]
		}
	}
	addSubGeneric(dst, src, m.w[add*n:][:n], m.w[sub*n:][:n])
}

// updatePairGeneric is UpdatePair in Go after the checks: AddSubPSQT's Go path on each
// perspective (pdst and psrc, unused without PSQT rows, may then be nil).
func (m *FeatureRows) updatePairGeneric(dst, src *[2][]int16, pdst, psrc *[2][]int32, add0, sub0, add1, sub1 int) {
	var pd, ps [2][]int32
	if m.psqt != nil {
		pd, ps = *pdst, *psrc
	}
	m.addSubPSQTGeneric(dst[0], src[0], pd[0], ps[0], add0, sub0)
	m.addSubPSQTGeneric(dst[1], src[1], pd[1], ps[1], add1, sub1)
}

// checkPair panics (badArgs, badRow) unless both perspectives' AddSub arguments of
// AddSubPair are valid.
func (m *FeatureRows) checkPair(dst, src *[2][]int16, add0, sub0, add1, sub1 int) {
	m.badArgs(dst[0], src[0], add0, sub0)
	m.badArgs(dst[1], src[1], add1, sub1)
}
