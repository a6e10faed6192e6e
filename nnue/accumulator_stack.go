package nnue

import (
	"github.com/nnuekit/nnuekit/board"
)

// AccumulatorStack keeps one accumulator per ply for a search (CPW "Copy-make" and "Lazy
// Updates"): Push stores the position after a move and the move's dirty pieces without
// touching any accumulator; Evaluate materializes the top entry by walking back to the last
// entry whose accumulator is computed (per perspective) and applying the feature differences
// forward from there, marking every entry on the way computed. Where the feature set says a
// perspective needs a refresh (featureset.Set.RequiresRefresh, e.g. HalfKP when that side's
// king moved) the walk stops and that entry is refreshed from scratch instead.
//
// The values are always identical to a full refresh of the top position. An AccumulatorStack
// belongs to one goroutine; the Network it evaluates may be shared.
type AccumulatorStack struct {
	net     *Network
	ev      *Evaluator
	entries []stackEntry
	n       int // entries in use; the top is entries[n-1]
	added   []int
	removed []int
	active  []int
	table   *RefreshTable // nil: plain refreshes (see UseRefreshTable)

	// Statistics since creation: perspective updates and refreshes performed.
	Updates, Refreshes int
}

type stackEntry struct {
	acc      *Accumulator
	pos      board.Position
	dirty    board.DirtyPieces
	computed [2]bool
	root     bool
}

// NewAccumulatorStack returns an empty stack for n; call Reset before Push.
func (n *Network) NewAccumulatorStack() *AccumulatorStack {
	return &AccumulatorStack{net: n, ev: n.NewEvaluator()}
}

func (s *AccumulatorStack) grow() *stackEntry {
	if s.n == len(s.entries) {
		s.entries = append(s.entries, stackEntry{acc: s.net.ft.NewAccumulator()})
	}
	e := &s.entries[s.n]
	s.n++
	return e
}

// Reset empties the stack and makes pos its root. Nothing is computed until Evaluate.
func (s *AccumulatorStack) Reset(pos *board.Position) {
	s.n = 0
	e := s.grow()
	e.pos = *pos
	e.dirty = board.DirtyPieces{}
	e.computed = [2]bool{}
	e.root = true
}

// Push records a move: after is the position after it and dirty its piece changes (as
// returned by board.Position.Play). The accumulator is computed lazily. Push panics if the
// stack has no root (Reset was not called).
func (s *AccumulatorStack) Push(after *board.Position, dirty *board.DirtyPieces) {
	if s.n == 0 {
		panic("nnue: AccumulatorStack.Push before Reset")
	}
	e := s.grow()
	e.pos = *after
	e.dirty = *dirty
	e.computed = [2]bool{}
	e.root = false
}

// PushMove plays m on the top position with board.Position.Play and pushes the result. m must
// be legal in the top position (Play's contract; check with IsLegal or PlayChecked for
// untrusted moves).
func (s *AccumulatorStack) PushMove(m board.Move) {
	if s.n == 0 {
		panic("nnue: AccumulatorStack.PushMove before Reset")
	}
	after, dirty := s.entries[s.n-1].pos.Play(m)
	s.Push(&after, &dirty)
}

// Pop removes the top entry (undoing the last Push). Popping the root panics.
func (s *AccumulatorStack) Pop() {
	if s.n <= 1 {
		panic("nnue: AccumulatorStack.Pop of the root")
	}
	s.n--
}

// Len returns the number of entries (1 after Reset, +1 per Push).
func (s *AccumulatorStack) Len() int { return s.n }

// Position returns the top position (do not modify).
func (s *AccumulatorStack) Position() *board.Position { return &s.entries[s.n-1].pos }

// Accumulator materializes and returns the top entry's accumulator (both perspectives).
func (s *AccumulatorStack) Accumulator() *Accumulator {
	s.materialize(board.White)
	s.materialize(board.Black)
	return s.entries[s.n-1].acc
}

// Evaluate returns the network's final integer output for the top position's side to move,
// identical to Evaluator.Evaluate of that position.
func (s *AccumulatorStack) Evaluate() int32 { return s.Output().Value }

// Output materializes the accumulators and runs the forward pass for the top position.
func (s *AccumulatorStack) Output() Output {
	acc := s.Accumulator()
	return s.ev.Forward(acc, &s.entries[s.n-1].pos)
}

func (s *AccumulatorStack) materialize(persp board.Color) {
	p := int(persp)
	top := s.n - 1
	if s.entries[top].computed[p] {
		return
	}
	set := s.net.ft.set
	// Walk back to a computed entry, or to one that must be refreshed.
	i := top
	for !s.entries[i].computed[p] {
		e := &s.entries[i]
		if e.root || set.RequiresRefresh(&e.dirty, persp) {
			if s.table != nil { // optional refresh table (refresh_table.go)
				s.table.Refresh(e.acc, &e.pos, persp)
			} else {
				s.active = set.Active(&e.pos, persp, s.active[:0])
				e.acc.Refresh(persp, s.active)
			}
			e.computed[p] = true
			s.Refreshes++
			break
		}
		i--
	}
	for j := i + 1; j <= top; j++ {
		prev, e := &s.entries[j-1], &s.entries[j]
		s.added, s.removed = set.Diff(&prev.pos, &e.pos, &e.dirty, persp, s.added[:0], s.removed[:0])
		e.acc.UpdateFrom(prev.acc, persp, s.added, s.removed)
		e.computed[p] = true
		s.Updates++
	}
}
