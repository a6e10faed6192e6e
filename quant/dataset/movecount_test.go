package dataset

import (
	"bytes"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

func TestMFilter(t *testing.T) {
	var s MoveCountStats
	// The start position has 20 legal moves (turn 1, White); after 1.e4 Black has 20 too.
	start := board.StartPosition()
	if m := s.Add(&start); m != 20 {
		t.Fatalf("start: %d moves", m)
	}
	for range 3 {
		s.Add(&start)
	}
	if s.N() != 4 || s.Quantile(1, board.White, 0.5) != 20 || s.Quantile(1, board.Black, 0.5) != 0 {
		t.Errorf("N %d, quantiles %d %d", s.N(), s.Quantile(1, board.White, 0.5), s.Quantile(1, board.Black, 0.5))
	}
	// Synthetic histogram at turn 30, White: counts 10 ×1, 20 ×2, 30 ×1.
	s.hist[board.White][30][10] = 1
	s.hist[board.White][30][20] = 2
	s.hist[board.White][30][30] = 1
	for _, tc := range []struct {
		p float64
		m int
	}{{0, 2}, {0.25, 10}, {0.5, 20}, {0.75, 20}, {0.9, 30}} {
		f, err := NewMFilter(&s, tc.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Threshold(30, board.White); got != tc.m {
			t.Errorf("p=%v: M = %d, want %d", tc.p, got, tc.m)
		}
		// Turns without data keep M = 2.
		if got := f.Threshold(100, board.Black); got != 2 {
			t.Errorf("p=%v: empty turn M = %d", tc.p, got)
		}
	}
	if _, err := NewMFilter(&s, 1); err == nil {
		t.Error("p = 1 accepted")
	}
	f, _ := NewMFilter(&s, 0.5)
	if !f.Keep(&start) {
		t.Error("start position (20 moves, M 20) skipped")
	}
}

// TestMoveCountStatsFixture: on the datagen fixture, the median move count per turn is
// plausible (20–45 in the middle game) and p = 0.5 filters about half or less.
func TestMoveCountStatsFixture(t *testing.T) {
	data := readFixture(t, "datagen.txt")
	var s MoveCountStats
	r := NewReader(bytes.NewReader(data))
	var all []board.Position
	for r.Next() {
		s.Add(&r.Sample().Pos)
		all = append(all, r.Sample().Pos)
	}
	if m := s.Quantile(20, board.White, 0.5); m < 20 || m > 45 {
		t.Errorf("median at turn 20 for White: %d", m)
	}
	for _, p := range []float64{0, 0.25, 0.5, 0.75} {
		f, _ := NewMFilter(&s, p)
		kept := 0
		for i := range all {
			if f.Keep(&all[i]) {
				kept++
			}
		}
		skipped := 1 - float64(kept)/float64(len(all))
		if skipped > p+0.02 || // positions with a single legal move are always skipped
			(p > 0 && skipped < p/3) {
			t.Errorf("p=%v: skipped %.3f", p, skipped)
		}
	}
}
