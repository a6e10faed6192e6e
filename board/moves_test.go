package board

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func dirty(pcs ...DirtyPiece) DirtyPieces {
	var d DirtyPieces
	for _, p := range pcs {
		d.Add(p.Piece, p.From, p.To)
	}
	return d
}

func TestPlayHand(t *testing.T) {
	var (
		wP, wN, wR, wQ, wK = MakePiece(White, Pawn), MakePiece(White, Knight), MakePiece(White, Rook), MakePiece(White, Queen), MakePiece(White, King)
		bP, bR, bK         = MakePiece(Black, Pawn), MakePiece(Black, Rook), MakePiece(Black, King)
		bN, bB             = MakePiece(Black, Knight), MakePiece(Black, Bishop)
	)
	tests := []struct {
		name, fen, move, child string
		dirty                  DirtyPieces
	}{
		{"double push, no ep capture possible", StartFEN, "e2e4",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			dirty(DirtyPiece{wP, sq(t, "e2"), sq(t, "e4")})},
		{"double push, ep capture legal",
			"rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3", "e2e4",
			"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
			dirty(DirtyPiece{wP, sq(t, "e2"), sq(t, "e4")})},
		{"double push, ep capture pinned along the rank",
			"8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", "e2e4",
			"8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1",
			dirty(DirtyPiece{wP, sq(t, "e2"), sq(t, "e4")})},
		{"double push, capturing pawn pinned diagonally",
			"8/8/8/8/3p4/8/4P3/1K4bk w - - 0 1", "e2e4", // d4 pawn not pinned: ep legal
			"8/8/8/8/3pP3/8/8/1K4bk b - e3 0 1",
			dirty(DirtyPiece{wP, sq(t, "e2"), sq(t, "e4")})},
		{"en passant capture", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6",
			"rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3",
			dirty(DirtyPiece{wP, sq(t, "e5"), sq(t, "f6")}, DirtyPiece{bP, sq(t, "f5"), NoSquare})},
		{"capture", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e2a6",
			"r3k2r/p1ppqpb1/Bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPB1PPP/R3K2R b KQkq - 0 1",
			dirty(DirtyPiece{MakePiece(White, Bishop), sq(t, "e2"), sq(t, "a6")}, DirtyPiece{bB, sq(t, "a6"), NoSquare})},
		{"white O-O", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e1g1",
			"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1",
			dirty(DirtyPiece{wK, E1, G1}, DirtyPiece{wR, H1, F1})},
		{"white O-O-O", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e1c1",
			"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/2KR3R b kq - 1 1",
			dirty(DirtyPiece{wK, E1, C1}, DirtyPiece{wR, A1, D1})},
		{"black O-O-O", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", "e8c8",
			"2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQ - 1 2",
			dirty(DirtyPiece{bK, E8, C8}, DirtyPiece{bR, A8, D8})},
		{"rook capture removes right", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", "a1a8",
			"R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 9",
			dirty(DirtyPiece{wR, A1, A8}, DirtyPiece{bR, A8, NoSquare})},
		{"quiet king move", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 9", "e8d8",
			"r2k3r/8/8/8/8/8/8/R3K2R w KQ - 6 10",
			dirty(DirtyPiece{bK, E8, D8})},
		{"promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q",
			"4Q3/8/8/8/8/8/k7/4K3 b - - 0 1",
			dirty(DirtyPiece{wP, sq(t, "e7"), NoSquare}, DirtyPiece{wQ, NoSquare, E8})},
		{"capturing under-promotion", "3n4/4P3/8/8/8/8/k7/4K3 w - - 3 1", "e7d8n",
			"3N4/8/8/8/8/8/k7/4K3 b - - 0 1",
			dirty(DirtyPiece{wP, sq(t, "e7"), NoSquare}, DirtyPiece{bN, D8, NoSquare}, DirtyPiece{wN, NoSquare, D8})},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := ParseUCIMove(&p, tc.move)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		c, d := p.Play(m)
		if got := c.FEN(); got != tc.child {
			t.Errorf("%s: child\n got %s\nwant %s", tc.name, got, tc.child)
		}
		if d != tc.dirty {
			t.Errorf("%s: dirty\n got %+v\nwant %+v", tc.name, d.Slice(), tc.dirty.Slice())
		}
		checkChild(t, &p, m, &c, &d)
	}
}

