package featureset

import "github.com/nnuekit/nnuekit/board"

// ThreatBoard is the view of a position that the FullThreats and PawnPairs blocks read:
// the piece on every square and the occupancy by color and by role. An engine with its
// own board representation fills one per position (or keeps one up to date move by move)
// and computes Stockfish 19's threat and pawn-pair features without a board.Position,
// through Set.BoardPath; SetPosition fills it from a board.Position, which is what the
// blocks' Position methods do. The fields must agree: ByColor[c] & ByRole[r] is exactly
// the set of squares whose Mailbox entry is the piece (c, r).
type ThreatBoard struct {
	Mailbox [64]board.Piece                // piece on each square, NoPiece when empty
	ByColor [2]board.Bitboard              // squares occupied by White, Black
	ByRole  [board.NumRoles]board.Bitboard // squares occupied by pawns … kings, either color
}

// SetPosition fills b from pos.
func (b *ThreatBoard) SetPosition(pos *board.Position) {
	b.Mailbox = pos.Mailbox()
	b.ByColor = [2]board.Bitboard{pos.ByColor(board.White), pos.ByColor(board.Black)}
	for r := range b.ByRole {
		b.ByRole[r] = pos.ByRole(board.Role(r))
	}
}

// SetMailbox fills b from an engine's mailbox (mailbox[sq] the piece on board.Square sq,
// a1 = 0; NoPiece when empty): the bitboards are built from it. Entries that are not valid
// pieces count as empty.
func (b *ThreatBoard) SetMailbox(mailbox *[64]board.Piece) {
	*b = ThreatBoard{Mailbox: *mailbox}
	for sq, pc := range mailbox {
		if pc.Valid() {
			b.ByColor[pc.Color()] |= board.SquareBB(board.Square(sq))
			b.ByRole[pc.Role()] |= board.SquareBB(board.Square(sq))
		} else {
			b.Mailbox[sq] = board.NoPiece
		}
	}
}

// Apply makes the move described by d on b: board.DirtyPieces.ApplyTo on the Mailbox (a
// piece leaves its From square if it stands there, then every piece with a To square is
// put there), then the bitboards of the squares d names are rebuilt from it, entries that
// are not valid pieces counting as empty. This keeps a ThreatBoard up to date move by move.
func (b *ThreatBoard) Apply(d *board.DirtyPieces) {
	d.ApplyTo(&b.Mailbox)
	var touched board.Bitboard
	for _, dp := range d.Pieces[:min(max(d.N, 0), len(d.Pieces))] {
		if dp.From.Valid() {
			touched |= board.SquareBB(dp.From)
		}
		if dp.To.Valid() {
			touched |= board.SquareBB(dp.To)
		}
	}
	b.ByColor[board.White] &^= touched
	b.ByColor[board.Black] &^= touched
	for r := range b.ByRole {
		b.ByRole[r] &^= touched
	}
	for t := touched; t != 0; {
		sq := t.PopFirst()
		if pc := b.Mailbox[sq]; pc.Valid() {
			b.ByColor[pc.Color()] |= board.SquareBB(sq)
			b.ByRole[pc.Role()] |= board.SquareBB(sq)
		} else {
			b.Mailbox[sq] = board.NoPiece
		}
	}
}

func (b *ThreatBoard) pieceAt(sq board.Square) board.Piece { return b.Mailbox[sq] }
func (b *ThreatBoard) occupied() board.Bitboard            { return b.ByColor[0] | b.ByColor[1] }
func (b *ThreatBoard) pieces(c board.Color, r board.Role) board.Bitboard {
	return b.ByColor[c] & b.ByRole[r]
}

// king returns c's king square, NoSquare unless c has exactly one king.
func (b *ThreatBoard) king(c board.Color) board.Square {
	k := b.pieces(c, board.King)
	if k == 0 || k&(k-1) != 0 {
		return board.NoSquare
	}
	return k.First()
}

// BoardPath is the own-board path of a feature set whose top-level summands are
// FullThreats (either variant), PawnPairs or piece-square sets (PieceSquare: ALL,
// KING-ALL, KP, HalfKP, HalfKAv2_hm) — Stockfish 19's threats+pawnpairs+halfkav2_hm among
// them: an engine that keeps a ThreatBoard per position computes the same features as
// Set.Active and Set.DiffBoth without a board.Position:
//
//	refresh:  dst = Active(&tb, persp, dst[:0])
//	move:     if Set.RequiresRefresh(dirty, persp) → refresh persp, else
//	          DiffBoth(&before, &after, dirty, &added, &removed) (lists of the
//	          perspectives that need no refresh are valid)
//
// The piece-square summands take the own king from the board (exactly one king per
// side). A BoardPath is immutable and safe for concurrent use.
type BoardPath struct {
	parts []boardPart
}

type boardPart struct {
	off   int
	th    *threatBlock // a FullThreats summand
	pairs bool         // a PawnPairs summand
	psq   *PieceSquare // a piece-square summand
}

