package nnue

import (
	"testing"

	"github.com/nnuekit/nnuekit/simd"
)

// TestGoldenThesisNets checks all 13 thesis networks on all 6,000 positions of positions.epd
// against golden-evals.jsonl (78,000 values from the thesis engine), at every simd level.
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
	for _, lvl := range levels {
		if _, err := simd.SetLevel(lvl); err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if raceEnabled && name != "hv" && name != "all+ph+pv" && name != "all+mb" {
				continue // the race detector makes loading every net slow
			}
			n := thesisNet(t, name)
			e := n.NewEvaluator()
			step := 1
			if raceEnabled {
				step = 37
			}
			bad := 0
			for i := 0; i < len(g.pos); i += step {
				want, ok := g.evals[i][name]
				if !ok {
					t.Fatalf("golden line %d has no %q", i+1, name)
				}
				if got := e.Evaluate(&g.pos[i]); got != want {
					if bad < 5 {
						t.Errorf("simd %v, %s, line %d %q: eval %d, want %d", lvl, name, i+1, g.fens[i], got, want)
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("simd %v, %s: %d of %d positions differ", lvl, name, bad, len(g.pos)/step)
			}
		}
	}
}
