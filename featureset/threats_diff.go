package featureset

import (
	"math/bits"

	"github.com/nnuekit/nnuekit/board"
)

// threat is one relation of FullThreats in absolute terms, the same for both
// perspectives: the attacker pc on from attacks the piece tpc on to. A perspective turns it
// into a feature index (threatBlock.index), or into none (an excluded pair, or a
// same-type pair seen from the lower square in that perspective's orientation).
type threat struct {
	pc, tpc  board.Piece
	from, to board.Square
}

// threatBuf is the capacity of the arrays a caller of changedThreats keeps on its stack
// (no allocation): a move that changes more relations (none in chess: a move touches at
// most 4 squares) spills to the heap through append.
const threatBuf = 128

// appendThreats appends the threats of pc on from onto the occupied squares of to (to
// already restricted to the attacker's target roles).
func appendThreats(pos *ThreatBoard, pc board.Piece, from board.Square, to board.Bitboard, dst []threat) []threat {
	for to != 0 {
		t := to.PopFirst()
		dst = append(dst, threat{pc: pc, tpc: pos.pieceAt(t), from: from, to: t})
	}
	return dst
}

// appendThreatsFrom appends every threat of the piece on from (nothing when the square is
// empty or its role attacks nothing).
func (b *threatBlock) appendThreatsFrom(pos *ThreatBoard, from board.Square, occ board.Bitboard, tb *[board.NumRoles]board.Bitboard, dst []threat) []threat {
	pc := pos.pieceAt(from)
	if pc == board.NoPiece || b.attRole&(1<<pc.Role()) == 0 {
		return dst
	}
	return appendThreats(pos, pc, from, board.Attacks(pc, from, occ)&tb[pc.Role()], dst)
}

// changedThreats appends to added the threats the move described by dirty creates and to
// removed those it ends, each once, none in both; the move must be valid (dirtyOK) and
// non-empty. Both lists must be empty. The threats that can change are those of the
// pieces on the dirty squares S and those of every piece that attacks a square of S
// before or after the move (a slider whose ray S opens or closes sees that square; a piece
// whose target on S changes attacks it); every other piece keeps its attack set and its
// targets. A piece on S contributes all its threats before (removed) and after (added); a
// piece off S only its threats onto S and onto the squares its attack set gained or
// lost. This is what Stockfish 19 computes inside do_move, once per move for both
// perspectives.
func (b *threatBlock) changedThreats(before, after *ThreatBoard, dirty *board.DirtyPieces, added, removed []threat) ([]threat, []threat) {
	var s board.Bitboard
	for _, d := range dirty.Pieces[:dirty.N] {
		if d.From != board.NoSquare {
			s |= board.SquareBB(d.From)
		}
		if d.To != board.NoSquare {
			s |= board.SquareBB(d.To)
		}
	}
	occB, occA := before.occupied(), after.occupied()
	// Pieces off S are the same before and after, and a slider that sees a square of S
	// with either occupancy sees it with their intersection: one look-up per square gives
	// a superset of the affected pieces (an extra one contributes nothing).
	var aff board.Bitboard
	for t := s; t != 0; {
		aff |= b.attackersTo(before, t.PopFirst(), occB&occA)
	}
	aff &^= s
	tbB, tbA := b.targetsOf(before), b.targetsOf(after)
	for t := s; t != 0; {
		sq := t.PopFirst()
		removed = b.appendThreatsFrom(before, sq, occB, &tbB, removed)
		added = b.appendThreatsFrom(after, sq, occA, &tbA, added)
	}
	for aff != 0 {
		sq := aff.PopFirst()
		pc := before.pieceAt(sq) // == after.pieceAt(sq): sq is not dirty
		r := pc.Role()
		ab, aa := board.Attacks(pc, sq, occB), board.Attacks(pc, sq, occA)
		d := ab ^ aa | s
		removed = appendThreats(before, pc, sq, ab&tbB[r]&d, removed)
		added = appendThreats(after, pc, sq, aa&tbA[r]&d, added)
	}
	// A relation both removed and added (e.g. a piece on S attacked before and after by
	// the same piece of the same role) is no change. The lists hold distinct threats
	// each, so one quadratic pass over the short lists cancels them.
	for i := 0; i < len(added); i++ {
		for j := 0; j < len(removed); j++ {
			if added[i] == removed[j] {
				added[i] = added[len(added)-1]
				added = added[:len(added)-1]
				removed[j] = removed[len(removed)-1]
				removed = removed[:len(removed)-1]
				i--
				break
			}
		}
	}
	return added, removed
}

