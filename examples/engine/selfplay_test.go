package main

import (
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/search"
)

// TestSelfPlay plays the engine against itself from the start position through the UCI
// position/go path (game history and repetitions included), depth 4 per move: every move
// is legal, and the game ends by mate, stalemate, repetition, fifty moves or insufficient
// material, or after 120 plies (40 with -short).
func TestSelfPlay(t *testing.T) {
	plies := 120
	if testing.Short() {
		plies = 40
	}
	e := quietEngine(t)
	e.tt = newTT(16)
	pos := board.StartPosition()
	var moves []string
	seen := map[uint64]int{pos.Key(): 1}
	for ply := 0; ply < plies; ply++ {
		if err := e.position(append([]string{"startpos", "moves"}, moves...)); err != nil {
			t.Fatal(err)
		}
		s := e.newSearcher(&e.root, search.FixedLimits(4, 0), nil)
		m := s.Run(&e.root, e.history)
		if m == board.NullMove {
			if pos.HasLegalMove() {
				t.Fatalf("ply %d %s: no move although legal moves exist", ply, pos.FEN())
			}
			t.Logf("game over (mate or stalemate) after %d plies: %s", ply, strings.Join(moves, " "))
			return
		}
		if !pos.IsLegal(m) {
			t.Fatalf("ply %d %s: illegal move %v", ply, pos.FEN(), m)
		}
		pos, _ = pos.Play(m)
		moves = append(moves, m.String())
		seen[pos.Key()]++
		if seen[pos.Key()] >= 3 || pos.HalfmoveClock() >= 100 || search.InsufficientMaterial(&pos) {
			t.Logf("draw after %d plies: %s", len(moves), strings.Join(moves, " "))
			return
		}
	}
	t.Logf("%d plies: %s", len(moves), strings.Join(moves, " "))
	if len(moves) < plies {
		t.Fatalf("game stopped after %d plies: %s", len(moves), strings.Join(moves, " "))
	}
}
