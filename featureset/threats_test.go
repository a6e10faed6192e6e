package featureset

import (
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// threatSpecs are the sets the threat property tests exercise: each new block alone, the
// Stockfish 19 input set, and compositions (sum with ALL, product with KSQ).
var threatSpecs = []string{
	"threats", "threats18", "pawnpairs", "threats+pawnpairs+halfkav2_hm", "all+threats18",
	"ksq*pawnpairs", "pawnpairs+nk",
}

func TestThreatSizes(t *testing.T) {
	for _, c := range []struct {
		spec       string
		size, maxA int
	}{
		{"threats", 59808, 240}, {"threats18", 79856, 256}, {"pawnpairs", 4560, 120},
		{"threats+pawnpairs+halfkav2_hm", 86896, 240 + 120 + 32},
	} {
		s := MustParse(c.spec)
		if s.Size() != c.size || s.MaxActive() != c.maxA || s.String() != c.spec {
			t.Errorf("%s: size %d max %d name %q, want %d %d", c.spec, s.Size(), s.MaxActive(), s.String(), c.size, c.maxA)
		}
	}
	// BASE and NP of ../shared/nets/README.md (Stockfish 19).
	b := mustThreats(ThreatsSF19).(*threatBlock)
	wantBase := []int{0, 336, 3696, 8176, 15344, 29904, 29904, 30240, 33600, 38080, 45248, 59808}
	wantNP := []int{84, 336, 560, 896, 1456}
	for x := 0; x < 12; x++ {
		if b.base[x] != wantBase[x] {
			t.Errorf("BASE[%d] = %d, want %d", x, b.base[x], wantBase[x])
		}
		if x%6 < 5 && b.np[x] != wantNP[x%6] {
			t.Errorf("NP[%d] = %d, want %d", x, b.np[x], wantNP[x%6])
		}
	}
	if _, err := FullThreats(ThreatVariant{Name: "x", Label: "X", Map: [6][6]int8{{0, 0}}}); err == nil {
		t.Error("a map row using slot 0 twice was accepted")
	}
	if _, err := FullThreats(ThreatVariant{Name: "x", Label: "X", Map: [6][6]int8{{1}}}); err == nil {
		t.Error("a map row without slot 0 was accepted")
	}
}

// Hand-computed indices (from the formula of ../shared/nets/README.md, worked by hand).
func TestThreatsHandIndices(t *testing.T) {
	s := MustParse("threats")
	// White knight b1 attacks the black rook c3. White's king on e1 → mirror (b1 → g1,
	// c3 → f3): 336 + (1·5 + 3)·336 + OFF[N][g1] = 21 + rank of f3 in {e2, f3, h3} = 1.
	// Black's king on e8 → mask 63 (b1 → g8, c3 → f6): 30240 + 3·336 + 331 + 0.
	pos := placement(t, "4k3/8/8/8/8/2r5/8/1N2K3 w")
	if got := s.Active(pos, board.White, nil); !slices.Equal(got, []int{3046}) {
		t.Errorf("White: %v, want [3046]", got)
	}
	if got := s.Active(pos, board.Black, nil); !slices.Equal(got, []int{31579}) {
		t.Errorf("Black: %v, want [31579]", got)
	}
	if d := s.Describe(3046); d != "FT[g1, knight, own, f3, rook, their]" {
		t.Errorf("Describe(3046) = %q", d)
	}
	// Kings block rays: the rook a1 sees the king e1 only; nothing behind it.
	if got := s.Active(placement(t, "4k3/8/8/8/8/8/8/R3K2N w"), board.White, nil); len(got) != 0 {
		t.Errorf("ray through a king: %v", got)
	}
	// Mutual same-type pairs count once: rooks a1 and a8 attack each other.
	if got := s.Active(placement(t, "r3k3/8/8/8/8/8/8/R3K3 w"), board.White, nil); len(got) != 1 {
		t.Errorf("mutual rook pair: %v, want one feature", got)
	}
	// Pawn pairs: White e2, d4, Black e5; White king g1 (mirror), Black king b8.
	pp := MustParse("pawnpairs")
	pos = placement(t, "1k6/8/8/4p3/3P4/8/4P3/6K1 w")
	if got := pp.Active(pos, board.White, nil); !slices.Equal(got, []int{193, 2778, 2795}) {
		t.Errorf("pairs White: %v", got)
	}
	if got := pp.Active(pos, board.Black, nil); !slices.Equal(got, []int{2795, 4206, 4261}) {
		t.Errorf("pairs Black: %v", got)
	}
}

// oracleThreats is a literal transcription of ../shared/nets/README.md without tables.
func oracleThreats(v ThreatVariant, pos *board.Position, persp board.Color) []int {
	attacks := func(rel int, s board.Square) board.Bitboard {
		if rel%6 == int(board.Pawn) {
			if s.Rank() < 1 || s.Rank() > 6 {
				return 0
			}
			return board.PawnAttacks(board.Color(rel/6), s)
		}
		return board.Attacks(board.MakePiece(board.White, board.Role(rel%6)), s, 0)
	}
	valid := func(rel int) int {
		n := 0
		for _, x := range v.Map[rel%6] {
			if x >= 0 {
				n += 2
			}
		}
		return n
	}
	np := func(rel int) int {
		n := 0
		for s := board.Square(0); s < 64; s++ {
			n += attacks(rel, s).Count()
		}
		return n
	}
	m := board.Square(56 * int(persp))
	if k := ownKing(pos, persp); k != board.NoSquare && k.File() >= 4 {
		m ^= 7
	}
	var out []int
	occ := pos.Occupied()
	for from := board.Square(0); from < 64; from++ {
		xp := pos.PieceAt(from)
		if xp == board.NoPiece {
			continue
		}
		x := int(xp.Color()^persp)*6 + int(xp.Role())
		for to := board.Square(0); to < 64; to++ {
			yp := pos.PieceAt(to)
			if yp == board.NoPiece || !board.Attacks(xp, from, occ).Has(to) {
				continue
			}
			y := int(yp.Color()^persp)*6 + int(yp.Role())
			f, tt := from^m, to^m
			slot := int(v.Map[x%6][y%6])
			if slot < 0 || (x%6 == y%6 && !(x == y && x%6 == 0) && f < tt) {
				continue
			}
			if x%6 == 0 && (f.Rank() == 0 || f.Rank() == 7) {
				continue
			}
			idx := 0
			for z := 0; z < x; z++ {
				idx += valid(z) * np(z)
			}
			idx += ((y/6)*valid(x)/2 + slot) * np(x)
			for s := board.Square(0); s < f; s++ {
				idx += attacks(x, s).Count()
			}
			for s := board.Square(0); s < tt; s++ {
				if attacks(x, f).Has(s) {
					idx++
				}
			}
			out = append(out, idx)
		}
	}
	slices.Sort(out)
	return out
}

// threatMaskPos is threatMask of pos's board view.
func threatMaskPos(pos *board.Position, persp board.Color) board.Square {
	var v ThreatBoard
	v.SetPosition(pos)
	return threatMask(&v, persp)
}

func oraclePairs(pos *board.Position, persp board.Color) []int {
	m := threatMaskPos(pos, persp)
	var out []int
	for a := board.Square(8); a < 56; a++ {
		for b := a + 1; b < 56; b++ {
			pa, pb := pos.PieceAt(a), pos.PieceAt(b)
			if pa.Role() != board.Pawn || pb.Role() != board.Pawn || pa == board.NoPiece || pb == board.NoPiece {
				continue
			}
			if d := a.File() - b.File(); d < -1 || d > 1 {
				continue
			}
			ia := 48*int(pa.Color()^persp) + int(a^m) - 8
			ib := 48*int(pb.Color()^persp) + int(b^m) - 8
			hi, lo := max(ia, ib), min(ia, ib)
			out = append(out, hi*(hi-1)/2+lo)
		}
	}
	slices.Sort(out)
	return out
}

func TestThreatsOracleEPD(t *testing.T) {
	sets := map[string]ThreatVariant{"threats": ThreatsSF19, "threats18": ThreatsSF18}
	pos := append([]board.Position{board.StartPosition()}, epdSample(t, 300)...)
	for name, v := range sets {
		s := MustParse(name)
		for i := range pos {
			for c := board.White; c <= board.Black; c++ {
				if got, want := s.Active(&pos[i], c, nil), oracleThreats(v, &pos[i], c); !slices.Equal(got, want) {
					t.Fatalf("%s %s persp %v:\n got %v\nwant %v", name, pos[i].FEN(), c, got, want)
				}
			}
		}
	}
	pp := MustParse("pawnpairs")
	for i := range pos {
		for c := board.White; c <= board.Black; c++ {
			if got, want := pp.Active(&pos[i], c, nil), oraclePairs(&pos[i], c); !slices.Equal(got, want) {
				t.Fatalf("pawnpairs %s persp %v: got %v want %v", pos[i].FEN(), c, got, want)
			}
		}
	}
}

// threatSymmetry: Black's view of pos is White's view of pos.Flip() (colors swapped,
// ranks flipped), and mirroring the files changes nothing (the orientation mirrors by
// the own king's file).
func threatSymmetry(t *rapid.T, s *Set, pos *board.Position) {
	f := pos.Flip()
	if b, w := s.Active(pos, board.Black, nil), s.Active(&f, board.White, nil); !slices.Equal(b, w) {
		t.Fatalf("%s: Black view %v != White view of the flipped board %v", s, b, w)
	}
	switch s.String() {
	case "threats", "threats18", "pawnpairs":
	default:
		return
	}
	mir := pos.MirrorFiles()
	for c := board.White; c <= board.Black; c++ {
		if a, b := s.Active(pos, c, nil), s.Active(&mir, c, nil); !slices.Equal(a, b) {
			t.Fatalf("%s: mirrored files change the features (%v)", s, c)
		}
	}
}

// TestThreatRandomGames: over random legal games (captures, promotions, castling, en
// passant as they come), the fast Diff equals the generic diff and refresh identities hold
// (checkDiff), Active is ascending and within MaxActive (checkActive), the symmetry
// holds, and RequiresRefresh is true exactly when the own king crosses the d/e boundary.
func TestThreatRandomGames(t *testing.T) {
	sets := make([]*Set, len(threatSpecs))
	for i, sp := range threatSpecs {
		sets[i] = MustParse(sp)
	}
	starts := []board.Position{board.StartPosition()}
	starts = append(starts, epdSample(t, 200)...)
	rapid.Check(t, func(t *rapid.T) {
		pos := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		n := rapid.IntRange(1, 60).Draw(t, "plies")
		var moves []board.Move
		for ply := 0; ply < n; ply++ {
			moves = pos.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				return
			}
			// Prefer captures, promotions and king moves half of the time.
			m := moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")]
			if rapid.Bool().Draw(t, "tactical") {
				for _, c := range moves {
					if pos.PieceAt(c.To()) != board.NoPiece || (pos.PieceAt(c.From()).Role() == board.Pawn && c.To() == pos.EnPassant()) {
						m = c
						break
					}
				}
			}
			next, d := pos.Play(m)
			for _, s := range sets {
				checkDiff(t, s, &pos, &next, &d)
				checkDiffBoth(t, s, &pos, &next, &d)
				checkActive(t, s, &next)
				threatSymmetry(t, s, &next)
				for c := board.White; c <= board.Black; c++ {
					cross := threatMaskPos(&pos, c)&7 != threatMaskPos(&next, c)&7
					if s.String() == "threats" || s.String() == "pawnpairs" {
						if s.RequiresRefresh(&d, c) != cross {
							t.Fatalf("%s: RequiresRefresh %v, orientation change %v", s, s.RequiresRefresh(&d, c), cross)
						}
					}
				}
			}
			pos = next
		}
	})
}

