package featureset

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// sfRefIndices computes the Stockfish feature indices of pos for persp directly from
// Stockfish's definitions (half_kp.cpp, half_ka_v2_hm.cpp), independently of the algebra.
func sfRefIndices(kp bool, pos *board.Position, p board.Color) []int {
	var out []int
	ksq := pos.KingSquare(p)
	if kp {
		o := board.Square(63 * int(p))
		for sq := board.Square(0); sq < 64; sq++ {
			pc := pos.PieceAt(sq)
			if pc == board.NoPiece || pc.Role() == board.King {
				continue
			}
			off := 1 + 128*int(pc.Role())
			if pc.Color() != p {
				off += 64
			}
			out = append(out, int(sq^o)+off+641*int(ksq^o))
		}
	} else {
		o := board.Square(56 * int(p))
		if ksq.File() < 4 {
			o ^= 7
		}
		k := ksq ^ o
		bucket := 4*(7-k.Rank()) + (7 - k.File())
		for sq := board.Square(0); sq < 64; sq++ {
			pc := pos.PieceAt(sq)
			if pc == board.NoPiece {
				continue
			}
			plane := 640
			if pc.Role() != board.King {
				plane = 128 * int(pc.Role())
				if pc.Color() != p {
					plane += 64
				}
			}
			out = append(out, int(sq^o)+plane+704*bucket)
		}
	}
	slices.Sort(out)
	return out
}

func sfPositions(t *testing.T, n int) []board.Position {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "shared", "data", "positions.epd"))
	if err != nil {
		t.Skip("stockfish features: ../shared absent")
	}
	defer f.Close()
	var out []board.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		pos, err := board.ParseFEN(strings.TrimSpace(sc.Text()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pos)
	}
	return out
}

