package nnue

// Measurement loops of issue 14 round 7 (data pages per evaluation, doc/benchmarks.md
// "Round 7 (pages)"). They run only when PAGES_NET is set (sf13 or sf15):
//
//	# callgrind, the king loop (PAGES_LOOP=king) or the forward loop (forward), 2,000
//	# evaluations collected inside pgKingBatch / pgForwardBatch only; PAGES_FLUSH=1 touches
//	# 256 other pages before every batch, which in a fully associative 4 KiB-line model of
//	# ≤ 256 entries evicts everything, as the clock's TLB flush does:
//	PAGES_NET=sf13 PAGES_LOOP=king NNUEKIT_SIMD=avx2 GODEBUG=cpu.rdtscp=off,asyncpreemptoff=1 \
//	  valgrind --tool=callgrind --toggle-collect='*pgKingBatch*' --toggle-collect='*pgForwardBatch*' \
//	  --cache-sim=yes --D1=131072,32,4096 --I1=131072,32,4096 --LL=262144,64,4096 \
//	  ./nnue.test -test.run '^$' -test.bench PagesScratch -test.benchtime 1x
//	# timed with one thread-CPU clock section per batch, as BenchmarkStockfish: PAGES_TIME=1
//	# in-process A/B, prepared stacks in one block against the same arrays on pages of
//	# their own (the layout before round 7), alternated: -test.bench PagesLayoutAB
//
// PAGES_CENSUS=1 prints every allocation reachable from an Evaluator with its pages.

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/nnuekit/nnuekit/board"
)

type pgData struct {
	n         *Network
	positions []board.Position
	roots     []*Accumulator
	kingTimed [][]sfBenchMove
	p2        []board.Position
	p2roots   []*Accumulator
}

// pgSetup takes BenchmarkStockfish's data (sfBenchSetup) for the first maxPos positions:
// those positions and the king batches of their P2 positions (sfBenchSetup appends the
// batches in position order, and a batch's root is its own index, so the first batches
// are exactly those of the first positions).
func pgSetup(b *testing.B, name string, maxPos int) *pgData {
	all := sfBenchSetup(b)
	d := &pgData{n: sfTestNetwork(b, name)}
	d.positions = all.positions[:min(maxPos, len(all.positions))]
	k := 0
	for k < len(all.kingTimed) && all.kingWarm[k][0].root < len(d.positions) {
		k++
	}
	d.kingTimed, d.p2 = all.kingTimed[:k], all.p2[:k]
	d.roots = sfRoots(d.n, d.positions)
	d.p2roots = sfRoots(d.n, d.p2)
	return d
}

type pgKing struct {
	ev       *Evaluator
	acc, hot *Accumulator
	added    []int
	removed  []int
	hotMv    []sfBenchMove
}

//go:noinline
func pgKingBatch(s *pgKing, mvs []sfBenchMove, parent *board.Position) {
	fs := s.ev.net.ft.set
	mover := parent.SideToMove()
	for j := range mvs {
		mv := &mvs[j]
		s.ev.RefreshPerspective(s.acc, &mv.after, mover)
		s.added, s.removed = fs.Diff(parent, &mv.after, &mv.dirty, mover.Other(), s.added[:0], s.removed[:0])
		s.acc.UpdateFrom(s.hot, mover.Other(), s.added, s.removed)
		sfSink += s.ev.Forward(s.acc, &mv.after).Value
	}
}

//go:noinline
func pgForwardBatch(ev *Evaluator, hot []*Accumulator, ps []board.Position) {
	for j := range ps {
		sfSink += ev.Forward(hot[j], &ps[j]).Value
	}
}

var pgFlush = os.Getenv("PAGES_FLUSH") != ""
var pgSweep = make([]byte, 256<<12)
var pgSweepSink byte

// pgTLBSweep touches 256 distinct pages outside the collected functions: in callgrind's
// fully associative 4 KiB-line model of ≤ 256 entries this evicts everything, as the
// clock's TLB flush does.
//
//go:noinline
func pgTLBSweep() {
	if !pgFlush {
		return
	}
	for i := 0; i < len(pgSweep); i += 4096 {
		pgSweepSink += pgSweep[i]
	}
}

