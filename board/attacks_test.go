package board

import (
	"encoding/csv"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	chess "github.com/corentings/chess/v2"
)

func sqs(t testing.TB, names string) Bitboard {
	t.Helper()
	var b Bitboard
	for _, n := range strings.Fields(names) {
		sq, err := ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		b |= SquareBB(sq)
	}
	return b
}

func sq(t testing.TB, name string) Square {
	t.Helper()
	s, err := ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAttackTablesHand(t *testing.T) {
	tests := []struct {
		name string
		got  Bitboard
		want string
	}{
		{"knight a1", KnightAttacks(A1), "b3 c2"},
		{"knight e4", KnightAttacks(sq(t, "e4")), "d6 f6 c5 g5 c3 g3 d2 f2"},
		{"knight h8", KnightAttacks(H8), "g6 f7"},
		{"king a1", KingAttacks(A1), "a2 b2 b1"},
		{"king e4", KingAttacks(sq(t, "e4")), "d3 e3 f3 d4 f4 d5 e5 f5"},
		{"white pawn e2", PawnAttacks(White, sq(t, "e2")), "d3 f3"},
		{"white pawn a7", PawnAttacks(White, sq(t, "a7")), "b8"},
		{"black pawn h7", PawnAttacks(Black, sq(t, "h7")), "g6"},
		{"black pawn e2", PawnAttacks(Black, sq(t, "e2")), "d1 f1"},
		{"white pawn e8", PawnAttacks(White, sq(t, "e8")), ""},
		{"rook a1 empty", RookAttacks(A1, 0), "a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1"},
		{"rook d4 blocked", RookAttacks(sq(t, "d4"), sqs(t, "d6 b4 d2 g4 d4 a4")),
			"d5 d6 c4 b4 e4 f4 g4 d3 d2"},
		{"bishop c1 start", BishopAttacks(C1, 0xffff00000000ffff), "b2 d2"},
		{"bishop e4 blocked", BishopAttacks(sq(t, "e4"), sqs(t, "g6 c2 f3")),
			"f5 g6 d5 c6 b7 a8 d3 c2 f3"},
		{"queen d1 start", QueenAttacks(D1, 0xffff00000000ffff), "c1 e1 c2 d2 e2"},
		{"queen h8 empty", QueenAttacks(H8, 0), "a8 b8 c8 d8 e8 f8 g8 h1 h2 h3 h4 h5 h6 h7 a1 b2 c3 d4 e5 f6 g7"},
	}
	for _, tc := range tests {
		if want := sqs(t, tc.want); tc.got != want {
			t.Errorf("%s: got %x, want %x", tc.name, uint64(tc.got), uint64(want))
		}
	}
	if Attacks(MakePiece(Black, Knight), A1, 0) != KnightAttacks(A1) || Attacks(NoPiece, A1, 0) != 0 {
		t.Error("Attacks dispatch wrong")
	}
	if FileBB(4) != sqs(t, "e1 e2 e3 e4 e5 e6 e7 e8") || RankBB(2) != sqs(t, "a3 b3 c3 d3 e3 f3 g3 h3") {
		t.Error("FileBB/RankBB wrong")
	}
	if Diag1BB(7) != 0x0102040810204080 || Diag2BB(7) != 0x8040201008040201 ||
		Diag1BB(0) != SquareBB(A1) || Diag2BB(0) != SquareBB(A8) || Diag1BB(15) != 0 ||
		Diag1BB(3) != sqs(t, "d1 c2 b3 a4") || Diag2BB(12) != sqs(t, "f1 g2 h3") {
		t.Error("Diag1BB/Diag2BB wrong")
	}
}

// slowSlider is a reference implementation walking the board square by square.
func slowSlider(s Square, occ Bitboard, dirs [][2]int) Bitboard {
	var b Bitboard
	for _, d := range dirs {
		for f, r := s.File()+d[0], s.Rank()+d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d[0], r+d[1] {
			x := NewSquare(f, r)
			b |= SquareBB(x)
			if occ.Has(x) {
				break
			}
		}
	}
	return b
}

func TestSlidersAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rook := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	bishop := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	for i := 0; i < 20000; i++ {
		occ := Bitboard(rng.Uint64() & rng.Uint64())
		s := Square(rng.IntN(64))
		if got, want := RookAttacks(s, occ), slowSlider(s, occ, rook); got != want {
			t.Fatalf("RookAttacks(%v, %x) = %x, want %x", s, uint64(occ), uint64(got), uint64(want))
		}
		if got, want := BishopAttacks(s, occ), slowSlider(s, occ, bishop); got != want {
			t.Fatalf("BishopAttacks(%v, %x) = %x, want %x", s, uint64(occ), uint64(got), uint64(want))
		}
	}
}

