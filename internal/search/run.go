package search

// run.go: one go command from its arguments to the best move: ParseGo reads the go
// command's parameters into Limits, NewSearcher makes the time budget and the root move
// list, Run starts the threads (Lazy SMP) and returns the main thread's move.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

var goKeywords = map[string]bool{"searchmoves": true, "ponder": true, "wtime": true, "btime": true,
	"winc": true, "binc": true, "movestogo": true, "depth": true, "nodes": true, "mate": true,
	"movetime": true, "infinite": true}

// ParseGo parses the arguments of a go command. It never fails: an unknown token, a
// parameter without a value or with a value that is not an integer is skipped and named
// in the returned notes (one "info string" each); a number beyond int64 counts as the
// largest one. Values are clamped: times to ±maxTimeMs (increments and movestogo to ≥ 0),
// depth to 1…maxPly−1, nodes to ≥ 1, mate n to 1…maxPly/2.
func ParseGo(args []string) (Limits, []string) {
	var l Limits
	var notes []string
	note := func(format string, a ...any) { notes = append(notes, fmt.Sprintf(format, a...)) }
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "infinite":
			l.infinite = true
			continue
		case "ponder":
			l.ponder = true
			continue
		case "searchmoves":
			for i+1 < len(args) && !goKeywords[args[i+1]] {
				i++
				l.searchMoves = append(l.searchMoves, args[i])
			}
			if len(l.searchMoves) == 0 {
				note("go: searchmoves without moves ignored")
			}
			continue
		}
		if !goKeywords[a] {
			note("go: unknown parameter %s ignored", QuoteShort(a))
			continue
		}
		if i+1 >= len(args) || goKeywords[args[i+1]] {
			note("go: %s without a value ignored", a)
			continue
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			note("go: %s %s is not an integer, ignored", a, QuoteShort(args[i]))
			continue
		}
		// ParseInt returns ±MaxInt64 with ErrRange: the clamps below take it from there.
		ms := time.Duration(min(max(n, -maxTimeMs), maxTimeMs)) * time.Millisecond
		switch a {
		case "wtime":
			l.wtime, l.wtimeSet, l.clock = ms, true, true
		case "btime":
			l.btime, l.btimeSet, l.clock = ms, true, true
		case "winc":
			l.winc, l.clock = max(ms, 0), true
		case "binc":
			l.binc, l.clock = max(ms, 0), true
		case "movestogo":
			l.movesToGo, l.clock = int(min(max(n, 0), maxMovesToGo)), true
		case "movetime":
			l.moveTime, l.moveTimeSet = ms, true
		case "depth":
			l.depth = int(min(max(n, 1), maxPly-1))
		case "nodes":
			l.nodes = max(n, 1)
		case "mate":
			// A mate in n is found by depth 2n−1; one ply more confirms it.
			l.depth = int(2*min(max(n, 1), maxPly/2) + 1)
			l.depth = min(l.depth, maxPly-1)
		}
	}
	return l, notes
}

// QuoteShort quotes s for a message, cut to 200 bytes (a hostile token is not echoed
// whole).
func QuoteShort(s string) string {
	const n = 200
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:n]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// Config is what a search needs besides its position and limits: the shared transposition
// table, the threads (at least one; thread 0 is the main thread, whose result is the
// search's), the time kept on the clock for communication (Move Overhead), the DebugEval
// check, and the receiver of info lines (without "info "; nil: silent).
type Config struct {
	TT       *TT
	Threads  []*Thread
	Overhead time.Duration
	Debug    bool
	Info     func(string)
}

// NewSearcher prepares a search of root with limits lim (the clock starts now): the time
// budget and the legal moves of searchmoves; Notes returns what it ignored. The threads and
// the table must not be used by another search until this one's Run has returned.
func NewSearcher(root *board.Position, lim Limits, cfg Config) *Searcher {
	s := &Searcher{tt: cfg.TT, lim: lim, t0: time.Now(), stopCh: make(chan struct{}),
		ponderhitCh: make(chan struct{}), threads: cfg.Threads, debug: cfg.Debug, info: cfg.Info}
	var note string
	s.budget, note = lim.timeBudget(root.SideToMove() == board.White, cfg.Overhead)
	if note != "" {
		s.notes = append(s.notes, note)
	}
	s.pondering.Store(lim.ponder)
	if len(lim.searchMoves) > 0 {
		moves := []board.Move{}
		for _, str := range lim.searchMoves {
			m, err := board.ParseUCIMove(root, str)
			if err != nil || !root.IsLegal(m) {
				s.notes = append(s.notes, fmt.Sprintf("go searchmoves: %s is not a legal move here, ignored", QuoteShort(str)))
				continue
			}
			if !slices.Contains(moves, m) {
				moves = append(moves, m)
			}
		}
		if len(moves) == 0 {
			s.notes = append(s.notes, "go searchmoves: no legal move given, searching every move")
		} else {
			s.rootMoves = moves
		}
	}
	return s
}

// Run searches root with every thread and returns the best move (NullMove, printed
// "0000", when there is no legal move). history holds the Zobrist keys of the game
// positions before root (oldest first), for repetitions. With go infinite it returns after
// stop, with go ponder after ponderhit or stop. A Searcher runs once.
func (s *Searcher) Run(root *board.Position, history []uint64) board.Move {
	var ml moveList
	genLegal(root, &ml)
	s.restrictRoot(&ml)
	if ml.N == 0 {
		if s.info != nil {
			if root.InCheck() {
				s.info("depth 0 score mate 0")
			} else {
				s.info("depth 0 score cp 0")
			}
		}
		s.waitRelease()
		s.halt()
		return board.NullMove
	}
	s.tt.newSearch()
	for _, t := range s.threads {
		t.prepare(s, root, history)
	}
	s.startClock()
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
	s.waitRelease()
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

// waitRelease holds the bestmove as UCI asks: with go infinite until stop, with go ponder
// until ponderhit or stop.
func (s *Searcher) waitRelease() {
	switch {
	case s.lim.infinite:
		<-s.stopCh
	case s.lim.ponder:
		select {
		case <-s.stopCh:
		case <-s.ponderhitCh:
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }
