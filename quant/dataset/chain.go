package dataset

import (
	"errors"
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// SampleReader is a stream of samples, as every reader of the package provides it: the thesis's
// text formats (Reader), Stockfish's binpack (BinpackReader) and Stockfish's plain text
// (StockfishPlainReader). Next advances and reports whether there is a sample; Sample returns
// it (valid until the next call of Next: copy it to keep it); Err returns the first error other
// than the end of the input.
type SampleReader interface {
	Next() bool
	Sample() *Sample
	Err() error
}

// SampleWriter consumes a stream of samples in one format. Close writes what is buffered (it
// does not close the underlying io.Writer); after an error the output holds every whole record
// written before it.
type SampleWriter interface {
	Write(s *Sample) error
	Close() error
}

var (
	// ErrTruncated is wrapped by *FormatError when the input ends inside a record.
	ErrTruncated = errors.New("truncated input")
	// ErrCorrupt is wrapped by *FormatError when a record cannot be decoded (bad magic, bad
	// sizes, impossible position, a move that is not legal, an out-of-range field).
	ErrCorrupt = errors.New("corrupt input")
)

// FormatError reports bad input in one of the record formats (binpack, Stockfish plain): the
// format's name, the byte offset in the input where the bad record (or the bad byte) starts,
// and the cause, which wraps ErrTruncated or ErrCorrupt (use errors.Is) and may wrap an error
// of package board.
type FormatError struct {
	Format string
	Offset int64
	Err    error
}

// Error formats the error as `dataset: FORMAT: byte offset N: cause`.
func (e *FormatError) Error() string {
	return fmt.Sprintf("dataset: %s: byte offset %d: %v", e.Format, e.Offset, e.Err)
}

// Unwrap returns the cause.
func (e *FormatError) Unwrap() error { return e.Err }

// sfEPPossible reports whether Stockfish's training-data library (nnue_data_binpack_format.h on
// Stockfish's tools branch, Position::isEpPossible) keeps ep as the en-passant square of p: a
// pawn of the side to move attacks ep, ep and the square beyond it are empty, the opponent's
// pawn stands in front of it, and one of the captures does not uncover the king to a slider.
// (Unlike board.Play it does not look at other checks; the two differ only in positions where
// the side to move is in check by a piece other than the pushed pawn.)
func sfEPPossible(p *board.Position, ep board.Square) bool {
	if !ep.Valid() || (ep.Rank() != 2 && ep.Rank() != 5) {
		return false
	}
	us := p.SideToMove()
	them := us.Other()
	attackers := board.PawnAttacks(them, ep) & p.Pieces(us, board.Pawn)
	if attackers == 0 || p.PieceAt(ep) != board.NoPiece {
		return false
	}
	fwd := board.Square(8)
	if us == board.Black {
		fwd = -8
	}
	if !(ep + fwd).Valid() || !(ep - fwd).Valid() {
		return false
	}
	if p.PieceAt(ep+fwd) != board.NoPiece || p.PieceAt(ep-fwd) != board.MakePiece(them, board.Pawn) {
		return false
	}
	ksq := p.KingSquare(us)
	if ksq == board.NoSquare {
		return true
	}
	bishops := p.Pieces(them, board.Bishop)
	rooks := p.Pieces(them, board.Rook)
	queens := p.Pieces(them, board.Queen)
	if (bishops|rooks|queens)&board.QueenAttacks(ksq, 0) == 0 {
		return true
	}
	for b := attackers; b != 0; {
		s := b.PopFirst()
		captured := board.NewSquare(ep.File(), s.Rank())
		occ := ((p.Occupied() ^ board.SquareBB(s)) | board.SquareBB(ep)) ^ board.SquareBB(captured)
		if board.BishopAttacks(ksq, occ)&(bishops|queens) == 0 && board.RookAttacks(ksq, occ)&(rooks|queens) == 0 {
			return true
		}
	}
	return false
}

// sfNormalize returns p with its en-passant square kept only where Stockfish's training-data
// library keeps it (sfEPPossible), as Stockfish does when it parses a FEN or plays a move.
func sfNormalize(p board.Position) board.Position {
	if ep := p.EnPassant(); ep != board.NoSquare && !sfEPPossible(&p, ep) {
		p.SetEnPassant(board.NoSquare)
	}
	return p
}

// sfPlay plays m in p (which must be legal) and sets the en-passant square by Stockfish's rule.
func sfPlay(p *board.Position, m board.Move) board.Position {
	q, _ := p.Play(m)
	from, to := m.From(), m.To()
	if p.PieceAt(from).Role() == board.Pawn && (to-from == 16 || from-to == 16) {
		q.SetEnPassant((from + to) / 2)
		q = sfNormalize(q)
	}
	return q
}

// samePosition is Stockfish's Position equality (pieces, side to move, en-passant square,
// castling rights; not the clocks).
func samePosition(a, b *board.Position) bool {
	return a.SideToMove() == b.SideToMove() && a.EnPassant() == b.EnPassant() &&
		a.Castling() == b.Castling() && a.Mailbox() == b.Mailbox()
}

// gamePly returns the ply of p counted from the start of the game as Stockfish stores it:
// 2·(fullmove − 1), plus one when Black is to move (fullmove numbers below 1 count as 1).
func gamePly(p *board.Position) int {
	fm := max(p.FullmoveNumber(), 1)
	ply := 2 * (fm - 1)
	if p.SideToMove() == board.Black {
		ply++
	}
	return ply
}

// setPly sets p's fullmove number from a Stockfish game ply (ply/2 + 1) and its halfmove clock.
func setPly(p *board.Position, ply, rule50 int) {
	p.SetClocks(rule50, ply/2+1)
}

// stmResult returns s's game result from the side to move's point of view as Stockfish's
// training data stores it: 1 win, 0 draw, −1 loss; an unknown result is written as 0.
func stmResult(s *Sample) int {
	switch s.ResultFor() {
	case 1:
		return 1
	case 0:
		return -1
	}
	return 0
}

// resultFromSTM converts a side-to-move result (1, 0, −1) into a Result (White's view).
func resultFromSTM(r int, stm board.Color) (Result, bool) {
	if stm == board.Black {
		r = -r
	}
	switch r {
	case 1:
		return WhiteWins, true
	case 0:
		return Draw, true
	case -1:
		return BlackWins, true
	}
	return NoResult, false
}

// legalMove reports whether m is a legal move in p (the same answer as p.IsLegal, tested), with
// the piece movement rules the binpack's move coding uses and a king-safety test after the
// move, instead of generating every legal move: the binpack reader and writer check each
// record's move with it.
func legalMove(p *board.Position, m board.Move) bool {
	from, to := m.From(), m.To()
	if m == board.NullMove || !from.Valid() || !to.Valid() {
		return false
	}
	us := p.SideToMove()
	them := us.Other()
	pc := p.PieceAt(from)
	if pc == board.NoPiece || pc.Color() != us {
		return false
	}
	ours := p.ByColor(us)
	promo, isPromo := m.Promotion()
	switch pc.Role() {
	case board.Pawn:
		if !pawnDestinations(p, from).Has(to) {
			return false
		}
		last := to.Rank() == 7 || to.Rank() == 0
		if last != isPromo || (isPromo && (promo < board.Knight || promo > board.Queen)) {
			return false
		}
	case board.King:
		if isPromo {
			return false
		}
		if to-from == 2 || from-to == 2 {
			if !castlingOK(p, from, to) {
				return false
			}
		} else if !(board.KingAttacks(from) &^ ours).Has(to) {
			return false
		}
	default:
		if isPromo || !(board.Attacks(pc, from, p.Occupied()) &^ ours).Has(to) {
			return false
		}
	}
	q, _ := p.Play(m)
	k := q.KingSquare(us)
	return k != board.NoSquare && !q.IsAttacked(k, them)
}

// castlingOK checks a castling move of the king from from to to (two files): the right, the
// rook on its corner, empty squares between, and no attack on the king's start and transit
// squares (the destination is checked after the move).
func castlingOK(p *board.Position, from, to board.Square) bool {
	us := p.SideToMove()
	rank := 0
	if us == board.Black {
		rank = 7
	}
	if from != board.NewSquare(4, rank) {
		return false
	}
	var right board.CastlingRights
	var rook board.Square
	var between board.Bitboard
	if to > from {
		right, rook = board.WhiteKingside, board.NewSquare(7, rank)
		between = board.SquareBB(from+1) | board.SquareBB(from+2)
	} else {
		right, rook = board.WhiteQueenside, board.NewSquare(0, rank)
		between = board.SquareBB(from-1) | board.SquareBB(from-2) | board.SquareBB(from-3)
	}
	if us == board.Black {
		right <<= 2
	}
	if p.Castling()&right == 0 || p.PieceAt(rook) != board.MakePiece(us, board.Rook) || p.Occupied()&between != 0 {
		return false
	}
	them := us.Other()
	mid := (from + to) / 2
	return !p.IsAttacked(from, them) && !p.IsAttacked(mid, them)
}