// TestThreatRandomPlacements: arbitrary (possibly illegal) placements and one synthetic
// move: Active invariants and fast diff == generic diff.
func TestThreatRandomPlacements(t *testing.T) {
	sets := []*Set{MustParse("threats"), MustParse("threats18"), MustParse("pawnpairs")}
	rapid.Check(t, func(t *rapid.T) {
		var pos board.Position
		n := rapid.IntRange(1, 24).Draw(t, "n")
		for i := 0; i < n; i++ {
			pos.Put(board.Square(rapid.IntRange(0, 63).Draw(t, "sq")), board.Piece(rapid.IntRange(1, 12).Draw(t, "pc")))
		}
		var occ []board.Square
		for b := pos.Occupied(); b != 0; {
			occ = append(occ, b.PopFirst())
		}
		from := rapid.SampledFrom(occ).Draw(t, "from")
		to := board.Square(rapid.IntRange(0, 63).Draw(t, "to"))
		if from == to {
			return
		}
		pc := pos.PieceAt(from)
		next := pos
		var d board.DirtyPieces
		d.Add(pc, from, to)
		if c := next.PieceAt(to); c != board.NoPiece {
			d.Add(c, to, board.NoSquare)
		}
		next.Remove(from)
		next.Put(to, pc)
		for _, s := range sets {
			for c := board.White; c <= board.Black; c++ {
				for _, i := range s.Active(&pos, c, nil) {
					if i < 0 || i >= s.Size() {
						t.Fatalf("%s: index %d out of range", s, i)
					}
				}
			}
			checkDiff(t, s, &pos, &next, &d)
			checkDiffBoth(t, s, &pos, &next, &d)
		}
	})
}

