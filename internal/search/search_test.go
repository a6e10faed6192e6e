package search

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// TestForcedMates: the engine finds every mate in 2 and 3 of testdata/mates.txt (positions
// where Stockfish 15.1 reports a mate) at the same distance, with the default network and
// with the material evaluation, searched to depth 2n+3: the mate's 2n−1 plies and four
// more (futility pruning may hide a quiet move of the mate near the horizon).
func TestForcedMates(t *testing.T) {
	data, err := os.ReadFile("testdata/mates.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, evalFile := range []string{evalDefault, evalMaterial} {
		e := quietEngine(t)
		if err := e.setEvalFile(evalFile); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if strings.HasPrefix(l, "#") {
				continue
			}
			f := strings.Fields(l)
			n, err := strconv.Atoi(f[len(f)-1])
			if err != nil {
				t.Fatalf("mates.txt: %q: %v", l, err)
			}
			fen := strings.Join(f[:len(f)-1], " ")
			pos, err := board.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			m, score, _ := searchPos(e, pos, FixedLimits(2*n+3, 0))
			if got := uciScore(score); got != "mate "+strconv.Itoa(n) {
				t.Errorf("%s %s: score %s (move %v), want mate %d", evalFile, fen, got, m, n)
			}
			if !pos.IsLegal(m) {
				t.Errorf("%s: illegal best move %v", fen, m)
			}
		}
	}
}

// TestMatedAndDraws: scores of terminal and drawn positions.
func TestMatedAndDraws(t *testing.T) {
	e := quietEngine(t)
	cases := []struct {
		fen  string
		want string
	}{
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "mate 0"}, // checkmated: no move, info only
		{"8/8/8/4k3/8/8/3NK3/8 w - - 0 1", "cp 0"},   // KN v K: insufficient material
		{"8/8/8/4k3/8/8/3BK3/8 b - - 0 1", "cp 0"},   // KB v K
		{"4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "cp 0"},
	}
	for _, c := range cases[1:] {
		pos, err := board.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, score, _ := searchPos(e, pos, Limits{depth: 4})
		if c.fen == cases[3].fen {
			// fifty-move rule: every child position is a draw by the clock.
			if score != 0 {
				t.Errorf("%s: score %d, want 0 (fifty moves)", c.fen, score)
			}
			continue
		}
		if got := uciScore(score); got != c.want {
			t.Errorf("%s: score %s, want %s", c.fen, got, c.want)
		}
	}
	pos, _ := board.ParseFEN(cases[0].fen)
	if m, _, _ := searchPos(e, pos, Limits{depth: 3}); m != board.NullMove {
		t.Errorf("mated position: bestmove %v, want 0000", m)
	}
	// A long reversible history (more keys than the preallocated 1024) must not break
	// the search.
	long := make([]uint64, 3000)
	pos0 := board.StartPosition()
	e.root, e.history = pos0, long
	if m := e.newSearcher(&e.root, Limits{depth: 2}, nil).Run(&e.root, long); !pos0.IsLegal(m) {
		t.Fatalf("long history: move %v", m)
	}
	th := e.threads[0]
	start := board.StartPosition()
	start.SetClocks(4, 3)
	s := e.newSearcher(&e.root, Limits{}, nil)
	other := board.StartPosition()
	m, _ := board.ParseUCIMove(&other, "e2e4")
	other, _ = other.Play(m)
	for _, c := range []struct {
		hist []uint64
		want bool
	}{
		{[]uint64{start.Key(), 1, 2, 3}, true},        // the root repeats the position 4 plies back
		{[]uint64{other.Key(), 1, 2, 3}, false},       // no earlier occurrence
		{[]uint64{start.Key(), 1, 2, 3, 4, 5}, false}, // beyond the halfmove clock
	} {
		th.prepare(s, &start, c.hist)
		th.keys[th.base] = start.Key()
		th.fromNull[0] = 1 << 20
		if got := th.isDraw(&start, 0); got != c.want {
			t.Errorf("isDraw with history %x: %v, want %v", c.hist, got, c.want)
		}
	}
}

// TestLegalMovesEPD: the engine never plays an illegal move over 1,000 positions of
// ../shared/data/positions.epd at low depth (200 with -short).
func TestLegalMovesEPD(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	e := quietEngine(t)
	e.tt = newTT(8)
	for i, pos := range epdPositions(t, n) {
		m, _, _ := searchPos(e, pos, Limits{depth: 2})
		if m == board.NullMove {
			if pos.HasLegalMove() {
				t.Fatalf("position %d %s: no move returned", i, pos.FEN())
			}
			continue
		}
		if !pos.IsLegal(m) {
			t.Fatalf("position %d %s: illegal bestmove %v", i, pos.FEN(), m)
		}
	}
}

