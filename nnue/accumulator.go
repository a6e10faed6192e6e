package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// Accumulator holds the feature transformer's output for both perspectives (thesis §4.3
// "two accumulators", CPW "Perspective"): Values(White) and Values(Black), each Width int16
// in a 64-byte-aligned buffer, plus the PSQT accumulators (PSQTBuckets int32 each) when the
// transformer has a PSQT part.
//
// An Accumulator belongs to one goroutine. All arithmetic is int16 with wraparound (see
// AccumulatorBound). Methods panic if a feature index is outside [0, Features()), which is a
// programming error, not bad input.
type Accumulator struct {
	ft   *FeatureTransformer
	v    [2][]int16
	psqt [2][]int32
	// split holds, for transformers with int8 rows, the feature lists split into int8
	// rows and int16 rows (int16 indices made relative): added8, removed8, added16,
	// removed16 (scratch, reused).
	split [4][]int
	// quiet says which fast path of UpdateFrom a one-in, one-out update takes (quietNone:
	// the general loop); rows is ft's int16 weight matrix as simd.FeatureRows (checked
	// once), whose AddSub is that path's one kernel call — with ft's PSQT rows attached
	// for quietPSQT8, so that UpdateQuiet's one UpdatePair call also does the PSQT sums.
	quiet uint8
	rows  simd.FeatureRows
	// mix: the parts kept for a transformer with int8 rows (accParts), nil otherwise.
	mix *accParts
}

// accParts is what an Accumulator of a transformer with int8 rows keeps besides its
// values: tri[p] holds perspective p's values v[p] followed by its two summands, part[p][0]
// the bias plus the int16 rows and part[p][1] the int8 rows (as int16 sums), v[p] =
// part[p][0] + part[p][1]; psqtTri and psqtPart likewise for the PSQT sums. Every
// Refresh and update writes all three (simd.UpdateMixed, one call). Kept apart so that an
// own-king move refreshes the king-bucketed int16 part while the int8 part is updated
// incrementally (AccumulatorStack.update; Stockfish 19's separate piece-square and threat
// accumulators).
type accParts struct {
	tri      [2][]int16
	part     [2][2][]int16
	psqtTri  [2][]int32
	psqtPart [2][2][]int32
	rows     simd.MixedRows // the transformer's int16 and int8 rows and their PSQT rows
}

// UpdateFrom's fast paths for one feature in and one out (Accumulator.quiet).
const (
	quietNone  = iota // int8 rows or a PSQT other than 8 buckets: the general loop
	quietPlain        // int16 rows, no PSQT
	quietPSQT8        // int16 rows, 8 PSQT buckets (SFNNv5)
)

// NewAccumulator returns a zeroed accumulator for ft. Call Refresh before use.
func (ft *FeatureTransformer) NewAccumulator() *Accumulator {
	a := &Accumulator{ft: ft}
	rows, err := simd.NewFeatureRows(ft.weights, ft.width)
	a.rows = rows
	switch {
	case ft.rows8 > 0 || err != nil:
	case ft.psqtBuckets == 0:
		a.quiet = quietPlain
	case ft.psqtBuckets == 8:
		if r, err := rows.WithPSQT8(ft.psqt); err == nil {
			a.rows, a.quiet = r, quietPSQT8
		}
	}
	m, nb := ft.width, ft.psqtBuckets
	nv := ft.accVectors()
	buf := alignedInt16(nv * m)
	var pbuf []int32
	if nb > 0 {
		pbuf = make([]int32, nv*nb)
	}
	if ft.rows8 > 0 {
		a.mix = &accParts{rows: simd.MixedRows{W16: ft.weights, W8: ft.weights8, PSQT16: ft.psqt[ft.rows8*nb:], PSQT8: ft.psqt[:ft.rows8*nb], Buckets: nb}}
	}
	// Layout: per perspective its values, then (int8 rows) its int16 and int8 parts.
	k := nv / 2
	for p := range 2 {
		v := buf[p*k*m : (p+1)*k*m : (p+1)*k*m]
		a.v[p] = v[:m:m]
		if nb > 0 {
			a.psqt[p] = pbuf[p*k*nb : p*k*nb+nb : p*k*nb+nb]
		}
		if mx := a.mix; mx != nil {
			mx.tri[p] = v
			if nb > 0 {
				mx.psqtTri[p] = pbuf[p*k*nb : (p+1)*k*nb : (p+1)*k*nb]
			}
			for j := range 2 {
				mx.part[p][j] = v[(j+1)*m : (j+2)*m : (j+2)*m]
				if nb > 0 {
					o := (p*k + j + 1) * nb
					mx.psqtPart[p][j] = pbuf[o : o+nb : o+nb]
				}
			}
		}
	}
	return a
}