// pgRunKing runs n king evaluations; clock reads one sfClock section per batch when clock.
func pgRunKing(d *pgData, s *pgKing, n int, clock bool) (evals int, cpu time.Duration) {
	var c sfClock
	for c.evals < n {
		for k := range d.kingTimed {
			s.hot.CopyFrom(d.p2roots[k])
			s.hotMv = append(s.hotMv[:0], d.kingTimed[k]...)
			pgTLBSweep()
			if clock {
				c.start()
			}
			pgKingBatch(s, s.hotMv, &d.p2[k])
			if clock {
				c.stop(len(s.hotMv))
			} else {
				c.evals += len(s.hotMv)
			}
			if c.evals >= n {
				break
			}
		}
	}
	return c.evals, c.cpu
}

func pgRunForward(d *pgData, ev *Evaluator, hot []*Accumulator, n int, clock bool) (evals int, cpu time.Duration) {
	var c sfClock
	const batch = 64
	for k := 0; c.evals < n; k = (k + batch) % len(d.positions) {
		m := min(batch, len(d.positions)-k, n-c.evals)
		for j := 0; j < m; j++ {
			hot[j].CopyFrom(d.roots[k+j])
		}
		pgTLBSweep()
		if clock {
			c.start()
		}
		pgForwardBatch(ev, hot, d.positions[k:k+m])
		if clock {
			c.stop(m)
		} else {
			c.evals += m
		}
	}
	return c.evals, c.cpu
}

func BenchmarkPagesScratch(b *testing.B) {
	name := pgNet(b)
	n := pgEnvInt("PAGES_N", 2000)
	maxPos := pgEnvInt("PAGES_POS", 400)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d := pgSetup(b, name, maxPos)
	ev := d.n.NewEvaluator()
	runtime.GC()
	debug.SetGCPercent(-1)
	if os.Getenv("PAGES_CENSUS") != "" {
		pgCensus(map[string]any{"ev": ev})
		return
	}
	switch os.Getenv("PAGES_LOOP") {
	case "king":
		s := &pgKing{ev: ev, acc: d.n.ft.NewAccumulator(), hot: d.n.ft.NewAccumulator()}
		pgRunKing(d, s, 200, false) // warm
		if os.Getenv("PAGES_TIME") != "" {
			pgTime(b, func() (int, time.Duration) { return pgRunKing(d, s, n, true) })
			return
		}
		e, _ := pgRunKing(d, s, n, false)
		fmt.Println("evals", e, "batches", len(d.kingTimed))
	case "forward":
		hot := make([]*Accumulator, 64)
		for i := range hot {
			hot[i] = d.n.ft.NewAccumulator()
		}
		pgRunForward(d, ev, hot, 200, false)
		if os.Getenv("PAGES_TIME") != "" {
			pgTime(b, func() (int, time.Duration) { return pgRunForward(d, ev, hot, n, true) })
			return
		}
		e, _ := pgRunForward(d, ev, hot, n, false)
		fmt.Println("evals", e)
	}
}

func pgTime(b *testing.B, f func() (int, time.Duration)) {
	rounds := pgEnvInt("PAGES_ROUNDS", 10)
	best := time.Duration(1 << 62)
	var all []string
	for r := 0; r < rounds; r++ {
		e, cpu := f()
		ns := cpu / time.Duration(e)
		best = min(best, ns)
		all = append(all, strconv.Itoa(int(ns)))
	}
	fmt.Println("best ns/eval", best.Nanoseconds(), "all", all)
}

type pgRegion struct {
	name       string
	start, end uintptr
}

