// Package search is the chess engine's search, shared by the UCI engine (examples/engine)
// and the self-play data generator (examples/datagen): iterative deepening, principal
// variation search, quiescence search, move ordering, a lockless transposition table shared
// by Lazy SMP threads, and the static evaluation by any network nnuekit loads (incremental,
// through nnue.AccumulatorStack) or by material only. The thesis (§2) describes the form;
// doc/engine.md the features, their sources, speed and memory.
//
// A search is one NewSearcher + Run over a TT and one or more Threads; a Thread keeps its
// killers and history between searches (ClearHistory forgets them), the TT its entries
// (Clear). Scores are centipawns from the side to move's point of view; a mate in n plies
// from the root is ±(MateScore − n), and |score| ≥ MateBound means a mate was found.
package search

import (
	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// Score bounds (centipawns, side to move).
const (
	MaxPly    = maxPly    // deepest ply a search reaches (depth limits are 1 … MaxPly−1)
	MateScore = mateScore // the score of giving mate at the root's next ply is MateScore − 1
	MateBound = mateBound // |score| ≥ MateBound: a forced mate was found
)

// NewTT returns an empty table of TTBytes(mb) bytes (mb MiB rounded down to a power of two
// of 16-byte slots, at least one slot). The memory is outside the Go heap on Linux, so a
// size the machine cannot give is an error, not a crash; Release returns it.
func NewTT(mb int) (*TT, error) { return allocTT(mb) }

// TTBytes returns the size in bytes of the table NewTT(mb) makes.
func TTBytes(mb int) uint64 { return ttBytes(mb) }

// Release returns the table's memory now; the table must not be used afterwards.
func (t *TT) Release() { t.release() }

// Clear empties the table (no search may be running).
func (t *TT) Clear() { t.clear() }

// NewThread returns search thread id (0 is the main thread) evaluating with net through
// its own accumulator stack, or with the material evaluation when net is nil. Threads of
// one search may share a network (it is immutable).
func NewThread(id int, net *nnue.Network) *Thread {
	if net == nil {
		return newThread(id, &materialEval{})
	}
	return newThread(id, newNNUEEval(net))
}

// ClearHistory forgets the thread's killer moves and history (a new game).
func (t *Thread) ClearHistory() { t.clearHistory() }

// FixedLimits returns the limits of a search to depth plies (0: no depth limit) and at most
// nodes nodes (0: no node limit), without a clock; at least one must be set for the
// search to end by itself. depth is clamped to 1 … MaxPly−1 and nodes to ≥ 1 when set.
func FixedLimits(depth int, nodes int64) Limits {
	var l Limits
	if depth > 0 {
		l.depth = min(depth, maxPly-1)
	}
	if nodes > 0 {
		l.nodes = nodes
	}
	return l
}

// Halt stops the search (the go command's stop); Run then returns the best move of the
// last completed iteration. It may be called from any goroutine, more than once.
func (s *Searcher) Halt() { s.halt() }

// PonderHit switches a go ponder search to a normal one: its clock starts now.
func (s *Searcher) PonderHit() { s.ponderhit() }

// Nodes returns the nodes searched so far by all threads.
func (s *Searcher) Nodes() int64 { return s.nodes() }

// Notes returns the warnings NewSearcher had about the limits (searchmoves that are not
// legal, a clock missing for the side to move), one "info string" each.
func (s *Searcher) Notes() []string { return s.notes }

// Score returns the main thread's score of its best move after Run (centipawns, side to
// move; mate scores as in the package doc).
func (s *Searcher) Score() int { return s.threads[0].bestScore }

// Depth returns the main thread's last completed iteration after Run.
func (s *Searcher) Depth() int { return s.threads[0].depth }

// PonderMove returns the reply expected after best, the move Run returned: the second move
// of the main thread's principal variation, or NullMove when it has none or best is not
// the principal variation's first move.
func (s *Searcher) PonderMove(best board.Move) board.Move {
	if m := s.threads[0]; m.bestMove == best {
		return m.ponderMove
	}
	return board.NullMove
}

// InsufficientMaterial reports whether pos has no pawns, rooks or queens and at most one
// minor piece, the draws the search scores as 0 without searching (FIDE 5.2.2 for these
// cases).
func InsufficientMaterial(pos *board.Position) bool { return insufficientMaterial(pos) }

// MaterialEval returns the material evaluation of pos (centipawns, side to move: CPW
// "Simplified Evaluation Function" piece values), the evaluation of a nil network.
func MaterialEval(pos *board.Position) int {
	var e materialEval
	e.reset(pos)
	return e.evaluate()
}

// ReadMachineMemory returns the machine's memory (or the process's cgroup limit) and the
// part available now, in bytes; ok is false where they cannot be read (not Linux).
func ReadMachineMemory() (total, avail uint64, ok bool) { return readMachineMemory() }
