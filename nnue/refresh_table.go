package nnue

import (
	"github.com/nnuekit/nnuekit/board"
)

// RefreshTable is an accumulator refresh table (CPW "Accumulator Refresh Table", a.k.a.
// "Finny tables"; Stockfish 17+ AccumulatorCaches): for every own-king square and
// perspective it caches an accumulator together with the sorted list of active features
// it was computed from — for HalfKP and HalfKAv2_hm the position itself, whose piece
// bitboards give the difference directly (featureset.Set.DiffSameKing, as Stockfish
// diffs its cached bitboards since Stockfish 17). A refresh forced by an own-king move
// (featureset.Set.RequiresRefresh) then starts from the cached accumulator of the new
// king square and applies only the difference between the cached features and the
// current ones — a few feature rows instead of all ~30 — and stores the result back. For
// those two sets a miss refreshes straight from the piece bitboards (simd.PlaneRefresher)
// and keeps no feature list.
//
// The key is the own king's square, which fixes everything king-dependent in every
// king-relative feature set of the package (KING-ALL, KP, HalfKP, HalfKAv2_hm with its
// king bucket and horizontal mirror), so entries are close to the positions that use
// them. Correctness does not depend on the key: the difference is the exact set
// difference of two feature lists, so the table works for any network, and results are
// bit-identical to a plain refresh (int16 addition wraps and is associative).
//
// Memory: 128 cached accumulators (64 squares × 2 perspectives, one perspective used
// each), e.g. 512 KiB for Stockfish 15.1's width 1024, and 128 positions (22 KiB); for a
// transformer with int8 rows split from its piece-square part (Stockfish 19) up to 128
// more, which cache that part alone (the stack's own-king updates, AccumulatorStack). A
// RefreshTable belongs to one goroutine, like the AccumulatorStack that uses it.
type RefreshTable struct {
	net     *Network
	entries [64][2]refreshEntry
	active  []int
	added   []int
	removed []int
	// split: the transformer's summands split at its int8 rows when the int16 part is one
	// piece-square summand (Stockfish 19's HalfKAv2_hm: splitSummands.psq16), nil
	// otherwise; parts then caches that part alone per king square (part16), for the
	// stack's own-king updates, beside the whole accumulators of entries.
	split *splitSummands
	parts [64][2]refreshEntry

	// Statistics since creation: refreshes served from a cached entry (Hits), entries
	// computed from scratch (Misses: first use of a square, or a difference larger than
	// the active set), and feature rows applied for hits (Rows).
	Hits, Misses, Rows int
}

type refreshEntry struct {
	acc    *Accumulator
	active []int // the sorted active features the cached accumulator holds (see stale)
	valid  bool

	// pos is the position the cached accumulator was computed for and n the number of
	// its active features: for sets with Set.DiffSameKing the difference comes from the
	// piece bitboards of pos, and active is not kept up to date (stale).
	pos   board.Position
	n     int
	stale bool
}

// NewRefreshTable returns an empty refresh table for n.
func (n *Network) NewRefreshTable() *RefreshTable {
	t := &RefreshTable{net: n, active: make([]int, 0, max(n.ft.set.MaxActive(), 64))}
	if sp := n.ft.acc.split; sp != nil && sp.psq16 != nil {
		t.split = sp
	}
	return t
}

// part16 returns an accumulator whose int16 part of perspective persp (mix.part and
// mix.psqtPart [persp][0]) is that of pos, kept in the entry of persp's king square: updated
// from the cached position by the piece-square difference (Set.DiffSameKing of the int16
// summand, a few rows) where that is no larger than the active set, else refreshed from
// the summand's features. nil when t is nil, keeps no int16 parts (split is nil), or
// persp has not exactly one king.
func (t *RefreshTable) part16(pos *board.Position, persp board.Color) *Accumulator {
	if t == nil || t.split == nil {
		return nil
	}
	kings := pos.Pieces(persp, board.King)
	if kings == 0 || kings&(kings-1) != 0 {
		return nil
	}
	p := int(persp & 1)
	e := &t.parts[kings.First()][p]
	if e.acc == nil {
		e.acc = t.net.ft.NewAccumulator()
	}
	c := e.acc
	psq := t.split.psq16
	if e.valid {
		if a, r, ok := psq.DiffSameKing(&e.pos, pos, persp, t.added[:0], t.removed[:0]); ok {
			t.added, t.removed = a, r
			now := e.n + len(a) - len(r)
			if n := len(a) + len(r); n <= now {
				c.setMixed(p, c.mix.part[p][0], c.mix.psqtPart[p][0], a, r, c.mix.part[p][1], c.mix.psqtPart[p][1], nil, nil)
				e.pos, e.n = *pos, now
				t.Hits++
				t.Rows += n
				return c
			}
		}
	}
	t.active = psq.Active(pos, persp, t.active[:0])
	c.setMixed(p, t.net.ft.bias, nil, t.active, nil, c.mix.part[p][1], c.mix.psqtPart[p][1], nil, nil)
	e.pos, e.n, e.valid = *pos, len(t.active), true
	t.Misses++
	return c
}

