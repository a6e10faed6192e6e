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
// Any 16-bit value is accepted (NullMove and malformed moves give false). For moves coming
// from a transposition table or a killer slot, as Stockfish 15.1 Position::pseudo_legal.
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
// position is in check): direct checks, discovered checks, checks by castling rooks,
// promotions and en passant. Computed by playing the move (about the cost of Play plus
// one attack test).
func (p *Position) GivesCheck(m Move) bool {
	q, _ := p.Play(m)
	k := q.byRole[King] & q.byColor[q.side]
	if k == 0 {
		return false
	}
	return q.attacked(k.First(), q.side^1, q.Occupied())
}