func TestThreatDescribeRoundTrip(t *testing.T) {
	for _, spec := range []string{"threats", "threats18", "pawnpairs", "threats+pawnpairs+halfkav2_hm"} {
		s := MustParse(spec)
		step := 1
		if testing.Short() {
			step = 7
		}
		for i := 0; i < s.Size(); i += step {
			d := s.Describe(i)
			if j, err := s.Index(d); err != nil || j != i {
				t.Fatalf("%s: Describe(%d) = %q → %d, %v", spec, i, d, j, err)
			}
		}
	}
	for _, bad := range []string{"FT[a1, knight, own, a1, rook, their]", "FT[g1, king, own, f3, rook, their]",
		"FT[g1, knight, own, f3, king, their]", "PP[e4, own, e4, own]", "PP[e1, own, e2, own]", "PP[e4, mine, e5, own]", "FT[", "PP[]"} {
		if i, err := MustParse("threats+pawnpairs").Index(bad); err == nil {
			t.Errorf("Index(%q) = %d, want error", bad, i)
		}
	}
}

// Dead features: never active over the sample, and their number is what the rules give.
func TestThreatDeadFeatures(t *testing.T) {
	pos := append([]board.Position{board.StartPosition()}, epdSample(t, 1000)...)
	for _, c := range []struct {
		spec string
		dead int
	}{
		// Mutual lower: N B R Q attack symmetrically, so half of each of the 4 color
		// combinations' NP slots, 4·(336+560+896+1456)/2; attacked pawn on rank 1 or 8:
		// Σ over the 16 back-rank squares of |A(t)| for N B R Q (52+112+224+336), 2×2 colors.
		{"threats", 4*(336+560+896+1456)/2 + 4*(52+112+224+336)},
		// Stockfish 18 adds: own pawn × their pawn (all 84 slots from the lower square),
		// kings attacking back-rank pawns (72 per color pair), pawns attacking back-rank
		// pawns of the same color (2·14) or own pawns from their side (14).
		{"threats18", 4*(336+560+896+1456)/2 + 84 + 4*(52+112+224+336+72) + 3*14},
		// Live pairs: 372 unordered square pairs on ranks 2–7 within one file × 4 colorings.
		{"pawnpairs", 4560 - 4*372}} {
		s := MustParse(c.spec)
		dead := map[int]bool{}
		for _, d := range s.DeadFeatures() {
			dead[d.Index] = true
		}
		if len(dead) != c.dead {
			t.Errorf("%s: %d dead features, want %d", c.spec, len(dead), c.dead)
		}
		for i := range pos {
			for p := board.White; p <= board.Black; p++ {
				for _, f := range s.Active(&pos[i], p, nil) {
					if dead[f] {
						t.Fatalf("%s: dead feature %s active in %s", c.spec, s.Describe(f), pos[i].FEN())
					}
				}
			}
		}
		t.Logf("%s: %d of %d features dead", c.spec, len(dead), s.Size())
	}
}

