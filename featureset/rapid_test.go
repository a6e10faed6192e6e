package featureset

import (
	"slices"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// specs exercised by the property tests: every block alone, the thesis sums, products
// and non-default orientations.
var propSpecs = []string{
	"all", "h", "v", "d1", "d2", "ph", "pv", "mb", "mc", "ksq", "nk", "ka", "kp",
	"all+ph+pv", "hv+h+v+d1+d2", "all+mb", "all+mc", "ksq*(all+h)", "(h+v)*ksq",
	"all@rotate", "all@hm", "ph@hm", "pv@rotate", "ka@hm", "kp@rotate", "d1@abs+mb@abs",
	stormphraxKings + "*all", alexandriaKings + "@hm*all@hm",
}

var propSets = func() []*Set {
	var s []*Set
	for _, p := range propSpecs {
		s = append(s, MustParse(p))
	}
	return s
}()

// orientations returns the orientations used by the leaves of b.
func orientations(b Block, dst map[Orientation]bool) {
	switch t := b.(type) {
	case *sumBlock:
		for _, p := range t.parts {
			orientations(p, dst)
		}
	case *productBlock:
		orientations(t.a, dst)
		orientations(t.b, dst)
	case interface{ Orientation() Orientation }:
		dst[t.Orientation()] = true
	}
}

// counterpart returns the position whose White view must equal pos's Black view for set s,
// or false when s mixes orientations.
func counterpart(s *Set, pos *board.Position) (board.Position, bool) {
	os := map[Orientation]bool{}
	orientations(s.root, os)
	if len(os) != 1 {
		return board.Position{}, false
	}
	for o := range os {
		switch o {
		case Flip, FlipMirror:
			return pos.Flip(), true
		case Rotate:
			return pos.Rotate180(), true
		}
	}
	return board.Position{}, false
}

func checkActive(t *rapid.T, s *Set, pos *board.Position) {
	for _, persp := range []board.Color{board.White, board.Black} {
		a := s.Active(pos, persp, nil)
		if len(a) > s.MaxActive() {
			t.Fatalf("%s: %d active > MaxActive %d", s, len(a), s.MaxActive())
		}
		for k, i := range a {
			if i < 0 || i >= s.Size() {
				t.Fatalf("%s: index %d out of [0,%d)", s, i, s.Size())
			}
			if k > 0 && a[k-1] >= i {
				t.Fatalf("%s: not strictly ascending: %v", s, a)
			}
		}
		// Appending keeps the prefix.
		pre := []int{-7}
		if b := s.Active(pos, persp, pre); b[0] != -7 || !slices.Equal(b[1:], a) {
			t.Fatalf("%s: Active does not append", s)
		}
	}
	if q, ok := counterpart(s, pos); ok {
		b := s.Active(pos, board.Black, nil)
		w := s.Active(&q, board.White, nil)
		if !slices.Equal(b, w) {
			t.Fatalf("%s: Black view %v != White view of transformed %v", s, b, w)
		}
	}
}

func sorted(x []int) []int { y := slices.Clone(x); slices.Sort(y); return y }

func checkDiff(t *rapid.T, s *Set, before, after *board.Position, d *board.DirtyPieces) {
	for _, persp := range []board.Color{board.White, board.Black} {
		ab := s.Active(before, persp, nil)
		aa := s.Active(after, persp, nil)
		add, rem := s.Diff(before, after, d, persp, []int{-1}, []int{-2})
		if add[0] != -1 || rem[0] != -2 {
			t.Fatalf("%s: Diff does not append", s)
		}
		add, rem = sorted(add[1:]), sorted(rem[1:])
		gadd, grem := s.DiffGeneric(before, after, persp, nil, nil)
		if !slices.Equal(add, gadd) || !slices.Equal(rem, grem) {
			t.Fatalf("%s persp %v dirty %+v: fast diff +%v −%v, generic +%v −%v", s, persp, *d, add, rem, gadd, grem)
		}
		// removed ⊆ before; added ∩ before = ∅; before − removed + added = after.
		m := map[int]bool{}
		for _, i := range ab {
			m[i] = true
		}
		for _, i := range rem {
			if !m[i] {
				t.Fatalf("%s: removed %d not active before", s, i)
			}
			delete(m, i)
		}
		for _, i := range add {
			if m[i] {
				t.Fatalf("%s: added %d already active", s, i)
			}
			m[i] = true
		}
		var got []int
		for i := range m {
			got = append(got, i)
		}
		if slices.Sort(got); !slices.Equal(got, aa) {
			t.Fatalf("%s: before − removed + added = %v, after = %v", s, got, aa)
		}
		switch s.String() {
		case "all", "h", "ph", "mb", "all+ph+pv", "all@rotate", "kp@rotate":
			if s.RequiresRefresh(d, persp) != (s.String() == "kp@rotate" && d.KingMoved(persp)) {
				t.Fatalf("%s: RequiresRefresh = %v, own king moved %v", s, s.RequiresRefresh(d, persp), d.KingMoved(persp))
			}
		case "ka", "kp", "ksq", "all@hm", "ka@hm":
			if s.RequiresRefresh(d, persp) != d.KingMoved(persp) {
				t.Fatalf("%s: RequiresRefresh = %v, own king moved %v", s, s.RequiresRefresh(d, persp), d.KingMoved(persp))
			}
		}
	}
}

// TestRandomGames is a rapid state machine over legal games (from the start position or
// a position of ../shared/data/positions.epd): actions play a random legal move (checking
// every set's Diff against the generic difference and the identities), take moves back
// (checking the reverse difference), or jump to a new start; after every action the
// Active invariants (range, order, MaxActive, Black view = White view of the flipped or
// rotated board) are checked for every set.
func TestRandomGames(t *testing.T) {
	starts := []board.Position{board.StartPosition()}
	starts = append(starts, epdSample(t, 200)...)
	rapid.Check(t, func(t *rapid.T) {
		sets := propSets
		if raceEnabled || testing.Short() {
			sets = []*Set{rapid.SampledFrom(propSets).Draw(t, "set")}
		}
		history := []board.Position{starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]}
		var moves []board.Move
		t.Repeat(map[string]func(*rapid.T){
			"play": func(t *rapid.T) {
				pos := history[len(history)-1]
				moves = pos.AppendLegalMoves(moves[:0])
				if len(moves) == 0 {
					t.Skip("no legal move")
				}
				m := moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")]
				next, d := pos.Play(m)
				for _, s := range sets {
					checkDiff(t, s, &pos, &next, &d)
				}
				history = append(history, next)
			},
			"back": func(t *rapid.T) {
				if len(history) < 2 {
					t.Skip("at the start")
				}
				after, before := &history[len(history)-1], &history[len(history)-2]
				for _, s := range sets {
					for _, persp := range []board.Color{board.White, board.Black} {
						a1, r1 := s.DiffGeneric(before, after, persp, nil, nil)
						a2, r2 := s.DiffGeneric(after, before, persp, nil, nil)
						if !slices.Equal(a1, r2) || !slices.Equal(r1, a2) {
							t.Fatalf("%s: taking a move back is not the inverse difference", s)
						}
					}
				}
				history = history[:len(history)-1]
			},
			"restart": func(t *rapid.T) {
				history = []board.Position{starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]}
			},
			"": func(t *rapid.T) {
				for _, s := range sets {
					checkActive(t, s, &history[len(history)-1])
				}
			},
		})
	})
}

