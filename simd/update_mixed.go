package simd

// updateMixedFn is the installed UpdateMixed kernel of the current Level.
var updateMixedFn func(dst, src16, src8 []int16, psqt, psqt16, psqt8 []int32, m *MixedRows, add16, sub16, add8, sub8 []int)

// prefetchMixedFn is the installed PrefetchMixed kernel (a no-op in pure Go).
var prefetchMixedFn func(m *MixedRows, n int, add16, sub16, add8, sub8 []int)

// MixedRows are the row matrices UpdateMixed reads: W16 the int16 rows and W8 the int8
// rows, n values each (n = the accumulator width), feature-major; PSQT16 and PSQT8 the
// same features' PSQT rows, Buckets int32 each (a row for every row of W16 and W8; empty
// with Buckets 0).
type MixedRows struct {
	W16           []int16
	W8            []int8
	PSQT16, PSQT8 []int32
	Buckets       int
}

// UpdateMixed is the update (or, with empty sub lists and the sources the bias and
// zeros, the refresh) of one perspective of a feature transformer whose rows are partly
// int16 and partly int8 (Stockfish 19: the HalfKAv2_hm rows, and the threat and
// pawn-pair rows it keeps in int8), kept as two parts and their sum. dst holds three
// vectors of n = len(dst)/3 int16 — the sum, the int16 part, the int8 part — and one
// pass over them sets
//
//	dst[2n+i] = src8[i]  + Σ_{r in add8} int16(W8[r·n + i]) − Σ_{r in sub8} int16(W8[r·n + i])
//	dst[n+i]  = src16[i] + Σ_{r in add16} W16[r·n + i]      − Σ_{r in sub16} W16[r·n + i]
//	dst[i]    = dst[n+i] + dst[2n+i]
//
// for i < n, wrapping in int16 (so any order of rows gives the same bits), and with B =
// m.Buckets > 0 the PSQT sums the same way in psqt (3·B int32: the sum, the int16 part,
// the int8 part), from psqt16 and psqt8 (B each; nil is zero) and the rows' PSQT rows
// (int32, wrapping). len(dst) must be a multiple of 3, len(src16), len(src8) ≥ n, len(psqt)
// = 3·B and the PSQT tables must hold a row per weight row (else it panics); src16 may be
// dst[n:2n] and src8 dst[2n:3n] (in place), psqt16 psqt[B:2B] and psqt8 psqt[2B:3B], no
// other overlap. Every row index r must
// satisfy (r+1)·n ≤ len(m.W16) (resp. len(m.W8)), otherwise it panics before writing
// anything. The assembly (AVX2; AVX-512 with 512-bit tiles) first prefetches every row's
// first tiles and PSQT row, then keeps a tile of up to 8 (16) vectors in registers while
// it adds every row, for n a multiple of 16, and last sums 8 PSQT buckets with one vector
// add per row (other bucket counts in Go); other lengths run the Go twin. Keeping the parts apart lets an own-king move refresh the king-bucketed
// int16 part alone while the int8 part is updated (Stockfish 19's separate piece-square
// and threat accumulators, summed where its transform reads them).
func UpdateMixed(dst, src16, src8 []int16, psqt, psqt16, psqt8 []int32, m *MixedRows, add16, sub16, add8, sub8 []int) {
	updateMixedFn(dst, src16, src8, psqt, psqt16, psqt8, m, add16, sub16, add8, sub8)
}

// PrefetchMixed asks the CPU to start loading what a later UpdateMixed of accumulators of
// width n with these rows reads first: the first tiles of every listed row of m.W16 and
// m.W8 and the rows' PSQT rows — the same lines UpdateMixed's assembly prefetches on entry,
// so that a caller who knows the rows of a second update (Stockfish 19: the other
// perspective's) overlaps their misses with the first update, as Stockfish's
// FullThreats::append_changed_indices_both prefetches both perspectives' rows before it
// updates either (Stockfish nnue/features/full_threats.cpp). It changes no value and has no
// effect in the pure-Go twin (purego, other architectures, Level Generic), when n is not a
// positive multiple of 16, or when a row index is out of range. It does not allocate.
func PrefetchMixed(m *MixedRows, n int, add16, sub16, add8, sub8 []int) {
	prefetchMixedFn(m, n, add16, sub16, add8, sub8)
}

func prefetchMixedGeneric(*MixedRows, int, []int, []int, []int, []int) {}

const errUpdateMixedLen = "simd: UpdateMixed: dst is not three vectors, or a source is shorter than one"

