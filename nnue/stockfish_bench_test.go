package nnue

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/simd"
)

// Benchmarks of the two Stockfish nets over the 5,283 golden positions (not in check)
// and their legal moves, at every SIMD level (doc/benchmarks.md, "Stockfish nets"):
//
//	go test ./nnue -run '^$' -bench 'Stockfish' -benchtime 20000x
//
// Every benchmark reports ns/eval, the wall time of one evaluation measured around
// exactly the work named (set-up outside the measured sections), and cpu-ns/eval, the
// CPU time of the benchmark's (locked) thread over the same sections:
//
//	refresh      full refresh of both perspectives + forward pass (Evaluator.Evaluate)
//	quiet        a quiet non-king move: Accumulator.UpdateQuiet (Set.QuietPair + one
//	             fused update of both perspectives from the parent's accumulator;
//	             where it reports false, both perspectives' lists at once and
//	             UpdateFrom per perspective, as AccumulatorStack does) + forward
//	             pass (rows/move: feature rows added + removed over both perspectives).
//	             For a set with a board path (Stockfish 19's) the lists come from
//	             BoardPath.DiffBothDirty over the move's featureset.DirtyThreats and
//	             board views, computed before the timed section as Stockfish 19's
//	             do_move computes them (../shared/perf's sfbench19 subtracts do_move);
//	             else from Set.DiffBoth
//	king         an own-king move: refresh of the mover's perspective
//	             (Evaluator.RefreshPerspective), update of the other + forward pass
//	king-table   the same through a RefreshTable warmed on a nearby position (the
//	             position two plies earlier, king on the same square)
//
//	             For a transformer with split int8/int16 parts (Stockfish 19) both king
//	             cells make the move as AccumulatorStack does (sfBenchKingStack: the
//	             mover's hybrid update, or a refresh when its king crosses the d/e
//	             line), with and without the table.
//	forward      the forward pass alone on a computed accumulator
//
// Parent accumulators (quiet, king) and the accumulators of the forward benchmark are
// copied into hot buffers before the timed sections, as in a search where they were just
// computed; so are the moves of a quiet or king section (position after the move and its
// dirty pieces), as in a search where the move was just made: Stockfish's side of the
// comparison (../shared/perf/sfbench.cpp) makes each move with do_move into a hot
// Position and subtracts that cost, while the moves here were played at set-up into
// arrays of 23 MB (quiet) and 2 MB (king) whose records would otherwise be read cold.
// The parent position is read where it lies, as Stockfish's is. Feature-transformer
// weights are never warmed (47 MB / 21 MB).

type sfBenchMove struct {
	root  int // index into positions / roots
	after board.Position
	dirty board.DirtyPieces
}

type sfBenchData struct {
	positions []board.Position
	quiet     []sfBenchMove
	// kingWarm[i] and kingTimed[i]: king moves of position P (to warm a refresh table)
	// and of P2 = P + two quiet non-king plies (timed), to the same destination squares.
	kingWarm, kingTimed [][]sfBenchMove
	p2                  []board.Position // P2 per kingTimed batch
}

var (
	sfBenchOnce sync.Once
	sfBench     *sfBenchData
)

func sfBenchSetup(b *testing.B) *sfBenchData {
	rows := sfReadCSV(b, "sf15.1-eval.csv")
	sfBenchOnce.Do(func() {
		d := &sfBenchData{}
		for _, r := range rows {
			pos := sfParsePos(b, r.fen)
			i := len(d.positions)
			d.positions = append(d.positions, pos)
			stm := pos.SideToMove()
			var quiet1 []board.Move
			kingTo := map[board.Square]bool{}
			var warm []sfBenchMove
			for _, m := range pos.LegalMoves() {
				after, dirty := pos.Play(m)
				switch {
				case dirty.KingMoved(stm):
					warm = append(warm, sfBenchMove{root: i, after: after, dirty: dirty})
					kingTo[after.KingSquare(stm)] = true
				case dirty.N == 1:
					d.quiet = append(d.quiet, sfBenchMove{root: i, after: after, dirty: dirty})
					quiet1 = append(quiet1, m)
				}
			}
			// P2 = P + quiet move + quiet reply, then king moves to squares also reached from P
			for _, m1 := range quiet1 {
				a1, _ := pos.Play(m1)
				var p2 board.Position
				found := false
				for _, m2 := range a1.LegalMoves() {
					a2, d2 := a1.Play(m2)
					if d2.N == 1 && !d2.KingMoved(stm.Other()) {
						p2, found = a2, true
						break
					}
				}
				if !found {
					continue
				}
				var timed []sfBenchMove
				for _, m := range p2.LegalMoves() {
					after, dirty := p2.Play(m)
					if dirty.KingMoved(stm) && kingTo[after.KingSquare(stm)] {
						timed = append(timed, sfBenchMove{root: len(d.p2), after: after, dirty: dirty})
					}
				}
				if len(timed) > 0 {
					d.kingWarm = append(d.kingWarm, warm)
					d.kingTimed = append(d.kingTimed, timed)
					d.p2 = append(d.p2, p2)
				}
				break
			}
		}
		sfBench = d
	})
	return sfBench
}

