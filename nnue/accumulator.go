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
	// kind is the transformer's accumulator path (planAccumulator) and rows its int16
	// rows bound to the kernels (accPlan.rows), both copied from the transformer so that
	// the one-in, one-out update reads them from the accumulator itself.
	kind accKind
	rows simd.FeatureRows
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

// accKind is the refresh and update path of every accumulator of a feature transformer,
// chosen once by planAccumulator.
type accKind uint8

const (
	accRows16      accKind = iota // int16 rows, no PSQT
	accRows16PSQT8                // int16 rows, 8 PSQT buckets (SFNNv5)
	accRows16PSQT                 // int16 rows, a PSQT bucket count other than 8
	accMixed                      // int8 and int16 rows, with or without PSQT (Stockfish 19)
)

// pairs reports whether a quiet move's update of both perspectives is one
// simd.FeatureRows.UpdatePair call (UpdateQuiet, the stack's piece-square update).
func (k accKind) pairs() bool { return k <= accRows16PSQT8 }

// accPlan is a feature transformer's accumulator path and the kernels bound to it, built
// once by planAccumulator.
type accPlan struct {
	kind accKind
	// rows: the int16 rows as simd.FeatureRows, with the PSQT rows attached for
	// accRows16PSQT8 (unused for accMixed).
	rows simd.FeatureRows
	// mixed: accMixed's int16 and int8 rows and their PSQT rows for simd.UpdateMixed.
	mixed simd.MixedRows
	// planes: the refresh from a position's piece bitboards (Accumulator.refreshPlanes)
	// bound to the rows, bias, PSQT rows and the set's plane layout: HalfKP and
	// HalfKAv2_hm with int16 rows (featureset.Set.PlaneRows), nil otherwise.
	planes *simd.PlaneRefresher
	// split: accMixed whose int8 rows are whole summands of the set (newSplitSummands:
	// Stockfish 19), nil otherwise. An own-king move then updates the int8 part and
	// refreshes only the int16 part (AccumulatorStack.update, RefreshTable.part16).
	split *splitSummands
}

// planAccumulator chooses how every accumulator of ft is refreshed and updated, once,
// when ft is built (newFT, newFT8), from its declared fields alone: the row types
// (Int8Rows), the PSQT bucket count and the width (a positive multiple of 32, every one
// of which simd.FeatureRows takes), and for the plane refresher and the split summands
// the feature set's declared structure (Set.PlaneRows, Set.Blocks); never from names or
// descriptions. It is the only place that makes the choice;
// Accumulator's methods, RefreshTable and AccumulatorStack dispatch on the kind. The
// kernels of each kind — refresh from a list; update of one perspective by one feature in
// and one out; quiet move of both perspectives; update by any lists:
//
//   - accRows16 (int16 rows, no PSQT: the thesis nets, CPW/bullet nets, the embedded
//     default, Stockfish 13): simd.Refresh; FeatureRows.AddSub; FeatureRows.UpdatePair;
//     FeatureRows.Update.
//   - accRows16PSQT8 (int16 rows, 8 PSQT buckets: Stockfish 15.1, 16): simd.RefreshPSQT;
//     FeatureRows.AddSubPSQT; FeatureRows.UpdatePair with the PSQT rows;
//     FeatureRows.Update and psqtUpdate8.
//   - accRows16PSQT (int16 rows, another PSQT count; no shipped net): simd.RefreshPSQT;
//     FeatureRows.Update and psqtUpdate for every update, each perspective on its own.
//   - accMixed (int8 and int16 rows: Stockfish 19): simd.UpdateMixed for everything (the
//     refresh from the bias), each perspective on its own.
//
// An update with no change at all (the other side's king move in HalfKP, a null move) is
// a copy of the perspective, for every kind.
//
// The two int16 kinds that ship have two update kernels: a quiet move (one feature in,
// one out per perspective: most moves of a search) is one direct kernel call taking the
// row indices, with no list, loop or per-row dispatch (AddSub, AddSubPSQT, and
// UpdatePair for both perspectives of a piece-square set); every other change (captures,
// castling, promotions, a refresh table's difference) is the list kernel, one pass over
// the accumulator for any number of rows. A PSQT count other than 8 has no shipped net
// and takes the list kernel for every change; accMixed (Stockfish 19, whose quiet moves
// change threat features too, so they are seldom one in and one out) has the one kernel
// simd.UpdateMixed, which sets both parts and their sum in one pass.
//
// A refresh from a position (Evaluator.RefreshPerspective, RefreshTable's misses) takes
// planes — simd.PlaneRefresher straight from the piece bitboards, the PSQT sums in the
// same kernel — where the set has plane rows (HalfKP, HalfKAv2_hm) and the rows are
// int16, else Set.Active and the kind's refresh. Through a RefreshTable (king-bucketed
// sets) a refresh is the kind's any-lists update from the cached entry of the king
// square (a hit) or the refresh above (a miss). With split, an own-king move updates the
// int8 part by its difference and takes the int16 part from the table's cached part of
// the king square (or refreshes it), in one simd.UpdateMixed call.
func planAccumulator(ft *FeatureTransformer) accPlan {
	var pl accPlan
	if ft.rows8 > 0 {
		nb := ft.psqtBuckets
		pl.kind = accMixed
		pl.mixed = simd.MixedRows{W16: ft.weights, W8: ft.weights8, PSQT16: ft.psqt[ft.rows8*nb:], PSQT8: ft.psqt[:ft.rows8*nb], Buckets: nb}
		pl.split = newSplitSummands(ft)
		return pl
	}
	// ft.width > 0 (checkFTDims, the loaders), so NewFeatureRows returns no error; its
	// rows are set.Size(), as many as ft.psqt has PSQT rows, so neither does WithPSQT8.
	pl.rows, _ = simd.NewFeatureRows(ft.weights, ft.width)
	switch ft.psqtBuckets {
	case 0:
		pl.kind = accRows16
	case 8:
		pl.kind = accRows16PSQT8
		pl.rows, _ = pl.rows.WithPSQT8(ft.psqt)
	default:
		pl.kind = accRows16PSQT
	}
	if rows, np, ok := ft.set.PlaneRows(); ok {
		// len(ft.bias) == ft.width and set.Size() rows, which every plane's rows fit:
		// no error.
		pl.planes, _ = simd.NewPlaneRefresher(ft.bias, ft.weights, ft.width, ft.psqt, ft.psqtBuckets, rows[:np])
	}
	return pl
}