// accVectors returns the number of Width-long vectors (and PSQT sums) an Accumulator of
// ft keeps: both perspectives' values, and for int8 rows both perspectives' two parts.
func (ft *FeatureTransformer) accVectors() int {
	if ft.rows8 > 0 {
		return 6
	}
	return 2
}

// Values returns perspective persp's Width accumulator values (quantized units of the
// transformer, 127 = 1.0 for thesis and Stockfish nets). The slice aliases the accumulator.
func (a *Accumulator) Values(persp board.Color) []int16 { return a.v[persp&1] }

// PSQT returns perspective persp's PSQT accumulator (one int32 per bucket), nil without PSQT.
func (a *Accumulator) PSQT(persp board.Color) []int32 { return a.psqt[persp&1] }

// CopyFrom copies both perspectives from src (same transformer).
func (a *Accumulator) CopyFrom(src *Accumulator) {
	a.copyPersp(src, 0)
	a.copyPersp(src, 1)
}

// copyPersp copies one perspective.
func (a *Accumulator) copyPersp(src *Accumulator, p int) {
	if a.mix != nil { // the values and both parts
		copy(a.mix.tri[p], src.mix.tri[p])
		copy(a.mix.psqtTri[p], src.mix.psqtTri[p])
		return
	}
	copy(a.v[p], src.v[p])
	copy(a.psqt[p], src.psqt[p])
}

func (a *Accumulator) checkIndices(idx []int) {
	nf := a.ft.Features()
	for _, f := range idx {
		if uint(f) >= uint(nf) {
			panic(fmt.Sprintf("nnue: feature index %d out of range [0, %d)", f, nf))
		}
	}
}

// Refresh recomputes perspective persp from scratch: Values(persp)[j] = Bias[j] + Σ_{f ∈ active}
// W[f][j] (and the PSQT sums). active lists feature indices, normally
// Set().Active(pos, persp, …); duplicates are summed as many times as they occur.
//
// The bound of every index is checked once, by the simd kernels (simd.Refresh,
// simd.RefreshPSQT — which also sums 8 PSQT buckets, one vector add per row — and
// simd.UpdateMixed check every row); a panic there is caught here and re-raised with
// nnue's message naming the index ("nnue: feature index 96 out of range [0, 96)"), the one
// checkIndices gives elsewhere. Checking the list here as well would cost ≈ 4
// instructions per feature (doc/benchmarks.md).
func (a *Accumulator) Refresh(persp board.Color, active []int) {
	defer a.refreshPanic(active)
	p := int(persp & 1)
	ft := a.ft
	if ft.rows8 > 0 { // the int16 part from the bias, the int8 part from zero, and their sum
		a8, a16 := a.splitRows(active, 0, 2)
		v8 := a.mix.part[p][1]
		clear(v8)
		a.setMixed(p, ft.bias, nil, a16, nil, v8, nil, a8, nil)
		return
	} else if ft.psqtBuckets == 8 { // SFNNv5: the PSQT rows in the same kernel, one vector add each
		simd.RefreshPSQT(a.v[p], ft.bias, ft.weights, active, a.psqt[p], ft.psqt)
		return
	} else {
		simd.Refresh(a.v[p], ft.bias, ft.weights, active)
	}
	if ft.psqtBuckets > 0 {
		ft.psqtRefresh(a.psqt[p], active)
	}
}

// refreshPanic, deferred by Refresh, turns a kernel's row-bound panic into checkIndices'
// panic naming the index (other panics are re-raised unchanged).
func (a *Accumulator) refreshPanic(active []int) {
	if r := recover(); r != nil {
		a.checkIndices(active)
		panic(r)
	}
}