// sfRoots computes the accumulators of every position (set-up, not timed).
func sfRoots(n *Network, ps []board.Position) []*Accumulator {
	ev := n.NewEvaluator()
	out := make([]*Accumulator, len(ps))
	for i := range ps {
		ev.Refresh(&ps[i])
		out[i] = n.ft.NewAccumulator()
		out[i].CopyFrom(ev.Accumulator())
	}
	return out
}

// sfClock measures wall time and the thread's CPU time of the timed sections.
type sfClock struct {
	wall, cpu time.Duration
	w0, c0    time.Time
	cpuStart  time.Duration
	evals     int
}

func (c *sfClock) start() {
	c.cpuStart = sfThreadCPU()
	c.w0 = time.Now()
}

func (c *sfClock) stop(evals int) {
	c.wall += time.Since(c.w0)
	c.cpu += sfThreadCPU() - c.cpuStart
	c.evals += evals
}

// report publishes ns/eval (wall) and cpu-ns/eval (CPU time of the benchmark's thread,
// which excludes waiting for a core on a loaded machine).
func (c *sfClock) report(b *testing.B) {
	n := float64(max(c.evals, 1))
	b.ReportMetric(float64(c.wall.Nanoseconds())/n, "ns/eval")
	b.ReportMetric(float64(c.cpu.Nanoseconds())/n, "cpu-ns/eval")
}

var sfSink int32

func BenchmarkStockfish(b *testing.B) {
	for _, name := range []string{sfNetSFNNv5, sfNetHalfKP, sfNetSF16, sfNetSF19} {
		n := sfTestNetwork(b, name)
		short := map[string]string{sfNetSFNNv5: "sf15.1", sfNetHalfKP: "sf13", sfNetSF16: "sf16", sfNetSF19: "sf19"}[name]
		sfBenchNet(b, n, short)
	}
}

