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
// those rows without building an index list (simd.RefreshPlanes; nnue's refresh forms the
// planes in the kernel instead, from PlaneRows and PlaneBlock). ok is false, and
// planes untouched, for the other sets and when persp has not exactly one king; Active
// then defines the features.
func (s *Set) ActivePlanes(pos *board.Position, persp board.Color, planes *[11]uint64) (np, base, mask int, ok bool) {
	base, mask, ok = s.PlaneBlock(pos, persp)
	if !ok {
		return 0, 0, 0, false
	}
	own, their := uint64(pos.ByColor(persp)), uint64(pos.ByColor(persp^1))
	pa, kn, bi := uint64(pos.ByRole(board.Pawn)), uint64(pos.ByRole(board.Knight)), uint64(pos.ByRole(board.Bishop))
	ro, qu := uint64(pos.ByRole(board.Rook)), uint64(pos.ByRole(board.Queen))
	planes[0], planes[1], planes[2], planes[3] = pa&own, pa&their, kn&own, kn&their
	planes[4], planes[5], planes[6], planes[7] = bi&own, bi&their, ro&own, ro&their
	planes[8], planes[9] = qu&own, qu&their
	np = 10
	if s.psq.kind == PSQHalfKAv2hm {
		planes[10] = uint64(pos.ByRole(board.King))
		np = 11
	}
	return np, base, mask, true
}

// MaxPlanes is the largest number of piece planes PlaneRows describes: 2 sides × 6 roles.
const MaxPlanes = 12

// PlaneRows describes, for the role-major sets (HalfKP, HalfKAv2_hm), where each piece
// plane's features start within an own-king block, for a refresh that forms the planes
// from the position's bitboards itself (nnue's refresh through simd.PlaneRefresher):
// plane k < np holds the pieces of role k/2 (pawn, knight, bishop, rook, queen, king) of
// the perspective's side (k even) or of the other side (k odd), and the piece of plane k
// on square sq is feature
//
//	base + rows[k] + (sq XOR mask)
//
// with base and mask from PlaneBlock. HalfKP: np = 10 (kings are no features), rows[k] =
// 64·k (Stockfish 13 half_kp.cpp: PS_W_PAWN … PS_B_QUEEN, the block's DEAD feature in
// base); HalfKAv2_hm: np = 12, rows[k] = 64·k for k < 10 and rows[10] = rows[11] = 640
// (Stockfish 15.1 half_ka_v2_hm.h: PS_KING, both kings share one plane). These are the
// features of Active and ActivePlanes. ok is false for every other set.
func (s *Set) PlaneRows() (rows [MaxPlanes]int, np int, ok bool) {
	p := s.psq
	if p == nil || !p.planes {
		return rows, 0, false
	}
	for k := range 10 {
		rows[k] = 64 * k
	}
	if p.kind != PSQHalfKAv2hm {
		return rows, 10, true
	}
	rows[10], rows[11] = 640, 640
	return rows, 12, true
}

// PlaneBlock returns base and mask of perspective persp's own-king block in pos for
// PlaneRows: mask is the orientation's XOR on squares (Rotate for HalfKP, FlipMirror for
// HalfKAv2_hm, which mirrors the files when persp's king is on files a–d) and base the
// block's first piece feature (Stockfish 13 half_kp.cpp and 15.1 half_ka_v2_hm.cpp
// make_index), as ActivePlanes returns them. ok is false for the other sets and when
// persp has not exactly one king (Active then defines the features).
func (s *Set) PlaneBlock(pos *board.Position, persp board.Color) (base, mask int, ok bool) {
	p := s.psq
	if p == nil || !p.planes || persp > board.Black {
		return 0, 0, false
	}
	k := uint64(pos.Pieces(persp, board.King))
	if bits.OnesCount64(k) != 1 {
		return 0, 0, false
	}
	b := planeBlocks[p.kind&1][persp][bits.TrailingZeros64(k)]
	return int(b >> 6), int(b & 63), true
}

// planeBlocks[kind&1][persp][ownKing] is base<<6 | mask of PlaneBlock for HalfKP (kind&1
// = 0) and HalfKAv2_hm (1), computed by init from kingMask and kingBlockBase: one load in
// place of their orientation and block arithmetic, which keeps PlaneBlock small enough to
// be inlined into a refresh (issue 14 round 7).
var planeBlocks [2][2][64]uint32

func init() {
	if PSQHalfKP&1 == PSQHalfKAv2hm&1 {
		panic("featureset: planeBlocks needs HalfKP and HalfKAv2_hm of different parity")
	}
	for _, kind := range []PSQKind{PSQHalfKP, PSQHalfKAv2hm} {
		o := Rotate
		if kind == PSQHalfKAv2hm {
			o = FlipMirror
		}
		p := newPieceSquare(kind, o)
		for persp := board.White; persp <= board.Black; persp++ {
			for ksq := board.Square(0); ksq < 64; ksq++ {
				m := p.kingMask(persp, ksq)
				planeBlocks[kind&1][persp][ksq] = uint32(p.kingBlockBase(m, ksq))<<6 | uint32(m)
			}
		}
	}
}
