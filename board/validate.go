package board

// Validate checks that p is a legal standard-chess position, as ParseFEN does after
// parsing. It returns nil or a *PositionError (errors.Is(err, ErrIllegalPosition)).
// The rules, in the order checked:
//
//   - the mailbox and the bitboards agree (only hand-edited or corrupted values fail);
//   - side to move is White or Black, castling rights ⊆ AllCastling;
//   - exactly one king per color; at most 16 pieces and 8 pawns per color; no pawn on
//     rank 1 or 8; promoted pieces (queens beyond 1, rooks/knights beyond 2, bishops
//     beyond one per square color) never exceed the missing pawns;
//   - every castling right has its king and rook on their original squares (e1/h1, e1/a1,
//     e8/h8, e8/a8);
//   - an en-passant square is on rank 6 with White to move (rank 3 with Black), is
//     empty, the square behind it (the pawn's origin) is empty, and the opponent's pawn
//     that just double-pushed stands in front of it;
//   - the kings are not on adjacent squares; the side not to move is not in check;
//   - the checks on the side to move can follow a legal move: at most two checkers; in a
//     double check at least one checker is a bishop, rook or queen (the discovered one),
//     the two are not both bishops and not on one line through the king (rooks on both
//     sides of the king); with an en-passant square, every checker is the pawn that just
//     double-pushed or a slider its origin square uncovered;
//   - halfmove clock ≥ 0, and 0 when an en-passant square is set; fullmove number ≥ 1.
//
// The king, pawn, en-passant rank and side-not-to-move rules are those of Stockfish 15.1
// position.cpp (Position::pos_is_ok); the checker rules go further (Stockfish trusts its
// FEN input there) and follow the reasoning of python-chess's Board.status
// (STATUS_TOO_MANY_CHECKERS, STATUS_IMPOSSIBLE_CHECK), extended to double checks without
// a slider and by two bishops (doc/reliability.md gives the argument). Clocks are not
// bounded above (FENs of analysis positions carry any move number).
//
// It does not require the en-passant square to be usable by a legal capture (ParseFEN
// keeps such squares as written; Play only sets usable ones — see doc/board.md).
func (p *Position) Validate() error {
	bad := func(field string, sq Square, reason string) error {
		return &PositionError{Field: field, Square: sq, Reason: reason}
	}
	// internal consistency
	var byColor [2]Bitboard
	var byRole [NumRoles]Bitboard
	for sq := Square(0); sq < 64; sq++ {
		pc := p.mailbox[sq]
		if pc == NoPiece {
			continue
		}
		if !pc.Valid() {
			return bad(FieldPlacement, sq, "invalid piece value in mailbox")
		}
		byColor[pc.Color()] |= SquareBB(sq)
		byRole[pc.Role()] |= SquareBB(sq)
	}
	if byColor != p.byColor || byRole != p.byRole {
		return bad(FieldPlacement, NoSquare, "bitboards disagree with the mailbox")
	}
	if p.side > Black {
		return bad(FieldSide, NoSquare, "side to move is neither white nor black")
	}
	if p.castling&^AllCastling != 0 {
		return bad(FieldCastling, NoSquare, "unknown castling right bits")
	}
	for c := White; c <= Black; c++ {
		name := c.String()
		switch n := p.Pieces(c, King).Count(); {
		case n == 0:
			return bad(FieldPlacement, NoSquare, name+" has no king")
		case n > 1:
			sq := p.Pieces(c, King)
			sq &= sq - 1
			return bad(FieldPlacement, sq.First(), name+" has more than one king")
		}
		if n := p.byColor[c].Count(); n > 16 {
			return bad(FieldPlacement, NoSquare, name+" has more than 16 pieces")
		}
		pawns := p.Pieces(c, Pawn)
		if pawns.Count() > 8 {
			return bad(FieldPlacement, NoSquare, name+" has more than 8 pawns")
		}
		if b := pawns & (Rank1BB | Rank8BB); b != 0 {
			return bad(FieldPlacement, b.First(), name+" pawn on the first or last rank")
		}
		extra := 0
		over := func(n, base int) {
			if n > base {
				extra += n - base
			}
		}
		over(p.Pieces(c, Queen).Count(), 1)
		over(p.Pieces(c, Rook).Count(), 2)
		over(p.Pieces(c, Knight).Count(), 2)
		const light Bitboard = 0x55aa55aa55aa55aa
		bish := p.Pieces(c, Bishop)
		over((bish & light).Count(), 1)
		over((bish &^ light).Count(), 1)
		if extra > 8-pawns.Count() {
			return bad(FieldPlacement, NoSquare, name+" has more promoted pieces than missing pawns")
		}
	}
	type right struct {
		cr         CastlingRights
		king, rook Square
		pc         Color
	}
	for _, r := range [...]right{
		{WhiteKingside, E1, H1, White}, {WhiteQueenside, E1, A1, White},
		{BlackKingside, E8, H8, Black}, {BlackQueenside, E8, A8, Black},
	} {
		if p.castling&r.cr == 0 {
			continue
		}
		if p.mailbox[r.king] != MakePiece(r.pc, King) {
			return bad(FieldCastling, r.king, "castling right "+r.cr.String()+" without the king on its original square")
		}
		if p.mailbox[r.rook] != MakePiece(r.pc, Rook) {
			return bad(FieldCastling, r.rook, "castling right "+r.cr.String()+" without the rook on its original square")
		}
	}
	if ep := p.EnPassant(); ep != NoSquare {
		wantRank, push := 5, 8 // White to move: ep on rank 6, Black pawn on rank 5 below it
		if p.side == Black {
			wantRank, push = 2, -8
		}
		if ep.Rank() != wantRank {
			return bad(FieldEnPassant, ep, "en-passant square not on rank "+string(rune('1'+wantRank))+" for the side to move")
		}
		pawnSq, origin := ep-Square(push), ep+Square(push)
		switch {
		case p.mailbox[ep] != NoPiece:
			return bad(FieldEnPassant, ep, "en-passant square is occupied")
		case p.mailbox[origin] != NoPiece:
			return bad(FieldEnPassant, origin, "square the pawn came from is occupied")
		case p.mailbox[pawnSq] != MakePiece(p.side.Other(), Pawn):
			return bad(FieldEnPassant, pawnSq, "no pawn that just double-pushed in front of the en-passant square")
		}
	}
	if wk, bk := p.KingSquare(White), p.KingSquare(Black); KingAttacks(wk).Has(bk) {
		return bad(FieldPlacement, bk, "the kings stand on adjacent squares")
	}
	if k := p.KingSquare(p.side.Other()); p.IsAttacked(k, p.side) {
		return bad(FieldSide, k, "the side not to move ("+p.side.Other().String()+") is in check")
	}
	if err := p.validateCheckers(); err != nil {
		return err
	}
	if p.halfmove < 0 {
		return bad(FieldHalfmove, NoSquare, "negative halfmove clock")
	}
	if p.EnPassant() != NoSquare && p.halfmove != 0 {
		return bad(FieldHalfmove, NoSquare, "halfmove clock not 0 right after a pawn's double push (en-passant square set)")
	}
	if p.fullmove < 1 {
		return bad(FieldFullmove, NoSquare, "fullmove number below 1")
	}
	return nil
}

