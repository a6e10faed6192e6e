package board

import (
	"testing"

	"pgregory.net/rapid"
)

// KeyAfter is the child's Key without its en-passant term, for every legal move of random
// game positions (captures, en passant, promotions, castling and lost castling rights
// among them).
func TestKeyAfter(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := randomGamePosition(rt)
		var l MoveList
		p.GenerateLegal(&l)
		for _, m := range l.Moves[:l.N] {
			c, _ := p.Play(m)
			want := c.Key()
			if c.epSet {
				want ^= c.epKey()
			}
			if got := p.KeyAfter(m); got != want {
				rt.Fatalf("%s: KeyAfter(%s) = %#x, Play(m).Key() without en passant %#x", p.FEN(), m, got, want)
			}
		}
	})
}

// A move from an empty square leaves p as Play does, and garbage moves do not panic.
func TestKeyAfterGarbage(t *testing.T) {
	p := mustFEN(t, StartFEN)
	if got := p.KeyAfter(NewMove(NewSquare(4, 3), NewSquare(4, 4))); got != p.Key() {
		t.Errorf("KeyAfter of a move from an empty square = %#x, want the position's key %#x", got, p.Key())
	}
	rapid.Check(t, func(rt *rapid.T) {
		q := randomGamePosition(rt)
		q.KeyAfter(Move(rapid.Uint16().Draw(rt, "move")))
	})
}

func BenchmarkKeyAfter(b *testing.B) {
	p := mustFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var l MoveList
	p.GenerateLegal(&l)
	var s uint64
	for i := 0; i < b.N; i++ {
		s ^= p.KeyAfter(l.Moves[i%l.N])
	}
	sink64 = s
}

var sink64 uint64
