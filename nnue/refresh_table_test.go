package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// TestRefreshTableMatchesRefresh refreshes 500 golden positions in random order through one
// table (so entries are reused across unrelated positions with large differences) and
// compares every accumulator value and PSQT sum with a plain refresh.
func TestRefreshTableMatchesRefresh(t *testing.T) {
	for _, name := range []string{sfNetHalfKP, sfNetSFNNv5} {
		if raceEnabled && name == sfNetSFNNv5 {
			continue // see sfSkipBigUnderRace
		}
		n := sfTestNetwork(t, name)
		rows := sfReadCSV(t, "sf15.1-eval.csv")
		rng := rand.New(rand.NewPCG(7, 8))
		tab := n.NewRefreshTable()
		a, b := n.FeatureTransformer().NewAccumulator(), n.FeatureTransformer().NewAccumulator()
		set := n.FeatureSet()
		iters := 500
		if testing.Short() || raceEnabled {
			iters = 100
		}
		for k := 0; k < iters; k++ {
			pos := sfParsePos(t, rows[rng.IntN(len(rows))].fen)
			for p := board.White; p <= board.Black; p++ {
				tab.Refresh(a, &pos, p)
				b.Refresh(p, set.Active(&pos, p, nil))
				if !slices.Equal(a.Values(p), b.Values(p)) || !slices.Equal(a.PSQT(p), b.PSQT(p)) {
					t.Fatalf("%s %s %v: refresh table differs from refresh", name, pos.FEN(), p)
				}
			}
		}
		if tab.Hits == 0 || tab.Misses == 0 {
			t.Errorf("%s: hits %d misses %d", name, tab.Hits, tab.Misses)
		}
		pos := sfParsePos(t, rows[0].fen)
		tab.Refresh(a, &pos, board.White)
		tab.Reset()
		misses := tab.Misses
		tab.Refresh(a, &pos, board.White)
		if tab.Misses != misses+1 {
			t.Error("Reset kept entries")
		}
	}
}

// TestRefreshTableAnySet uses the table with king-relative thesis-style sets (KING-ALL,
// KP, mirrored and bucketed variants) over random legal games: the stack with a table
// evaluates exactly like a plain refresh.
func TestRefreshTableAnySet(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	games, plies := 3, 60
	if testing.Short() || raceEnabled {
		games, plies = 2, 30
	}
	for _, spec := range []string{"ka", "kp@rotate", "ka@hm", "kb32*all@hm", "halfkp"} {
		n := randomThesisNet(t, rng, spec, 32, 8, 60)
		ev := n.NewEvaluator()
		st := n.NewAccumulatorStack()
		tab := n.NewRefreshTable()
		st.UseRefreshTable(tab)
		for game := 0; game < games; game++ {
			pos := board.StartPosition()
			st.Reset(&pos)
			for ply := 0; ply < plies; ply++ {
				moves := pos.LegalMoves()
				if len(moves) == 0 {
					break
				}
				after, dirty := pos.Play(moves[rng.IntN(len(moves))])
				st.Push(&after, &dirty)
				if got, want := st.Evaluate(), ev.Evaluate(&after); got != want {
					t.Fatalf("%s: %s: with table %d, refresh %d", spec, after.FEN(), got, want)
				}
				pos = after
			}
		}
		if tab.Hits == 0 {
			t.Errorf("%s: refresh table never hit (%d misses)", spec, tab.Misses)
		}
	}
}
