package featureset

import (
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

var e4 = board.NewSquare(4, 3)

var psqSpecs = []string{"all", "hv", "all@rotate", "all@abs", "all@hm", "ka", "ka@rotate", "ka@hm", "kp", "kp@abs", "kp@hm", "halfkp", "halfkav2_hm"}

func TestPieceSquareRecognised(t *testing.T) {
	want := map[string]PSQKind{"all": PSQAll, "hv": PSQAll, "all@rotate": PSQAll, "all@abs": PSQAll,
		"all@hm": PSQAll, "ka": PSQKingAll, "ksq*all": PSQKingAll, "ka@rotate": PSQKingAll, "ka@hm": PSQKingAll,
		"kp": PSQKP, "kp@abs": PSQKP, "kp@hm": PSQKP,
		"halfkp": PSQHalfKP, "halfkav2_hm": PSQHalfKAv2hm}
	for spec, k := range want {
		p := MustParse(spec).PieceSquare()
		if p == nil || p.Kind() != k {
			t.Errorf("%s: PieceSquare %v, want kind %v", spec, p, k)
		}
	}
	for _, spec := range []string{"all+ph", "h", "mb", "pieces", "kb32*pieces"} {
		if p := MustParse(spec).PieceSquare(); p != nil {
			t.Errorf("%s: PieceSquare = %v, want nil (not a piece-square set)", spec, p.Kind())
		}
	}
}

// TestPieceSquareIndexValues pins a few indices to the documented formulas.
func TestPieceSquareIndexValues(t *testing.T) {
	wp := board.MakePiece(board.White, board.Pawn)
	bk := board.MakePiece(board.Black, board.King)
	cases := []struct {
		spec    string
		persp   board.Color
		ownKing board.Square
		pc      board.Piece
		sq      board.Square
		want    int
	}{
		{"all", board.White, board.E1, wp, e4, (4*8+3)*12 + 0},
		{"all", board.Black, board.E8, wp, e4, (4*8+4)*12 + 1},
		{"ka", board.White, board.G1, wp, e4, 6*768 + (4*8+3)*12},
		{"kp", board.White, board.G1, bk, board.E8, -1},
		{"halfkp", board.Black, board.E8, wp, e4, 641*int(board.E8^63) + 1 + 64 + int(e4^63)},
		// Black king on d8 (file < 4): flip + mirror, mask 56^7.
		{"halfkav2_hm", board.Black, board.D8, bk, board.D8, 704*HalfKAv2hmBuckets[board.D8^63] + 640 + int(board.D8^63)},
		{"halfkav2_hm", board.White, board.G1, wp, e4, 704*HalfKAv2hmBuckets[board.G1] + int(e4)},
	}
	for _, c := range cases {
		got := MustParse(c.spec).PieceSquare().Index(c.persp, c.ownKing, c.pc, c.sq)
		if got != c.want {
			t.Errorf("%s %v king %v %v %v: Index %d, want %d", c.spec, c.persp, c.ownKing, c.pc, c.sq, got, c.want)
		}
	}
}

// TestPieceSquareProperties: over random legal games, for every piece-square set and both
// perspectives, the own-board path equals the Position path: AppendActive (from the
// mailbox and the king square) equals Active, RequiresRefresh equals the generic block
// rule, AppendDiff equals DiffGeneric whenever no refresh is required, and Set.Diff (fast
// path) equals DiffGeneric always.
func TestPieceSquareProperties(t *testing.T) {
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 200)...)
	sets := make([]*Set, len(psqSpecs))
	for i, s := range psqSpecs {
		sets[i] = MustParse(s)
	}
	rapid.Check(t, func(t *rapid.T) {
		pos := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		n := rapid.IntRange(1, 40).Draw(t, "plies")
		var moves []board.Move
		for ply := 0; ply < n; ply++ {
			moves = pos.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				return
			}
			m := moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")]
			next, d := pos.Play(m)
			for _, s := range sets {
				p := s.PieceSquare()
				for persp := board.White; persp <= board.Black; persp++ {
					k := next.KingSquare(persp)
					mb := next.Mailbox()
					if fast, gen := s.Active(&next, persp, nil), s.ActiveGeneric(&next, persp, nil); !slices.Equal(fast, gen) {
						t.Fatalf("%s %v %s: Active %v, ActiveGeneric %v", s, persp, next.FEN(), fast, gen)
					}
					got := p.AppendActive(persp, k, &mb, nil)
					slices.Sort(got)
					if want := s.Active(&next, persp, nil); !slices.Equal(got, want) {
						t.Fatalf("%s %v %s: AppendActive %v, Active %v", s, persp, next.FEN(), got, want)
					}
					for sq := board.Square(0); sq < 64; sq++ {
						if pc := next.PieceAt(sq); pc != board.NoPiece {
							if i := p.Index(persp, k, pc, sq); i >= 0 && !slices.Contains(got, i) {
								t.Fatalf("%s: Index(%v,%v,%v,%v) = %d not active", s, persp, k, pc, sq, i)
							}
						}
					}
					rr := p.RequiresRefresh(persp, &d)
					if rr != s.root.RequiresRefresh(&d, persp) || rr != s.RequiresRefresh(&d, persp) {
						t.Fatalf("%s %v %v: RequiresRefresh %v differs from the block rule", s, persp, m, rr)
					}
					wa, wr := s.DiffGeneric(&pos, &next, persp, nil, nil)
					fa, fr := s.Diff(&pos, &next, &d, persp, nil, nil)
					slices.Sort(fa)
					slices.Sort(fr)
					if !slices.Equal(fa, wa) || !slices.Equal(fr, wr) {
						t.Fatalf("%s %v %s %v: Diff +%v −%v, generic +%v −%v", s, persp, pos.FEN(), m, fa, fr, wa, wr)
					}
					if !rr {
						a, r := p.AppendDiff(persp, k, &d, nil, nil)
						slices.Sort(a)
						slices.Sort(r)
						if !slices.Equal(a, wa) || !slices.Equal(r, wr) {
							t.Fatalf("%s %v %s %v: AppendDiff +%v −%v, generic +%v −%v", s, persp, pos.FEN(), m, a, r, wa, wr)
						}
					}
				}
			}
			pos = next
		}
	})
}

