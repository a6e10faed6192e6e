package dataset

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// Result is the outcome of the game a sample comes from, from White's point of view.
// The zero value NoResult means "unknown" (plain thesis lines carry no result).
type Result int8

const (
	// NoResult: the game's result is unknown (not stored in the line).
	NoResult Result = iota
	// WhiteWins is the PGN result "1-0".
	WhiteWins
	// Draw is the PGN result "1/2-1/2".
	Draw
	// BlackWins is the PGN result "0-1".
	BlackWins
)

// String returns the PGN token of r ("1-0", "1/2-1/2", "0-1") or "" for NoResult.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case Draw:
		return "1/2-1/2"
	case BlackWins:
		return "0-1"
	}
	return ""
}

// ParseResult parses a PGN result token: "1-0", "0-1" or "1/2-1/2". Any other text (including
// the PGN "*" of an unfinished game, which datagen never writes) is an error.
func ParseResult(s string) (Result, error) {
	switch s {
	case "1-0":
		return WhiteWins, nil
	case "0-1":
		return BlackWins, nil
	case "1/2-1/2":
		return Draw, nil
	}
	return NoResult, fmt.Errorf("dataset: bad game result %q (want 1-0, 0-1 or 1/2-1/2)", s)
}

// For returns the result as a score in [0, 1] from c's point of view: 1 win, 0.5 draw, 0 loss —
// the WDL-space target r of thesis §5.2.1 and Karhan §4.2. It returns −1 for NoResult.
func (r Result) For(c board.Color) float64 {
	var w float64
	switch r {
	case WhiteWins:
		w = 1
	case Draw:
		w = 0.5
	case BlackWins:
		w = 0
	default:
		return -1
	}
	if c == board.Black {
		w = 1 - w
	}
	return w
}

// Sample is one training position of the thesis's data set (thesis §5.1, App. A.6): a position,
// the engine's score of it and its best move, plus what the compact format and datagen add.
type Sample struct {
	// Pos is the position.
	Pos board.Position
	// Score is the engine's search score of Pos from the side to move's point of view, in
	// Stockfish internal units (the thesis's "score-space", −10000…10000 for ordinary scores, as
	// in Stockfish's binpack data; examples/datagen converts UCI centipawns back to internal units,
	// doc/datagen.md). Mate scores are ±(32000 − plies to mate).
	Score int32
	// Best is the engine's best move in Pos (legal in Pos).
	Best board.Move
	// Played is the move actually played from Pos in the game, leading to the next sample of
	// the same line; NullMove for the last sample of a line (and for plain FEN,score,best lines).
	Played board.Move
	// Result is the result of the game (White's point of view), NoResult when unknown.
	Result Result
	// Line is the 1-based line number of the sample's line in its file (0 if not read from a
	// file); Index is its 0-based position within the line (0 for the line's FEN).
	Line, Index int
}

// BestIsCapture reports whether s.Best captures a piece in s.Pos (including en passant), the
// thesis's "best move is a capture" filter (§5.1).
func (s *Sample) BestIsCapture() bool {
	return isCapture(&s.Pos, s.Best)
}

func isCapture(p *board.Position, m board.Move) bool {
	if m == board.NullMove {
		return false
	}
	if p.PieceAt(m.To()) != board.NoPiece {
		// Castling is written as the king's move to an empty square, so an occupied target is
		// always a capture.
		return true
	}
	mover := p.PieceAt(m.From())
	if mover == board.NoPiece {
		return false
	}
	if mover.Role() == board.Pawn && m.From().File() != m.To().File() {
		return true // en passant
	}
	return false
}

// ResultFor returns the game result as a WDL-space target from the side to move's point of
// view: 1 win, 0.5 draw, 0 loss, −1 unknown.
func (s *Sample) ResultFor() float64 {
	return s.Result.For(s.Pos.SideToMove())
}
