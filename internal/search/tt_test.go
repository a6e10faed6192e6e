package search

import (
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// TestTTPackRoundTrip: every field survives packing, negative and mate scores included.
func TestTTPackRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := ttEntry{
			move:  board.Move(rapid.Uint16().Draw(t, "move")),
			score: rapid.IntRange(-mateScore, mateScore).Draw(t, "score"),
			eval:  rapid.IntRange(-maxEval, maxEval).Draw(t, "eval"),
			depth: rapid.IntRange(0, maxPly).Draw(t, "depth"),
			bound: rapid.IntRange(boundUpper, boundExact).Draw(t, "bound"),
		}
		if got := unpack(pack(e, uint32(rapid.IntRange(0, 63).Draw(t, "gen")))); got != e {
			t.Fatalf("unpack(pack(%+v)) = %+v", e, got)
		}
	})
}

// TestTTStoreProbe: probe finds what was stored, misses other keys (same slot), keeps the
// move when a later store has none, detects a torn slot, and hashfull counts the current
// generation.
func TestTTStoreProbe(t *testing.T) {
	tt := newTT(1)
	if len(tt.slots) != 1<<16 {
		t.Fatalf("1 MiB: %d slots, want %d", len(tt.slots), 1<<16)
	}
	tt.newSearch()
	k := uint64(0x1234_5678_9abc_def0)
	e := ttEntry{move: board.NewMove(12, 28), score: -31990, eval: 17, depth: 9, bound: boundLower}
	tt.store(k, e)
	if got, ok := tt.probe(k); !ok || got != e {
		t.Fatalf("probe: %+v %v, want %+v", got, ok, e)
	}
	if _, ok := tt.probe(k + tt.mask + 1); ok {
		t.Fatal("probe of another key in the same slot hit")
	}
	tt.store(k, ttEntry{score: 5, depth: 10, bound: boundExact})
	if got, _ := tt.probe(k); got.move != e.move || got.score != 5 {
		t.Fatalf("store without a move: %+v, want the old move kept", got)
	}
	s := &tt.slots[k&tt.mask]
	s.data.Store(s.data.Load() ^ 1<<20) // a torn write: data of another store
	if _, ok := tt.probe(k); ok {
		t.Fatal("torn slot read as a hit")
	}
	if hf := tt.hashfull(); hf != 0 && hf != 1 {
		t.Fatalf("hashfull %d", hf)
	}
	tt.clear()
	if _, ok := tt.probe(k); ok {
		t.Fatal("hit after clear")
	}
}