func TestPlayIllegalNeverPanics(t *testing.T) {
	p := StartPosition()
	for from := Square(0); from < 64; from++ {
		for to := Square(0); to < 64; to++ {
			for r := 0; r < 8; r++ {
				m := Move(uint16(from) | uint16(to)<<6 | uint16(r)<<12)
				c, d := p.Play(m) // must not panic
				if p.PieceAt(from) == NoPiece && (c != p || d.N != 0) {
					t.Fatalf("%v from an empty square changed the position", m)
				}
			}
		}
	}
	if _, _, err := p.PlayChecked(NewMove(E1, E8)); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("PlayChecked(e1e8) error %v", err)
	}
	c, d, err := p.PlayChecked(NewMove(G1, NewSquare(5, 2)))
	if err != nil || d.N != 1 || c.PieceAt(NewSquare(5, 2)) != MakePiece(White, Knight) {
		t.Errorf("PlayChecked(g1f3): %v %+v", err, d.Slice())
	}
}

func TestParseMoves(t *testing.T) {
	p := StartPosition()
	for _, tc := range []struct {
		s    string
		kind error
	}{
		{"e2e5", ErrIllegalMove}, {"e1g1", ErrIllegalMove}, {"e2e4q", ErrIllegalMove},
		{"e2", ErrSyntax}, {"e2e4x", ErrSyntax}, {"i2e4", ErrSyntax}, {"0000", ErrSyntax}, {"e2e2", ErrSyntax},
	} {
		if _, err := ParseUCIMove(&p, tc.s); !errors.Is(err, tc.kind) {
			t.Errorf("ParseUCIMove(%q) = %v, want %v", tc.s, err, tc.kind)
		}
	}
	if m, err := ParseMove("a7a8n"); err != nil || m != NewPromotion(NewSquare(0, 6), A8, Knight) || m.String() != "a7a8n" {
		t.Errorf("ParseMove(a7a8n) = %v %v", m, err)
	}
	kiwi := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	for _, tc := range []struct{ san, uci string }{
		{"O-O", "e1g1"}, {"O-O-O", "e1c1"}, {"Bxa6", "e2a6"}, {"Nxf7", "e5f7"}, {"dxe6", "d5e6"},
		{"Qxf6", "f3f6"}, {"Rb1", "a1b1"}, {"g3", "g2g3"}, {"gxh3", "g2h3"}, {"Kd1", "e1d1"}, {"Nb1", "c3b1"},
	} {
		m, err := ParseSAN(&kiwi, tc.san)
		if err != nil || m.String() != tc.uci {
			t.Errorf("ParseSAN(%q) = %v %v, want %s", tc.san, m, err, tc.uci)
			continue
		}
		if got, err := kiwi.SAN(m); err != nil || got != tc.san {
			t.Errorf("SAN(%v) = %q %v, want %q", m, got, err, tc.san)
		}
	}
	for _, tc := range []struct {
		s    string
		kind error
	}{{"Ke3", ErrIllegalMove}, {"Zz9", ErrSyntax}, {"", ErrSyntax}, {"O-O-O-O-O-O-O-O-O", ErrSyntax}} {
		if _, err := ParseSAN(&kiwi, tc.s); !errors.Is(err, tc.kind) {
			t.Errorf("ParseSAN(%q) = %v, want %v", tc.s, err, tc.kind)
		}
	}
	// check and mate suffixes, under-promotion (chess/v2's own tag is wrong there)
	for _, tc := range []struct{ fen, uci, san string }{
		{"r3k3/pP4bp/2p1pp1n/2p3p1/2QrP1PP/P1NP2q1/1B1K1P2/5BN1 w - - 3 29", "b7a8b", "bxa8=B"},
		{"r3k3/pP4bp/2p1pp1n/2p3p1/2QrP1PP/P1NP2q1/1B1K1P2/5BN1 w - - 3 29", "b7a8q", "bxa8=Q+"},
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#"},
	} {
		p := mustFEN(t, tc.fen)
		m, _ := ParseMove(tc.uci)
		if got, err := p.SAN(m); err != nil || got != tc.san {
			t.Errorf("SAN(%s) = %q %v, want %q", tc.uci, got, err, tc.san)
		}
	}
	if _, err := p.SAN(NewMove(E1, E8)); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("SAN(illegal) error %v", err)
	}
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want Status
	}{
		{StartFEN, Ongoing},
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Checkmate},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Stalemate},
		{"8/8/6Q1/8/8/7Q/8/3K3k b - - 0 76", Checkmate},
	} {
		p := mustFEN(t, tc.fen)
		if got := p.Status(); got != tc.want {
			t.Errorf("%s: Status = %v, want %v", tc.fen, got, tc.want)
		}
		if p.IsCheckmate() != (tc.want == Checkmate) || p.IsStalemate() != (tc.want == Stalemate) {
			t.Errorf("%s: IsCheckmate/IsStalemate wrong", tc.fen)
		}
	}
}