// Reset forgets every cached accumulator (e.g. for a new game); memory is kept.
func (t *RefreshTable) Reset() {
	for i := range t.entries {
		t.entries[i][0].valid = false
		t.entries[i][1].valid = false
		t.parts[i][0].valid = false
		t.parts[i][1].valid = false
	}
}

// Refresh sets perspective persp of acc to the feature transformer's output for pos,
// exactly as acc.Refresh(persp, Set().Active(pos, persp, nil)) would, using and updating
// the cached entry of persp's king square. Without a king (or with several) it falls
// back to a plain refresh.
func (t *RefreshTable) Refresh(acc *Accumulator, pos *board.Position, persp board.Color) {
	set := t.net.ft.set
	p := int(persp & 1)
	kings := pos.Pieces(persp, board.King)
	if kings == 0 || kings&(kings-1) != 0 {
		t.active = set.Active(pos, persp, t.active[:0])
		acc.Refresh(persp, t.active)
		return
	}
	e := &t.entries[kings.First()][p]
	if e.acc == nil {
		e.acc = t.net.ft.NewAccumulator()
	}
	if e.valid {
		// HalfKP, HalfKAv2_hm: the difference straight from the two positions' piece
		// bitboards (Stockfish 17's AccumulatorCaches), without Set.Active and the merge.
		if a, r, ok := set.DiffSameKing(&e.pos, pos, persp, t.added[:0], t.removed[:0]); ok {
			t.added, t.removed = a, r
			now := e.n + len(a) - len(r) // len(Set.Active(pos, persp))
			if n := len(a) + len(r); n <= now {
				acc.UpdateFrom(e.acc, persp, a, r)
				e.acc.copyPersp(acc, p)
				e.pos, e.n, e.stale = *pos, now, true
				t.Hits++
				t.Rows += n
				return
			}
		}
	}
	// HalfKP, HalfKAv2_hm: a miss refreshes straight from the piece bitboards
	// (simd.PlaneRefresher); the entry keeps the position only, as DiffSameKing serves
	// every later use of it (a king square of its own).
	if n, ok := acc.refreshPlanes(pos, persp); ok {
		e.acc.copyPersp(acc, p)
		e.pos, e.n, e.stale = *pos, n, true
		e.valid = true
		t.Misses++
		return
	}
	t.active = set.Active(pos, persp, t.active[:0])
	if e.valid && !e.stale {
		// Set.Active is sorted and duplicate-free, so the difference is one merge.
		t.added, t.removed = mergeDiff(t.active, e.active, t.added[:0], t.removed[:0])
		if n := len(t.added) + len(t.removed); n <= len(t.active) {
			acc.UpdateFrom(e.acc, persp, t.added, t.removed)
			e.acc.copyPersp(acc, p)
			e.active = append(e.active[:0], t.active...)
			t.Hits++
			t.Rows += n
			return
		}
	}
	acc.Refresh(persp, t.active)
	e.acc.copyPersp(acc, p)
	e.active = append(e.active[:0], t.active...)
	e.pos, e.n, e.stale = *pos, len(t.active), false
	e.valid = true
	t.Misses++
}

// mergeDiff appends to added the elements of now missing from was and to removed those
// of was missing from now; both inputs are ascending and duplicate-free.
func mergeDiff(now, was, added, removed []int) ([]int, []int) {
	i, j := 0, 0
	for i < len(now) && j < len(was) {
		switch {
		case now[i] == was[j]:
			i++
			j++
		case now[i] < was[j]:
			added = append(added, now[i])
			i++
		default:
			removed = append(removed, was[j])
			j++
		}
	}
	added = append(added, now[i:]...)
	removed = append(removed, was[j:]...)
	return added, removed
}

// UseRefreshTable makes the stack perform its refreshes (own-king moves, the root)
// through t; nil restores plain refreshes. Evaluations are unchanged. t must belong to
// the stack's network (else UseRefreshTable panics) and to the stack's goroutine.
func (s *AccumulatorStack) UseRefreshTable(t *RefreshTable) {
	if t != nil && t.net != s.net {
		panic("nnue: UseRefreshTable: table of another network")
	}
	s.table = t
}
