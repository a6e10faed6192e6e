package search

// boardops.go gathers the engine's calls of the board package's search API (doc/board.md):
// the allocation-free legal move generator (MoveList, GenerateLegal, GenerateCaptures),
// the incremental polyglot Zobrist key (Key) and static exchange evaluation (SEEGE).

import (
	"github.com/nnuekit/nnuekit/board"
)

// moveList is a board.MoveList on the caller's stack with an ordering score per move.
type moveList struct {
	board.MoveList
	scores [256]int32
}

// genLegal fills l with every legal move of p.
func genLegal(p *board.Position, l *moveList) {
	l.N = 0
	p.GenerateLegal(&l.MoveList)
}

// genNoisy fills l with the legal captures (en passant included) and queen promotions of
// p: the moves quiescence search looks at.
func genNoisy(p *board.Position, l *moveList) {
	l.N = 0
	p.GenerateCaptures(&l.MoveList)
}

func isQueenPromotion(m board.Move) bool {
	r, ok := m.Promotion()
	return ok && r == board.Queen
}

// capturedRole returns the role captured by m and whether m captures (en passant too).
func capturedRole(p *board.Position, m board.Move) (board.Role, bool) {
	pc := p.CapturedPiece(m)
	return pc.Role(), pc != board.NoPiece
}

func isCapture(p *board.Position, m board.Move) bool { return p.IsCapture(m) }

// key returns the Zobrist key of p (TT index, repetition detection).
func key(p *board.Position) uint64 { return p.Key() }

// seeGE reports whether the static exchange evaluation of m is at least threshold
// centipawns (CPW "Static Exchange Evaluation"; board.Position.SEEGE, Stockfish see_ge).
func seeGE(p *board.Position, m board.Move, threshold int) bool { return p.SEEGE(m, threshold) }
