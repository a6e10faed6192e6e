package dataset

import "github.com/nnuekit/nnuekit/board"

// parseMove parses a UCI move and checks it is legal in p. Ordinary moves (everything except
// castling and en passant) are checked with attack tables and a king-safety test after the move,
// about 20 times faster than generating all legal moves; anything the fast check does not accept
// goes through board.ParseUCIMove, which also produces the error. quickLegal never accepts an
// illegal move (TestQuickLegal compares it with Position.IsLegal on random positions).
func parseMove(p *board.Position, s string) (board.Move, error) {
	if m, err := board.ParseMove(s); err == nil && quickLegal(p, m) {
		return m, nil
	}
	return board.ParseUCIMove(p, s)
}

// quickLegal reports whether m is a legal non-castling, non-en-passant move in p. A false result
// means "illegal, castling, en passant, or not sure".
func quickLegal(p *board.Position, m board.Move) bool {
	from, to := m.From(), m.To()
	if !from.Valid() || !to.Valid() || from == to {
		return false
	}
	stm := p.SideToMove()
	pc := p.PieceAt(from)
	if pc == board.NoPiece || pc.Color() != stm {
		return false
	}
	tgt := p.PieceAt(to)
	if tgt != board.NoPiece && (tgt.Color() == stm || tgt.Role() == board.King) {
		return false
	}
	promo, isPromo := m.Promotion()
	switch pc.Role() {
	case board.Pawn:
		last, start, fwd := 7, 1, board.Square(8)
		if stm == board.Black {
			last, start, fwd = 0, 6, -8
		}
		if (to.Rank() == last) != isPromo {
			return false
		}
		if isPromo && (promo < board.Knight || promo > board.Queen) {
			return false
		}
		switch {
		case to == from+fwd && tgt == board.NoPiece:
		case to == from+2*fwd && from.Rank() == start && tgt == board.NoPiece && p.PieceAt(from+fwd) == board.NoPiece:
		case board.PawnAttacks(stm, from)&board.SquareBB(to) != 0 && tgt != board.NoPiece:
		default:
			return false // including en passant: left to the full check
		}
	case board.King:
		if isPromo {
			return false
		}
		if d := to.File() - from.File(); d > 1 || d < -1 {
			return false // castling: left to the full check
		}
		if board.KingAttacks(from)&board.SquareBB(to) == 0 {
			return false
		}
	default:
		if isPromo || board.Attacks(pc, from, p.Occupied())&board.SquareBB(to) == 0 {
			return false
		}
	}
	child, _ := p.Play(m)
	return !child.IsAttacked(child.KingSquare(stm), stm^1)
}