// TestThreatAllMoves: every legal move of sampled positions and of positions chosen for
// castling (both sides, the queen side crossing the d/e boundary), en passant and
// (capturing) promotions: fast Diff == generic diff for every threat set.
func TestThreatAllMoves(t *testing.T) {
	pos := epdSample(t, 300)
	for _, fen := range []string{
		"r3k2r/pppq1ppp/2n1bn2/2bpp3/2BPP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
		"r3k2r/pppq1ppp/2n1bn2/2bpp3/2BPP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
		"4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
		"1r2k1n1/P1P5/8/8/8/8/1p4p1/R3K1N1 w Q - 0 1",
		"1r2k1n1/P1P5/8/8/8/8/1p4p1/R3K1N1 b Q - 0 1",
	} {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		pos = append(pos, p)
	}
	var sets []*Set
	for _, sp := range threatSpecs {
		sets = append(sets, MustParse(sp))
	}
	moves := 0
	for i := range pos {
		for _, m := range pos[i].LegalMoves() {
			next, d := pos[i].Play(m)
			moves++
			for _, s := range sets {
				for c := board.White; c <= board.Black; c++ {
					a, r := s.Diff(&pos[i], &next, &d, c, nil, nil)
					ga, gr := s.DiffGeneric(&pos[i], &next, c, nil, nil)
					if !slices.Equal(sorted(a), ga) || !slices.Equal(sorted(r), gr) {
						t.Fatalf("%s %s %s persp %v: fast +%v −%v, generic +%v −%v", s, pos[i].FEN(), m, c, sorted(a), sorted(r), ga, gr)
					}
				}
				checkDiffBoth(t, s, &pos[i], &next, &d)
			}
		}
	}
	t.Logf("%d moves", moves)
}