// BoardPath returns the own-board path of s, or false when a top-level summand of s is
// neither FullThreats, PawnPairs nor a piece-square set.
func (s *Set) BoardPath() (*BoardPath, bool) {
	p := &BoardPath{}
	for i, b := range s.parts {
		part := boardPart{off: s.offs[i]}
		switch b := b.(type) {
		case *threatBlock:
			part.th = b
		case pawnPairBlock:
			part.pairs = true
		default:
			if part.psq = psqCandidates()[blockKey(b)]; part.psq == nil {
				return nil, false
			}
		}
		p.parts = append(p.parts, part)
	}
	return p, true
}

// appendPSQ appends the piece-square features of pos from persp (plus off), ascending.
func appendPSQ(psq *PieceSquare, pos *ThreatBoard, persp board.Color, off int, dst []int) []int {
	start := len(dst)
	dst = psq.AppendActive(persp, pos.king(persp), &pos.Mailbox, dst)
	for i := start; i < len(dst); i++ {
		dst[i] += off
	}
	sortInts(dst[start:])
	return dst
}

// Active appends the features of the position pos shows from persp: the indices of
// Set.Active of that position, each summand's ascending.
func (p *BoardPath) Active(pos *ThreatBoard, persp board.Color, dst []int) []int {
	for _, part := range p.parts {
		switch {
		case part.th != nil:
			dst = part.th.appendActive(pos, persp, part.off, dst)
		case part.pairs:
			dst = pawnPairBlock{}.appendActive(pos, persp, part.off, dst)
		default:
			dst = appendPSQ(part.psq, pos, persp, part.off, dst)
		}
	}
	return dst
}

// DiffBoth is Set.DiffBoth on board views: for both perspectives, the features active
// after the move described by dirty and not before (added[p]) and the reverse
// (removed[p]), appended in an unspecified order; the FullThreats summand's changed
// relations are computed once for both perspectives. A summand whose orientation the move
// changes (an own king crossing the d/e line; any own-king move for king-bucketed
// piece-square sets) contributes the exact difference of its two active lists, so the
// result is exact in every case.
func (p *BoardPath) DiffBoth(before, after *ThreatBoard, dirty *board.DirtyPieces, added, removed *[2][]int) {
	var dt DirtyThreats
	p.DirtyThreats(before, after, dirty, &dt)
	p.DiffBothDirty(before, after, dirty, &dt, added, removed)
}

// DirtyThreats fills dt with the relations of the path's first FullThreats summand that
// the move described by dirty (from before to after) creates and ends: the part of the
// difference Stockfish 19 computes inside Position::do_move, once for both perspectives.
// An engine calls it when it makes the move and passes dt to DiffBothDirty when it updates
// the accumulator. For a move that changes a perspective's orientation, or a path without
// FullThreats, dt describes no move (DiffBothDirty then computes from the views).
func (p *BoardPath) DirtyThreats(before, after *ThreatBoard, dirty *board.DirtyPieces, dt *DirtyThreats) {
	for _, part := range p.parts {
		if part.th != nil {
			part.th.dirtyThreats(before, after, dirty, dt)
			return
		}
	}
	dt.ok, dt.na, dt.nr = false, 0, 0
}

// DiffBothDirty is DiffBoth with the first FullThreats summand's changed relations taken
// from dt (filled by DirtyThreats for the same move, before, after and dirty; a dt that
// describes no move is computed from the views): the result is the same as DiffBoth's.
// Any further FullThreats summand computes its own.
func (p *BoardPath) DiffBothDirty(before, after *ThreatBoard, dirty *board.DirtyPieces, dt *DirtyThreats, added, removed *[2][]int) {
	first := true
	for _, part := range p.parts {
		if part.th != nil {
			if first {
				part.th.appendDirtyBoth(before, after, dt, part.off, added, removed)
				first = false
			} else {
				part.th.appendDiffBoth(before, after, dirty, part.off, added, removed)
			}
			continue
		}
		for c := board.White; c <= board.Black; c++ {
			switch {
			case part.pairs:
				added[c], removed[c] = pawnPairBlock{}.appendDiff(before, after, dirty, c, part.off, added[c], removed[c])
			case dirtyOK(dirty) && !part.psq.RequiresRefresh(c, dirty):
				a0, r0 := len(added[c]), len(removed[c])
				added[c], removed[c] = part.psq.AppendDiff(c, after.king(c), dirty, added[c], removed[c])
				for i := a0; i < len(added[c]); i++ {
					added[c][i] += part.off
				}
				for i := r0; i < len(removed[c]); i++ {
					removed[c][i] += part.off
				}
			default:
				a0, r0 := len(added[c]), len(removed[c])
				added[c] = appendPSQ(part.psq, after, c, part.off, added[c])
				removed[c] = appendPSQ(part.psq, before, c, part.off, removed[c])
				na, nr := cancelSorted(added[c][a0:], removed[c][r0:])
				added[c], removed[c] = added[c][:a0+na], removed[c][:r0+nr]
			}
		}
	}
}