func pgWalk(name string, v reflect.Value, seen map[uintptr]bool, out *[]pgRegion, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		p := v.Pointer()
		if seen[p] {
			return
		}
		seen[p] = true
		e := v.Elem()
		*out = append(*out, pgRegion{name, p, p + e.Type().Size()})
		if e.Kind() == reflect.Struct {
			pgWalkFields(name, e, seen, out, depth)
		}
	case reflect.Interface:
		if !v.IsNil() {
			pgWalk(name, v.Elem(), seen, out, depth+1)
		}
	case reflect.Slice:
		if v.Len() == 0 && v.Cap() == 0 {
			return
		}
		p := v.Pointer()
		if seen[p] && v.Type().Elem().Kind() != reflect.Struct {
			return
		}
		seen[p] = true
		*out = append(*out, pgRegion{name + fmt.Sprintf("[%d]", v.Len()), p, p + uintptr(v.Cap())*v.Type().Elem().Size()})
		switch v.Type().Elem().Kind() {
		case reflect.Struct, reflect.Slice, reflect.Pointer, reflect.Interface:
			for i := 0; i < v.Len() && i < 8; i++ {
				pgWalk(fmt.Sprintf("%s[%d]", name, i), v.Index(i), seen, out, depth+1)
			}
		}
	case reflect.Struct:
		pgWalkFields(name, v, seen, out, depth)
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			pgWalk(fmt.Sprintf("%s[%d]", name, i), v.Index(i), seen, out, depth+1)
		}
	}
}

func pgWalkFields(name string, v reflect.Value, seen map[uintptr]bool, out *[]pgRegion, depth int) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Name == "pool" || f.Name == "arch" && name != "ev.net" {
			continue
		}
		pgWalk(name+"."+f.Name, v.Field(i), seen, out, depth+1)
	}
}

func pgCensus(roots map[string]any) {
	var rs []pgRegion
	seen := map[uintptr]bool{}
	for _, k := range slices.Sorted(maps.Keys(roots)) {
		pgWalk(k, reflect.ValueOf(roots[k]), seen, &rs, 0)
	}
	slices.SortFunc(rs, func(a, b pgRegion) int { return cmp.Compare(a.start, b.start) })
	for _, r := range rs {
		fmt.Printf("%#x-%#x pages %x..%x %8d B %s\n", r.start, r.end, r.start>>12, (r.end-1)>>12, r.end-r.start, r.name)
	}
}

func pgMedian(x []int) int {
	y := slices.Clone(x)
	slices.Sort(y)
	return y[len(y)/2]
}

var pgKeep [][]byte

// pgScatter returns a copy of the struct *p whose slice fields are each reallocated on
// pages of their own (the layout before round 7), with the p<name> pointer fields moved.
func pgScatter[T any](p *T) *T {
	c := new(T)
	*c = *p
	v := reflect.ValueOf(c).Elem()
	rw := func(f reflect.Value) reflect.Value {
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	for i := 0; i < v.NumField(); i++ {
		f := rw(v.Field(i))
		if f.Kind() != reflect.Slice || f.Len() == 0 {
			continue
		}
		pgKeep = append(pgKeep, make([]byte, 4096*(1+i%3)))
		es := int(f.Type().Elem().Size())
		buf := make([]byte, f.Len()*es+8192)
		off := int(-uintptr(unsafe.Pointer(&buf[0]))&4095) + 64*(i%8)
		ns := reflect.NewAt(f.Type(), unsafe.Pointer(&struct {
			p        unsafe.Pointer
			len, cap int
		}{unsafe.Pointer(&buf[off]), f.Len(), f.Len()})).Elem()
		reflect.Copy(ns, f)
		f.Set(ns)
	}
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		f := rw(v.Field(i))
		if f.Kind() != reflect.Pointer || len(name) < 2 || name[0] != 'p' {
			continue
		}
		if s := v.FieldByName(name[1:]); s.IsValid() && s.Kind() == reflect.Slice && s.Len() > 0 {
			f.Set(rw(s).Index(0).Addr())
		}
	}
	return c
}