// index returns off plus the feature index of t seen from persp with orientation mask m,
// or −1 when t is no feature in that perspective.
func (b *threatBlock) index(t threat, persp board.Color, m board.Square, off int) int {
	rel := &relPiece[persp]
	x := rel[t.pc]
	fo := t.from ^ m
	if t.pc.Role() == board.Pawn && (fo.Rank() == 0 || fo.Rank() == 7) {
		return -1 // not a legal pawn square: no feature
	}
	to := t.to ^ m
	l := b.lut[x][rel[t.tpc]][b2i(fo < to)]
	if l < 0 {
		return -1
	}
	return off + int(l) + int(b.off[x][fo]) + bits.OnesCount64(uint64(b.att[x][fo])&(1<<uint(to)-1))
}

// appendIndices appends the features of ts seen from persp.
func (b *threatBlock) appendIndices(ts []threat, persp board.Color, m board.Square, off int, dst []int) []int {
	for _, t := range ts {
		if i := b.index(t, persp, m, off); i >= 0 {
			dst = append(dst, i)
		}
	}
	return dst
}

// AppendDiff is the DirtyPieces fast path: the move's changed threats (changedThreats)
// turned into this perspective's indices. When the own king crosses the d/e boundary
// (orientation change) it recomputes.
func (b *threatBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	var vb, va ThreatBoard
	vb.SetPosition(before)
	va.SetPosition(after)
	return b.appendDiff(&vb, &va, dirty, persp, off, added, removed)
}

// appendDiff is AppendDiff on the board views.
func (b *threatBlock) appendDiff(before, after *ThreatBoard, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := threatMask(before, persp)
	if !dirtyOK(dirty) || dirty.N == 0 || m != threatMask(after, persp) {
		return b.appendDiffGeneric(before, after, persp, off, added, removed)
	}
	var bufA, bufR [threatBuf]threat
	ta, tr := b.changedThreats(before, after, dirty, bufA[:0], bufR[:0])
	return b.appendIndices(ta, persp, m, off, added), b.appendIndices(tr, persp, m, off, removed)
}

// DirtyThreats lists the FullThreats relations one move creates and ends (an attacker on a
// square, the piece it attacks on another), in absolute terms and so the same for both
// perspectives: Stockfish 19's DirtyThreats (position.h), which its Position::do_move fills
// and each perspective's append_changed_indices turns into feature indices.
// BoardPath.DirtyThreats computes it for the path's first FullThreats summand when the move
// is made; BoardPath.DiffBothDirty indexes it when the accumulator is updated. It holds up
// to 128 relations each way in place (a chess move changes far fewer), 1 KB: an engine
// keeps one per ply and nothing is allocated. The zero value describes no move, and
// DiffBothDirty then computes the difference from the two views.
type DirtyThreats struct {
	added, removed [threatBuf]threat
	na, nr         int
	// ok: the lists describe the move. False for a move that changes a perspective's
	// orientation (an own king crossing the d/e line), a dirty list that is not
	// incremental, or a path without FullThreats.
	ok bool
}

// dirtyThreats fills dt with the relations the move creates and ends (changedThreats), or
// marks it unusable (ok false) where the move changes an orientation.
func (b *threatBlock) dirtyThreats(before, after *ThreatBoard, dirty *board.DirtyPieces, dt *DirtyThreats) {
	dt.ok, dt.na, dt.nr = false, 0, 0
	if !dirtyOK(dirty) || dirty.N == 0 ||
		threatMask(before, board.White) != threatMask(after, board.White) ||
		threatMask(before, board.Black) != threatMask(after, board.Black) {
		return
	}
	ta, tr := b.changedThreats(before, after, dirty, dt.added[:0], dt.removed[:0])
	if cap(ta) != threatBuf || cap(tr) != threatBuf {
		return // spilled past the arrays (no chess move does): computed from the views instead
	}
	dt.na, dt.nr, dt.ok = len(ta), len(tr), true
}

