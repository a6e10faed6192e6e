package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// startPositions returns root positions for random games: the start position and, when
// ../shared is present, every 97th line of positions.epd.
func startPositions(t *testing.T) []board.Position {
	ps := []board.Position{board.StartPosition()}
	if !raceEnabled {
		if g := tryGolden(t); g != nil {
			for i := 0; i < len(g.pos); i += 97 {
				ps = append(ps, g.pos[i])
			}
		}
	}
	return ps
}

// TestStackIncrementalEqualsRefresh plays random legal games with random pushes, pops and
// lazy evaluations and checks that the stack's accumulators and evaluation equal a full
// refresh, for every thesis feature set.
func TestStackIncrementalEqualsRefresh(t *testing.T) {
	roots := startPositions(t)
	for si, spec := range thesisSpecs {
		if raceEnabled && si%4 != 0 {
			continue
		}
		t.Run(spec, func(t *testing.T) {
			net := randomThesisNet(t, rand.New(rand.NewPCG(uint64(si), 7)), spec, 32, 32, 300)
			ev := net.NewEvaluator()
			updates := 0
			rapid.Check(t, func(rt *rapid.T) {
				root := roots[rapid.IntRange(0, len(roots)-1).Draw(rt, "root")]
				st := net.NewAccumulatorStack()
				st.Reset(&root)
				steps := rapid.IntRange(1, 40).Draw(rt, "steps")
				for k := 0; k < steps; k++ {
					pos := st.Position()
					moves := pos.LegalMoves()
					action := rapid.IntRange(0, 9).Draw(rt, "action")
					switch {
					case action == 0 && st.Len() > 1:
						st.Pop()
					case action <= 2:
						checkStackEval(rt, st, ev)
					case len(moves) > 0:
						m := moves[rapid.IntRange(0, len(moves)-1).Draw(rt, "move")]
						after, dirty := pos.Play(m)
						st.Push(&after, &dirty)
					}
				}
				checkStackEval(rt, st, ev)
				updates += st.Updates
			})
			if updates == 0 {
				t.Fatal("no incremental update was exercised")
			}
		})
	}
}

func checkStackEval(t *rapid.T, st *AccumulatorStack, ev *Evaluator) {
	pos := st.Position()
	got := st.Evaluate()
	want := ev.Evaluate(pos)
	for p := board.White; p <= board.Black; p++ {
		if !slices.Equal(st.Accumulator().Values(p), ev.Accumulator().Values(p)) {
			t.Fatalf("%s: perspective %v accumulator differs from refresh", pos.FEN(), p)
		}
	}
	if got != want {
		t.Fatalf("%s: stack eval %d, refresh %d", pos.FEN(), got, want)
	}
}
