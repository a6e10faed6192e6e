package main

// bench.go: the bench command, as Stockfish's (benchmark.cpp): search a fixed list of
// positions to a fixed depth with a cleared hash table and one thread per the current
// options, then print the total nodes and nodes per second. The node count is a
// fingerprint of the search (it changes when the search or the evaluation changes).

import (
	"sync"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/search"
)

const defaultBenchDepth = 8

// benchFENs: the start position, CPW "Perft Results" positions 2–6, Bratko-Kopec test
// positions (BK.01–BK.03 and another middlegame), the pawn endgame Lasker–Reichhelm
// 1901 (Fine, Basic Chess Endings #70) and a tactical opening position.
var benchFENs = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
	"3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
	"2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
	"r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
	"8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
	"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
}

// benchResult is the outcome of one bench run.
type benchResult struct {
	nodes     int64
	elapsed   time.Duration
	positions int // positions searched to the end
}

// benchJob lets the UCI loop stop a bench between or inside its searches.
type benchJob struct {
	mu      sync.Mutex
	s       *search.Searcher // the search running now
	stopped bool
}

// stop ends the bench: the running search stops and no other starts.
func (j *benchJob) stop() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.stopped = true
	if j.s != nil {
		j.s.Halt()
	}
}

// begin registers the next search; false when the bench was stopped.
func (j *benchJob) begin(s *search.Searcher) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.s = s
	return !j.stopped
}

func (j *benchJob) isStopped() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stopped
}

// runBench searches every bench position to depth and returns the totals; with a job, it
// ends early once job.stop is called (positions then counts the finished searches). The
// engine's position is not touched.
func (e *engine) runBench(depth int, job *benchJob) benchResult {
	e.tt.Clear()
	for _, t := range e.threads {
		t.ClearHistory()
	}
	var r benchResult
	start := time.Now()
	for _, fen := range benchFENs {
		pos, err := board.ParseFEN(fen)
		if err != nil {
			e.printf("info string error: bench position %q: %v", fen, err)
			continue
		}
		s := e.newSearcher(&pos, search.FixedLimits(depth, 0), nil)
		if job != nil && !job.begin(s) {
			break
		}
		s.Run(&pos, nil)
		r.nodes += s.Nodes()
		if job != nil && job.isStopped() {
			break // this search was cut short: not counted
		}
		r.positions++
	}
	r.elapsed = time.Since(start)
	return r
}

// bench runs the bench (job: see runBench) and prints Stockfish's summary lines.
func (e *engine) bench(depth int, job *benchJob) {
	r := e.runBench(depth, job)
	if r.positions < len(benchFENs) {
		e.printf("info string bench stopped after %d of %d positions", r.positions, len(benchFENs))
	}
	ms := max(r.elapsed.Milliseconds(), 1)
	e.printf("\n===========================")
	e.printf("Total time (ms) : %d", ms)
	e.printf("Nodes searched  : %d", r.nodes)
	e.printf("Nodes/second    : %d", r.nodes*1000/ms)
}

// startBench runs the bench in the background (UCI bench command), so that stop, quit and
// isready are answered while it runs. A network given with it (bench 10 file.nnue) is
// loaded for this bench only: the previous EvalFile is restored after it.
func (e *engine) startBench(depth int, evalFile string) {
	restore := func() {}
	if evalFile != "" {
		net, file := e.net, e.evalFile
		if err := e.setEvalFile(evalFile); err != nil {
			e.printf("info string error: bench: %v", err)
			return
		}
		restore = func() {
			e.net, e.evalFile = net, file
			e.makeThreads()
		}
	}
	job := &benchJob{}
	done := make(chan struct{})
	e.cancel, e.done = job.stop, done
	go func() {
		defer close(done)
		e.bench(depth, job)
		restore()
	}()
}
