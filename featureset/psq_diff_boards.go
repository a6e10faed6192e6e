package featureset

import (
	"math/bits"

	"github.com/nnuekit/nnuekit/board"
)

// DiffSameKing appends to added the features of persp active in after but not in before,
// and to removed those active in before but not in after, for two arbitrary positions in
// which persp's king stands on the same square — the case of an accumulator refresh table
// whose entries are keyed by the own king's square (CPW "Accumulator Refresh Table";
// Stockfish 17 nnue_accumulator.h AccumulatorCaches, which diffs piece bitboards the same
// way). No dirty pieces are needed: the piece-square sets compare the two positions'
// piece bitboards (and, where few squares differ, their mailboxes). Same result as Set.DiffGeneric (the exact set
// difference, each list ascending).
//
// ok is false, with nothing appended, when the set has no piece-square fast path (Set
// other than ALL, KING-ALL, KP, HalfKP, HalfKAv2_hm and their variants) or when persp does
// not have exactly one king on the same square in both positions; callers then diff
// Active lists.
func (s *Set) DiffSameKing(before, after *board.Position, persp board.Color, added, removed []int) ([]int, []int, bool) {
	if s.psq == nil || !s.psq.planes {
		return added, removed, false
	}
	return s.psq.diffSameKing(before, after, persp, added, removed)
}

// diffSameKing is DiffSameKing for a piece-square set. The squares whose piece differs
// between the two positions (a colour or a role bitboard differs there) are few in a
// refresh-table hit on a nearby position (≈ 5 rows): up to 8 of them it walks those
// squares — the feature of the piece before is removed and that of the piece after added,
// both through the view table diffOr uses, and the few indices sorted — instead of the
// twelve piece planes (≈ 240 instructions per call, doc/benchmarks.md, issue 14 round 5).
// More changed squares take the plane walk (diffSamePlanes): the square walk alone made
// the king-table loop without its warm-up moves (far-apart entries, many changed squares)
// 28 % slower (per square two mailbox reads, two data-dependent branches, and a quadratic
// sort).
func (p *PieceSquare) diffSameKing(before, after *board.Position, persp board.Color, added, removed []int) ([]int, []int, bool) {
	if persp > board.Black {
		return added, removed, false
	}
	k := after.Pieces(persp, board.King)
	if k == 0 || k&(k-1) != 0 || before.Pieces(persp, board.King) != k {
		return added, removed, false
	}
	ksq := k.First()
	chg := (after.ByColor(board.White) ^ before.ByColor(board.White)) | (after.ByColor(board.Black) ^ before.ByColor(board.Black))
	for r := board.Pawn; r <= board.King; r++ {
		chg |= after.ByRole(r) ^ before.ByRole(r)
	}
	if bits.OnesCount64(uint64(chg)) > 8 {
		added, removed = p.diffSamePlanes(before, after, persp, ksq, added, removed)
		return added, removed, true
	}
	view := &p.quiet[persp][ksq&63]
	a0, r0 := len(added), len(removed)
	for b := uint64(chg); b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b) & 63
		// NoPiece's row of the table is all −1, and so is HalfKP's for the kings.
		if v := view.tab[before.PieceAt(board.Square(sq))][sq]; v >= 0 {
			removed = append(removed, view.base+int(v))
		}
		if v := view.tab[after.PieceAt(board.Square(sq))][sq]; v >= 0 {
			added = append(added, view.base+int(v))
		}
	}
	insertionSort(added[a0:])
	insertionSort(removed[r0:])
	return added, removed, true
}

// diffSamePlanes is diffSameKing's walk over the piece planes (active's order: same base,
// orientation and feature order) of after &^ before and before &^ after.
func (p *PieceSquare) diffSamePlanes(before, after *board.Position, persp board.Color, ksq board.Square, added, removed []int) ([]int, []int) {
	m := p.kingMask(persp, ksq)
	base := p.kingBlockBase(m, ksq)
	swap := (m&56 != 0) != (m&7 != 0)
	desc := m&7 != 0
	ownA, theirA := after.ByColor(persp), after.ByColor(persp^1)
	ownB, theirB := before.ByColor(persp), before.ByColor(persp^1)
	for r := board.Pawn; r <= board.King; r++ {
		ra, rb := after.ByRole(r), before.ByRole(r)
		var a0, a1, b0, b1 board.Bitboard
		switch {
		case r < board.King:
			a0, a1, b0, b1 = ra&ownA, ra&theirA, rb&ownB, rb&theirB
		case p.kind == PSQHalfKAv2hm:
			a0, b0 = ra, rb // both kings share one plane
		default:
			return added, removed // HalfKP: kings are not features
		}
		// Most planes are unchanged between two nearby positions: one test skips a plane
		// pair without the four calls (≈ 260 instructions per SF13 king-table evaluation,
		// doc/benchmarks.md, issue 14 round 5).
		if (a0^b0)|(a1^b1) != 0 {
			if a0 != b0 {
				added = appendPlane(added, a0&^b0, base, swap, desc)
				removed = appendPlane(removed, b0&^a0, base, swap, desc)
			}
			if a1 != b1 {
				added = appendPlane(added, a1&^b1, base+64, swap, desc)
				removed = appendPlane(removed, b1&^a1, base+64, swap, desc)
			}
		}
		base += 128
	}
	return added, removed
}

// appendPlane appends base + oriented square for every square of bb, in active's order.
func appendPlane(dst []int, bb board.Bitboard, base int, swap, desc bool) []int {
	if bb == 0 {
		return dst
	}
	if swap {
		bb = bb.FlipRanks()
	}
	b := uint64(bb)
	if desc {
		for ; b != 0; b &^= 1 << (63 - bits.LeadingZeros64(b)) {
			dst = append(dst, base+bits.LeadingZeros64(b))
		}
		return dst
	}
	for ; b != 0; b &= b - 1 {
		dst = append(dst, base+bits.TrailingZeros64(b))
	}
	return dst
}

// insertionSort sorts s ascending (a handful of elements, no duplicates to remove).
func insertionSort(s []int) {
	for i := 1; i < len(s); i++ {
		x := s[i]
		j := i
		for ; j > 0 && s[j-1] > x; j-- {
			s[j] = s[j-1]
		}
		s[j] = x
	}
}
