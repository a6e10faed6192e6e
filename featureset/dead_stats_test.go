package featureset

import (
	"math"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

func TestDeadCounts(t *testing.T) {
	for spec, n := range map[string]int{
		"all": 32, "hv": 32, "h": 0, "v": 4, "d1": 4, "d2": 4, "ph": 16, "pv": 104, "mb": 32, "mc": 0,
		"ksq": 0, "nk": 32, "all+h+v": 36, "mb@abs": 0, "ksq@hm": 32,
	} {
		if got := len(MustParse(spec).DeadFeatures()); got != n {
			t.Errorf("%s: %d dead features, want %d", spec, got, n)
		}
	}
	// KING-ALL, king on a1 (oriented): 63 own kings elsewhere, 11 other pieces on a1
	// (1 of them a pawn on rank 1, counted once), 3 enemy-king squares next to a1, and the
	// 32 back-rank pawns.
	d := MustParse("ka").DeadFeatures()
	n := 0
	for _, f := range d {
		if f.Index < 768 {
			n++
		}
	}
	if want := 63 + 11 + 3 + 32 - 2; n != want {
		t.Errorf("ka, king a1: %d dead, want %d", n, want)
	}
}

// No dead feature is ever active, in the 6,000 real positions and both perspectives.
func TestDeadNeverActive(t *testing.T) {
	positions := epdAll(t)
	if raceEnabled || testing.Short() {
		positions = positions[:600]
	}
	for _, s := range propSets {
		dead := map[int]string{}
		for _, d := range s.DeadFeatures() {
			dead[d.Index] = d.Reason
		}
		var buf []int
		for i := range positions {
			for c := board.White; c <= board.Black; c++ {
				buf = s.Active(&positions[i], c, buf[:0])
				for _, f := range buf {
					if r, ok := dead[f]; ok {
						t.Fatalf("%s: dead feature %s (%s) active in %s", s, s.Describe(f), r, positions[i].FEN())
					}
				}
			}
		}
	}
}

func TestStatsStartPosition(t *testing.T) {
	st := NewStats(MustParse("all+h+ka+mc"))
	pos := board.StartPosition()
	st.Add(&pos)
	if st.Positions != 1 || st.Moves != 20 {
		t.Fatalf("positions %d moves %d", st.Positions, st.Moves)
	}
	want := []StatsRow{
		// every move: one piece leaves a square, one arrives.
		{"all", 768, 32, 1, 1, 0},
		// 16 pawn moves stay on their file; 4 knight moves change file.
		{"h", 96, 32, 0.2, 0.2, 0},
		{"ka", 49152, 32, 1, 1, 0},
	}
	rows := st.Table()
	for k, w := range want {
		g := rows[k]
		if g.Name != w.Name || g.Size != w.Size || !near(g.Active, w.Active) || !near(g.Added, w.Added) || !near(g.Removed, w.Removed) || g.RefreshRate != 0 {
			t.Errorf("row %d: got %+v, want %+v", k, g, w)
		}
	}
	// The start position is symmetric: both perspectives see the same numbers.
	w, b := st.TablePerspective(board.White), st.TablePerspective(board.Black)
	for k := range w {
		if w[k] != b[k] || !near(w[k].Added, rows[k].Added) {
			t.Errorf("row %d: white %+v black %+v", k, w[k], b[k])
		}
	}
	if rows[3].Active != 12 {
		t.Errorf("mc active %v, want 12", rows[3].Active)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
