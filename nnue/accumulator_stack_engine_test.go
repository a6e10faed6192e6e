package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// psqSpecs are the piece-square sets of the own-board path.
var psqSpecs = []string{"all", "ka", "kp", "halfkp", "halfkav2_hm"}

// TestStackPushMoveNullEqualsRefresh: random searches-in-miniature (PushMove, PushNull,
// Pop, lazy Evaluate) on random networks of every piece-square set and two whole-board
// sets; every evaluation equals a full refresh, and PushNull's position is the parent's
// with the side to move passed.
func TestStackPushMoveNullEqualsRefresh(t *testing.T) {
	roots := startPositions(t)
	for si, spec := range append(psqSpecs, "all+ph+pv", "all+mb") {
		if raceEnabled && si%3 != 0 {
			continue
		}
		t.Run(spec, func(t *testing.T) {
			net := randomThesisNet(t, rand.New(rand.NewPCG(uint64(si), 11)), spec, 32, 32, 300)
			ev := net.NewEvaluator()
			nulls := 0
			rapid.Check(t, func(rt *rapid.T) {
				root := roots[rapid.IntRange(0, len(roots)-1).Draw(rt, "root")]
				st := net.NewAccumulatorStack()
				st.Reserve(8)
				st.Reset(&root)
				lastNull := false
				for k, steps := 0, rapid.IntRange(1, 40).Draw(rt, "steps"); k < steps; k++ {
					pos := st.Position()
					action := rapid.IntRange(0, 11).Draw(rt, "action")
					switch {
					case action == 0 && st.Len() > 1:
						st.Pop()
						lastNull = false
					case action <= 2:
						checkStackEval(rt, st, ev)
					case action == 3 && !lastNull && !pos.InCheck():
						parent := *pos
						child := st.PushNull()
						if child.SideToMove() != parent.SideToMove().Other() || child.EnPassant() != board.NoSquare ||
							child.HalfmoveClock() != parent.HalfmoveClock()+1 || child.Occupied() != parent.Occupied() {
							rt.Fatalf("PushNull of %s gave %s", parent.FEN(), child.FEN())
						}
						lastNull = true
						nulls++
					default:
						moves := pos.LegalMoves()
						if len(moves) == 0 {
							continue
						}
						m := moves[rapid.IntRange(0, len(moves)-1).Draw(rt, "move")]
						want, _ := pos.Play(m)
						if got := st.PushMove(m); *got != want || *st.Position() != want {
							rt.Fatalf("PushMove(%v) of %s: wrong child", m, pos.FEN())
						}
						lastNull = false
					}
				}
				checkStackEval(rt, st, ev)
			})
			if nulls == 0 {
				t.Fatal("no null move was exercised")
			}
		})
	}
}

// TestStackNoAllocs: after Reserve, a search's push / evaluate / null / pop cycle does not
// allocate.
func TestStackNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for si, spec := range psqSpecs {
		net := randomThesisNet(t, rand.New(rand.NewPCG(uint64(si), 3)), spec, 32, 32, 300)
		st := net.NewAccumulatorStack()
		st.Reserve(4)
		root := board.StartPosition()
		st.Reset(&root)
		moves := root.LegalMoves()
		st.Evaluate()
		allocs := testing.AllocsPerRun(100, func() {
			for _, m := range moves[:4] {
				st.PushMove(m)
				st.Evaluate()
				st.PushNull()
				st.Evaluate()
				st.Pop()
				st.Pop()
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per cycle, want 0", spec, allocs)
		}
	}
}

// BenchmarkDiffVsUpdate compares, per move and for both perspectives, what the stack does
// before the SIMD kernels (RequiresRefresh + Diff, "diff") with the fused copy-make update
// itself ("update", same added/removed lists precomputed): the issue-12 aim is diff ≤ 25 %
// of update for ALL (width 512, as hv.nn) and HalfKAv2_hm (width 1024, as Stockfish 15.1).
// Moves are one legal non-king move of each positions.epd position. "harness" is the loop
// without work (subtract it from both for the net ratio).
func BenchmarkDiffVsUpdate(b *testing.B) {
	d := loadBenchData(b)
	for _, c := range []struct {
		spec  string
		width int
	}{{"all", 512}, {"halfkav2_hm", 1024}} {
		n := randomThesisNet(b, rand.New(rand.NewPCG(1, 2)), c.spec, c.width, 32, 300)
		set := n.FeatureSet()
		accs := parents(n, d, 256)
		if len(accs) != 256 {
			b.Skip("fewer than 256 benchmark positions")
		}
		dst := n.FeatureTransformer().NewAccumulator()
		type lists struct{ ad, rm [2][]int }
		pre := make([]lists, len(accs))
		for k := range pre {
			for p := board.White; p <= board.Black; p++ {
				pre[k].ad[p], pre[k].rm[p] = set.Diff(&d.pos[k], &d.after[k], &d.dirty[k], p, nil, nil)
			}
		}
		b.Run(c.spec+"/harness", func(b *testing.B) { // the loop alone, to subtract
			sink := 0
			benchLoop(b, func(i int) {
				k := i & 255
				for p := board.White; p <= board.Black; p++ {
					sink += d.dirty[k].N + len(pre[k].ad[p])
				}
			})
			_ = sink
		})
		b.Run(c.spec+"/diff", func(b *testing.B) {
			ad, rm := make([]int, 0, 8), make([]int, 0, 8)
			refreshes := 0
			benchLoop(b, func(i int) {
				k := i & 255
				for p := board.White; p <= board.Black; p++ {
					if set.RequiresRefresh(&d.dirty[k], p) {
						refreshes++
						continue
					}
					ad, rm = set.Diff(&d.pos[k], &d.after[k], &d.dirty[k], p, ad[:0], rm[:0])
				}
			})
			_ = refreshes
		})
		b.Run(c.spec+"/update", func(b *testing.B) {
			benchLoop(b, func(i int) {
				k := i & 255
				for p := board.White; p <= board.Black; p++ {
					dst.UpdateFrom(accs[k], p, pre[k].ad[p], pre[k].rm[p])
				}
			})
		})
	}
}