// Update applies a feature difference to perspective persp in place:
// Values(persp) += Σ_{f ∈ added} W[f] − Σ_{f ∈ removed} W[f], using the fused simd kernels
// (CPW "Fused Updates": 1 add + 1 sub, 1 add + 2 subs, 2 adds + 2 subs) where the counts allow.
func (a *Accumulator) Update(persp board.Color, added, removed []int) {
	a.UpdateFrom(a, persp, added, removed)
}

// UpdateFrom sets perspective persp of a to src's plus the difference (copy-make: src is
// left unchanged unless src == a). Same arithmetic as Update.
func (a *Accumulator) UpdateFrom(src *Accumulator, persp board.Color, added, removed []int) {
	// Fast paths for a quiet move of one piece (one feature in, one out) with int16 rows and
	// no PSQT or Stockfish's 8 PSQT buckets: one simd.FeatureRows call taking the two row
	// indices (which it checks; its panic names the bad one), no row slices, no closure
	// and no kernel switch, nothing after the call so nothing of this frame is spilled
	// around it (the general loop costs ≈ 170 of ≈ 690 instructions of a Stockfish 13
	// update of one perspective, doc/benchmarks.md); for the 8 buckets the PSQT sums in the
	// same kernel (simd.FeatureRows.AddSubPSQT). And for no change at all, a copy.
	p := int(persp & 1)
	if a.quiet == quietPlain && len(added) == 1 && len(removed) == 1 {
		a.rows.AddSub(a.v[p], src.v[p], added[0], removed[0])
		return
	}
	if a.quiet == quietPSQT8 && len(added) == 1 && len(removed) == 1 {
		// values and PSQT sums in one kernel, the PSQT rows first
		a.rows.AddSubPSQT(a.v[p], src.v[p], a.psqt[p], src.psqt[p], added[0], removed[0])
		return
	}
	if len(added) == 0 && len(removed) == 0 { // e.g. the other side's king move in HalfKP
		if a != src {
			a.copyPersp(src, p)
		}
		return
	}
	a.updateFromGeneral(src, persp, added, removed)
}

// UpdateQuiet sets both perspectives of a to src's plus the change of a quiet move (copy-make,
// src unchanged unless src == a): one piece other than a king moved from one square to
// another (dirty from board.Position.Play; after the position after the move), one feature
// in and one out in each perspective, found by featureset.Set.QuietPair and applied by
// one simd.FeatureRows.UpdatePair call for both perspectives and, for Stockfish's 8 PSQT
// buckets, the PSQT sums — the same values as Set.Diff and UpdateFrom per perspective, in
// one call each instead of two pairs (doc/benchmarks.md). It reports false and
// changes nothing for any other move, a transformer with int8 rows or another PSQT layout,
// or a feature set without the piece-square path; the caller then takes Set.Diff and
// UpdateFrom per perspective (refreshing where Set.RequiresRefresh says so).
func (a *Accumulator) UpdateQuiet(src *Accumulator, after *board.Position, dirty *board.DirtyPieces) bool {
	if a.quiet == quietNone {
		return false
	}
	a0, s0, a1, s1, ok := a.ft.set.QuietPair(after, dirty)
	if !ok {
		return false
	}
	a.updatePair(src, a0, s0, a1, s1)
	return true
}

// updatePair applies one feature in and one out to each perspective (White: add0, sub0;
// Black: add1, sub1) in one simd.FeatureRows.UpdatePair call, with the PSQT sums for 8
// buckets; a.quiet must not be quietNone.
func (a *Accumulator) updatePair(src *Accumulator, add0, sub0, add1, sub1 int) {
	// Without PSQT (quietPlain) a.psqt and src.psqt hold nil slices, which UpdatePair
	// does not read.
	a.rows.UpdatePair(&a.v, &src.v, &a.psqt, &src.psqt, add0, sub0, add1, sub1)
}