const testPGN = `[Event "Fool's mate"]
[White "A"]
[Black "B"]
[Result "0-1"]

1. f3 e5 2. g4 {blunder} Qh4# 0-1

[Event "From FEN"]
[SetUp "1"]
[FEN "4k3/4P3/8/4K3/8/8/8/8 b - - 0 1"]
[Result "1/2-1/2"]

1... Kf7 (1... Kd7 2. e8=Q+) 2. e8=N Kxe8 1/2-1/2
`

func TestReadPGN(t *testing.T) {
	games, err := ReadPGN(strings.NewReader(testPGN))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games", len(games))
	}
	g := games[0]
	if g.Tags["Event"] != "Fool's mate" || g.Tags["Result"] != "0-1" || g.Start != StartPosition() {
		t.Errorf("game 1 header: %q", g.Tags)
	}
	var ucis []string
	for _, m := range g.Moves {
		ucis = append(ucis, m.String())
	}
	if got := strings.Join(ucis, " "); got != "f2f3 e7e5 g2g4 d8h4" {
		t.Errorf("game 1 moves %s", got)
	}
	ps := g.Positions()
	if len(ps) != 5 || !ps[4].IsCheckmate() {
		t.Errorf("game 1 final position %s", ps[len(ps)-1].FEN())
	}
	g = games[1]
	if g.Start.FEN() != "4k3/4P3/8/4K3/8/8/8/8 b - - 0 1" || len(g.Moves) != 3 ||
		g.Moves[1] != NewPromotion(NewSquare(4, 6), E8, Knight) {
		t.Errorf("game 2: %s %v", g.Start.FEN(), g.Moves)
	}
	if ps := g.Positions(); ps[3].FEN() != "4k3/8/8/4K3/8/8/8/8 w - - 0 3" {
		t.Errorf("game 2 final %s", ps[3].FEN())
	}
	for _, bad := range []string{
		"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
		"[Event \"x\"]\n\n1. e5 *\n",
	} {
		if _, err := ReadPGN(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadPGN(%q): no error", bad)
		}
	}
}

