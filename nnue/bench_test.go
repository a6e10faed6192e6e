package nnue

import (
	"runtime"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// benchData holds positions of positions.epd and one legal non-king move of each.
type benchData struct {
	pos   []board.Position
	after []board.Position
	dirty []board.DirtyPieces
}

func loadBenchData(b *testing.B) *benchData {
	g := loadGolden(b)
	d := &benchData{}
	for i := range g.pos {
		p := &g.pos[i]
		for _, m := range p.LegalMoves() {
			if p.PieceAt(m.From()).Role() == board.King {
				continue
			}
			a, dp := p.Play(m)
			d.pos = append(d.pos, *p)
			d.after = append(d.after, a)
			d.dirty = append(d.dirty, dp)
			break
		}
	}
	return d
}

var benchNets = []string{"hv", "all+ph+pv"}

// BenchmarkRefresh: Active + Refresh of both perspectives (no forward pass), per position.
func BenchmarkRefresh(b *testing.B) {
	d := loadBenchData(b)
	for _, name := range benchNets {
		b.Run(name, func(b *testing.B) {
			e := thesisNet(b, name).NewEvaluator()
			benchLoop(b, func(i int) {
				e.Refresh(&d.pos[i%len(d.pos)])
			})
		})
	}
}

// parents returns refreshed accumulators of the first k benchmark positions.
func parents(n *Network, d *benchData, k int) []*Accumulator {
	e := n.NewEvaluator()
	accs := make([]*Accumulator, min(k, len(d.pos)))
	for i := range accs {
		accs[i] = n.FeatureTransformer().NewAccumulator()
		e.Refresh(&d.pos[i])
		accs[i].CopyFrom(e.Accumulator())
	}
	return accs
}

// updateBoth does what AccumulatorStack does for one move: Diff and a copy-make update of
// both perspectives from the computed parent.
func updateBoth(n *Network, dst, src *Accumulator, before, after *board.Position, dirty *board.DirtyPieces, added, removed []int) ([]int, []int) {
	set := n.FeatureSet()
	for p := board.White; p <= board.Black; p++ {
		if set.RequiresRefresh(dirty, p) {
			added = set.Active(after, p, added[:0])
			dst.Refresh(p, added)
			continue
		}
		added, removed = set.Diff(before, after, dirty, p, added[:0], removed[:0])
		dst.UpdateFrom(src, p, added, removed)
	}
	return added, removed
}

// BenchmarkUpdate: one move's incremental update of both perspectives (Diff + fused
// kernels, copy-make from the computed parent), per move.
func BenchmarkUpdate(b *testing.B) {
	d := loadBenchData(b)
	for _, name := range benchNets {
		b.Run(name, func(b *testing.B) {
			n := thesisNet(b, name)
			accs := parents(n, d, 512)
			dst := n.FeatureTransformer().NewAccumulator()
			var ad, rm []int
			benchLoop(b, func(i int) {
				k := i % len(accs)
				ad, rm = updateBoth(n, dst, accs[k], &d.pos[k], &d.after[k], &d.dirty[k], ad, rm)
			})
		})
	}
}

// BenchmarkUpdateEvaluate: one move's incremental update of both perspectives + forward pass.
func BenchmarkUpdateEvaluate(b *testing.B) {
	d := loadBenchData(b)
	for _, name := range benchNets {
		b.Run(name, func(b *testing.B) {
			n := thesisNet(b, name)
			accs := parents(n, d, 512)
			e := n.NewEvaluator()
			dst := n.FeatureTransformer().NewAccumulator()
			var ad, rm []int
			benchLoop(b, func(i int) {
				k := i % len(accs)
				ad, rm = updateBoth(n, dst, accs[k], &d.pos[k], &d.after[k], &d.dirty[k], ad, rm)
				e.Forward(dst, &d.after[k])
			})
		})
	}
}

// BenchmarkForward: the layer stack alone on computed accumulators.
func BenchmarkForward(b *testing.B) {
	d := loadBenchData(b)
	for _, name := range benchNets {
		b.Run(name, func(b *testing.B) {
			n := thesisNet(b, name)
			e := n.NewEvaluator()
			accs := parents(n, d, 256)
			benchLoop(b, func(i int) {
				k := i % len(accs)
				e.Forward(accs[k], &d.pos[k])
			})
		})
	}
}

// BenchmarkEvaluate: full refresh + forward pass, per position.
func BenchmarkEvaluate(b *testing.B) {
	d := loadBenchData(b)
	for _, name := range benchNets {
		b.Run(name, func(b *testing.B) {
			e := thesisNet(b, name).NewEvaluator()
			benchLoop(b, func(i int) {
				e.Evaluate(&d.pos[i%len(d.pos)])
			})
		})
	}
}

// benchLoop runs f(0) … f(b.N−1) on a locked OS thread and reports thread CPU time per
// operation as "cpu-ns/op" next to the wall time.
func benchLoop(b *testing.B, f func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	c0 := threadCPU()
	for i := 0; i < b.N; i++ {
		f(i)
	}
	if c1 := threadCPU(); c0 >= 0 && c1 >= 0 {
		b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
	}
}
