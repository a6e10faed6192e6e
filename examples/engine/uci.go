package main

// uci.go: the Universal Chess Interface protocol (UCI specification, Stefan-Meyer Kahlen
// 2004; CPW "UCI"): commands are read line by line (at most maxLineBytes each); a search
// or a bench runs in its own goroutine so that stop, isready, ponderhit and quit are
// answered while it thinks. Bad input (unknown command, bad FEN, illegal move, bad option
// value) is answered with an "info string error" and the engine keeps running; a go
// command always ends with a bestmove (tokens it cannot parse are skipped with an
// "info string warning"; after a rejected position it is "bestmove 0000").

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/internal/search"
	"github.com/nnuekit/nnuekit/nnue"
)

const (
	defaultHash     = 128 // MiB, as the thesis engine (thesis §2.5)
	minHash         = 1
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
	// evalArch and evalLayout declare a bullet weights file (EvalArch, EvalLayout): when
	// evalArch is set, EvalFile is read as bullet's parameters of that architecture.
	evalArch   *nnue.Spec
	evalLayout nnue.BulletFile
	// evalWant is the EvalFile last given, loaded or not: a change of EvalArch or
	// EvalLayout loads it again, so the three options work in any order (GUIs send options
	// in their own order, often alphabetical: EvalArch, EvalFile, EvalLayout).
	evalWant string
	net      *nnue.Network // nil: material evaluation
	tt       *search.TT
	threads  []*search.Thread

	root    board.Position
	history []uint64 // keys of the game positions before root
	posErr  error    // the last position command was rejected: go answers bestmove 0000

	cur    *search.Searcher // the running go search (ponderhit), nil otherwise
	cancel func()           // stops the running job (a search or a bench); nil: none
	done   chan struct{}    // closed when the running job has printed its last line
}

// machineMemory returns the machine's memory and the part available now, in bytes
// (mem_linux.go); ok is false where it cannot be read. Tests replace it.
var machineMemory = search.ReadMachineMemory

// maxHashUnknownMemory is the Hash maximum where the machine's memory cannot be read.
const maxHashUnknownMemory = 4096

// maxHash is the Hash maximum advertised and accepted: the largest power of two (MiB) not
// above three quarters of the machine's memory (or cgroup limit), at most 2²⁰ MiB and, on
// 32-bit platforms, 1024 MiB; maxHashUnknownMemory where the memory cannot be read.
var maxHash = func() int {
	limit := uint64(1 << 20)
	if math.MaxInt == math.MaxInt32 {
		limit = 1024
	}
	total, _, ok := machineMemory()
	if !ok {
		return int(min(maxHashUnknownMemory, limit))
	}
	mb := max(total/4*3>>20, minHash)
	p := uint64(1)
	for p*2 <= mb {
		p *= 2
	}
	return int(min(p, limit))
}()

// resizeTT replaces the transposition table by one of mb MiB. The memory must be
// available now (machineMemory); a refusal (not available, or the allocation failed) is
// an error and the old table stays. The same size keeps the table and its contents.
func (e *engine) resizeTT(mb int) error {
	if search.TTBytes(mb) == search.TTBytes(e.hashMB) && e.tt != nil {
		e.hashMB = mb
		return nil
	}
	need := search.TTBytes(mb)
	if _, avail, ok := machineMemory(); ok && need > avail {
		return fmt.Errorf("option Hash: %d MiB is more than the %d MiB of memory available now; the %d MiB table stays",
			need>>20, avail>>20, search.TTBytes(e.hashMB)>>20)
	}
	t, err := search.NewTT(mb)
	if err != nil {
		return fmt.Errorf("option Hash: %v; the %d MiB table stays", err, search.TTBytes(e.hashMB)>>20)
	}
	if e.tt != nil {
		e.tt.Release()
	}
	e.tt, e.hashMB = t, mb
	return nil
}

