package main

import (
	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// thesisTool reproduces, for one line block (all/hv, h, v, d1, d2), how the thesis's
// statistics tool (cs-master-thesis tools/src/stats.rs) counted:
//   - active features: one per piece, from White's perspective, without deduplication;
//   - per legal move: the block's per-piece add/remove lists computed from the SIDE TO
//     MOVE's perspective (changed_features(…, turn, turn, …)), then matched against a
//     count table built from WHITE's perspective: an added feature counts when its White
//     count was 0, a removed one when its count drops to exactly 0. When Black is to move
//     the two index spaces differ, so removals are mostly missed and additions almost
//     always counted — hence its ALL figures 0.98 added / 0.60 removed.
//
// Features common to the added and removed lists are cancelled at the end, as the tool
// does (its order-dependent heuristics are simplified to a multiset cancellation).
type thesisTool struct {
	b                          featureset.Block
	positions, moves           int64
	active, added, removed     int64
	counts                     []int
	scratch                    []int
	moveBuf                    []board.Move
	addF, remF, addRow, remRow []int
}

// newThesisTool returns nil for blocks the reproduction does not cover.
func newThesisTool(b featureset.Block) *thesisTool {
	switch b.Name() {
	case "all", "hv", "h", "v", "d1", "d2":
		return &thesisTool{b: b, counts: make([]int, b.Size())}
	}
	return nil
}

// index returns the block's index of one piece seen from persp.
func (t *thesisTool) index(pc board.Piece, sq board.Square, persp board.Color) int {
	var p board.Position
	p.Put(sq, pc)
	t.scratch = t.b.AppendActive(&p, persp, 0, t.scratch[:0])
	return t.scratch[0]
}

func (t *thesisTool) add(pos *board.Position) {
	t.positions++
	clear(t.counts)
	for occ := pos.Occupied(); occ != 0; {
		sq := occ.PopFirst()
		t.counts[t.index(pos.PieceAt(sq), sq, board.White)]++
		t.active++
	}
	stm := pos.SideToMove()
	t.moveBuf = pos.AppendLegalMoves(t.moveBuf[:0])
	for _, m := range t.moveBuf {
		_, d := pos.Play(m)
		t.moves++
		t.addF, t.remF = t.addF[:0], t.remF[:0]
		for _, x := range d.Slice() {
			if x.From != board.NoSquare {
				t.remF = append(t.remF, t.index(x.Piece, x.From, stm))
			}
			if x.To != board.NoSquare {
				t.addF = append(t.addF, t.index(x.Piece, x.To, stm))
			}
		}
		t.addRow, t.remRow = t.addRow[:0], t.remRow[:0]
		for _, f := range t.addF {
			if t.counts[f] == 0 {
				t.addRow = append(t.addRow, f)
			}
			t.counts[f]++
		}
		for _, f := range t.remF {
			t.counts[f]--
			if t.counts[f] == 0 {
				t.remRow = append(t.remRow, f)
			}
		}
		// restore the table for the next move
		for _, f := range t.addF {
			t.counts[f]--
		}
		for _, f := range t.remF {
			t.counts[f]++
		}
		na, nr := len(t.addRow), len(t.remRow)
		for _, f := range t.addRow {
			for j, g := range t.remRow {
				if f == g {
					t.remRow[j] = -1
					na--
					nr--
					break
				}
			}
		}
		t.added += int64(na)
		t.removed += int64(nr)
	}
}

func (t *thesisTool) result() *triple {
	if t.positions == 0 || t.moves == 0 {
		return &triple{}
	}
	return &triple{
		Active:  float64(t.active) / float64(t.positions),
		Added:   float64(t.added) / float64(t.moves),
		Removed: float64(t.removed) / float64(t.moves),
	}
}
