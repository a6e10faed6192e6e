package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

const (
	evalDefault  = "<default>"
	evalMaterial = "<material>"
)

// testEngine is the part of a UCI engine the search tests need: a table, threads, the
// DebugEval flag and the root with its game history.
type testEngine struct {
	net     *nnue.Network
	tt      *TT
	threads []*Thread
	debug   bool
	root    board.Position
	history []uint64
}

// quietEngine returns an engine with the default network, one thread and a 16 MiB table.
func quietEngine(t testing.TB) *testEngine {
	t.Helper()
	e := &testEngine{tt: newTT(16), root: board.StartPosition()}
	if err := e.setEvalFile(evalDefault); err != nil {
		t.Fatal(err)
	}
	return e
}

// setEvalFile loads the default network, the material evaluation or a network file, and
// makes the threads again (as the engine's EvalFile option).
func (e *testEngine) setEvalFile(path string) error {
	var net *nnue.Network
	var err error
	switch path {
	case evalDefault:
		net, err = nnue.Default()
	case evalMaterial:
	default:
		net, err = nnue.LoadFile(path)
	}
	if err != nil {
		return err
	}
	e.net = net
	e.setThreads(max(len(e.threads), 1))
	return nil
}

// setThreads makes n threads (the engine's Threads option).
func (e *testEngine) setThreads(n int) {
	e.threads = e.threads[:0]
	for i := range n {
		e.threads = append(e.threads, NewThread(i, e.net))
	}
}

func (e *testEngine) newSearcher(root *board.Position, lim Limits, info func(string)) *Searcher {
	return NewSearcher(root, lim, Config{TT: e.tt, Threads: e.threads, Overhead: 30e6, Debug: e.debug, Info: info})
}

// searchPos searches pos with e's threads and limits lim; it returns the best move, the
// main thread's score and the searcher.
func searchPos(e *testEngine, pos board.Position, lim Limits) (board.Move, int, *Searcher) {
	e.root, e.history = pos, nil
	s := e.newSearcher(&e.root, lim, nil)
	m := s.Run(&e.root, nil)
	return m, s.Score(), s
}

// newTT returns a table of mb MiB (small sizes that cannot fail) for tests.
func newTT(mb int) *TT {
	t, err := allocTT(mb)
	if err != nil {
		panic(err)
	}
	return t
}

// shared returns the path of a file under ../shared (from the repository root), or skips.
func shared(t testing.TB, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{"..", "..", "..", "shared"}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("search: %s absent (../shared not mounted)", p)
	}
	return p
}

// epdPositions returns the first n positions of ../shared/data/positions.epd, or skips.
func epdPositions(t testing.TB, n int) []board.Position {
	data, err := os.ReadFile(shared(t, "data", "positions.epd"))
	if err != nil {
		t.Fatal(err)
	}
	var out []board.Position
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if len(out) == n {
			break
		}
		p, _, err := board.ParseEPD(l)
		if err != nil {
			t.Fatalf("positions.epd line %d: %v", i+1, err)
		}
		out = append(out, p)
	}
	return out
}

// testFENs: the start position and CPW "Perft Results" positions 2–4 (the first bench
// positions of examples/engine).
var testFENs = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
}