// updateFromGeneral is UpdateFrom for any lists (the reference of its fast path). With
// int16 rows only, the rows of both lists go through one simd.FeatureRows.Update call (one
// pass over the accumulator, its bound check the only one); int8 rows
// take the fused two-row kernels in turn.
func (a *Accumulator) updateFromGeneral(src *Accumulator, persp board.Color, added, removed []int) {
	p := int(persp & 1)
	ft := a.ft
	dst, s := a.v[p], src.v[p]
	switch {
	case ft.rows8 > 0: // each part from src's, and their sum, in one pass
		a.checkIndices(added)
		a.checkIndices(removed)
		ad8, ad16 := a.splitRows(added, 0, 2)
		rm8, rm16 := a.splitRows(removed, 1, 3)
		sm := src.mix
		a.setMixed(p, sm.part[p][0], sm.psqtPart[p][0], ad16, rm16, sm.part[p][1], sm.psqtPart[p][1], ad8, rm8)
		return
	case a.rows.Width() > 0:
		a.rows.Update(dst, s, added, removed)
	default:
		a.checkIndices(added)
		a.checkIndices(removed)
		a.updateSplit(dst, s, added, removed)
	}
	if ft.psqtBuckets > 0 {
		pd, ps := a.psqt[p], src.psqt[p]
		if len(pd) == 8 && len(ps) == 8 { // SFNNv5: sums in registers (≈ 20 ns per move, both perspectives)
			psqtUpdate8(ft.psqt, (*[8]int32)(pd), (*[8]int32)(ps), added, removed)
			return
		}
		if a != src {
			copy(pd, ps)
		}
		nb := len(pd)
		for _, f := range added {
			for b, x := range ft.psqt[f*nb : (f+1)*nb] {
				pd[b] += x
			}
		}
		for _, f := range removed {
			for b, x := range ft.psqt[f*nb : (f+1)*nb] {
				pd[b] -= x
			}
		}
	}
}

// updateSplit is updateFromGeneral's row loop for int16 rows that simd.FeatureRows does
// not take: the fused kernels (AddAddSubSub, AddSubSub, AddSub, Add, Sub) in turn, dst
// from s.
func (a *Accumulator) updateSplit(dst, s []int16, added, removed []int) {
	ft := a.ft
	m := ft.width
	w := ft.weights
	row := func(f int) []int16 { return w[f*m : f*m+m : f*m+m] }
	ad, rm := added, removed
	first := true
	for len(ad) > 0 || len(rm) > 0 {
		switch {
		case len(ad) >= 2 && len(rm) >= 2:
			simd.AddAddSubSub(dst, s, row(ad[0]), row(ad[1]), row(rm[0]), row(rm[1]))
			ad, rm = ad[2:], rm[2:]
		case len(ad) >= 1 && len(rm) >= 2:
			simd.AddSubSub(dst, s, row(ad[0]), row(rm[0]), row(rm[1]))
			ad, rm = ad[1:], rm[2:]
		case len(ad) >= 1 && len(rm) >= 1:
			simd.AddSub(dst, s, row(ad[0]), row(rm[0]))
			ad, rm = ad[1:], rm[1:]
		case len(ad) >= 1:
			simd.Add(dst, s, row(ad[0]))
			ad = ad[1:]
		default:
			simd.Sub(dst, s, row(rm[0]))
			rm = rm[1:]
		}
		s = dst
		first = false
	}
	if first {
		copy(dst, s) // no row changed (a no-op when dst is s)
	}
}

// splitRows splits idx into the features with int8 rows and those with int16 rows (made
// relative to the int16 matrix), in the scratch lists i8 and i16 of a.
func (a *Accumulator) splitRows(idx []int, i8, i16 int) ([]int, []int) {
	r8 := a.ft.rows8
	l8, l16 := a.split[i8][:0], a.split[i16][:0]
	for _, f := range idx {
		if f < r8 {
			l8 = append(l8, f)
		} else {
			l16 = append(l16, f-r8)
		}
	}
	a.split[i8], a.split[i16] = l8, l16
	return l8, l16
}

// setMixed sets perspective p of a transformer with int8 rows from sources of its two
// parts: the int16 part src16 (PSQT psqt16, nil = zero) plus the int16 rows ad16 − rm16
// (indices relative to the int16 rows), the int8 part src8 (PSQT psqt8, nil = zero) plus
// the int8 rows ad8 − rm8, and the values and PSQT sums their sums — one simd.UpdateMixed
// call. The sources may be a's own parts of p.
func (a *Accumulator) setMixed(p int, src16 []int16, psqt16 []int32, ad16, rm16 []int, src8 []int16, psqt8 []int32, ad8, rm8 []int) {
	mx := a.mix
	simd.UpdateMixed(mx.tri[p], src16, src8, mx.psqtTri[p], psqt16, psqt8, &mx.rows, ad16, rm16, ad8, rm8)
}