// validateCheckers rejects checks that no legal move can give (see Validate). The
// reasoning: a check is given by the piece that just moved, or discovered by it (only a
// bishop, rook or queen can be discovered), or both; castling moves the rook (the
// checker) and discovers with the king; an en-passant capture vacates two squares but
// the pawn itself stands on the capture square.
func (p *Position) validateCheckers() error {
	k := p.KingSquare(p.side)
	checkers := p.Checkers()
	bad := func(reason string) error {
		return &PositionError{Field: FieldSide, Square: k, Reason: reason}
	}
	slider := func(sq Square) bool {
		r := p.mailbox[sq].Role()
		return r == Bishop || r == Rook || r == Queen
	}
	switch checkers.Count() {
	case 0:
	case 1, 2:
		if checkers.Count() == 2 {
			a := checkers.First()
			b := (checkers & (checkers - 1)).First()
			switch {
			case !slider(a) && !slider(b):
				return bad("double check without a bishop, rook or queen (" + p.mailbox[a].String() + " " + a.String() +
					", " + p.mailbox[b].String() + " " + b.String() + "): no move gives it")
			case p.mailbox[a].Role() == Bishop && p.mailbox[b].Role() == Bishop:
				return bad("double check by two bishops: no move gives it")
			case collinear(a, b, k):
				return bad("double check by two pieces on one line through the king (" + a.String() + ", " + b.String() + ")")
			}
		}
		// With an en-passant square the last move was the double push: every checker is
		// the pushed pawn or a slider whose line to the king crossed the pawn's origin.
		if ep := p.EnPassant(); ep != NoSquare {
			push := Square(8)
			if p.side == Black {
				push = -8
			}
			pawnSq, origin := ep-push, ep+push
			for b := checkers; b != 0; b &= b - 1 {
				c := b.First()
				if c != pawnSq && !(slider(c) && strictlyBetween(origin, c, k)) {
					return bad("check by " + c.String() + " cannot follow the double push the en-passant square " +
						ep.String() + " records")
				}
			}
		}
	default:
		return bad("the side to move is in check by more than two pieces")
	}
	return nil
}

// collinear reports whether the three squares lie on one rank, file or diagonal.
func collinear(a, b, c Square) bool {
	fa, ra, fb, rb, fc, rc := a.File(), a.Rank(), b.File(), b.Rank(), c.File(), c.Rank()
	return (fb-fa)*(rc-ra) == (rb-ra)*(fc-fa) &&
		(fa == fb || ra == rb || fa-ra == fb-rb || fa+ra == fb+rb) &&
		(fa == fc || ra == rc || fa-ra == fc-rc || fa+ra == fc+rc)
}

// strictlyBetween reports whether x lies on the line segment from a to b, excluding ends.
func strictlyBetween(x, a, b Square) bool {
	if x == a || x == b || !collinear(a, b, x) {
		return false
	}
	in := func(v, lo, hi int) bool { return min(lo, hi) <= v && v <= max(lo, hi) }
	return in(x.File(), a.File(), b.File()) && in(x.Rank(), a.Rank(), b.Rank())
}
