package nnue

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// TestOrderInputsByActivity: re-ordering the Stockfish 13 net's fc_0 input by activity
// (one HalfKP stack) leaves every evaluation bit for bit the same at every level; the
// SFNNv5 net has no such stack.
func TestOrderInputsByActivity(t *testing.T) {
	dir := sfSharedDir(t)
	sfSkipBigUnderRace(t, sfNetHalfKP)
	n, err := LoadFile(filepath.Join(dir, "nets", sfNetHalfKP))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(14, 6))
	var ps []board.Position
	for g := 0; g < 40; g++ {
		pos := board.StartPosition()
		for ply := 0; ply < 60; ply++ {
			ms := pos.AppendLegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			pos, _ = pos.Play(ms[rng.IntN(len(ms))])
			if ply%6 == 5 {
				ps = append(ps, pos)
			}
		}
	}
	sfForEachLevel(t, func(t *testing.T) {
		ev := n.NewEvaluator()
		want := make([]int32, len(ps))
		for i := range ps {
			want[i] = ev.Evaluate(&ps[i])
		}
		if got := n.OrderInputsByActivity(ps[:len(ps)/2]); got != 1 {
			t.Fatalf("OrderInputsByActivity re-ordered %d stacks, want 1", got)
		}
		ev = n.NewEvaluator()
		for i := range ps {
			if got := ev.Evaluate(&ps[i]); got != want[i] {
				t.Fatalf("position %d: %d after re-ordering, %d before", i, got, want[i])
			}
		}
	})
	if got := n.OrderInputsByActivity(nil); got != 0 {
		t.Fatalf("no positions: %d stacks re-ordered", got)
	}
	if got := sfTestNetwork(t, sfNetSFNNv5).OrderInputsByActivity(ps[:4]); got != 0 {
		t.Fatalf("SFNNv5: %d stacks re-ordered, want 0", got)
	}
}
