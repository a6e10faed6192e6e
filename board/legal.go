package board

// Move predicates for search code: pseudo-legality of moves from a transposition table or
// a killer slot, legality without generating, captures, promotions, checks.

// IsPromotion reports whether m carries a promotion role.
func (m Move) IsPromotion() bool { return m>>12&7 != 0 }

// IsCapture reports whether m captures in p: its destination holds a piece of the side
// not to move, or it is a pawn's diagonal move to p's en-passant square. It does not check
// that m is legal.
func (p *Position) IsCapture(m Move) bool { return p.CapturedPiece(m) != NoPiece }

// CapturedPiece returns the piece m captures in p (the pawn taken en passant for an
// en-passant capture), or NoPiece. It does not check that m is legal.
func (p *Position) CapturedPiece(m Move) Piece {
	from, to := m.From(), m.To()
	if c := p.mailbox[to]; c != NoPiece {
		if pieceColor[c] != p.side&1 {
			return c
		}
		return NoPiece
	}
	if p.epSet && to == p.epSquare && p.mailbox[from] == MakePiece(p.side&1, Pawn) && from.File() != to.File() {
		return p.mailbox[NewSquare(to.File(), from.Rank())]
	}
	return NoPiece
}

// IsPseudoLegal reports whether m could be generated in p if king safety were ignored:
// the origin holds a piece of the side to move that moves that way (sliders not blocked,
// pawn pushes onto empty squares, diagonal pawn moves only to capture or onto the
// en-passant square), the destination holds no piece of the side to move, a promotion
// role (knight … queen) is present exactly when a pawn reaches the last rank, and castling
// is fully legal (rights, rook on its corner, empty path, king not in check and not
// crossing an attacked square). Every legal move is pseudo-legal; IsLegal decides the rest.
// Any 16-bit value is accepted (NullMove and malformed moves give false). It plays the
// role of Stockfish 15.1 Position::pseudo_legal for moves coming from a transposition
// table or a killer slot; unlike it, check evasion is left to IsLegal.
func (p *Position) IsPseudoLegal(m Move) bool {
	if m == NullMove || m>>15 != 0 {
		return false
	}
	from, to := m.From(), m.To()
	us := p.side & 1
	pc := p.mailbox[from]
	if from == to || pc == NoPiece || pieceColor[pc] != us || p.byColor[us].Has(to) {
		return false
	}
	role := pieceRole[pc]
	promo := Role(m >> 12 & 7)
	occ := p.Occupied()
	if role != Pawn {
		if promo != 0 {
			return false
		}
	}
	switch role {
	case Pawn:
		last := to.Rank() == 7
		up := Square(8)
		start := 1
		if us == Black {
			last, up, start = to.Rank() == 0, -8, 6
		}
		if last != (promo != 0) || promo > Queen {
			return false
		}
		switch {
		case to == from+up:
			return p.mailbox[to] == NoPiece
		case to == from+2*up:
			return from.Rank() == start && p.mailbox[from+up] == NoPiece && p.mailbox[to] == NoPiece
		case pawnAttacks[us][from].Has(to):
			if p.byColor[us^1].Has(to) {
				return true
			}
			return p.epSet && to == p.epSquare && p.mailbox[to-up] == MakePiece(us^1, Pawn)
		}
		return false
	case Knight:
		return knightAttacks[from].Has(to)
	case Bishop:
		return BishopAttacks(from, occ).Has(to)
	case Rook:
		return RookAttacks(from, occ).Has(to)
	case Queen:
		return QueenAttacks(from, occ).Has(to)
	default: // King
		if kingAttacks[from].Has(to) {
			return true
		}
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			c := &castlingPaths[i]
			if from != c.king || to != c.to {
				continue
			}
			if p.castling&c.right == 0 || occ&c.empty != 0 || p.mailbox[c.rook] != MakePiece(us, Rook) ||
				p.attacked(from, us^1, occ) {
				return false
			}
			for b := c.safe; b != 0; {
				if p.attacked(b.PopFirst(), us^1, occ) {
					return false
				}
			}
			return true
		}
		return false
	}
}

// IsLegal reports whether m is a legal move of p (one of GenerateLegal's moves), without
// generating: IsPseudoLegal, then the king-safety test of the generator (king destination
// not attacked, pins, check evasion, en passant by recomputing the attacks on the king).
// Any 16-bit value is accepted.
func (p *Position) IsLegal(m Move) bool {
	return p.IsPseudoLegal(m) && p.kingSafeAfter(m)
}

