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

// TestTTStoreProbe: probe finds what was stored, misses other keys (same bucket), keeps the
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
	s := &tt.slots[(k&tt.mask)*ttWays]  // the bucket's first slot: the first store took it
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

// TestTTBucket: ttWays positions of one bucket are all kept; the next one replaces the
// shallowest of the current search, and an entry of an older search before a deeper one.
func TestTTBucket(t *testing.T) {
	tt := newTT(1)
	tt.newSearch()
	k := uint64(0x0bad_cafe_0000_0042)
	step := tt.mask + 1 // same bucket, another key
	for i := 0; i < ttWays; i++ {
		tt.store(k+uint64(i)*step, ttEntry{score: i, depth: 10 - i, bound: boundLower})
	}
	for i := 0; i < ttWays; i++ {
		if got, ok := tt.probe(k + uint64(i)*step); !ok || got.score != i {
			t.Fatalf("key %d of the bucket: %+v %v", i, got, ok)
		}
	}
	tt.store(k+ttWays*step, ttEntry{score: 99, depth: 1, bound: boundLower})
	if _, ok := tt.probe(k + (ttWays-1)*step); ok {
		t.Fatal("the shallowest entry was kept")
	}
	if got, ok := tt.probe(k + ttWays*step); !ok || got.score != 99 {
		t.Fatalf("new entry: %+v %v", got, ok)
	}
	// two searches later the deepest entry (depth 10, age 2: 10 − 16) is worth less than a
	// fresh depth-1 entry's neighbours of the current search
	tt.newSearch()
	tt.newSearch()
	for i := 1; i < ttWays-1; i++ {
		tt.store(k+uint64(i)*step, ttEntry{score: i, depth: 10 - i, bound: boundLower})
	}
	tt.store(k+ttWays*step, ttEntry{score: 98, depth: 1, bound: boundLower})
	tt.store(k+(ttWays+1)*step, ttEntry{score: 97, depth: 0, bound: boundLower})
	if _, ok := tt.probe(k); ok {
		t.Fatal("the old deep entry was kept over the current search's")
	}
	if got, ok := tt.probe(k + (ttWays+1)*step); !ok || got.score != 97 {
		t.Fatalf("newest entry: %+v %v", got, ok)
	}
}
