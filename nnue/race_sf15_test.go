package nnue

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

// TestSharedSF15Concurrent shares the real Stockfish 15.1 network (HalfKAv2_hm, 47 MB)
// between 4 goroutines, each with its own Evaluator, AccumulatorStack (with a refresh
// table) and the pooled Network.Evaluate, and compares with serial values. It is meant
// for the race detector and runs under -race -short too: loading the net takes ~37 s
// there (the decoding and accumulator-bound loops over 23 M weights are instrumented;
// ~3 s without -race), which the CI race step accepts once; the evaluations themselves
// use the assembly kernels, which the detector does not instrument.
func TestSharedSF15Concurrent(t *testing.T) {
	path := filepath.Join(sharedDir, "nets", sfNetSFNNv5)
	if _, err := os.Stat(path); err != nil {
		t.Skip("stockfish nets: ../shared absent")
	}
	start := time.Now()
	n, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %s in %v (race detector: %v)", sfNetSFNNv5, time.Since(start).Round(time.Millisecond), raceEnabled)
	// positions of a fixed game walk: root, then one move chosen by index
	var ps []board.Position
	var ms []board.Move
	p := board.StartPosition()
	for i := 0; len(ps) < 60; i++ {
		moves := p.LegalMoves()
		if len(moves) == 0 {
			p = board.StartPosition()
			continue
		}
		m := moves[(i*7+3)%len(moves)]
		ps, ms = append(ps, p), append(ms, m)
		p, _ = p.Play(m)
	}
	ev := n.NewEvaluator()
	want, wantAfter := make([]int32, len(ps)), make([]int32, len(ps))
	for i := range ps {
		want[i] = ev.Evaluate(&ps[i])
		after, _ := ps[i].Play(ms[i])
		wantAfter[i] = ev.Evaluate(&after)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ev := n.NewEvaluator()
			st := n.NewAccumulatorStack()
			st.UseRefreshTable(n.NewRefreshTable())
			st.Reset(&ps[0])
			for i := range ps {
				j := (i + g*17) % len(ps)
				var got int32
				switch (i + g) % 3 {
				case 0:
					got = ev.Evaluate(&ps[j])
				case 1:
					got = n.Evaluate(&ps[j])
				default:
					st.Reset(&ps[j])
					got = st.Evaluate()
					st.PushMove(ms[j])
					if st.Evaluate() != wantAfter[j] {
						errs <- "stack after a move differs from refresh"
						return
					}
				}
				if got != want[j] {
					errs <- "concurrent evaluation differs from serial"
					return
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
