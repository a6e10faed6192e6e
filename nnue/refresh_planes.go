package nnue

import "github.com/nnuekit/nnuekit/board"

// refreshPlanes sets perspective persp of a to the feature transformer's output for pos,
// exactly as a.Refresh(persp, Set().Active(pos, persp, …)) does, for HalfKP and
// HalfKAv2_hm with int16 rows: the transformer's simd.PlaneRefresher (bound at load to
// its rows and the set's plane layout, featureset.Set.PlaneRows) walks pos's colour and
// role bitboards itself from the own-king block's base and orientation mask
// (featureset.Set.PlaneBlock) — no plane array, no index list, no per-row check, the
// PSQT sums in the same kernel: Stockfish's update_accumulator with
// append_active_indices. It returns the number of active features, or reports false (a
// unchanged) for other sets, int8 rows or a perspective without exactly one king; the
// caller then refreshes from Set.Active's list.
func (a *Accumulator) refreshPlanes(pos *board.Position, persp board.Color) (int, bool) {
	ft := a.ft
	r := ft.acc.planes
	if r == nil {
		return 0, false
	}
	base, mask, ok := ft.set.PlaneBlock(pos, persp)
	if !ok {
		return 0, false
	}
	// Element by element: a composite literal is built in a temporary and copied.
	var boards [8]uint64
	boards[0], boards[1] = uint64(pos.ByColor(persp&1)), uint64(pos.ByColor(persp&1^1))
	boards[2], boards[3] = uint64(pos.ByRole(board.Pawn)), uint64(pos.ByRole(board.Knight))
	boards[4], boards[5] = uint64(pos.ByRole(board.Bishop)), uint64(pos.ByRole(board.Rook))
	boards[6], boards[7] = uint64(pos.ByRole(board.Queen)), uint64(pos.ByRole(board.King))
	p := int(persp & 1)
	c := r.Refresh(a.v[p], a.psqt[p], &boards, base, mask)
	return c, c >= 0
}
