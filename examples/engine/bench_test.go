package main

import (
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/search"
)

// BenchmarkSearch: the bench positions searched to depth 6 with one thread, per
// evaluation; reports nodes/s (wall) and allocations per search (none per node).
func BenchmarkSearch(b *testing.B) {
	for _, ev := range []string{evalMaterial, evalDefault} {
		b.Run(ev, func(b *testing.B) {
			e := quietEngine(b)
			if err := e.setEvalFile(ev); err != nil {
				b.Fatal(err)
			}
			e.tt = newTT(16)
			var pos []board.Position
			for _, f := range benchFENs {
				p, _ := board.ParseFEN(f)
				pos = append(pos, p)
			}
			var nodes int64
			b.ReportAllocs()
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				_, _, s := searchPos(e, pos[i%len(pos)], search.FixedLimits(6, 0))
				nodes += s.Nodes()
			}
			b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
		})
	}
}

// BenchmarkStopLatency: time from the UCI stop command to the printed bestmove of a
// go infinite search (the protocol asks for an answer "as soon as possible"; aim ≤ 10 ms).
func BenchmarkStopLatency(b *testing.B) {
	e := quietEngine(b)
	e.tt = newTT(16)
	var total time.Duration
	for b.Loop() {
		infinite, _ := search.ParseGo([]string{"infinite"})
		e.startSearch(infinite)
		time.Sleep(20 * time.Millisecond)
		t0 := time.Now()
		e.stopSearch()
		total += time.Since(t0)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/stop")
}

// TestBenchNodes pins the bench's node counts, the fingerprint of the search and the
// evaluation (bench.go): any change to either changes them. Measured with the default
// network (depth 5) and the material evaluation (depth 6).
func TestBenchNodes(t *testing.T) {
	for _, c := range []struct {
		eval  string
		depth int
		nodes int64
	}{
		{evalDefault, 5, 46761},
		{evalMaterial, 6, 65243},
	} {
		e := quietEngine(t)
		if err := e.setEvalFile(c.eval); err != nil {
			t.Fatal(err)
		}
		if r := e.runBench(c.depth, nil); r.nodes != c.nodes || r.positions != len(benchFENs) {
			t.Errorf("bench %d with %s: %d nodes over %d positions, want %d over %d", c.depth, c.eval, r.nodes, r.positions, c.nodes, len(benchFENs))
		}
	}
}