func newEngine(w io.Writer) *engine {
	e := &engine{out: bufio.NewWriter(w), nThreads: 1, overhead: defaultOverhead,
		evalFile: evalDefault, root: board.StartPosition()}
	net, err := nnue.Default()
	if err != nil {
		e.printf("info string error: default network: %v; using material evaluation", err)
	}
	e.net = net
	if err := e.resizeTT(defaultHash); err != nil {
		e.printf("info string error: %v; using %d MiB", err, minHash)
		if err := e.resizeTT(minHash); err != nil {
			panic(fmt.Sprintf("engine: no memory for a %d MiB transposition table: %v", minHash, err))
		}
	}
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

// makeThreads (re)creates the per-thread state (accumulator stacks etc.).
func (e *engine) makeThreads() {
	e.threads = e.threads[:0]
	for i := 0; i < e.nThreads; i++ {
		e.threads = append(e.threads, search.NewThread(i, e.net))
	}
}

// maxLineBytes bounds a command line (the longest real one, a position with a few
// thousand moves, is tens of KB). A longer line is discarded unread, with an info string.
const maxLineBytes = 1 << 20

// run reads commands until quit or end of input. Memory stays bounded whatever the input:
// a line over maxLineBytes is skipped without being stored.
func (e *engine) run(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, n, err := readLine(br, maxLineBytes)
		if n > maxLineBytes {
			e.printf("info string error: input line of %d bytes ignored (limit %d bytes)", n, maxLineBytes)
		} else if strings.TrimSpace(line) != "" && !e.command(line) {
			return
		}
		if err != nil {
			// End of input is quit for a search (go infinite would never end), but a
			// running bench is bounded and finishes: printf 'bench\n' | engine prints it.
			if e.cur == nil && e.done != nil {
				<-e.done
			}
			e.stopSearch()
			return
		}
	}
}

