package board

// Position is an engine-agnostic snapshot of a chess position: a mailbox, bitboards per
// color and per role, side to move, castling rights, en-passant square and the two clocks.
// It is a plain value: copying it copies the position (copy-make). The zero Position is an
// empty board with White to move and no rights; fill it with Put, SetSideToMove, … or parse
// one with ParseFEN.
//
// The mailbox and bitboards are kept consistent by the mutating methods; Position does not
// by itself guarantee legality (see Validate).
type Position struct {
	mailbox  [64]Piece
	byColor  [2]Bitboard
	byRole   [NumRoles]Bitboard
	side     Color
	castling CastlingRights
	epSquare Square // meaningful only when epSet
	epSet    bool   // false in the zero Position: no en-passant square
	halfmove int
	fullmove int
	key      uint64 // polyglot piece and castling terms (zobrist.go)
	pawnKey  uint64 // polyglot pawn terms
}

// PieceAt returns the piece on sq, or NoPiece.
func (p *Position) PieceAt(sq Square) Piece { return p.mailbox[sq] }

// Mailbox returns a copy of the 64-square mailbox, indexed by Square.
func (p *Position) Mailbox() [64]Piece { return p.mailbox }

// ByColor returns the squares occupied by pieces of color c.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByRole returns the squares occupied by pieces of role r, both colors.
func (p *Position) ByRole(r Role) Bitboard { return p.byRole[r] }

// Pieces returns the squares occupied by pieces of color c and role r.
func (p *Position) Pieces(c Color, r Role) Bitboard { return p.byColor[c] & p.byRole[r] }

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.byColor[White] | p.byColor[Black] }

// KingSquare returns the square of c's king, or NoSquare if c has none.
// With more than one king it returns the lowest square.
func (p *Position) KingSquare(c Color) Square { return p.Pieces(c, King).First() }

// SideToMove returns the color to move.
func (p *Position) SideToMove() Color { return p.side }

// Castling returns the castling rights.
func (p *Position) Castling() CastlingRights { return p.castling }

// EnPassant returns the en-passant target square, or NoSquare.
func (p *Position) EnPassant() Square {
	if !p.epSet {
		return NoSquare
	}
	return p.epSquare
}

// HalfmoveClock returns the number of plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// FullmoveNumber returns the move number, starting at 1 and incremented after Black's move.
func (p *Position) FullmoveNumber() int { return p.fullmove }

// PieceCount returns the number of pieces on the board, kings included.
func (p *Position) PieceCount() int { return p.Occupied().Count() }

// Put places pc on sq, replacing whatever stood there. Put(sq, NoPiece) empties sq.
func (p *Position) Put(sq Square, pc Piece) {
	p.Remove(sq)
	if pc == NoPiece {
		return
	}
	p.mailbox[sq] = pc
	b := SquareBB(sq)
	p.byColor[pc.Color()] |= b
	p.byRole[pc.Role()] |= b
	p.key ^= pieceKeys[pc][sq]
	if pc.Role() == Pawn {
		p.pawnKey ^= pieceKeys[pc][sq]
	}
}

// Remove empties sq and returns the piece that stood there (NoPiece if none).
func (p *Position) Remove(sq Square) Piece {
	pc := p.mailbox[sq]
	if pc == NoPiece {
		return NoPiece
	}
	p.mailbox[sq] = NoPiece
	b := ^SquareBB(sq)
	p.byColor[pc.Color()] &= b
	p.byRole[pc.Role()] &= b
	p.key ^= pieceKeys[pc][sq]
	if pc.Role() == Pawn {
		p.pawnKey ^= pieceKeys[pc][sq]
	}
	return pc
}

// SetSideToMove sets the color to move.
func (p *Position) SetSideToMove(c Color) { p.side = c }

// SetCastling sets the castling rights.
func (p *Position) SetCastling(cr CastlingRights) {
	p.key ^= castlingKeys[p.castling&AllCastling] ^ castlingKeys[cr&AllCastling]
	p.castling = cr
}

// SetEnPassant sets the en-passant target square (NoSquare for none).
// Any value that is not a valid square clears it. The representation is canonical
// (epSquare is 0 whenever no square is set), so == on Positions compares en passant
// correctly.
func (p *Position) SetEnPassant(sq Square) {
	if !sq.Valid() {
		p.epSquare, p.epSet = 0, false
		return
	}
	p.epSquare, p.epSet = sq, true
}

// SetClocks sets the halfmove clock and the fullmove number.
func (p *Position) SetClocks(halfmove, fullmove int) {
	p.halfmove, p.fullmove = halfmove, fullmove
}

// Flip returns the position mirrored vertically with colors swapped (thesis §4.2: the
// Black perspective). Side to move, castling rights and en-passant square follow, so
// Flip(Flip(p)) == p and legality is preserved.
func (p *Position) Flip() Position {
	var q Position
	for sq := Square(0); sq < 64; sq++ {
		if pc := p.mailbox[sq]; pc != NoPiece {
			q.Put(sq.FlipRank(), pc.Swap())
		}
	}
	q.side = p.side.Other()
	q.SetCastling((p.castling&3)<<2 | (p.castling>>2)&3)
	if ep := p.EnPassant(); ep != NoSquare {
		q.SetEnPassant(ep.FlipRank())
	}
	q.halfmove, q.fullmove = p.halfmove, p.fullmove
	return q
}

// Rotate180 returns the position rotated by 180° with colors swapped (Stockfish 12/13
// HalfKP's Black perspective). Castling rights are dropped (they do not survive a
// rotation); side to move swaps.
func (p *Position) Rotate180() Position {
	var q Position
	for sq := Square(0); sq < 64; sq++ {
		if pc := p.mailbox[sq]; pc != NoPiece {
			q.Put(sq.Rotate180(), pc.Swap())
		}
	}
	q.side = p.side.Other()
	if ep := p.EnPassant(); ep != NoSquare {
		q.SetEnPassant(ep.Rotate180())
	}
	q.halfmove, q.fullmove = p.halfmove, p.fullmove
	return q
}

// MirrorFiles returns the position mirrored horizontally (a ↔ h), colors unchanged
// (HalfKAv2_hm's horizontal mirror). Castling rights are dropped.
func (p *Position) MirrorFiles() Position {
	var q Position
	for sq := Square(0); sq < 64; sq++ {
		if pc := p.mailbox[sq]; pc != NoPiece {
			q.Put(sq.MirrorFile(), pc)
		}
	}
	q.side = p.side
	if ep := p.EnPassant(); ep != NoSquare {
		q.SetEnPassant(ep.MirrorFile())
	}
	q.halfmove, q.fullmove = p.halfmove, p.fullmove
	return q
}