// NewAccumulator returns a zeroed accumulator for ft. Call Refresh before use.
func (ft *FeatureTransformer) NewAccumulator() *Accumulator {
	a := &Accumulator{ft: ft, kind: ft.acc.kind, rows: ft.acc.rows}
	m, nb := ft.width, ft.psqtBuckets
	nv := ft.accVectors()
	buf := alignedInt16(nv * m)
	var pbuf []int32
	if nb > 0 {
		pbuf = make([]int32, nv*nb)
	}
	if a.kind == accMixed {
		a.mix = &accParts{rows: ft.acc.mixed}
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
	if ft.acc.kind == accMixed {
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
	if a.kind == accMixed { // the values and both parts
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
// Set().Active(pos, persp, …); duplicates are summed as many times as they occur. The
// kernel is the kind's (planAccumulator): simd.Refresh, simd.RefreshPSQT (the PSQT rows
// in the same loop, one vector add per row for 8 buckets) or simd.UpdateMixed from the
// bias.
//
// The bound of every index is checked once, by the simd kernel; a panic there is caught
// here and re-raised with nnue's message naming the index ("nnue: feature index 96 out
// of range [0, 96)"), the one checkIndices gives elsewhere. Checking the list here as
// well would cost ≈ 4 instructions per feature (doc/benchmarks.md).
func (a *Accumulator) Refresh(persp board.Color, active []int) {
	defer a.refreshPanic(active)
	p := int(persp & 1)
	ft := a.ft
	switch a.kind {
	case accRows16:
		simd.Refresh(a.v[p], ft.bias, ft.weights, active)
	case accRows16PSQT8, accRows16PSQT:
		simd.RefreshPSQT(a.v[p], ft.bias, ft.weights, active, a.psqt[p], ft.psqt)
	case accMixed: // the int16 part from the bias, the int8 part from zero, and their sum
		a8, a16 := a.splitRows(active, 0, 2)
		v8 := a.mix.part[p][1]
		clear(v8)
		a.setMixed(p, ft.bias, nil, a16, nil, v8, nil, a8, nil)
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
// Values(persp) += Σ_{f ∈ added} W[f] − Σ_{f ∈ removed} W[f] (and the PSQT sums), by the
// kind's kernels (UpdateFrom).
func (a *Accumulator) Update(persp board.Color, added, removed []int) {
	a.UpdateFrom(a, persp, added, removed)
}

// UpdateFrom sets perspective persp of a to src's plus the difference (copy-make: src is
// left unchanged unless src == a). Same arithmetic as Update.
//
// One feature in and one out with int16 rows and no PSQT or 8 PSQT buckets (a quiet move)
// is one simd.FeatureRows call taking the two row indices (which it checks; its panic
// names the bad one): no list, no loop, nothing after the call, so nothing of this frame
// is spilled around it; for 8 buckets the PSQT sums in the same kernel
// (FeatureRows.AddSubPSQT). No change at all is a copy: ≈ 165 instructions for Stockfish
// 13's width 256 against ≈ 220 through the list kernel with empty lists (callgrind,
// AVX2). Everything else is updateFromGeneral (planAccumulator).
func (a *Accumulator) UpdateFrom(src *Accumulator, persp board.Color, added, removed []int) {
	p := int(persp & 1)
	if len(added) == 1 && len(removed) == 1 {
		switch a.kind {
		case accRows16:
			a.rows.AddSub(a.v[p], src.v[p], added[0], removed[0])
			return
		case accRows16PSQT8: // values and PSQT sums in one kernel, the PSQT rows first
			a.rows.AddSubPSQT(a.v[p], src.v[p], a.psqt[p], src.psqt[p], added[0], removed[0])
			return
		}
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
// changes nothing for any other move, for a transformer whose kind has no pair kernel
// (int8 rows, a PSQT count other than 8: planAccumulator), or a feature set without the
// piece-square path; the caller then takes Set.Diff and UpdateFrom per perspective
// (refreshing where Set.RequiresRefresh says so).
func (a *Accumulator) UpdateQuiet(src *Accumulator, after *board.Position, dirty *board.DirtyPieces) bool {
	if !a.kind.pairs() {
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
// buckets; a.kind.pairs() must hold.
func (a *Accumulator) updatePair(src *Accumulator, add0, sub0, add1, sub1 int) {
	// Without PSQT (accRows16) a.psqt and src.psqt hold nil slices, which UpdatePair
	// does not read.
	a.rows.UpdatePair(&a.v, &src.v, &a.psqt, &src.psqt, add0, sub0, add1, sub1)
}

// updateFromGeneral is UpdateFrom for any lists, the kind's list kernel
// (planAccumulator): with int16 rows the rows of both lists in one
// simd.FeatureRows.Update call (one pass over the accumulator, its bound check the only
// one) and the PSQT sums (psqtUpdate8 in registers for 8 buckets, psqtUpdate otherwise);
// with int8 rows both parts from src's and their sum in one simd.UpdateMixed pass.
func (a *Accumulator) updateFromGeneral(src *Accumulator, persp board.Color, added, removed []int) {
	p := int(persp & 1)
	ft := a.ft
	switch a.kind {
	case accRows16:
		a.rows.Update(a.v[p], src.v[p], added, removed)
	case accRows16PSQT8:
		a.rows.Update(a.v[p], src.v[p], added, removed)
		psqtUpdate8(ft.psqt, (*[8]int32)(a.psqt[p]), (*[8]int32)(src.psqt[p]), added, removed)
	case accRows16PSQT:
		a.rows.Update(a.v[p], src.v[p], added, removed)
		psqtUpdate(ft.psqt, a.psqt[p], src.psqt[p], added, removed)
	case accMixed:
		a.checkIndices(added)
		a.checkIndices(removed)
		ad8, ad16 := a.splitRows(added, 0, 2)
		rm8, rm16 := a.splitRows(removed, 1, 3)
		sm := src.mix
		a.setMixed(p, sm.part[p][0], sm.psqtPart[p][0], ad16, rm16, sm.part[p][1], sm.psqtPart[p][1], ad8, rm8)
	}
}

// prefetchMixed starts loading the first lines of the rows an update of a transformer
// with int8 rows will read for the feature difference (added, removed), so that they
// arrive while other work runs (simd.PrefetchMixed); other transformers do nothing. It
// uses the same scratch lists as the update, so it must not run inside one.
func (a *Accumulator) prefetchMixed(added, removed []int) {
	if a.kind != accMixed {
		return
	}
	ad8, ad16 := a.splitRows(added, 0, 2)
	rm8, rm16 := a.splitRows(removed, 1, 3)
	simd.PrefetchMixed(&a.mix.rows, a.ft.width, ad16, rm16, ad8, rm8)
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