// TestRandomGamesProperties plays random legal games (from the start position and from
// the perft positions) and checks every Play: the child validates and round-trips
// through FEN, DirtyPieces has the documented shape and turns the parent mailbox into
// the child's, Flip commutes with Play, and PlayChecked agrees with Play.
func TestRandomGamesProperties(t *testing.T) {
	starts := []string{StartFEN}
	for _, tc := range perftCases {
		starts = append(starts, tc.fen)
	}
	rapid.Check(t, func(rt *rapid.T) {
		p := mustFEN(rt, rapid.SampledFrom(starts).Draw(rt, "start"))
		plies := rapid.IntRange(1, 60).Draw(rt, "plies")
		for i := 0; i < plies; i++ {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				return
			}
			m := rapid.SampledFrom(ms).Draw(rt, "move")
			c, d := p.Play(m)
			checkChild(rt, &p, m, &c, &d)
			// Flip commutes with Play: flipping the parent and playing the flipped move gives
			// the flipped child (castling, en passant and clocks included).
			fp := p.Flip()
			fm := NewMove(m.From().FlipRank(), m.To().FlipRank())
			if r, ok := m.Promotion(); ok {
				fm = NewPromotion(m.From().FlipRank(), m.To().FlipRank(), r)
			}
			fc, fd := fp.Play(fm)
			wantFC := c.Flip()
			// fullmove numbers differ by design (Black's move increments, White's does not)
			fc.SetClocks(fc.HalfmoveClock(), wantFC.FullmoveNumber())
			if fc != wantFC || fd.N != d.N {
				rt.Fatalf("%s %v: flip does not commute with Play:\n%s\n%s", p.FEN(), m, fc.FEN(), wantFC.FEN())
			}
			p = c
		}
	})
}

func FuzzReadPGN(f *testing.F) {
	f.Add(testPGN)
	f.Add("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *")
	f.Add("[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 {c} (1. Kf2) Kd7 $1 1/2-1/2")
	f.Add("1. e4 {unterminated")
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadPGN(strings.NewReader(s))
		for _, g := range games {
			p := g.Start
			for _, m := range g.Moves {
				if !p.IsLegal(m) {
					t.Fatalf("illegal move %v in %s", m, p.FEN())
				}
				p, _ = p.Play(m)
			}
		}
		_ = err
	})
}

func FuzzParseSAN(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "exd6", "e8=Q+", "Qxf7#", "Nbd7", "a1=N", "--"} {
		f.Add(s)
	}
	p := mustFEN(f, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseSAN(&p, s)
		if err == nil && !p.IsLegal(m) {
			t.Fatalf("ParseSAN(%q) = illegal %v", s, m)
		}
	})
}

// TestConcurrentUse runs the generator and the chess/v2 bridge (SAN) from several
// goroutines (meaningful under -race: chess/v2's FEN decoder is not goroutine-safe, so the
// bridge must not use it).
func TestConcurrentUse(t *testing.T) {
	done := make(chan int)
	for g := 0; g < 4; g++ {
		go func() {
			n := 0
			for _, tc := range perftCases {
				p, err := ParseFEN(tc.fen)
				if err != nil {
					continue
				}
				for _, m := range p.LegalMoves() {
					c, _ := p.Play(m)
					n += len(c.LegalMoves())
					if _, err := p.SAN(m); err != nil { // through chess/v2
						n = -1 << 30
					}
				}
			}
			done <- n
		}()
	}
	want := 0
	for _, tc := range perftCases {
		want += int(tc.counts[1])
	}
	for g := 0; g < 4; g++ {
		if n := <-done; n != want {
			t.Errorf("goroutine counted %d, want %d", n, want)
		}
	}
}

// TestDirtyPiecesApplyToBadN: a DirtyPieces whose N is outside 0..3 (an engine's own,
// filled by hand) is clamped to the entries that exist, never a slice-bounds panic.
func TestDirtyPiecesApplyToBadN(t *testing.T) {
	start := StartPosition()
	e2, e4 := A1+12, A1+28
	for _, n := range []int{-1, math.MinInt, 4, math.MaxInt} {
		mb := start.Mailbox()
		d := DirtyPieces{N: n}
		d.Pieces[0] = DirtyPiece{Piece: MakePiece(White, Pawn), From: e2, To: e4}
		d.Pieces[1] = DirtyPiece{Piece: NoPiece, From: NoSquare, To: NoSquare}
		d.Pieces[2] = d.Pieces[1]
		d.ApplyTo(&mb)
		want := start.Mailbox()
		if n > 0 {
			want[e2], want[e4] = NoPiece, MakePiece(White, Pawn)
		}
		if mb != want {
			t.Errorf("N = %d: mailbox %v, want %v", n, mb, want)
		}
	}
}
