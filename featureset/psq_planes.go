package featureset

import (
	"math/bits"

	"github.com/nnuekit/nnuekit/board"
)

// ActivePlanes describes Active(pos, persp) as piece planes, for the role-major sets
// (HalfKP, HalfKAv2_hm): it stores pos's piece bitboards in planes — planes[2·role +
// their] holds the pieces of role (pawn … queen) of persp (their = 0) or of the other side
// (their = 1), and for HalfKAv2_hm planes[10] both kings — and returns their number np (10
// or 11), base and mask such that the features are exactly
//
//	{ base + 64·k + (s XOR mask) : bit s set in planes[k], k < np }
//
// (mask is the orientation's XOR on squares, base the first feature of persp's own-king
// block: Stockfish 13 half_kp.cpp and 15.1 half_ka_v2_hm.cpp make_index). A refresh adds
// those rows without building an index list (simd.RefreshPlanes). ok is false, and
// planes untouched, for the other sets and when persp has not exactly one king; Active
// then defines the features.
func (s *Set) ActivePlanes(pos *board.Position, persp board.Color, planes *[11]uint64) (np, base, mask int, ok bool) {
	p := s.psq
	if p == nil || !p.planes || persp > board.Black {
		return 0, 0, 0, false
	}
	k := uint64(pos.Pieces(persp, board.King))
	if k == 0 || k&(k-1) != 0 {
		return 0, 0, 0, false
	}
	ksq := board.Square(bits.TrailingZeros64(k))
	m := p.kingMask(persp, ksq)
	own, their := uint64(pos.ByColor(persp)), uint64(pos.ByColor(persp^1))
	pa, kn, bi := uint64(pos.ByRole(board.Pawn)), uint64(pos.ByRole(board.Knight)), uint64(pos.ByRole(board.Bishop))
	ro, qu := uint64(pos.ByRole(board.Rook)), uint64(pos.ByRole(board.Queen))
	planes[0], planes[1], planes[2], planes[3] = pa&own, pa&their, kn&own, kn&their
	planes[4], planes[5], planes[6], planes[7] = bi&own, bi&their, ro&own, ro&their
	planes[8], planes[9] = qu&own, qu&their
	np = 10
	if p.kind == PSQHalfKAv2hm {
		planes[10] = uint64(pos.ByRole(board.King))
		np = 11
	}
	return np, p.kingBlockBase(m, ksq), int(m), true
}