// TestRandomPlacements checks Active invariants and generic-vs-fast diffs on arbitrary
// (possibly illegal) placements and synthetic moves: one piece moved, captured or added.
func TestRandomPlacements(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var pos board.Position
		n := rapid.IntRange(1, 20).Draw(t, "n")
		for i := 0; i < n; i++ {
			sq := board.Square(rapid.IntRange(0, 63).Draw(t, "sq"))
			pos.Put(sq, board.Piece(rapid.IntRange(1, 12).Draw(t, "pc")))
		}
		var occ []board.Square
		for b := pos.Occupied(); b != 0; {
			occ = append(occ, b.PopFirst())
		}
		if len(occ) == 0 {
			return
		}
		from := rapid.SampledFrom(occ).Draw(t, "from")
		to := board.Square(rapid.IntRange(0, 63).Draw(t, "to"))
		pc := pos.PieceAt(from)
		if from == to {
			return
		}
		next := pos
		var d board.DirtyPieces
		d.Add(pc, from, to)
		if cap := next.PieceAt(to); cap != board.NoPiece {
			d.Add(cap, to, board.NoSquare)
		}
		next.Remove(from)
		next.Put(to, pc)
		for _, s := range propSets {
			checkActive(t, s, &pos)
			checkDiff(t, s, &pos, &next, &d)
		}
	})
}

func TestDescribeIndexRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := propSets[rapid.IntRange(0, len(propSets)-1).Draw(t, "set")]
		i := rapid.IntRange(0, s.Size()-1).Draw(t, "i")
		d := s.Describe(i)
		j, err := s.Index(d)
		if err != nil || j != i {
			t.Fatalf("%s: Describe(%d) = %q, Index → %d, %v", s, i, d, j, err)
		}
	})
}