const errUpdateMixedPSQT = "simd: UpdateMixed: PSQT sums or tables of the wrong length"

const errUpdateMixedRow = "simd: UpdateMixed row index out of range"

// checkRowsMixed panics unless every row index is a whole row of its matrix (n > 0).
func checkRowsMixed(n int, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) {
	if !rowsMixedOK(n, w16, add16, sub16, w8, add8, sub8) {
		panic(errUpdateMixedRow)
	}
}

// rowsMixedOK reports whether every row index is a whole row of its matrix (n > 0).
func rowsMixedOK(n int, w16 []int16, add16, sub16 []int, w8 []int8, add8, sub8 []int) bool {
	n16, n8 := uint(len(w16)/n), uint(len(w8)/n)
	for _, rows := range [2][]int{add16, sub16} {
		for _, r := range rows {
			if uint(r) >= n16 { // unsigned: r·n could wrap around for a hostile r
				return false
			}
		}
	}
	for _, rows := range [2][]int{add8, sub8} {
		for _, r := range rows {
			if uint(r) >= n8 {
				return false
			}
		}
	}
	return true
}

// mixedParts returns n and the three vectors of dst, or panics on bad lengths (of the
// vectors, or of the PSQT sums, sources and tables).
func mixedParts(dst, src16, src8 []int16, psqt, psqt16, psqt8 []int32, m *MixedRows) (n int, sum, d16, d8 []int16) {
	n = len(dst) / 3
	if len(dst)%3 != 0 || len(src16) < n || len(src8) < n {
		panic(errUpdateMixedLen)
	}
	if b := m.Buckets; b < 0 || len(psqt) != 3*b || psqt16 != nil && len(psqt16) < b || psqt8 != nil && len(psqt8) < b ||
		b > 0 && n > 0 && (len(m.PSQT16) < len(m.W16)/n*b || len(m.PSQT8) < len(m.W8)/n*b) {
		panic(errUpdateMixedPSQT)
	}
	return n, dst[:n:n], dst[n : 2*n : 2*n], dst[2*n : 3*n : 3*n]
}

// mixedPSQT is UpdateMixed's PSQT part in Go (the twin, and bucket counts other than 8).
func mixedPSQT(psqt, psqt16, psqt8 []int32, m *MixedRows, add16, sub16, add8, sub8 []int) {
	b := m.Buckets
	if b == 0 {
		return
	}
	sum, d16, d8 := psqt[:b:b], psqt[b:2*b:2*b], psqt[2*b:3*b:3*b]
	part := func(d, src, tab []int32, add, sub []int) {
		if src == nil {
			clear(d)
		} else {
			copy(d, src[:b])
		}
		for _, r := range add {
			for j, w := range tab[r*b : r*b+b] {
				d[j] += w
			}
		}
		for _, r := range sub {
			for j, w := range tab[r*b : r*b+b] {
				d[j] -= w
			}
		}
	}
	part(d16, psqt16, m.PSQT16, add16, sub16)
	part(d8, psqt8, m.PSQT8, add8, sub8)
	for j := range sum {
		sum[j] = d16[j] + d8[j]
	}
}

func updateMixedGeneric(dst, src16, src8 []int16, psqt, psqt16, psqt8 []int32, m *MixedRows, add16, sub16, add8, sub8 []int) {
	w16, w8 := m.W16, m.W8
	n, sum, d16, d8 := mixedParts(dst, src16, src8, psqt, psqt16, psqt8, m)
	if n == 0 {
		return
	}
	checkRowsMixed(n, w16, add16, sub16, w8, add8, sub8)
	copy(d8, src8[:n])
	copy(d16, src16[:n])
	for _, r := range add16 {
		row := w16[r*n : r*n+n]
		d := d16[:len(row)]
		for i, w := range row {
			d[i] += w
		}
	}
	for _, r := range sub16 {
		row := w16[r*n : r*n+n]
		d := d16[:len(row)]
		for i, w := range row {
			d[i] -= w
		}
	}
	for _, r := range add8 {
		row := w8[r*n : r*n+n]
		d := d8[:len(row)]
		for i, w := range row {
			d[i] += int16(w)
		}
	}
	for _, r := range sub8 {
		row := w8[r*n : r*n+n]
		d := d8[:len(row)]
		for i, w := range row {
			d[i] -= int16(w)
		}
	}
	for i := range sum {
		sum[i] = d16[i] + d8[i]
	}
	mixedPSQT(psqt, psqt16, psqt8, m, add16, sub16, add8, sub8)
}
