package nnue

import (
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// TestGoldenThesisNets checks all 13 thesis networks on all 6,000 positions of positions.epd
// against golden-evals.jsonl (78,000 values from the thesis engine), at every simd level
// (levelStep: every position at the starting level, every 10th at the others unless
// NNUEKIT_FULL). Each network's active feature lists are computed once and reused at
// every level.
func TestGoldenThesisNets(t *testing.T) {
	g := loadGolden(t)
	names := thesisNetNames(t)
	if len(names) != 13 {
		t.Fatalf("found %d thesis nets, want 13", len(names))
	}
	levels := simd.Available()
	if raceEnabled || testing.Short() {
		levels = []simd.ISA{simd.Level()}
	}
	prev := simd.Level()
	defer simd.SetLevel(prev)
	step := 1
	if raceEnabled {
		step = 37
	}
	for _, name := range names {
		if raceEnabled && name != "hv" && name != "all+ph+pv" && name != "all+mb" {
			continue // the race detector makes loading every net slow
		}
		n := thesisNet(t, name)
		set := n.FeatureSet()
		// active[2i+p] lists position i's features from perspective p.
		var flat []int
		offs := []int{0}
		for i := 0; i < len(g.pos); i += step {
			for p := board.White; p <= board.Black; p++ {
				flat = set.Active(&g.pos[i], p, flat)
				offs = append(offs, len(flat))
			}
		}
		e := n.NewEvaluator()
		acc := e.Accumulator()
		for _, lvl := range levels {
			if _, err := simd.SetLevel(lvl); err != nil {
				t.Fatal(err)
			}
			bad, ls := 0, levelStep()
			for k, i := 0, 0; i < len(g.pos); k, i = k+1, i+step {
				if k%ls != 0 {
					continue
				}
				want, ok := g.evals[i][name]
				if !ok {
					t.Fatalf("golden line %d has no %q", i+1, name)
				}
				acc.Refresh(board.White, flat[offs[2*k]:offs[2*k+1]])
				acc.Refresh(board.Black, flat[offs[2*k+1]:offs[2*k+2]])
				if got := e.Forward(acc, &g.pos[i]).Value; got != want {
					if bad < 5 {
						t.Errorf("simd %v, %s, line %d %q: eval %d, want %d", lvl, name, i+1, g.fens[i], got, want)
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("simd %v, %s: %d of %d positions differ", lvl, name, bad, (len(g.pos)+step*ls-1)/(step*ls))
			}
		}
		// The public one-call path gives the same values (spot check, current level).
		simd.SetLevel(prev)
		for i := 0; i < len(g.pos); i += 97 * step {
			if got := n.Evaluate(&g.pos[i]); got != g.evals[i][name] {
				t.Errorf("%s, line %d: Network.Evaluate %d, want %d", name, i+1, got, g.evals[i][name])
			}
		}
	}
}