func TestSumOffsetsAndProductSize(t *testing.T) {
	pos := board.StartPosition()
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"all", "h", "v", "d1", "d2", "ph", "pv", "mb", "mc", "ksq", "nk"}), 1, 4, rapid.ID[string]).Draw(t, "names")
		var blocks []Block
		for _, n := range names {
			blocks = append(blocks, MustParse(n).root)
		}
		var s *Set
		if len(blocks) == 1 {
			s = NewSet(blocks[0])
		} else {
			b, err := Sum(blocks...)
			if err != nil {
				t.Fatal(err)
			}
			s = NewSet(b)
		}
		persp := board.Color(rapid.IntRange(0, 1).Draw(t, "persp"))
		var want []int
		off := 0
		for k, b := range blocks {
			if s.Offset(k) != off {
				t.Fatalf("offset %d = %d, want %d", k, s.Offset(k), off)
			}
			want = b.AppendActive(&pos, persp, off, want)
			off += b.Size()
		}
		if s.Size() != off || !slices.Equal(s.Active(&pos, persp, nil), want) {
			t.Fatalf("sum %s: size %d (want %d) or active mismatch", s, s.Size(), off)
		}
		// Product of the first two (or the block with KSQ).
		a, b := blocks[0], MustParse("ksq").root
		if len(blocks) > 1 {
			b = blocks[1]
		}
		p, err := Product(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if p.Size() != a.Size()*b.Size() {
			t.Fatalf("product size %d", p.Size())
		}
		var pairs []int
		for _, i := range a.AppendActive(&pos, persp, 0, nil) {
			for _, j := range b.AppendActive(&pos, persp, 0, nil) {
				pairs = append(pairs, i*b.Size()+j)
			}
		}
		if got := p.AppendActive(&pos, persp, 0, nil); !slices.Equal(got, pairs) {
			t.Fatalf("product %s active %v, want %v", p.Name(), got, pairs)
		}
	})
}

// specGen draws a random well-formed spec.
func specGen() *rapid.Generator[string] {
	names := []string{"all", "HV", "h", "v", "d1", "d2", "ph", "pv", "mb", "mc", "ksq", "nk", "ka", "King-All", "kp"}
	return rapid.Custom(func(t *rapid.T) string {
		atoms := rapid.SliceOfNDistinct(rapid.SampledFrom(names), 1, 4, rapid.ID[string]).Draw(t, "atoms")
		spec := ""
		for i, a := range atoms {
			if rapid.Bool().Draw(t, "orient") {
				a += "@" + rapid.SampledFrom([]string{"flip", "rotate", "hm", "abs"}).Draw(t, "o")
			}
			if i > 0 {
				spec += rapid.SampledFrom([]string{"+", " + "}).Draw(t, "op")
			}
			spec += a
		}
		if rapid.Bool().Draw(t, "prod") {
			spec = "ksq*(" + spec + ")"
		}
		return spec
	})
}

func TestParseStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := specGen().Draw(t, "spec")
		s, err := Parse(spec)
		if err != nil {
			// Distinct names can still collide (hv/all, ka/king-all).
			return
		}
		s2, err := Parse(s.String())
		if err != nil {
			t.Fatalf("%q → %q does not parse: %v", spec, s.String(), err)
		}
		if !s.Equal(s2) || s2.String() != s.String() || s.Size() != s2.Size() {
			t.Fatalf("%q → %q → %q not equal", spec, s.String(), s2.String())
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"all+ph+pv", "hv", "KA", "ksq*(all+h)", "all@rotate", "", "+", "all+all",
		"((((h))))", "ka*ka*ka", "x", "all@", "all@xx", "h×v", "(all", "all)", "mb+mc+ph+pv+h+v+d1+d2+all",
		stormphraxKings + "*all", alexandriaKings + "@hm*all@hm", "kings(0.1)*all", "kings()", "kings(1" + strings.Repeat(".1", 63) + ")"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := Parse(spec)
		if err != nil {
			if s != nil {
				t.Fatal("non-nil set with error")
			}
			return
		}
		if s.Size() <= 0 || s.Size() > MaxSize {
			t.Fatalf("%q: size %d", spec, s.Size())
		}
		s2, err := Parse(s.String())
		if err != nil || !s.Equal(s2) || s2.String() != s.String() {
			t.Fatalf("%q → %q: round trip failed: %v", spec, s.String(), err)
		}
	})
}

func TestParseErrors(t *testing.T) {
	for _, spec := range []string{"", "  ", "+", "all+", "foo", "all+all", "hv+all", "all@up", "(all",
		"all)", "ka*ka*ka", "all ph", "all++h", "ka@", string(make([]byte, 5000))} {
		if s, err := Parse(spec); err == nil {
			t.Errorf("Parse(%q) = %s, want error", spec, s)
		} else if _, ok := err.(*ParseError); !ok {
			t.Errorf("Parse(%q): error %T, want *ParseError", spec, err)
		}
	}
}

// FuzzIndex: Index never panics on hostile descriptions, and what it accepts describes
// back to an equivalent string.
func FuzzIndex(f *testing.F) {
	for _, s := range []string{"ALL[e4, pawn, own]", "KSQ[g1]×ALL[e4, pawn, own]", "PH[a, rook, own, pawn, own]",
		"MC[knight 15+, their]", "ALL[", "×", "××ALL[]", "D1[b1-a2, knight, their]", ""} {
		f.Add(s)
	}
	sets := []*Set{MustParse("all+ph+mc+d1"), MustParse("ka"), MustParse("ksq*(h+v)")}
	f.Fuzz(func(t *testing.T, desc string) {
		for _, s := range sets {
			i, err := s.Index(desc)
			if err != nil {
				continue
			}
			if i < 0 || i >= s.Size() {
				t.Fatalf("%s: Index(%q) = %d out of range", s, desc, i)
			}
			if j, err := s.Index(s.Describe(i)); err != nil || j != i {
				t.Fatalf("%s: Describe(%d) does not map back", s, i)
			}
		}
	})
}