func TestStockfishSetsSizes(t *testing.T) {
	for _, tc := range []struct {
		spec            string
		size, maxActive int
		canon           string
	}{
		{"halfkp", 41024, 30, "halfkp"},
		{"HalfKP", 41024, 30, "halfkp"},
		{"halfkav2_hm", 22528, 32, "halfkav2_hm"},
		{"ksq@rotate*(dead@rotate+pieces@rotate)", 41024, 30, "ksq@rotate*(dead@rotate+pieces@rotate)"},
		{"kb32*(pieces@hm+kings@hm)", 22528, 32, "kb32*(pieces@hm+kings@hm)"},
		{"pieces", 640, 30, "pieces"},
		{"kings", 64, 2, "kings"},
		{"dead", 1, 0, "dead"},
		{"kb32", 32, 1, "kb32"},
		{"kb32*all@hm", 32 * 768, 32, "kb32*all@hm"},
		{"kb32@rotate*pieces@rotate", 32 * 640, 30, "kb32@rotate*pieces@rotate"},
		{"kb32@hm", 32, 1, "kb32"},
	} {
		s, err := Parse(tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if s.Size() != tc.size || s.MaxActive() != tc.maxActive || s.String() != tc.canon {
			t.Errorf("%s: size %d maxActive %d canon %q", tc.spec, s.Size(), s.MaxActive(), s.String())
		}
	}
	// the named sets equal their spelled-out products
	if !MustParse("halfkp").Equal(MustParse("ksq@rotate*(dead@rotate+pieces@rotate)")) {
		t.Error("halfkp != ksq@rotate*(dead@rotate+pieces@rotate)")
	}
	if !MustParse("halfkav2_hm").Equal(MustParse("kb32@hm*(pieces@hm+kings@hm)")) {
		t.Error("halfkav2_hm != kb32@hm*(pieces@hm+kings@hm)")
	}
}

func TestStockfishSetsDescribe(t *testing.T) {
	s := MustParse("halfkp")
	// own pawn on e2 with own king on g1, White: 641·6 + 1 + 12
	i := 641*6 + 1 + 12
	if got := s.Describe(i); got != "KSQ[g1]×PIECES[pawn, own, e2]" {
		t.Errorf("Describe(%d) = %q", i, got)
	}
	if j, err := s.Index(s.Describe(i)); err != nil || j != i {
		t.Errorf("Index(Describe(%d)) = %d, %v", i, j, err)
	}
	if got := s.Describe(641 * 3); got != "KSQ[d1]×DEAD[zero]" {
		t.Errorf("dead slot: %q", got)
	}
}

// TestStockfishSetsActive checks the algebra's indices against direct indexing on real
// positions, for both perspectives.
func TestStockfishSetsActive(t *testing.T) {
	kp, ka := MustParse("halfkp"), MustParse("halfkav2_hm")
	for _, pos := range sfPositions(t, 6000) {
		for p := board.White; p <= board.Black; p++ {
			if got, want := kp.Active(&pos, p, nil), sfRefIndices(true, &pos, p); !slices.Equal(got, want) {
				t.Fatalf("halfkp %s %v: got %v want %v", pos.FEN(), p, got, want)
			}
			if got, want := ka.Active(&pos, p, nil), sfRefIndices(false, &pos, p); !slices.Equal(got, want) {
				t.Fatalf("halfkav2_hm %s %v: got %v want %v", pos.FEN(), p, got, want)
			}
		}
	}
}

// TestStockfishSetsDiff checks Diff and RequiresRefresh over every legal move of real
// positions: when no refresh is required, Active(before) − removed + added = Active(after).
func TestStockfishSetsDiff(t *testing.T) {
	sets := []*Set{MustParse("halfkp"), MustParse("halfkav2_hm")}
	n := 600
	if testing.Short() {
		n = 100
	}
	for _, pos := range sfPositions(t, n) {
		for _, m := range pos.LegalMoves() {
			after, dirty := pos.Play(m)
			for _, s := range sets {
				for p := board.White; p <= board.Black; p++ {
					rr := s.RequiresRefresh(&dirty, p)
					if rr != dirty.KingMoved(p) {
						t.Fatalf("%s %s %v: RequiresRefresh %v", s, m, p, rr)
					}
					added, removed := s.Diff(&pos, &after, &dirty, p, nil, nil)
					before := s.Active(&pos, p, nil)
					got := slices.DeleteFunc(slices.Clone(before), func(i int) bool { return slices.Contains(removed, i) })
					for _, r := range removed {
						if !slices.Contains(before, r) {
							t.Fatalf("%s %s %s %v: removed %d not active", s, pos.FEN(), m, p, r)
						}
					}
					for _, a := range added {
						if slices.Contains(before, a) {
							t.Fatalf("%s %s %s %v: added %d already active", s, pos.FEN(), m, p, a)
						}
					}
					got = append(got, added...)
					slices.Sort(got)
					if want := s.Active(&after, p, nil); !slices.Equal(got, want) {
						t.Fatalf("%s %s %s %v: diff gives %v want %v", s, pos.FEN(), m, p, got, want)
					}
				}
			}
		}
	}
}

// sfPropSpecs are the Stockfish-style sets and variants built from the same blocks.
var sfPropSpecs = []string{
	"halfkp", "halfkav2_hm", "pieces", "pieces@rotate", "pieces@hm", "kings@hm", "kings@rotate",
	"dead+pieces", "kb32*all@hm", "ksq@flip*(dead+pieces@flip)", "kb32@flip*(pieces+kings)",
	"ksq@hm*pieces@hm+kings@hm",
}

// TestStockfishSetsRandomGames checks the invariants (ascending, in range, ≤ MaxActive,
// exact Diff, RequiresRefresh semantics) of the Stockfish-style sets over random legal games.
func TestStockfishSetsRandomGames(t *testing.T) {
	var sets []*Set
	for _, s := range sfPropSpecs {
		sets = append(sets, MustParse(s))
	}
	starts := []board.Position{board.StartPosition()}
	starts = append(starts, epdSample(t, 200)...)
	rapid.Check(t, func(t *rapid.T) {
		pos := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		plies := rapid.IntRange(1, 24).Draw(t, "plies")
		var moves []board.Move
		for ply := 0; ply < plies; ply++ {
			moves = pos.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				break
			}
			next, d := pos.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
			for _, s := range sets {
				checkActive(t, s, &pos)
				checkDiff(t, s, &pos, &next, &d)
			}
			pos = next
		}
	})
}

// TestStockfishSetsRandomPlacements does the same on arbitrary placements with at most
// one king per side and synthetic moves (moved, captured or promoted-like changes).
func TestStockfishSetsRandomPlacements(t *testing.T) {
	var sets []*Set
	for _, s := range sfPropSpecs {
		sets = append(sets, MustParse(s))
	}
	rapid.Check(t, func(t *rapid.T) {
		var pos board.Position
		n := rapid.IntRange(1, 24).Draw(t, "n")
		for i := 0; i < n; i++ {
			sq := board.Square(rapid.IntRange(0, 63).Draw(t, "sq"))
			pc := board.Piece(rapid.IntRange(1, 12).Draw(t, "pc"))
			if pc.Role() == board.King && pos.Pieces(pc.Color(), board.King) != 0 {
				continue
			}
			pos.Put(sq, pc)
		}
		var occ []board.Square
		for b := pos.Occupied(); b != 0; {
			occ = append(occ, b.PopFirst())
		}
		from := rapid.SampledFrom(occ).Draw(t, "from")
		to := board.Square(rapid.IntRange(0, 63).Draw(t, "to"))
		pc := pos.PieceAt(from)
		if from == to || pos.PieceAt(to).Role() == board.King && pos.PieceAt(to) != board.NoPiece {
			return
		}
		next := pos
		var d board.DirtyPieces
		d.Add(pc, from, to)
		if c := next.PieceAt(to); c != board.NoPiece {
			d.Add(c, to, board.NoSquare)
		}
		next.Remove(from)
		next.Put(to, pc)
		for _, s := range sets {
			checkActive(t, s, &pos)
			checkDiff(t, s, &pos, &next, &d)
		}
	})
}