// pgScatterEvaluator returns an evaluator of n whose family forwards use scattered copies of
// the prepared stacks (separate allocations, as before round 7) and scattered
// first-layer buffers.
func pgScatterEvaluator(n *Network) *Evaluator {
	e := n.NewEvaluator()
	for b := range e.bk {
		switch f := e.bk[b].fwd.(type) {
		case *creluChain:
			g := *f
			g.k = *pgScatter(&f.k)
			e.bk[b].fwd = &g
		case *sfnnv5:
			g := *f
			g.k = *pgScatter(&f.k)
			e.bk[b].fwd = &g
		}
		pgKeep = append(pgKeep, make([]byte, 8192))
		e.bk[b].u8 = alignedUint8(len(e.bk[b].u8))
		pgKeep = append(pgKeep, make([]byte, 8192))
		e.bk[b].idx = make([]uint16, len(e.bk[b].idx))
	}
	return e
}

func BenchmarkPagesLayoutAB(b *testing.B) {
	name := pgNet(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	d := pgSetup(b, name, 400)
	n := pgEnvInt("PAGES_N", 20000)
	rounds := pgEnvInt("PAGES_ROUNDS", 10)
	eA, eB := pgScatterEvaluator(d.n), d.n.NewEvaluator()
	if os.Getenv("PAGES_SHOW") != "" {
		for _, e := range []*Evaluator{eA, eB} {
			var rs []pgRegion
			pgWalk("bk0", reflect.ValueOf(e.bk[0].fwd), map[uintptr]bool{}, &rs, 0)
			for _, r := range rs {
				if strings.Contains(r.name, ".k") {
					fmt.Printf("  %x %6d %s\n", r.start>>12, r.end-r.start, r.name)
				}
			}
			fmt.Printf("  u8 %x idx %x\n", uintptr(unsafe.Pointer(&e.bk[0].u8[0]))>>12, uintptr(unsafe.Pointer(&e.bk[0].idx[0]))>>12)
		}
	}
	// same results
	for i := range d.positions[:50] {
		if x, y := eA.Forward(d.roots[i], &d.positions[i]), eB.Forward(d.roots[i], &d.positions[i]); x != y {
			b.Fatalf("scattered %v, block %v", x, y)
		}
	}
	runtime.GC()
	var run func(e *Evaluator) (int, time.Duration)
	switch os.Getenv("PAGES_LOOP") {
	case "king":
		run = func(e *Evaluator) (int, time.Duration) {
			s := &pgKing{ev: e, acc: d.n.ft.NewAccumulator(), hot: d.n.ft.NewAccumulator()}
			return pgRunKing(d, s, n, true)
		}
	default:
		hot := make([]*Accumulator, 64)
		for i := range hot {
			hot[i] = d.n.ft.NewAccumulator()
		}
		run = func(e *Evaluator) (int, time.Duration) { return pgRunForward(d, e, hot, n, true) }
	}
	var tA, tB []int
	for r := 0; r < rounds; r++ {
		x, y := eA, eB
		if r%2 == 1 {
			x, y = eB, eA
		}
		e1, c1 := run(x)
		e2, c2 := run(y)
		a, bb := int(c1.Nanoseconds()/int64(e1)), int(c2.Nanoseconds()/int64(e2))
		if r%2 == 1 {
			a, bb = bb, a
		}
		tA, tB = append(tA, a), append(tB, bb)
	}
	ratios := make([]float64, len(tA))
	for i := range tA {
		ratios[i] = float64(tB[i]) / float64(tA[i])
	}
	slices.Sort(ratios)
	fmt.Printf("%s %s scattered: min %d median %d | block: min %d median %d | median ratio block/scattered %.3f\n",
		os.Getenv("PAGES_NET"), os.Getenv("PAGES_LOOP"), slices.Min(tA), pgMedian(tA), slices.Min(tB), pgMedian(tB), ratios[len(ratios)/2])
}

// pgNet returns the net PAGES_NET names (sf13 or sf15), skipping b without it.
func pgNet(b *testing.B) string {
	name := map[string]string{"sf13": sfNetHalfKP, "sf15": sfNetSFNNv5}[os.Getenv("PAGES_NET")]
	if name == "" {
		b.Skip("PAGES_NET")
	}
	return name
}

// pgEnvInt returns the environment variable key as an int, or def when it is unset or 0.
func pgEnvInt(key string, def int) int {
	if v, _ := strconv.Atoi(os.Getenv(key)); v != 0 {
		return v
	}
	return def
}
