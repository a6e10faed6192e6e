package dataset

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// MoveCountMaxTurn is the last turn (fullmove number) MoveCountStats tracks separately; later
// turns share its row.
const MoveCountMaxTurn = 200

// maxLegalMoves bounds the legal-move count of a chess position (218 is the known maximum).
const maxLegalMoves = 256

// MoveCountStats is the distribution of the number of legal moves per turn (fullmove number)
// and side to move, the data of the thesis's Figure 15 (§6.5), from which the PQR filter
// threshold M is chosen (MFilter). The zero value is empty and ready.
type MoveCountStats struct {
	hist [2][MoveCountMaxTurn + 1][maxLegalMoves]int64
	n    int64
}

func turnOf(p *board.Position) int {
	return min(max(p.FullmoveNumber(), 1), MoveCountMaxTurn)
}

// Add counts the legal moves of p and returns the count.
func (s *MoveCountStats) Add(p *board.Position) int {
	m := min(len(p.LegalMoves()), maxLegalMoves-1)
	s.hist[p.SideToMove()][turnOf(p)][m]++
	s.n++
	return m
}

// N returns the number of positions added.
func (s *MoveCountStats) N() int64 { return s.n }

// Quantile returns the p-quantile of the legal-move count at turn and side c: the smallest m
// with P(count ≤ m) ≥ p, or 0 when that turn has no data.
func (s *MoveCountStats) Quantile(turn int, c board.Color, p float64) int {
	h := &s.hist[c][min(max(turn, 1), MoveCountMaxTurn)]
	var total int64
	for _, k := range h {
		total += k
	}
	if total == 0 {
		return 0
	}
	var cum int64
	for m, k := range h {
		cum += k
		if float64(cum) >= p*float64(total) && cum > 0 {
			return m
		}
	}
	return maxLegalMoves - 1
}

// MFilter is the thesis's PQR data selection (§6.5): a sample is skipped when its position has
// fewer than M legal moves, M chosen per turn (fullmove number) and side to move as the
// p-quantile of the legal-move counts there, and at least 2 (so that a random move R ≠ Q
// exists). p = 0 gives M = 2 everywhere: no filtering beyond that.
type MFilter struct {
	// P is the quantile in [0, 1) (the thesis used 0, 0.25, 0.5, 0.75).
	P float64
	// M holds the threshold per side to move and turn (index 1 … MoveCountMaxTurn).
	M [2][MoveCountMaxTurn + 1]int
}

// NewMFilter returns the filter for quantile p from the statistics s. Error: p outside [0, 1).
func NewMFilter(s *MoveCountStats, p float64) (*MFilter, error) {
	if !(p >= 0 && p < 1) {
		return nil, fmt.Errorf("dataset: M filter quantile %v outside [0, 1)", p)
	}
	f := &MFilter{P: p}
	for c := range 2 {
		for t := 1; t <= MoveCountMaxTurn; t++ {
			m := 2
			if p > 0 {
				m = max(2, s.Quantile(t, board.Color(c), p))
			}
			f.M[c][t] = m
		}
	}
	return f, nil
}

// Keep reports whether p has at least M legal moves for its turn and side to move.
func (f *MFilter) Keep(p *board.Position) bool {
	return len(p.LegalMoves()) >= f.M[p.SideToMove()][turnOf(p)]
}

// Threshold returns M for a turn and side to move.
func (f *MFilter) Threshold(turn int, c board.Color) int {
	return f.M[c][min(max(turn, 1), MoveCountMaxTurn)]
}