// TestIncrementalEqualsRefreshInSearch: with DebugEval every node checks the accumulator
// stack against a full refresh; for every network family (thesis hv.nn, the default
// network, Stockfish 15.1 HalfKAv2_hm, Stockfish 13 HalfKP, and the whole-board thesis set
// all+ph+pv through the generic diff path) no mismatch occurs in searches
// with null moves, captures, castling, promotions and king moves.
func TestIncrementalEqualsRefreshInSearch(t *testing.T) {
	nets := []string{evalDefault}
	if !testing.Short() {
		nets = append(nets, shared(t, "thesis-models", "hv.nn"), shared(t, "thesis-models", "all+ph+pv.nn"),
			shared(t, "nets", "nn-ad9b42354671.nnue"),
			shared(t, "nets", "nn-62ef826d1a6d.nnue"))
	}
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	}
	for _, path := range nets {
		e := quietEngine(t)
		if err := e.setEvalFile(path); err != nil {
			t.Fatal(err)
		}
		e.debug = true
		e.tt = newTT(4)
		for _, fen := range fens {
			pos, _ := board.ParseFEN(fen)
			_, _, s := searchPos(e, pos, Limits{depth: 4})
			if s.debugErr.Load() != 0 {
				t.Errorf("%s %s: %d nodes where incremental != refresh", path, fen, s.debugErr.Load())
			}
			if s.nodes() < 100 {
				t.Errorf("%s %s: only %d nodes searched", path, fen, s.nodes())
			}
		}
		if st, ok := e.threads[0].ev.(*nnueEval); ok && st.st.Updates == 0 {
			t.Errorf("%s: no incremental update happened", path)
		}
	}
}

// TestThreads: Lazy SMP with two threads (run with -race -short) returns legal moves and
// shares one network.
func TestThreads(t *testing.T) {
	e := quietEngine(t)
	e.setThreads(2)
	e.tt = newTT(4)
	depth := 6
	if testing.Short() {
		depth = 4
	}
	for _, fen := range testFENs[:4] {
		pos, _ := board.ParseFEN(fen)
		m, _, s := searchPos(e, pos, Limits{depth: depth})
		if !pos.IsLegal(m) {
			t.Fatalf("%s: illegal move %v", fen, m)
		}
		if s.threads[1].nodes.Load() == 0 {
			t.Errorf("%s: helper thread searched no node", fen)
		}
	}
	a, b := e.threads[0].ev.(*nnueEval), e.threads[1].ev.(*nnueEval)
	if a.net != b.net || a.st == b.st {
		t.Error("threads must share the network and own their accumulator stacks")
	}
}

// TestNoAllocsPerNode: after a warm-up search, a search allocates a constant handful of
// objects (the searcher), not one per node.
func TestNoAllocsPerNode(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	e := quietEngine(t)
	e.tt = newTT(4)
	pos, _ := board.ParseFEN(testFENs[1])
	var nodes int64
	searchPos(e, pos, Limits{depth: 5})
	allocs := testing.AllocsPerRun(3, func() {
		e.tt.clear() // each run searches the whole tree, not the last run's TT hits
		_, _, s := searchPos(e, pos, Limits{depth: 5})
		nodes = s.nodes()
	})
	if nodes < 1000 || allocs > 10 {
		t.Errorf("%v allocations for a search of %d nodes, want ≤ 10 (none per node)", allocs, nodes)
	}
}

// countingEval counts the static evaluations of each position (by Zobrist key).
type countingEval struct {
	evaluator
	n    int
	seen map[uint64]int
}

func (c *countingEval) evaluate() int {
	c.n++
	c.seen[key(c.pos())]++
	return c.evaluator.evaluate()
}

// TestEvaluationsReused: within one search, a position's static evaluation is taken from
// the table when the position is reached again (a transposition, a re-search, a node left
// by reverse futility or null-move pruning): with a table far larger than the tree, under
// 1 % of the evaluations are of a position already evaluated. Before the table kept the
// evaluation of such nodes, 3.7–5.3 % were in three of the four positions.
func TestEvaluationsReused(t *testing.T) {
	e := quietEngine(t)
	for _, fen := range testFENs[:4] {
		pos, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		e.tt.clear()
		c := &countingEval{evaluator: e.threads[0].ev, seen: map[uint64]int{}}
		e.threads[0].ev = c
		searchPos(e, pos, Limits{depth: 7})
		e.threads[0].ev = c.evaluator
		again := c.n - len(c.seen)
		if c.n < 1000 || again*100 >= c.n {
			t.Errorf("%s: %d evaluations of %d positions (%d again), want ≥ 1000 and under 1 %% again", fen, c.n, len(c.seen), again)
		}
	}
}

// TestQuiescenceStandPatStored: a quiescence node that stands pat at or above β stores the
// lower bound where its entry holds only the static evaluation (as the main search stores
// it), not only where it has none: a bound is never lost to an entry without one.
func TestQuiescenceStandPatStored(t *testing.T) {
	e := quietEngine(t)
	pos := board.StartPosition()
	s := e.newSearcher(&pos, Limits{depth: 1}, nil)
	th := e.threads[0]
	th.prepare(s, &pos, nil)
	k := key(&pos)
	ev := th.ev.evaluate()
	e.tt.store(k, ttEntry{eval: ev, bound: boundNone})
	if got := th.qsearch(ev-101, ev-100, 0); got != ev {
		t.Fatalf("qsearch below the static evaluation %d returned %d, want the stand pat", ev, got)
	}
	if en, ok := e.tt.probe(k); !ok || en.bound != boundLower || scoreFromTT(en.score, 0) != ev || en.eval != ev {
		t.Errorf("entry after a stand-pat cutoff: %+v (found %v), want a lower bound %d with evaluation %d", en, ok, ev, ev)
	}
}
