package nnue

import (
	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// refreshPos sets perspective persp of a to the feature transformer's output for pos,
// exactly as a.Refresh(persp, Set().Active(pos, persp, …)) does. For HalfKP and
// HalfKAv2_hm with int16 rows the rows come straight from pos's piece bitboards
// (featureset.Set.ActivePlanes, simd.RefreshPlanes: no index list, no per-row check, the
// PSQT sums in the same kernel — Stockfish's update_accumulator with
// append_active_indices); other sets list their features in *scratch (reused) and refresh
// from the list.
func (a *Accumulator) refreshPos(pos *board.Position, persp board.Color, scratch *[]int) {
	ft := a.ft
	if ft.rows8 == 0 {
		var planes [11]uint64
		if np, base, mask, ok := ft.set.ActivePlanes(pos, persp, &planes); ok {
			p := int(persp & 1)
			simd.RefreshPlanes(a.v[p], ft.bias, ft.weights, planes[:np], base, mask, a.psqt[p], ft.psqt)
			return
		}
	}
	*scratch = ft.set.Active(pos, persp, (*scratch)[:0])
	a.Refresh(persp, *scratch)
}