// BenchmarkPieceSquareDiff: Set.Diff + Set.RequiresRefresh for one perspective and one
// move — the per-move cost the accumulator stack pays before the SIMD update.
func BenchmarkPieceSquareDiff(b *testing.B) {
	_, mv := benchData(b)
	for _, spec := range []string{"all", "ka", "kp", "halfkp", "halfkav2_hm"} {
		s := MustParse(spec)
		b.Run(spec, func(b *testing.B) {
			add := make([]int, 0, 2*s.MaxActive())
			rem := make([]int, 0, 2*s.MaxActive())
			b.ReportAllocs()
			mask := 1
			for mask*2 <= len(mv) {
				mask *= 2
			}
			mask--
			for i := 0; b.Loop(); i++ {
				m := &mv[(i>>1)&mask]
				p := board.Color(i & 1)
				if !s.RequiresRefresh(&m.dirty, p) {
					add, rem = s.Diff(&m.before, &m.after, &m.dirty, p, add[:0], rem[:0])
				}
			}
		})
	}
}

// TestActiveFastPath: Set.Active (the bitboard loop of HalfKP and HalfKAv2_hm) equals the
// block-tree walk ActiveGeneric on every sampled position, both perspectives, appending
// after a non-empty prefix, and keeps the prefix.
func TestActiveFastPath(t *testing.T) {
	positions := append([]board.Position{board.StartPosition()}, epdSample(t, 2000)...)
	for _, spec := range psqSpecs {
		s := MustParse(spec)
		for i := range positions {
			for persp := board.White; persp <= board.Black; persp++ {
				prefix := []int{-7, 3}
				got := s.Active(&positions[i], persp, append([]int(nil), prefix...))
				want := s.ActiveGeneric(&positions[i], persp, append([]int(nil), prefix...))
				if !slices.Equal(got, want) {
					t.Fatalf("%s %v %s: Active %v, ActiveGeneric %v", spec, persp, positions[i].FEN(), got, want)
				}
				if !slices.IsSorted(got[2:]) {
					t.Fatalf("%s %v %s: Active %v not ascending", spec, persp, positions[i].FEN(), got)
				}
			}
		}
	}
	// pinned values: start position, HalfKAv2_hm, White: own king e1 (files e–h: no
	// mirror) → bucket 4·(7 − 0) + min(4, 3) = 31; first feature own pawn a2 (square 8),
	// last the black king e8 on the king plane (640 + 60).
	s := MustParse("halfkav2_hm")
	sp := board.StartPosition()
	got := s.Active(&sp, board.White, nil)
	if len(got) != 32 || got[0] != 31*704+8 || got[31] != 31*704+640+60 {
		t.Fatalf("halfkav2_hm start, White: %d features, first %d, last %d", len(got), got[0], got[len(got)-1])
	}
}