// appendDirtyBoth appends both perspectives' indices of dt's relations, or, where dt is
// unusable, the difference of each perspective's two active lists.
func (b *threatBlock) appendDirtyBoth(before, after *ThreatBoard, dt *DirtyThreats, off int, added, removed *[2][]int) {
	if !dt.ok {
		for p := board.White; p <= board.Black; p++ {
			added[p], removed[p] = b.appendDiffGeneric(before, after, p, off, added[p], removed[p])
		}
		return
	}
	ta, tr := dt.added[:dt.na], dt.removed[:dt.nr]
	for p := board.White; p <= board.Black; p++ {
		m := threatMask(before, p)
		added[p] = b.appendIndices(ta, p, m, off, added[p])
		removed[p] = b.appendIndices(tr, p, m, off, removed[p])
	}
}

// appendDiffBoth is AppendDiff for both perspectives, the changed threats computed once
// (Stockfish 19's DirtyThreats: do_move lists them once, each perspective indexes them).
func (b *threatBlock) appendDiffBoth(before, after *ThreatBoard, dirty *board.DirtyPieces, off int, added, removed *[2][]int) {
	var dt DirtyThreats
	b.dirtyThreats(before, after, dirty, &dt)
	b.appendDirtyBoth(before, after, &dt, off, added, removed)
}

// oneKingEach reports whether pos has exactly one king of each colour.
func oneKingEach(pos *board.Position) bool {
	for c := board.White; c <= board.Black; c++ {
		if k := pos.Pieces(c, board.King); k == 0 || k&(k-1) != 0 {
			return false
		}
	}
	return true
}

// appendDiffGeneric is the difference of the two active lists (each ascending), for a move
// that changes the orientation.
func (b *threatBlock) appendDiffGeneric(before, after *ThreatBoard, persp board.Color, off int, added, removed []int) ([]int, []int) {
	a0, r0 := len(added), len(removed)
	added = b.appendActive(after, persp, off, added)
	removed = b.appendActive(before, persp, off, removed)
	na, nr := cancelSorted(added[a0:], removed[r0:])
	return added[:a0+na], removed[:r0+nr]
}

// DiffBoth is Diff for both perspectives at once (added[p], removed[p] for perspective
// p, appended to what they hold): the same features as Diff(…, White, …) and
// Diff(…, Black, …), in an unspecified order, with the FullThreats block's changed
// threats computed once for both (Stockfish 19 lists them once per move in do_move) and
// every other block's difference per perspective. The caller refreshes instead where
// RequiresRefresh says so, as for Diff. A set whose summands all have an own-board path
// (BoardPath: Stockfish 19's threats+pawnpairs+halfkav2_hm) takes it when both
// positions have one king per side, the piece-square summands then from their tables
// (PieceSquare.AppendDiff) rather than the block tree.
func (s *Set) DiffBoth(before, after *board.Position, dirty *board.DirtyPieces, added, removed *[2][]int) {
	if s.psq != nil {
		for p := board.White; p <= board.Black; p++ {
			added[p], removed[p] = s.Diff(before, after, dirty, p, added[p], removed[p])
		}
		return
	}
	var vb, va ThreatBoard
	if s.board != nil && oneKingEach(before) && oneKingEach(after) {
		vb.SetPosition(before)
		va.SetPosition(after)
		s.board.DiffBoth(&vb, &va, dirty, added, removed)
		return
	}
	viewed := false
	for i, b := range s.parts {
		if th, ok := b.(*threatBlock); ok {
			if !viewed {
				vb.SetPosition(before)
				va.SetPosition(after)
				viewed = true
			}
			th.appendDiffBoth(&vb, &va, dirty, s.offs[i], added, removed)
			continue
		}
		for p := board.White; p <= board.Black; p++ {
			added[p], removed[p] = b.AppendDiff(before, after, dirty, p, s.offs[i], added[p], removed[p])
		}
	}
}