// readLine reads up to and including the next '\n'. It returns the line when it has at
// most limit bytes; longer lines are read to their end and dropped (line is empty). n is
// the line's length in bytes (counted to limit+1 and beyond); err is the reader's error
// (io.EOF at the end of the input).
func readLine(br *bufio.Reader, limit int) (line string, n int, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n <= limit {
			if len(buf)+len(chunk) > cap(buf) { // double: a long line costs < 2× its length
				buf = slices.Grow(buf, max(len(chunk), cap(buf)))
			}
			buf = append(buf, chunk...)
		} else {
			buf = nil
		}
		if err != bufio.ErrBufferFull {
			if n > limit {
				return "", n, err
			}
			return string(buf), n, err
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
		e.printf("option name Hash type spin default %d min %d max %d", defaultHash, minHash, maxHash)
		e.printf("option name Threads type spin default 1 min 1 max %d", maxThreads)
		e.printf("option name EvalArch type string default <empty>")
		e.printf("option name EvalLayout type string default <empty>")
		e.printf("option name EvalFile type string default %s", evalDefault)
		e.printf("option name Move Overhead type spin default %d min 0 max 5000", defaultOverhead.Milliseconds())
		e.printf("option name DebugEval type check default false")
		e.printf("option name Ponder type check default false")
		e.printf("uciok")
	case "isready":
		e.printf("readyok")
	case "ucinewgame":
		e.stopSearch()
		e.tt.Clear()
		for _, t := range e.threads {
			t.ClearHistory()
		}
	case "setoption":
		e.stopSearch()
		if err := e.setOption(f[1:]); err != nil {
			e.printf("info string error: %v", err)
		}
	case "position":
		e.stopSearch()
		e.posErr = e.position(f[1:])
		if e.posErr != nil {
			e.printf("info string error: %v; no position until the next valid position command", e.posErr)
		}
	case "go":
		e.stopSearch()
		lim, notes := search.ParseGo(f[1:])
		for _, n := range notes {
			e.printf("info string warning: %s", n)
		}
		if e.posErr != nil {
			// The GUI's position is not the engine's: answering for the previous position
			// would play a move of another game.
			e.printf("info string error: no position to search: the last position command was rejected (%v)", e.posErr)
			e.printf("bestmove 0000")
			return true
		}
		e.startSearch(lim)
	case "stop":
		e.stopSearch()
	case "ponderhit":
		if e.cur != nil {
			e.cur.PonderHit()
		}
	case "quit":
		e.stopSearch()
		return false
	case "eval":
		e.stopSearch()
		if e.posErr != nil {
			e.printf("info string error: no position (the last position command was rejected)")
			return true
		}
		e.eval()
	case "bench":
		e.stopSearch()
		depth := defaultBenchDepth
		if len(f) > 1 {
			d, err := strconv.Atoi(f[1])
			if err != nil || d < 1 || d >= search.MaxPly {
				e.printf("info string error: bench depth %s: want an integer in 1…%d", search.QuoteShort(f[1]), search.MaxPly-1)
				return true
			}
			depth = d
		}
		evalFile := ""
		if len(f) > 2 {
			evalFile = strings.Join(f[2:], " ")
		}
		e.startBench(depth, evalFile)
	case "d":
		if e.posErr != nil {
			e.printf("info string error: no position (the last position command was rejected)")
			return true
		}
		e.printf("info string fen %s", e.root.FEN())
	case "debug", "register":
		// UCI commands without effect here.
	default:
		e.printf("info string error: unknown command %s", search.QuoteShort(f[0]))
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
	spin := func(name string, lo, hi int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("option %s: value %s is not an integer in %d…%d", name, search.QuoteShort(v), lo, hi)
		}
		return n, nil
	}
	check := func(name string) (bool, error) {
		switch strings.ToLower(v) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, fmt.Errorf("option %s: value %s is not true or false", name, search.QuoteShort(v))
	}
	switch id {
	case "hash":
		n, err := spin("Hash", minHash, maxHash)
		if err != nil {
			return err
		}
		return e.resizeTT(n)
	case "threads":
		n, err := spin("Threads", 1, maxThreads)
		if err != nil {
			return err
		}
		e.nThreads = n
		e.makeThreads()
	case "move overhead":
		n, err := spin("Move Overhead", 0, 5000)
		if err != nil {
			return err
		}
		e.overhead = time.Duration(n) * time.Millisecond
	case "debugeval":
		b, err := check("DebugEval")
		if err != nil {
			return err
		}
		e.debug = b
	case "ponder":
		// The GUI says whether it will ponder; go ponder and ponderhit work either way.
		_, err := check("Ponder")
		return err
	case "evalarch":
		if v == "" || v == "<empty>" {
			e.evalArch = nil
			return e.reloadEvalFile()
		}
		spec, err := nnue.ParseSpec(v)
		if err != nil {
			return fmt.Errorf("EvalArch: %v", err)
		}
		e.evalArch = &spec
		return e.reloadEvalFile()
	case "evallayout":
		if v == "<empty>" {
			v = ""
		}
		f, err := nnue.ParseBulletFile(v)
		if err != nil {
			return fmt.Errorf("EvalLayout: %v", err)
		}
		e.evalLayout = f
		return e.reloadEvalFile()
	case "evalfile":
		e.evalWant = v
		return e.setEvalFile(v)
	default:
		return fmt.Errorf("unknown option %s", search.QuoteShort(strings.Join(name, " ")))
	}
	return nil
}

// reloadEvalFile loads the EvalFile last given again after EvalArch or EvalLayout changed,
// when it names a file (not the embedded or the material evaluation).
func (e *engine) reloadEvalFile() error {
	switch e.evalWant {
	case "", evalDefault, evalMaterial:
		return nil
	}
	return e.setEvalFile(e.evalWant)
}