// TestDiffQuiet: Set.Diff, whose one call (PieceSquare.diffOr) holds the one-piece path,
// gives what it gave before that path existed — diff's lists, else the block tree's — on
// synthetic dirty pieces (any piece, squares in and out of range, NoSquare, the own king,
// positions with zero or two kings of a side) and on legal moves.
func TestDiffQuiet(t *testing.T) {
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 200)...)
	sets := make([]*Set, len(psqSpecs))
	for i, s := range psqSpecs {
		sets[i] = MustParse(s)
	}
	prefix := []int{-3, 5}
	rapid.Check(t, func(t *rapid.T) {
		s := sets[rapid.IntRange(0, len(sets)-1).Draw(t, "set")]
		before := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "pos")]
		after := before
		var dirty board.DirtyPieces
		if rapid.Bool().Draw(t, "legal") {
			moves := before.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return
			}
			after, dirty = before.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
		} else {
			after = starts[rapid.IntRange(0, len(starts)-1).Draw(t, "after")]
			dirty.N = rapid.IntRange(-1, 3).Draw(t, "n")
			for i := range dirty.Pieces {
				dirty.Pieces[i] = board.DirtyPiece{
					Piece: board.Piece(rapid.IntRange(0, 14).Draw(t, "piece")),
					From:  board.Square(rapid.IntRange(-2, 66).Draw(t, "from")),
					To:    board.Square(rapid.IntRange(-2, 66).Draw(t, "to")),
				}
			}
		}
		persp := board.Color(rapid.IntRange(0, 1).Draw(t, "persp"))
		p := s.psq
		if p == nil {
			t.Fatalf("%s: no piece-square path", s)
		}
		da, dr, dok := p.diff(&after, &dirty, persp, slices.Clone(prefix), slices.Clone(prefix))
		if !dok {
			da, dr = s.root.AppendDiff(&before, &after, &dirty, persp, 0, slices.Clone(prefix), slices.Clone(prefix))
		}
		ga, gr := s.Diff(&before, &after, &dirty, persp, slices.Clone(prefix), slices.Clone(prefix))
		if !slices.Equal(ga, da) || !slices.Equal(gr, dr) {
			t.Fatalf("%s %v %+v: Diff %v %v, want %v %v", s, persp, dirty, ga, gr, da, dr)
		}
	})
}

// TestQuietPairMatchesDiff: where Set.QuietPair reports ok, Diff of each perspective is
// exactly its one index in and one out; it reports ok for every legal one-piece non-king
// move of HalfKP (no piece-square feature missing) and never for other moves; on synthetic
// dirty pieces (bad pieces, squares, counts, kings) it never reports ok where Diff
// disagrees.
func TestQuietPairMatchesDiff(t *testing.T) {
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 200)...)
	sets := make([]*Set, len(psqSpecs))
	for i, s := range psqSpecs {
		sets[i] = MustParse(s)
	}
	halfKP := MustParse("halfkp")
	oks := 0
	rapid.Check(t, func(t *rapid.T) {
		s := sets[rapid.IntRange(0, len(sets)-1).Draw(t, "set")]
		if rapid.IntRange(0, 3).Draw(t, "halfkp") == 0 {
			s = halfKP
		}
		before := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "pos")]
		after := before
		var dirty board.DirtyPieces
		legal := rapid.Bool().Draw(t, "legal")
		if legal {
			moves := before.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return
			}
			after, dirty = before.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
		} else {
			after = starts[rapid.IntRange(0, len(starts)-1).Draw(t, "after")]
			dirty.N = rapid.IntRange(-1, 3).Draw(t, "n")
			for i := range dirty.Pieces {
				dirty.Pieces[i] = board.DirtyPiece{
					Piece: board.Piece(rapid.IntRange(0, 14).Draw(t, "piece")),
					From:  board.Square(rapid.IntRange(-2, 66).Draw(t, "from")),
					To:    board.Square(rapid.IntRange(-2, 66).Draw(t, "to")),
				}
			}
		}
		a0, s0, a1, s1, ok := s.QuietPair(&after, &dirty)
		oneMove := dirty.N == 1 && dirty.Pieces[0].From != board.NoSquare && dirty.Pieces[0].To != board.NoSquare &&
			dirty.Pieces[0].Piece.Role() != board.King
		if legal && s == halfKP && ok != oneMove {
			t.Fatalf("HalfKP %+v: ok %v, want %v", dirty, ok, oneMove)
		}
		if !ok {
			return
		}
		oks++
		for p, want := range [2][2]int{{a0, s0}, {a1, s1}} {
			ga, gr := s.Diff(&before, &after, &dirty, board.Color(p), nil, nil)
			if !slices.Equal(ga, []int{want[0]}) || !slices.Equal(gr, []int{want[1]}) {
				t.Fatalf("%s %+v persp %d: QuietPair %v, Diff %v %v", s, dirty, p, want, ga, gr)
			}
		}
	})
	if oks == 0 {
		t.Fatal("QuietPair never reported ok")
	}
	sp := board.StartPosition()
	after, dirty := sp.Play(sp.AppendLegalMoves(nil)[0])
	if _, _, _, _, ok := halfKP.QuietPair(&after, &dirty); !ok {
		t.Fatalf("HalfKP: QuietPair not ok for %+v", dirty)
	}
	if MustParse("ph").PieceSquare() != nil {
		t.Fatal("ph has a piece-square path")
	}
	if _, _, _, _, ok := MustParse("ph").QuietPair(&after, &dirty); ok {
		t.Fatal("QuietPair ok for a set without the piece-square path")
	}
}
