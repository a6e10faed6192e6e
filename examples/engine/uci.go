package main

// uci.go: the Universal Chess Interface protocol (UCI specification, Stefan-Meyer Kahlen
// 2004; CPW "UCI"): commands are read line by line; a search runs in its own goroutine so
// that stop, isready and quit are answered while it thinks. Bad input (unknown command,
// bad FEN, illegal move, bad option value) is answered with an "info string" error and
// the engine keeps running.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

const (
	defaultHash     = 128 // MiB, as the thesis engine (thesis §2.5)
	maxHash         = 1 << 16
	maxThreads      = 256
	defaultOverhead = 30 * time.Millisecond
	evalDefault     = "<default>"
	evalMaterial    = "<material>"
)

type engine struct {
	mu  sync.Mutex // guards out
	out *bufio.Writer

	hashMB   int
	nThreads int
	overhead time.Duration
	debug    bool
	evalFile string
	net      *nnue.Network // nil: material evaluation
	tt       *tt
	threads  []*thread

	root    board.Position
	history []uint64 // keys of the game positions before root

	cur  *searcher
	done chan struct{} // closed when the current search has printed bestmove
}

func newEngine(w io.Writer) *engine {
	e := &engine{out: bufio.NewWriter(w), hashMB: defaultHash, nThreads: 1, overhead: defaultOverhead,
		evalFile: evalDefault, root: board.StartPosition()}
	net, err := nnue.Default()
	if err != nil {
		e.printf("info string error: default network: %v; using material evaluation", err)
	}
	e.net = net
	e.tt = newTT(e.hashMB)
	e.makeThreads()
	return e
}

func (e *engine) printf(format string, args ...any) {
	e.mu.Lock()
	fmt.Fprintf(e.out, format+"\n", args...)
	e.out.Flush()
	e.mu.Unlock()
}

func (e *engine) flush() {
	e.mu.Lock()
	e.out.Flush()
	e.mu.Unlock()
}

func (e *engine) newEvaluator() evaluator {
	if e.net == nil {
		return &materialEval{}
	}
	return newNNUEEval(e.net)
}

// makeThreads (re)creates the per-thread state (accumulator stacks etc.).
func (e *engine) makeThreads() {
	e.threads = e.threads[:0]
	for i := 0; i < e.nThreads; i++ {
		e.threads = append(e.threads, newThread(i, e.newEvaluator()))
	}
}

// run reads commands until quit or end of input.
func (e *engine) run(r *bufio.Reader) {
	for {
		line, err := r.ReadString('\n')
		if strings.TrimSpace(line) != "" && !e.command(line) {
			return
		}
		if err != nil {
			e.stopSearch()
			return
		}
	}
}

// command executes one line and reports false for quit.
func (e *engine) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "uci":
		e.printf("id name nnuekit-engine\nid author the nnuekit authors")
		e.printf("option name Hash type spin default %d min 1 max %d", defaultHash, maxHash)
		e.printf("option name Threads type spin default 1 min 1 max %d", maxThreads)
		e.printf("option name EvalFile type string default %s", evalDefault)
		e.printf("option name Move Overhead type spin default %d min 0 max 5000", defaultOverhead.Milliseconds())
		e.printf("option name DebugEval type check default false")
		e.printf("uciok")
	case "isready":
		e.printf("readyok")
	case "ucinewgame":
		e.stopSearch()
		e.tt.clear()
		for _, t := range e.threads {
			t.clearHistory()
		}
	case "setoption":
		e.stopSearch()
		if err := e.setOption(f[1:]); err != nil {
			e.printf("info string error: %v", err)
		}
	case "position":
		e.stopSearch()
		if err := e.position(f[1:]); err != nil {
			e.printf("info string error: %v", err)
		}
	case "go":
		e.stopSearch()
		lim, err := parseGo(f[1:])
		if err != nil {
			e.printf("info string error: %v", err)
			return true
		}
		e.startSearch(lim)
	case "stop":
		e.stopSearch()
	case "ponderhit":
		// Pondering is not offered (no Ponder option); a go ponder is searched as a normal
		// go, so ponderhit has nothing to do.
	case "quit":
		e.stopSearch()
		return false
	case "eval":
		e.stopSearch()
		e.eval()
	case "bench":
		e.stopSearch()
		depth := defaultBenchDepth
		if len(f) > 1 {
			d, err := strconv.Atoi(f[1])
			if err != nil || d < 1 || d >= maxPly {
				e.printf("info string error: bench depth %q: want an integer in 1…%d", f[1], maxPly-1)
				return true
			}
			depth = d
		}
		e.bench(depth)
	case "d":
		e.printf("info string fen %s", e.root.FEN())
	case "debug", "register":
		// UCI commands without effect here.
	default:
		e.printf("info string error: unknown command %q", f[0])
	}
	return true
}