// setEvalFile loads a network of any format nnue.Load detects, or, when EvalArch is set, a
// bullet weights file of that declared architecture and EvalLayout's file layout (the previous
// network stays on error).
func (e *engine) setEvalFile(path string) error {
	var net *nnue.Network
	var err error
	switch path {
	case "", evalDefault:
		net, err = nnue.Default()
	case evalMaterial:
	default:
		// Only a regular file: opening a FIFO or a terminal blocks until a writer comes,
		// reading a device may never end, a directory is no network.
		var fi os.FileInfo
		if fi, err = os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("EvalFile %s: not a regular file (%s)", search.QuoteShort(path), outfile.Kind(fi.Mode()))
		}
		if err == nil && e.evalArch != nil {
			net, err = nnue.LoadBulletFile(path, *e.evalArch, e.evalLayout)
		} else if err == nil {
			net, err = nnue.LoadFile(path)
		}
	}
	if err != nil {
		return fmt.Errorf("EvalFile: %v", err) // the error names the file
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

// position parses "startpos|fen <FEN> [moves m1 m2 …]" and makes it the root. On error
// e.root is unchanged; the caller records the error (posErr), which go then reports.
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
		return fmt.Errorf("position: want startpos or fen, got %s", search.QuoteShort(args[0]))
	}
	var hist []uint64
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: unexpected %s (want 'moves')", search.QuoteShort(rest[0]))
		}
		for _, s := range rest[1:] {
			if len(s) > 5 {
				return fmt.Errorf("position: move %s is not a UCI move (4 or 5 characters)", search.QuoteShort(s))
			}
			m, err := board.ParseUCIMove(&pos, s)
			if err != nil {
				return fmt.Errorf("position: %v", err)
			}
			next, _, err := pos.PlayChecked(m)
			if err != nil {
				return fmt.Errorf("position: move %s in %s: %v", search.QuoteShort(s), pos.FEN(), err)
			}
			hist = append(hist, pos.Key())
			if next.HalfmoveClock() == 0 {
				hist = hist[:0] // irreversible: earlier positions cannot repeat
			}
			pos = next
		}
	}
	e.root, e.history = pos, hist
	return nil
}

// goKeywords are the parameters of go (UCI); searchmoves takes the moves after it up to
// the next keyword.
// startSearch runs a search of the current position in the background; it prints
// bestmove (with the expected reply as "ponder", when the principal variation has one)
// when done.
func (e *engine) startSearch(lim search.Limits) {
	s := e.newSearcher(&e.root, lim, func(msg string) { e.printf("info %s", msg) })
	for _, n := range s.Notes() {
		e.printf("info string warning: %s", n)
	}
	e.cur, e.cancel = s, s.Halt
	done := make(chan struct{})
	e.done = done
	go func() {
		defer close(done)
		best := s.Run(&e.root, e.history)
		if p := s.PonderMove(best); p != board.NullMove {
			e.printf("bestmove %s ponder %s", best, p)
		} else {
			e.printf("bestmove %s", best)
		}
	}()
}

// newSearcher prepares a search of root with limits lim on the engine's table and threads.
func (e *engine) newSearcher(root *board.Position, lim search.Limits, info func(string)) *search.Searcher {
	return search.NewSearcher(root, lim, search.Config{TT: e.tt, Threads: e.threads, Overhead: e.overhead, Debug: e.debug, Info: info})
}

// stopSearch stops the running job (a search or a bench), if any, and waits for its last
// line (bestmove, or the bench summary).
func (e *engine) stopSearch() {
	if e.done == nil {
		return
	}
	e.cancel()
	<-e.done
	e.cur, e.cancel, e.done = nil, nil, nil
}

// eval prints the static evaluation of the current position.
func (e *engine) eval() {
	if e.net == nil {
		e.printf("info string material evaluation: %d cp (side to move)", search.MaterialEval(&e.root))
		return
	}
	ev := e.net.NewEvaluator()
	v := ev.Evaluate(&e.root)
	// Networks with PSQT buckets (Stockfish 15.1, 16, 19) get Stockfish's per-bucket table of
	// PSQT and positional parts, as its eval command prints.
	if e.net.FeatureTransformer().PSQTBuckets() > 0 {
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