// kingSafeAfter reports whether the pseudo-legal move m leaves the mover's king safe.
func (p *Position) kingSafeAfter(m Move) bool {
	us := p.side & 1
	them := us ^ 1
	kingBB := p.byRole[King] & p.byColor[us]
	if kingBB == 0 {
		return false
	}
	ksq := kingBB.First()
	from, to := m.From(), m.To()
	occ := p.Occupied()
	if from == ksq {
		if to == from+2 || to == from-2 {
			return true // castling: IsPseudoLegal checked it completely
		}
		return !p.attacked(to, them, occ&^SquareBB(from))
	}
	if pieceRole[p.mailbox[from]] == Pawn && p.epSet && to == p.epSquare && p.mailbox[to] == NoPiece {
		victim := NewSquare(to.File(), from.Rank())
		o := occ&^SquareBB(from)&^SquareBB(victim) | SquareBB(to)
		return !p.attacked(ksq, them, o)
	}
	pinned, checkers := p.pinnedAndCheckers(ksq, occ)
	if checkers != 0 {
		if checkers&(checkers-1) != 0 {
			return false
		}
		if !(betweenBB[ksq][checkers.First()] | checkers).Has(to) {
			return false
		}
	}
	return !pinned.Has(from) || lineBB[ksq][from].Has(to)
}

// GivesCheck reports whether the legal move m gives check (the side to move of the child
// position is in check): direct checks (by the promoted piece for a promotion), discovered
// checks (also by the removal of a pawn taken en passant) and checks by the castling
// rook. Computed without playing the move: the child's occupancy and the sliders of the
// mover's side after the move, two magic lookups from the enemy king plus a leaper test
// (the approach of Stockfish 15.1 Position::gives_check, without its cached check squares).
func (p *Position) GivesCheck(m Move) bool {
	from, to := m.From(), m.To()
	pc := p.mailbox[from]
	if pc == NoPiece || from == to {
		return false
	}
	us := pieceColor[pc]
	kb := p.byRole[King] & p.byColor[us^1]
	if kb == 0 {
		return false
	}
	ksq := kb.First()
	role := pieceRole[pc]
	fromBB, toBB := SquareBB(from), SquareBB(to)
	occ := p.Occupied()&^fromBB | toBB
	ours := p.byColor[us]
	rq := (p.byRole[Rook] | p.byRole[Queen]) & ours &^ fromBB
	bq := (p.byRole[Bishop] | p.byRole[Queen]) & ours &^ fromBB
	newRole := role
	switch role {
	case Pawn:
		if toBB&(Rank1BB|Rank8BB) != 0 {
			newRole = Queen
			if r, ok := m.Promotion(); ok && r >= Knight && r <= Queen {
				newRole = r
			}
		} else if p.epSet && to == p.epSquare && p.mailbox[to] == NoPiece && from.File() != to.File() {
			occ &^= SquareBB(NewSquare(to.File(), from.Rank()))
		}
	case King:
		if rookFrom, rookTo, ok := castlingRook(from, to); ok {
			rb := SquareBB(rookFrom) | SquareBB(rookTo)
			occ ^= rb
			rq ^= rb
		}
	}
	switch newRole {
	case Knight:
		if knightAttacks[to]&kb != 0 {
			return true
		}
	case Pawn:
		if pawnAttacks[us][to]&kb != 0 {
			return true
		}
	case Bishop:
		bq |= toBB
	case Rook:
		rq |= toBB
	case Queen:
		bq |= toBB
		rq |= toBB
	}
	return RookAttacks(ksq, occ)&rq != 0 || BishopAttacks(ksq, occ)&bq != 0
}

// IsInsufficientMaterial reports whether neither side can ever checkmate, for the
// material configurations FIDE Laws of Chess art. 5.2.2 / 9.6 cover by rule and engines
// score as draws: king against king, king and one minor piece against king, and kings
// with bishops only, all on squares of one colour. Other dead positions (blocked pawn
// chains …) are not detected.
func (p *Position) IsInsufficientMaterial() bool {
	if p.byRole[Pawn]|p.byRole[Rook]|p.byRole[Queen] != 0 {
		return false
	}
	minors := p.byRole[Knight] | p.byRole[Bishop]
	if minors&(minors-1) == 0 {
		return true // at most one minor piece
	}
	const light Bitboard = 0x55aa55aa55aa55aa
	b := p.byRole[Bishop]
	return p.byRole[Knight] == 0 && (b&light == 0 || b&^light == 0)
}

// IsFiftyMoveDraw reports whether the fifty-move rule lets a draw be claimed: the halfmove
// clock is at least 100 (FIDE art. 9.3) and the side to move is not checkmated (art. 9.3
// gives mate precedence).
func (p *Position) IsFiftyMoveDraw() bool {
	return p.halfmove >= 100 && p.Status() != Checkmate
}

// IsCastling reports whether m is a castling move in p: the side to move's king moving two
// files from e1/e8 (the king's move encodes castling, e1g1 / e1c1 / e8g8 / e8c8).
func (p *Position) IsCastling(m Move) bool {
	from, to := m.From(), m.To()
	return pieceRole[p.mailbox[from]] == King && p.mailbox[from] != NoPiece &&
		(from == E1 || from == E8) && (to == from+2 || to == from-2)
}

// Pinned returns the pieces of the side to move that are pinned to their king (a single
// own piece between the king and an enemy slider on a line); 0 without a king.
func (p *Position) Pinned() Bitboard {
	k := p.byRole[King] & p.byColor[p.side&1]
	if k == 0 {
		return 0
	}
	pinned, _ := p.pinnedAndCheckers(k.First(), p.Occupied())
	return pinned
}
