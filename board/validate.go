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
//   - the side not to move is not in check; the side to move has at most two checkers;
//   - halfmove clock ≥ 0 and fullmove number ≥ 0.
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
	if k := p.KingSquare(p.side.Other()); p.IsAttacked(k, p.side) {
		return bad(FieldSide, k, "the side not to move ("+p.side.Other().String()+") is in check")
	}
	if n := p.Checkers().Count(); n > 2 {
		return bad(FieldSide, p.KingSquare(p.side), "the side to move is in check by more than two pieces")
	}
	if p.halfmove < 0 {
		return bad(FieldHalfmove, NoSquare, "negative halfmove clock")
	}
	if p.fullmove < 0 {
		return bad(FieldFullmove, NoSquare, "negative fullmove number")
	}
	return nil
}