func (e *engine) setOption(args []string) error {
	// setoption name <id, may contain spaces> [value <x, may contain spaces>]
	if len(args) < 2 || args[0] != "name" {
		return errors.New("setoption: want 'setoption name <id> [value <x>]'")
	}
	var name, value []string
	inValue := false
	for _, a := range args[1:] {
		if a == "value" && !inValue {
			inValue = true
			continue
		}
		if inValue {
			value = append(value, a)
		} else {
			name = append(name, a)
		}
	}
	id, v := strings.ToLower(strings.Join(name, " ")), strings.Join(value, " ")
	spin := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("option %s: value %q is not an integer in %d…%d", id, v, lo, hi)
		}
		return n, nil
	}
	switch id {
	case "hash":
		n, err := spin(1, maxHash)
		if err != nil {
			return err
		}
		e.hashMB = n
		e.tt = newTT(n)
	case "threads":
		n, err := spin(1, maxThreads)
		if err != nil {
			return err
		}
		e.nThreads = n
		e.makeThreads()
	case "move overhead":
		n, err := spin(0, 5000)
		if err != nil {
			return err
		}
		e.overhead = time.Duration(n) * time.Millisecond
	case "debugeval":
		switch strings.ToLower(v) {
		case "true":
			e.debug = true
		case "false":
			e.debug = false
		default:
			return fmt.Errorf("option DebugEval: value %q is not true or false", v)
		}
	case "evalfile":
		return e.setEvalFile(v)
	default:
		return fmt.Errorf("unknown option %q", strings.Join(name, " "))
	}
	return nil
}

// setEvalFile loads a network of any format nnue.Load detects (the previous network stays
// on error).
func (e *engine) setEvalFile(path string) error {
	var net *nnue.Network
	var err error
	switch path {
	case "", evalDefault:
		net, err = nnue.Default()
	case evalMaterial:
	default:
		net, err = nnue.LoadFile(path)
	}
	if err != nil {
		return fmt.Errorf("EvalFile %q: %v", path, err)
	}
	e.net, e.evalFile = net, path
	e.makeThreads()
	if net != nil {
		e.printf("info string EvalFile %s: %s", path, net)
	} else {
		e.printf("info string EvalFile %s: material only", path)
	}
	return nil
}

// position parses "startpos|fen <FEN> [moves m1 m2 …]"; on error the position is unchanged.
func (e *engine) position(args []string) error {
	if len(args) == 0 {
		return errors.New("position: want 'position startpos|fen <fen> [moves …]'")
	}
	var pos board.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		pos = board.StartPosition()
	case "fen":
		n := len(rest)
		for i, a := range rest {
			if a == "moves" {
				n = i
				break
			}
		}
		if n == 0 {
			return errors.New("position fen: missing FEN")
		}
		p, err := board.ParseFEN(strings.Join(rest[:n], " "))
		if err != nil {
			return fmt.Errorf("position fen: %v", err)
		}
		pos, rest = p, rest[n:]
	default:
		return fmt.Errorf("position: want startpos or fen, got %q", args[0])
	}
	var hist []uint64
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: unexpected %q (want 'moves')", rest[0])
		}
		for _, s := range rest[1:] {
			m, err := board.ParseUCIMove(&pos, s)
			if err != nil {
				return fmt.Errorf("position: move %q: %v", s, err)
			}
			next, _, err := pos.PlayChecked(m)
			if err != nil {
				return fmt.Errorf("position: move %q in %s: %v", s, pos.FEN(), err)
			}
			hist = append(hist, key(&pos))
			if next.HalfmoveClock() == 0 {
				hist = hist[:0] // irreversible: earlier positions cannot repeat
			}
			pos = next
		}
	}
	e.root, e.history = pos, hist
	return nil
}