// sfBenchNet runs the cells listed at the top of this file for network n under the name short, at every SIMD level:
// BenchmarkStockfish for the Stockfish nets, BenchmarkBulletNets for bullet-trained ones.
func sfBenchNet(b *testing.B, n *Network, short string) {
	d := sfBenchSetup(b)
	roots := sfRoots(n, d.positions)
	p2roots := sfRoots(n, d.p2)
	for _, lvl := range simd.Available() {
		prefix := short + "/" + lvl.String() + "/"
		set := func(b *testing.B) func() {
			runtime.LockOSThread()
			prev, _ := simd.SetLevel(lvl)
			return func() { simd.SetLevel(prev); runtime.UnlockOSThread() }
		}
		b.Run(prefix+"refresh", func(b *testing.B) {
			defer set(b)()
			ev := n.NewEvaluator()
			var c sfClock
			c.start()
			for i := 0; i < b.N; i++ {
				sfSink += ev.Evaluate(&d.positions[i%len(d.positions)])
			}
			c.stop(b.N)
			c.report(b)
		})
		b.Run(prefix+"forward", func(b *testing.B) {
			defer set(b)()
			ev := n.NewEvaluator()
			// batches of 64 accumulators copied into a hot working set (not timed),
			// as after an update; the forward passes over them are timed
			const batch = 64
			hot := make([]*Accumulator, batch)
			for i := range hot {
				hot[i] = n.ft.NewAccumulator()
			}
			var c sfClock
			for k := 0; c.evals < b.N; k = (k + batch) % len(d.positions) {
				m := min(batch, len(d.positions)-k, b.N-c.evals)
				for j := 0; j < m; j++ {
					hot[j].CopyFrom(roots[k+j])
				}
				c.start()
				for j := 0; j < m; j++ {
					sfSink += ev.Forward(hot[j], &d.positions[k+j]).Value
				}
				c.stop(m)
			}
			c.report(b)
		})
		b.Run(prefix+"quiet", func(b *testing.B) {
			defer set(b)()
			ev := n.NewEvaluator()
			acc := n.ft.NewAccumulator()
			hot := n.ft.NewAccumulator()
			fs := n.ft.set
			path, _ := fs.BoardPath()
			var ad, rm [2][]int
			var hotMv []sfBenchMove
			var vb featureset.ThreatBoard
			var va []featureset.ThreatBoard
			var dt []featureset.DirtyThreats
			var c sfClock
			rows := 0
			for i := 0; c.evals < b.N; {
				// one parent's quiet moves: the parent accumulator is copied into a
				// hot buffer first (not timed), as in a search
				r := d.quiet[i].root
				hot.CopyFrom(roots[r])
				parent := &d.positions[r]
				j := i
				for j < len(d.quiet) && d.quiet[j].root == r && c.evals+(j-i) < b.N {
					j++
				}
				hotMv = append(hotMv[:0], d.quiet[i:j]...) // the moves just made (not timed)
				if path != nil {
					// what Stockfish 19's do_move does (not timed: sfbench19 subtracts
					// do_move): the boards, and the changed threats of every move
					vb.SetPosition(parent)
					va, dt = slices.Grow(va[:0], len(hotMv))[:len(hotMv)], slices.Grow(dt[:0], len(hotMv))[:len(hotMv)]
					for k := range hotMv {
						va[k].SetPosition(&hotMv[k].after)
						path.DirtyThreats(&vb, &va[k], &hotMv[k].dirty, &dt[k])
					}
				}
				c.start()
				for k := range hotMv {
					mv := &hotMv[k] // a pointer: a range copy escaped (192 B, 1 alloc per move)
					if acc.UpdateQuiet(hot, &mv.after, &mv.dirty) {
						rows += 4
					} else {
						// both perspectives' lists at once, as AccumulatorStack: from the
						// move's changed threats where the set has a board path
						for p := range ad {
							ad[p], rm[p] = ad[p][:0], rm[p][:0]
						}
						if path != nil {
							path.DiffBothDirty(&vb, &va[k], &mv.dirty, &dt[k], &ad, &rm)
						} else {
							fs.DiffBoth(parent, &mv.after, &mv.dirty, &ad, &rm)
						}
						for p := board.White; p <= board.Black; p++ {
							acc.UpdateFrom(hot, p, ad[p], rm[p])
							rows += len(ad[p]) + len(rm[p])
						}
					}
					sfSink += ev.Forward(acc, &mv.after).Value
				}
				c.stop(j - i)
				i = j % len(d.quiet)
			}
			c.report(b)
			b.ReportMetric(float64(rows)/float64(max(c.evals, 1)), "rows/move")
		})
		for _, withTable := range []bool{false, true} {
			label := "king"
			if withTable {
				label = "king-table"
			}
			b.Run(prefix+label, func(b *testing.B) {
				defer set(b)()
				if n.ft.acc.split != nil {
					sfBenchKingStack(b, n, d, roots, p2roots, withTable)
					return
				}
				ev := n.NewEvaluator()
				acc := n.ft.NewAccumulator()
				fs := n.ft.set
				tab := n.NewRefreshTable()
				var added, removed []int
				var hotMv []sfBenchMove
				var c sfClock
				hot := n.ft.NewAccumulator()
				one := func(mv *sfBenchMove, parent *board.Position, root *Accumulator) {
					mover := parent.SideToMove()
					if withTable {
						tab.Refresh(acc, &mv.after, mover)
					} else {
						ev.RefreshPerspective(acc, &mv.after, mover)
					}
					added, removed = fs.Diff(parent, &mv.after, &mv.dirty, mover.Other(), added[:0], removed[:0])
					acc.UpdateFrom(root, mover.Other(), added, removed)
					sfSink += ev.Forward(acc, &mv.after).Value
				}
				for c.evals < b.N {
					for k := range d.kingTimed {
						if withTable { // warm: king moves of P (not timed)
							for j := range d.kingWarm[k] {
								mv := &d.kingWarm[k][j]
								one(mv, &d.positions[mv.root], roots[mv.root])
							}
						}
						hot.CopyFrom(p2roots[k])
						hotMv = append(hotMv[:0], d.kingTimed[k]...) // the moves just made (not timed)
						c.start()
						for j := range hotMv {
							one(&hotMv[j], &d.p2[k], hot)
						}
						c.stop(len(d.kingTimed[k]))
						if c.evals >= b.N {
							break
						}
					}
				}
				c.report(b)
				if withTable {
					b.ReportMetric(float64(tab.Rows)/float64(max(tab.Hits, 1)), "rows/hit")
				}
			})
		}
	}
}

// sfBenchKingStack is the king and king-table cells for a transformer whose int8 and
// int16 summands are split (Stockfish 19): each own-king move is made as AccumulatorStack
// makes it — the mover's int8 part updated from the parent and its int16 part from the
// table's cached part (king-table) or refreshed (king), by the stack's own update, unless
// the king crosses the d/e line (then a refresh, through the table for king-table) — with
// the board views and the move's changed threats (featureset.DirtyThreats) computed before
// the timed section, as Stockfish 19's do_move computes them (sfbench19's king cell
// subtracts do_move; its cache is warmed on P's king moves as the table is here).
func sfBenchKingStack(b *testing.B, n *Network, d *sfBenchData, roots, p2roots []*Accumulator, withTable bool) {
	ev := n.NewEvaluator()
	st := n.NewAccumulatorStack()
	tab := n.NewRefreshTable()
	if withTable {
		st.table = tab
	}
	path, ok := n.ft.set.BoardPath()
	if !ok {
		b.Fatalf("%s: no board path", n.ft.set)
	}
	acc := n.ft.NewAccumulator()
	hot := n.ft.NewAccumulator()
	prev := stackEntry{acc: hot}
	var es []stackEntry
	var vb featureset.ThreatBoard
	var va []featureset.ThreatBoard
	var dt []featureset.DirtyThreats
	var ad, rm [2][]int
	var added, removed []int
	// prepare: the moves of one batch made (not timed)
	prepare := func(mvs []sfBenchMove, parent *board.Position) {
		vb.SetPosition(parent)
		es = slices.Grow(es[:0], len(mvs))[:len(mvs)]
		va = slices.Grow(va[:0], len(mvs))[:len(mvs)]
		dt = slices.Grow(dt[:0], len(mvs))[:len(mvs)]
		for j := range mvs {
			es[j] = stackEntry{acc: acc, pos: mvs[j].after, dirty: mvs[j].dirty, kings: kingSquares(&mvs[j].after)}
			va[j].SetPosition(&mvs[j].after)
			path.DirtyThreats(&vb, &va[j], &mvs[j].dirty, &dt[j])
		}
		prev.computed = [2]bool{true, true}
	}
	one := func(j int, parent *board.Position) {
		e := &es[j]
		mover := parent.SideToMove()
		if st.mustRefresh(e, mover) { // the king crosses the d/e line
			if withTable {
				tab.Refresh(acc, &e.pos, mover)
			} else {
				ev.RefreshPerspective(acc, &e.pos, mover)
			}
			added, removed = n.ft.set.Diff(parent, &e.pos, &e.dirty, mover.Other(), added[:0], removed[:0])
			st.update(&prev, e, nil, mover.Other(), added, removed)
		} else {
			for p := range ad {
				ad[p], rm[p] = ad[p][:0], rm[p][:0]
			}
			path.DiffBothDirty(&vb, &va[j], &e.dirty, &dt[j], &ad, &rm)
			st.updateBoth(&prev, e, nil, &ad, &rm)
		}
		sfSink += ev.Forward(acc, &e.pos).Value
	}
	// the path taken is exact: the first batches against a full refresh (not timed)
	check := n.NewEvaluator()
	for k := range min(len(d.kingTimed), 8) {
		hot.CopyFrom(p2roots[k])
		prepare(d.kingTimed[k], &d.p2[k])
		for j := range es {
			one(j, &d.p2[k])
			if got, want := ev.Forward(acc, &es[j].pos).Value, check.Evaluate(&es[j].pos); got != want {
				b.Fatalf("%s: king move to %v: %d, refresh %d", es[j].pos.FEN(), es[j].kings, got, want)
			}
		}
	}
	tab.Reset()
	var c sfClock
	for c.evals < b.N {
		for k := range d.kingTimed {
			if withTable { // warm: king moves of P (not timed)
				for j := range d.kingWarm[k] {
					mv := &d.kingWarm[k][j]
					hot.CopyFrom(roots[mv.root])
					prepare(d.kingWarm[k][j:j+1], &d.positions[mv.root])
					one(0, &d.positions[mv.root])
				}
			}
			hot.CopyFrom(p2roots[k])
			prepare(d.kingTimed[k], &d.p2[k])
			c.start()
			for j := range es {
				one(j, &d.p2[k])
			}
			c.stop(len(es))
			if c.evals >= b.N {
				break
			}
		}
	}
	c.report(b)
	if withTable {
		b.ReportMetric(float64(tab.Rows)/float64(max(tab.Hits, 1)), "rows/hit")
	}
}