func TestAttackersHand(t *testing.T) {
	// Kiwipete.
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	tests := []struct {
		sq   string
		by   Color
		want string
	}{
		{"d5", Black, "b6 e6 f6"},
		{"d5", White, "c3 e4"},
		{"f7", White, "e5"},
		{"g2", Black, "h3"},
		{"e1", Black, ""},
		{"f6", White, "f3"},
		{"c3", Black, "b4"},
		{"a6", White, "e2"},
	}
	for _, tc := range tests {
		if got, want := p.Attackers(sq(t, tc.sq), tc.by), sqs(t, tc.want); got != want {
			t.Errorf("Attackers(%s, %v) = %x, want %x", tc.sq, tc.by, uint64(got), uint64(want))
		}
		if p.IsAttacked(sq(t, tc.sq), tc.by) != (tc.want != "") {
			t.Errorf("IsAttacked(%s, %v) wrong", tc.sq, tc.by)
		}
	}
	if p.InCheck() {
		t.Error("kiwipete: InCheck")
	}
	q := mustFEN(t, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
	if !q.InCheck() || q.Checkers() != sqs(t, "h4") {
		t.Errorf("fool's mate: checkers %x", uint64(q.Checkers()))
	}
	if got := StartPosition(); got.AttackedBy(White) != sqs(t,
		"b1 c1 d1 e1 f1 g1 a2 b2 c2 d2 e2 f2 g2 h2 a3 b3 c3 d3 e3 f3 g3 h3") {
		t.Errorf("AttackedBy(White) at start = %x", uint64(got.AttackedBy(White)))
	}
}

// TestSharedPositionsInfo checks, for all 6000 positions of ../shared/data, the checkers,
// the number of legal moves, and checkmate/stalemate against positions-info.csv
// (Stockfish 15.1).
func TestSharedPositionsInfo(t *testing.T) {
	f, err := os.Open(sharedPath(t, "data/positions-info.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6001 {
		t.Fatalf("%d rows", len(rows))
	}
	step := 1
	if testing.Short() || raceEnabled {
		step = 10
	}
	for i := 1; i < len(rows); i += step {
		r := rows[i]
		p := mustFEN(t, r[0])
		wantIn := r[2] == "1"
		if p.InCheck() != wantIn || p.Checkers() != sqs(t, r[3]) {
			t.Fatalf("row %d %s: checkers %x, want %q", i, r[0], uint64(p.Checkers()), r[3])
		}
		n, _ := strconv.Atoi(r[5])
		if got := len(p.LegalMoves()); got != n {
			t.Fatalf("row %d %s: %d legal moves, want %d", i, r[0], got, n)
		}
		want := Ongoing
		switch {
		case strings.Contains(r[6], "checkmate"):
			want = Checkmate
		case strings.Contains(r[6], "stalemate"):
			want = Stalemate
		}
		if got := p.Status(); got != want {
			t.Fatalf("row %d %s: status %v, want %v", i, r[0], got, want)
		}
		if cnt, _ := strconv.Atoi(r[4]); p.PieceCount() != cnt {
			t.Fatalf("row %d: %d pieces, want %d", i, p.PieceCount(), cnt)
		}
	}
}

// TestInCheckMatchesChessV2 compares our InCheck of every child with chess/v2's Check
// tag over random games.
func TestInCheckMatchesChessV2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := 40
	if testing.Short() || raceEnabled {
		games = 5
	}
	moves := 0
	for g := 0; g < games; g++ {
		p := StartPosition()
		for ply := 0; ply < 200; ply++ {
			_, cms := chessMoves(&p)
			if len(cms) == 0 {
				break
			}
			for i := range cms {
				m := fromChessMove(&cms[i])
				c, _ := p.Play(m)
				// chess/v2 v2.3.2 reuses one Move while generating the four promotions, so
				// under-promotions inherit the queen promotion's Check tag: skip those.
				if r, ok := m.Promotion(); (!ok || r == Queen) && c.InCheck() != cms[i].HasTag(chess.Check) {
					t.Fatalf("%s %v: InCheck=%v, chess/v2 Check tag=%v", p.FEN(), m, c.InCheck(), cms[i].HasTag(chess.Check))
				}
				// IsAttacked agrees with chess/v2's notion of a legal move: our king is not
				// attacked after any legal move.
				if k := c.KingSquare(p.SideToMove()); c.IsAttacked(k, c.SideToMove()) {
					t.Fatalf("%s %v: own king attacked after a legal move", p.FEN(), m)
				}
				moves++
			}
			p, _ = p.Play(fromChessMove(&cms[rng.IntN(len(cms))]))
		}
	}
	t.Logf("%d moves checked", moves)
}
