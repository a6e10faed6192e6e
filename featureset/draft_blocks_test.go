package featureset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// Feature counts of the draft's candidate sets (seed 004 §2.4.4–2.4.6 and its Table 1).
func TestDraftBlockCounts(t *testing.T) {
	for _, c := range []struct {
		spec string
		size int
	}{
		{"piece-move", 4864}, {"all+moves", 768 + 64*64}, {"moves", 4096},
		{"hrkp", 15 * 15 * 5 * 2}, {"hrkp", 2250}, {"hrkp-h", 1200}, {"hrkp-v", 8 * 15 * 5 * 2},
		{"toppp", 64},
	} {
		if s := MustParse(c.spec); s.Size() != c.size {
			t.Errorf("%s: %d features, the draft says %d", c.spec, s.Size(), c.size)
		}
	}
	if s := MustParse("piece-move"); s.String() != "all+moves" || !s.Equal(MustParse("all+moves")) {
		t.Errorf("piece-move is %q", s)
	}
}

// Hand-checked features.
func TestDraftBlocksByHand(t *testing.T) {
	// Own king g1 (file 6, rank 0), own knight f3 (file 5, rank 2): df = 6−5+7 = 8,
	// dr = 0−2+7 = 5 → ((8·15 + 5)·5 + 1)·2 + 0 = 1252. Their pawn e7 (4, 6): df 9, dr 1 →
	// ((9·15+1)·5 + 0)·2 + 1 = 1361.
	pos := placement(t, "4k3/4p3/8/8/8/5N2/8/6K1 w")
	if got := MustParse("hrkp").Active(pos, board.White, nil); !slices.Equal(got, []int{1252, 1361}) {
		t.Errorf("hrkp: %v", got)
	}
	// H: ((df·8 + rank)·5 + role)·2 + color: knight (8·8+2)·10+2 = 662; pawn (9·8+6)·10+1 = 781.
	if got := MustParse("hrkp-h").Active(pos, board.White, nil); !slices.Equal(got, []int{662, 781}) {
		t.Errorf("hrkp-h: %v", got)
	}
	// V: ((file·15 + dr)·5 + role)·2 + color: knight (5·15+5)·10+2 = 802; pawn (4·15+1)·10+1 = 611.
	if got := MustParse("hrkp-v").Active(pos, board.White, nil); !slices.Equal(got, []int{611, 802}) {
		t.Errorf("hrkp-v: %v", got)
	}
	// MOVES: a lone king on a1 against a king on h8: a1→a2, b1, b2.
	pos = placement(t, "7k/8/8/8/8/8/8/K7 w")
	want := []int{0*64 + 1, 0*64 + 8, 0*64 + 9, 63*64 + 54, 63*64 + 55, 63*64 + 62}
	if got := MustParse("moves").Active(pos, board.White, nil); !slices.Equal(got, want) {
		t.Errorf("moves: %v, want %v", got, want)
	}
}

var draftSpecs = []string{"moves", "piece-move", "hrkp", "hrkp-h", "hrkp-v", "toppp", "hrkp@rotate", "ksq*hrkp-h", "toppp+hrkp", "toppp@hm", "moves@rotate", "hrkp-v@hm"}

// TestDraftRandomGames: fast Diff == generic diff, Active invariants and dead features
// never active, over random legal games.
func TestDraftRandomGames(t *testing.T) {
	var sets []*Set
	dead := map[string]map[int]bool{}
	for _, sp := range draftSpecs {
		s := MustParse(sp)
		sets = append(sets, s)
		dead[sp] = map[int]bool{}
		for _, d := range s.DeadFeatures() {
			dead[sp][d.Index] = true
		}
	}
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 200)...)
	rapid.Check(t, func(t *rapid.T) {
		pos := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		n := rapid.IntRange(1, 30).Draw(t, "plies")
		var moves []board.Move
		for ply := 0; ply < n; ply++ {
			moves = pos.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				return
			}
			next, d := pos.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
			for k, s := range sets {
				checkDiff(t, s, &pos, &next, &d)
				checkActive(t, s, &next)
				for c := board.White; c <= board.Black; c++ {
					for _, f := range s.Active(&next, c, nil) {
						if dead[draftSpecs[k]][f] {
							t.Fatalf("%s: dead feature %s active", s, s.Describe(f))
						}
					}
				}
			}
			pos = next
		}
	})
}

func TestDraftDescribeRoundTrip(t *testing.T) {
	for _, sp := range draftSpecs {
		s := MustParse(sp)
		step := max(1, s.Size()/3000)
		for i := 0; i < s.Size(); i += step {
			if j, err := s.Index(s.Describe(i)); err != nil || j != i {
				t.Fatalf("%s: Describe(%d) = %q → %d, %v", sp, i, s.Describe(i), j, err)
			}
		}
	}
}

func TestDraftDeadCounts(t *testing.T) {
	for _, c := range []struct {
		spec string
		dead int
	}{
		// Piece on the king's square: 10 (role, color); pawns 7 ranks away: 2·15·2.
		{"hrkp", 10 + 2*15*2},
		{"hrkp-h", 2 * 15 * 2}, {"hrkp-v", 2 * 8 * 2},
		// 4096 minus the queen-line and knight pairs: Σ_s |Q(s)| + |N(s)| = 1456 + 336.
		{"moves", 4096 - 1456 - 336},
	} {
		if n := len(MustParse(c.spec).DeadFeatures()); n != c.dead {
			t.Errorf("%s: %d dead features, want %d", c.spec, n, c.dead)
		}
	}
}

func TestTopPairsErrors(t *testing.T) {
	for _, p := range [][]PiecePair{nil, {{3, 3}}, {{5, 2}}, {{0, 768}}, {{-1, 4}}, {{1, 2}, {1, 2}}} {
		if _, err := TopPairs("x", p, Flip); err == nil {
			t.Errorf("TopPairs(%v) accepted", p)
		}
	}
}

// TestTopPPDefault recomputes DefaultTopPairs from positions.epd.
func TestTopPPDefault(t *testing.T) {
	pos := epdAll(t)
	got := ChooseTopPairs(pos, 64, Flip)
	if !slices.Equal(got, DefaultTopPairs) {
		var sb strings.Builder
		for _, p := range got {
			fmt.Fprintf(&sb, "{%d, %d}, ", p.A, p.B)
		}
		t.Errorf("DefaultTopPairs differs from ChooseTopPairs(positions.epd, 64):\n%s", sb.String())
	}
}
