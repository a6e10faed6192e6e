package nnue

import (
	"unsafe"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
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
//
// In a search the stack is the position stack too: PushMove plays a move straight into the
// new entry (one copy of the position), PushNull makes a null move, Position returns the
// top position to generate moves from, Pop unmakes. Reserve(maxPly) allocates every entry
// up front so that a search never allocates; each entry costs MemoryPerPly bytes (an
// accumulator of 2·Width int16 and 2·PSQTBuckets int32, a board.Position and its
// DirtyPieces) — doc/engine.md lists the figures for the shipped networks.
//
// An engine with its own board uses ResetBoard and PushDelta instead (the piece-square
// feature sets, featureset.Set.PieceSquare non-nil, and the sets with a board path,
// featureset.Set.BoardPath: Stockfish 19's threats): each move is a Delta of dirty pieces
// and king squares, and no board.Position is kept. For the piece-square sets every entry,
// however pushed, is updated by the same code from its dirty pieces and king squares; a
// threat set's entries keep a featureset.ThreatBoard each (doc/nnue.md "Own-board
// engines").
type AccumulatorStack struct {
	net     *Network
	ev      *Evaluator
	entries []stackEntry
	n       int // entries in use; the top is entries[n-1]
	added   []int
	removed []int
	// addedBoth, removedBoth: Set.DiffBoth's lists, by perspective
	addedBoth, removedBoth [2][]int
	table                  *RefreshTable // nil: plain refreshes (see UseRefreshTable)
	// psq: the feature set's own-board path (nil for the sets that need the whole board):
	// every entry of a piece-square set is updated from its dirty pieces and king squares
	// (updatePSQ), whether it was pushed with a board.Position or a Delta.
	psq *featureset.PieceSquare
	// own: the stack was reset with ResetBoard; boards[i] is entry i's board.
	own    bool
	boards []ownBoard
	// split: the transformer's int8 and int16 summands where they are split
	// (accPlan.split, planAccumulator: Stockfish 19), nil otherwise. Only an int8 summand's
	// RequiresRefresh refreshes a perspective; where only an int16 summand requires one
	// (an own-king move) the entry is updated by Accumulator.setMixed: the int8 part
	// incremental, the int16 part from the refresh table's cached part of the king square
	// (RefreshTable.part16) or refreshed from the int16 summands' features (active16).
	split    *splitSummands
	active16 []int

	// Statistics since creation: perspective updates and refreshes performed.
	Updates, Refreshes int
}

type stackEntry struct {
	acc   *Accumulator
	pos   board.Position // unused on an own-board stack (ResetBoard)
	dirty board.DirtyPieces
	// kings: each colour's king square after the move (NoSquare when the position has
	// not exactly one king of that colour): the piece-square update's only board input.
	kings    [2]board.Square
	computed [2]bool
	root     bool
	// split: for split summands (AccumulatorStack.blocks8), which parts require a
	// refresh for this entry's move, computed once (splitRefresh); 0 until then.
	split uint8
}

// stackEntry.split bits: splitKnown, then splitRefresh8 << persp and splitRefresh16 << persp.
const (
	splitRefresh8  = 1 << 0
	splitRefresh16 = 1 << 2
	splitKnown     = 1 << 7
)

// NewAccumulatorStack returns an empty stack for n; call Reset before Push. Entries are
// allocated on first use; call Reserve to allocate them up front.
func (n *Network) NewAccumulatorStack() *AccumulatorStack {
	k := max(n.ft.set.MaxActive(), 64)
	ev := n.NewEvaluator()
	ev.active = make([]int, 0, k) // RefreshPerspective's list: no allocation in a search
	s := &AccumulatorStack{net: n, ev: ev, added: make([]int, 0, k), removed: make([]int, 0, k), psq: n.ft.set.PieceSquare()}
	for p := range s.addedBoth {
		s.addedBoth[p], s.removedBoth[p] = make([]int, 0, k), make([]int, 0, k)
	}
	if s.split = n.ft.acc.split; s.split != nil {
		s.active16 = make([]int, 0, max(s.split.max16, 64))
	}
	return s
}

// splitSummands are the top-level summands of a feature set split at the transformer's
// int8 rows, for a transformer with int8 rows that are whole summands of a set without
// the piece-square path (Stockfish 19: FullThreats and PawnPairs, then HalfKAv2_hm).
type splitSummands struct {
	blocks8, blocks16 []featureset.Block
	off16             []int // offsets of blocks16 in the set
	max16             int   // their MaxActive
	// psq16: the int16 part as a set of its own when it is one piece-square summand with
	// the plane path (HalfKP, HalfKAv2_hm) starting at the int8 rows' end, so that its
	// feature indices are the int16 rows' (RefreshTable keeps that part per king square
	// and diffs it with DiffSameKing); nil otherwise.
	psq16 *featureset.Set
}

// newSplitSummands returns the split summands of ft, nil unless its int8 rows are whole
// top-level summands of a set without the piece-square path and both parts are non-empty.
func newSplitSummands(ft *FeatureTransformer) *splitSummands {
	if ft.rows8 == 0 || ft.set.PieceSquare() != nil {
		return nil
	}
	sp := &splitSummands{}
	for k, b := range ft.set.Blocks() {
		off := ft.set.Offset(k)
		switch {
		case off+b.Size() <= ft.rows8:
			sp.blocks8 = append(sp.blocks8, b)
		case off >= ft.rows8:
			sp.blocks16 = append(sp.blocks16, b)
			sp.off16 = append(sp.off16, off)
			sp.max16 += b.MaxActive()
		default: // a summand with int8 and int16 rows: no split
			return nil
		}
	}
	if len(sp.blocks8) == 0 || len(sp.blocks16) == 0 {
		return nil
	}
	if len(sp.blocks16) == 1 && sp.off16[0] == ft.rows8 {
		if one := featureset.NewSet(sp.blocks16[0]); one.PieceSquare() != nil {
			sp.psq16 = one
		}
	}
	return sp
}

// anyRefresh reports whether a block of bs requires a refresh of persp for dirty.
func anyRefresh(bs []featureset.Block, dirty *board.DirtyPieces, persp board.Color) bool {
	for _, b := range bs {
		if b.RequiresRefresh(dirty, persp) {
			return true
		}
	}
	return false
}

// splitRefresh returns e.split, computing it on first use: which of the int8 and int16
// summands require a refresh of each perspective for e's move.
func (s *AccumulatorStack) splitRefresh(e *stackEntry) uint8 {
	if e.split == 0 {
		v := uint8(splitKnown)
		for p := board.White; p <= board.Black; p++ {
			if anyRefresh(s.split.blocks8, &e.dirty, p) {
				v |= splitRefresh8 << p
			}
			if anyRefresh(s.split.blocks16, &e.dirty, p) {
				v |= splitRefresh16 << p
			}
		}
		e.split = v
	}
	return e.split
}

// mustRefresh reports whether perspective persp of entry e is refreshed rather than
// updated from its parent: the root; where the int8 and int16 summands are split
// (split), when an int8 summand requires it; else when the feature set requires it or
// a king-dependent piece-square set lacks the king.
func (s *AccumulatorStack) mustRefresh(e *stackEntry, persp board.Color) bool {
	switch {
	case e.root:
		return true
	case s.split != nil:
		return s.splitRefresh(e)&(splitRefresh8<<persp) != 0
	}
	return s.net.ft.set.RequiresRefresh(&e.dirty, persp) || s.psq != nil && s.psq.KingDependent() && !e.kings[persp].Valid()
}

// update sets perspective persp of e from its parent prev and the move's feature
// difference (added, removed): Accumulator.UpdateFrom, or where an int16 summand
// requires a refresh (split summands: an own-king move) the int8 rows of the difference
// and the int16 part of e's position, from the refresh table's entry of the king square
// where the table keeps that part (RefreshTable.part16), else from the int16 summands'
// features (Accumulator.setMixed).
//
// b is e's board on an own-board stack (ResetBoard), nil on a position stack: the int16
// features then come from it, and the refresh table (which keeps positions) is not used.
func (s *AccumulatorStack) update(prev, e *stackEntry, b *ownBoard, persp board.Color, added, removed []int) {
	if s.split == nil || s.splitRefresh(e)&(splitRefresh16<<persp) == 0 {
		e.acc.UpdateFrom(prev.acc, persp, added, removed)
		return
	}
	a, p := e.acc, int(persp)
	a.checkIndices(added)
	a.checkIndices(removed)
	ad8, _ := a.splitRows(added, 0, 2)
	rm8, _ := a.splitRows(removed, 1, 3)
	src8, psqt8 := prev.acc.mix.part[p][1], prev.acc.mix.psqtPart[p][1]
	if b == nil {
		if c := s.table.part16(&e.pos, persp); c != nil {
			a.setMixed(p, c.mix.part[p][0], c.mix.psqtPart[p][0], nil, nil, src8, psqt8, ad8, rm8)
			return
		}
	}
	l := s.active16[:0]
	switch {
	case b == nil:
		for k, blk := range s.split.blocks16 {
			l = blk.AppendActive(&e.pos, persp, s.split.off16[k], l)
		}
	case s.split.psq16 != nil: // the int16 part is one piece-square summand
		l = s.split.psq16.PieceSquare().AppendActive(persp, e.kings[persp], &b.tb.Mailbox, l)
		for i := range l {
			l[i] += s.split.off16[0]
		}
	default: // the int16 rows of the whole board's features
		for _, i := range s.net.ft.board.Active(&b.tb, persp, s.ev.active[:0]) {
			if i >= s.net.ft.rows8 {
				l = append(l, i)
			}
		}
	}
	s.active16 = l
	a.checkIndices(l)
	_, a16 := a.splitRows(l, 2, 3)
	a.setMixed(p, a.ft.bias, nil, a16, nil, src8, psqt8, ad8, rm8)
}

// Reserve allocates entries so that the stack holds plies+1 entries (the root and plies
// pushes) without allocating: a search reserves its maximum ply once. Memory is
// (plies+1)·MemoryPerPly bytes plus the forward-pass scratch. It never shrinks.
func (s *AccumulatorStack) Reserve(plies int) {
	for len(s.entries) < plies+1 {
		s.entries = append(s.entries, stackEntry{acc: s.net.ft.NewAccumulator()})
	}
	s.growBoards()
}

// MemoryPerPly returns the bytes one stack entry takes: the accumulator (2·Width int16 plus
// 2·PSQTBuckets int32, three times that for a transformer with int8 rows, which keeps
// each perspective's int16 and int8 parts too) and the stored position and dirty pieces.
func (n *Network) MemoryPerPly() int {
	var e stackEntry
	k := n.ft.accVectors()
	b := k*2*n.ft.width + k*4*n.ft.psqtBuckets + int(unsafe.Sizeof(e)) + int(unsafe.Sizeof(Accumulator{}))
	if n.ft.acc.kind == accMixed {
		b += int(unsafe.Sizeof(accParts{}))
	}
	return b
}

func (s *AccumulatorStack) grow() *stackEntry {
	if s.n == len(s.entries) {
		s.entries = append(s.entries, stackEntry{acc: s.net.ft.NewAccumulator()})
	}
	e := &s.entries[s.n]
	s.n++
	e.computed = [2]bool{}
	e.root = false
	e.split = 0
	return e
}

// kingSquares returns each colour's king square in pos, NoSquare where pos has not
// exactly one king of that colour.
func kingSquares(pos *board.Position) [2]board.Square {
	k := [2]board.Square{board.NoSquare, board.NoSquare}
	for c := board.White; c <= board.Black; c++ {
		if b := pos.Pieces(c, board.King); b != 0 && b&(b-1) == 0 {
			k[c] = b.First()
		}
	}
	return k
}

// Reset empties the stack and makes pos its root. Nothing is computed until Evaluate.
func (s *AccumulatorStack) Reset(pos *board.Position) {
	s.n = 0
	s.own = false
	e := s.grow()
	e.pos = *pos
	e.dirty = board.DirtyPieces{}
	e.kings = kingSquares(pos)
	e.root = true
}

// Push records a move: after is the position after it and dirty its piece changes (as
// returned by board.Position.Play). The accumulator is computed lazily. Push panics if the
// stack has no root (Reset was not called).
func (s *AccumulatorStack) Push(after *board.Position, dirty *board.DirtyPieces) {
	if s.n == 0 {
		panic("nnue: AccumulatorStack.Push before Reset")
	}
	s.checkPositionStack("Push")
	e := s.grow()
	e.pos = *after
	e.dirty = *dirty
	e.kings = kingSquares(after)
}

// PushMove plays m on the top position with board.Position.Play, writing the child
// position and its dirty pieces straight into the new entry (one copy, none on the
// caller's side), and returns the child position (valid until the next Pop; without
// Reserve also until a push that grows the stack moves the entries). m must be
// legal in the top position (Play's contract; check with IsLegal or PlayChecked for
// untrusted moves). PushMove panics if the stack has no root (Reset was not called).
func (s *AccumulatorStack) PushMove(m board.Move) *board.Position {
	if s.n == 0 {
		panic("nnue: AccumulatorStack.PushMove before Reset")
	}
	s.checkPositionStack("PushMove")
	e := s.grow()
	prev := &s.entries[s.n-2]
	e.pos, e.dirty = prev.pos.Play(m)
	e.kings = kingSquares(&e.pos)
	return &e.pos
}

// PushNull makes a null move (CPW "Null Move Pruning"): the side to move passes, the
// en-passant square is cleared, the halfmove clock grows by one and the fullmove number
// advances after Black's pass (board.Position.PlayNull, as Stockfish 15.1 position.cpp
// do_null_move; the Zobrist key follows). No piece
// changes, so the child's accumulators are the parent's (Evaluate copies them, no feature
// difference is computed). It returns the child position (valid as PushMove's) and
// panics if the stack has no root.
func (s *AccumulatorStack) PushNull() *board.Position {
	if s.n == 0 {
		panic("nnue: AccumulatorStack.PushNull before Reset")
	}
	s.checkPositionStack("PushNull")
	e := s.grow()
	prev := &s.entries[s.n-2]
	e.pos, e.dirty = prev.pos.PlayNull()
	e.kings = prev.kings
	return &e.pos
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

// Position returns the top position (do not modify), nil on a stack reset with
// ResetBoard (an engine's own board keeps no board.Position).
func (s *AccumulatorStack) Position() *board.Position {
	if s.own {
		return nil
	}
	return &s.entries[s.n-1].pos
}

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
	if s.own {
		b := &s.boards[s.n-1]
		return s.ev.ForwardPieces(acc, b.stm, b.pieces)
	}
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
		if s.mustRefresh(e, persp) {
			if s.own {
				s.refreshBoard(e.acc, &s.boards[i], e.kings[persp], persp)
			} else if s.table != nil { // optional refresh table (refresh_table.go)
				s.table.Refresh(e.acc, &e.pos, persp)
			} else {
				s.ev.RefreshPerspective(e.acc, &e.pos, persp)
			}
			e.computed[p] = true
			s.Refreshes++
			break
		}
		i--
	}
	for j := i + 1; j <= top; j++ {
		prev, e := &s.entries[j-1], &s.entries[j]
		if s.psq != nil { // piece-square sets: dirty pieces and king squares only
			s.updatePSQ(prev, e, persp)
			continue
		}
		// Both perspectives from one Set.DiffBoth where the other one is updated from
		// the same parent too (Stockfish 19's threats: the changed relations computed
		// once per move). An own-board stack of such a set diffs the entries' boards
		// (BoardPath.DiffBoth), for one perspective too.
		ad, rm := &s.addedBoth, &s.removedBoth
		ad[0], ad[1], rm[0], rm[1] = ad[0][:0], ad[1][:0], rm[0][:0], rm[1][:0]
		var b *ownBoard
		if s.own {
			b = &s.boards[j]
			s.net.ft.board.DiffBoth(&s.boards[j-1].tb, &b.tb, &e.dirty, ad, rm)
		}
		if prev.computed[p^1] && !e.computed[p^1] && !s.mustRefresh(e, persp^1) {
			if !s.own {
				set.DiffBoth(&prev.pos, &e.pos, &e.dirty, ad, rm)
			}
			s.updateBoth(prev, e, b, ad, rm)
			continue
		}
		if s.own {
			s.update(prev, e, b, persp, ad[p], rm[p])
		} else {
			s.added, s.removed = set.Diff(&prev.pos, &e.pos, &e.dirty, persp, s.added[:0], s.removed[:0])
			s.update(prev, e, nil, persp, s.added, s.removed)
		}
		e.computed[p] = true
		s.Updates++
	}
}

// updateBoth sets both perspectives of e from its parent prev and the move's feature
// differences by perspective (Set.DiffBoth's lists); neither perspective needs a refresh.
// b is e's board on an own-board stack, else nil (update). Black's rows are prefetched
// before White is updated, as Stockfish prefetches both perspectives' rows at index time.
func (s *AccumulatorStack) updateBoth(prev, e *stackEntry, b *ownBoard, added, removed *[2][]int) {
	e.acc.prefetchMixed(added[1], removed[1]) // Black's rows load while White is updated
	s.update(prev, e, b, board.White, added[0], removed[0])
	s.update(prev, e, b, board.Black, added[1], removed[1])
	e.computed[0], e.computed[1] = true, true
	s.Updates += 2
}
