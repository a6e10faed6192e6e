package nnue

import (
	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// refreshPlanes sets perspective persp of a to the feature transformer's output for pos,
// exactly as a.Refresh(persp, Set().Active(pos, persp, …)) does, for HalfKP and
// HalfKAv2_hm with int16 rows: the rows come straight from pos's piece bitboards
// (featureset.Set.ActivePlanes, simd.RefreshPlanes: no index list, no per-row check, the
// PSQT sums in the same kernel — Stockfish's update_accumulator with
// append_active_indices). It returns the number of active features, or reports false (a
// unchanged) for other sets, int8 rows or a perspective without exactly one king; the
// caller then refreshes from Set.Active's list.
func (a *Accumulator) refreshPlanes(pos *board.Position, persp board.Color) (int, bool) {
	ft := a.ft
	if ft.rows8 != 0 {
		return 0, false
	}
	var planes [11]uint64
	np, base, mask, ok := ft.set.ActivePlanes(pos, persp, &planes)
	if !ok {
		return 0, false
	}
	p := int(persp & 1)
	return simd.RefreshPlanes(a.v[p], ft.bias, ft.weights, planes[:np], base, mask, a.psqt[p], ft.psqt), true
}
