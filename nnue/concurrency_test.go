package nnue

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestConcurrentEvaluation shares one Network between goroutines, each with its own
// Evaluator and AccumulatorStack, plus the pooled Network.Evaluate; run with -race.
func TestConcurrentEvaluation(t *testing.T) {
	n := randomThesisNet(t, rand.New(rand.NewPCG(9, 9)), "all+pv", 64, 32, 200)
	ps := testPositions(t)
	if len(ps) > 150 {
		ps = ps[:150]
	}
	want := make([]int32, len(ps))
	e := n.NewEvaluator()
	for i := range ps {
		want[i] = e.Evaluate(&ps[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ev := n.NewEvaluator()
			st := n.NewAccumulatorStack()
			for k := 0; k < 3; k++ {
				for i := range ps {
					j := (i + g*37) % len(ps)
					var got int32
					switch (i + k) % 3 {
					case 0:
						got = ev.Evaluate(&ps[j])
					case 1:
						got = n.Evaluate(&ps[j])
					default:
						st.Reset(&ps[j])
						got = st.Evaluate()
						if ms := ps[j].LegalMoves(); len(ms) > 0 {
							after, dirty := ps[j].Play(ms[0])
							st.Push(&after, &dirty)
							if st.Evaluate() != ev.Evaluate(&after) {
								errs <- "stack differs from refresh"
								return
							}
						}
					}
					if got != want[j] {
						errs <- "concurrent evaluation differs"
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