// checkDiffBoth: Set.DiffBoth gives, per perspective, the generic difference (as sets),
// appended after what the lists already held.
func checkDiffBoth(t interface{ Fatalf(string, ...any) }, s *Set, before, after *board.Position, d *board.DirtyPieces) {
	added, removed := [2][]int{{-7}, {-8}}, [2][]int{{-9}, {-10}}
	s.DiffBoth(before, after, d, &added, &removed)
	for c := board.White; c <= board.Black; c++ {
		ga, gr := s.DiffGeneric(before, after, c, nil, nil)
		if added[c][0] != -7-int(c) || removed[c][0] != -9-int(c) {
			t.Fatalf("%s %s: DiffBoth overwrote the lists' prefix", s, before.FEN())
		}
		if a, r := sorted(added[c][1:]), sorted(removed[c][1:]); !slices.Equal(a, ga) || !slices.Equal(r, gr) {
			t.Fatalf("%s %s → %s persp %v: DiffBoth +%v −%v, generic +%v −%v", s, before.FEN(), after.FEN(), c, a, r, ga, gr)
		}
	}
}

// FuzzThreatIndex: Index of the new blocks never panics on hostile descriptions, and what
// it accepts describes back to the same index.
func FuzzThreatIndex(f *testing.F) {
	for _, s := range []string{"FT[g1, knight, own, f3, rook, their]", "FT18[e1, king, own, d2, pawn, own]",
		"PP[e4, own, d5, their]", "PP[d5, their, e4, own]", "HRKP[df+1, dr-2, knight, own]",
		"TOPPP[ALL[e1, king, own], ALL[e8, king, their]]", "MOVES[a1, a2]", "FT[", "PP[,,,]", "TOPPP[], ]"} {
		f.Add(s)
	}
	sets := []*Set{MustParse("threats+pawnpairs+hrkp"), MustParse("threats18+toppp+moves")}
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
				t.Fatalf("%s: Describe(%d) = %q does not map back", s, i, s.Describe(i))
			}
		}
	})
}