func parseGo(args []string) (limits, error) {
	var l limits
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "infinite":
			l.infinite = true
			continue
		case "ponder":
			continue // searched as a normal go (see ponderhit)
		case "searchmoves":
			return l, errors.New("go: searchmoves is not supported")
		}
		if i+1 >= len(args) {
			return l, fmt.Errorf("go: %s needs a value", a)
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			return l, fmt.Errorf("go: %s %q: not an integer", a, args[i+1])
		}
		i++
		ms := time.Duration(n) * time.Millisecond
		switch a {
		case "wtime":
			l.wtime = ms
		case "btime":
			l.btime = ms
		case "winc":
			l.winc = ms
		case "binc":
			l.binc = ms
		case "movestogo":
			l.movesToGo = int(max(n, 0))
		case "movetime":
			l.moveTime = max(ms, time.Millisecond)
		case "depth":
			l.depth = int(min(max(n, 1), maxPly-1))
		case "nodes":
			l.nodes = max(n, 1)
		case "mate":
			l.depth = int(min(max(2*n+1, 1), maxPly-1)) // a mate in n is found by depth 2n−1
		default:
			return l, fmt.Errorf("go: unknown parameter %q", a)
		}
	}
	return l, nil
}

// startSearch runs a search of the current position in the background; it prints
// bestmove when done.
func (e *engine) startSearch(lim limits) {
	s := e.newSearcher(lim, func(msg string) { e.printf("info %s", msg) })
	e.cur = s
	done := make(chan struct{})
	e.done = done
	go func() {
		defer close(done)
		best := s.run(&e.root, e.history)
		e.printf("bestmove %s", best)
	}()
}

func (e *engine) newSearcher(lim limits, info func(string)) *searcher {
	s := &searcher{tt: e.tt, lim: lim, start: time.Now(), stopCh: make(chan struct{}), threads: e.threads,
		debug: e.debug, info: info}
	s.budget = lim.timeBudget(e.root.SideToMove() == board.White, e.overhead)
	return s
}

// stopSearch stops the running search, if any, and waits for its bestmove.
func (e *engine) stopSearch() {
	if e.cur == nil {
		return
	}
	e.cur.halt()
	<-e.done
	e.cur, e.done = nil, nil
}

// run searches root with every thread and returns the best move (NullMove, printed
// "0000", when there is no legal move).
func (s *searcher) run(root *board.Position, history []uint64) board.Move {
	var ml moveList
	genLegal(root, &ml)
	if ml.N == 0 {
		if s.info != nil {
			if root.InCheck() {
				s.info("depth 0 score mate 0")
			} else {
				s.info("depth 0 score cp 0")
			}
		}
		s.waitIfInfinite()
		return board.NullMove
	}
	s.tt.newSearch()
	for _, t := range s.threads {
		t.prepare(s, root, history)
	}
	var wg sync.WaitGroup
	for _, t := range s.threads[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.iterate()
		}()
	}
	main := s.threads[0]
	main.iterate()
	s.waitIfInfinite()
	s.halt()
	wg.Wait()
	if s.debugErr.Load() > 0 && s.info != nil {
		s.info(fmt.Sprintf("string debug: %d nodes where incremental != refresh", s.debugErr.Load()))
	}
	if main.bestMove == board.NullMove {
		return ml.Moves[0]
	}
	return main.bestMove
}

// waitIfInfinite: with go infinite the bestmove waits for stop (UCI).
func (s *searcher) waitIfInfinite() {
	if s.lim.infinite {
		<-s.stopCh
	}
}

// eval prints the static evaluation of the current position.
func (e *engine) eval() {
	if e.net == nil {
		ev := &materialEval{}
		ev.reset(&e.root)
		e.printf("info string material evaluation: %d cp (side to move)", ev.evaluate())
		return
	}
	ev := e.net.NewEvaluator()
	v := ev.Evaluate(&e.root)
	if strings.HasPrefix(e.net.Description(), "Stockfish") {
		var sb strings.Builder
		if err := ev.Trace(&e.root).WriteTable(&sb); err == nil {
			for _, l := range strings.Split(strings.TrimRight(sb.String(), "\n"), "\n") {
				if strings.TrimSpace(l) != "" {
					e.printf("info string %s", l)
				}
			}
		}
	}
	stm := e.root.SideToMove()
	white := v
	if stm == board.Black {
		white = -v
	}
	e.printf("info string NNUE evaluation %d (network units), %.2f pawns for the side to move (%v), %+.2f for White [%s]",
		v, e.net.Centipawns(v)/100, stm, e.net.Centipawns(white)/100, e.evalFile)
}

func itoa(n int) string { return strconv.Itoa(n) }

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }
