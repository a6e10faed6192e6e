package board

import "testing"

func TestOrientationHand(t *testing.T) {
	p := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBN1 w Qkq f6 0 3")
	for _, tc := range []struct {
		name string
		got  Position
		want string
	}{
		{"Flip", p.Flip(), "rnbqkbn1/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQq f3 0 3"},
		{"Rotate180", p.Rotate180(), "1nbkqbnr/ppp1pppp/8/8/2PpP3/8/PP1P1PPP/RNBKQBNR b - c3 0 3"},
		{"MirrorFiles", p.MirrorFiles(), "rnbkqbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/1NBKQBNR w - c6 0 3"},
	} {
		if got := tc.got.FEN(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if sq := Square(12); sq.FlipRank() != 52 || sq.MirrorFile() != 11 || sq.Rotate180() != 51 {
		t.Error("square transforms wrong")
	}
}

// TestOrientationShared checks on the 6000 shared positions (or the perft positions when
// ../shared is absent): Flip is an involution that keeps legality and the number of legal
// moves; Rotate180 and MirrorFiles are involutions up to the dropped castling rights and
// give valid positions; bitboards transform like the mailbox.
func TestOrientationShared(t *testing.T) {
	var fens []string
	for _, tc := range perftCases {
		fens = append(fens, tc.fen)
	}
	lines, err := loadEPDLines()
	if err != nil {
		t.Fatal(err)
	}
	fens = append(fens, lines...) // nil when ../shared is absent
	step := 1
	if testing.Short() || raceEnabled {
		step = 7
	}
	for i := 0; i < len(fens); i += step {
		p := mustFEN(t, fens[i])
		f := p.Flip()
		if ff := f.Flip(); ff != p {
			t.Fatalf("%s: Flip(Flip(p)) = %s", p.FEN(), ff.FEN())
		}
		if err := f.Validate(); err != nil {
			t.Fatalf("%s: flipped %s invalid: %v", p.FEN(), f.FEN(), err)
		}
		if q, err := ParseFEN(f.FEN()); err != nil || q != f {
			t.Fatalf("%s: flipped FEN does not re-parse: %v", p.FEN(), err)
		}
		if i%5 == 0 && len(f.LegalMoves()) != len(p.LegalMoves()) {
			t.Fatalf("%s: flipped position has a different number of legal moves", p.FEN())
		}
		if f.Occupied() != p.Occupied().FlipRanks() || f.Pieces(Black, Pawn) != p.Pieces(White, Pawn).FlipRanks() {
			t.Fatalf("%s: Flip bitboards wrong", p.FEN())
		}
		noCastle := p
		noCastle.SetCastling(NoCastling)
		for name, tr := range map[string]func(*Position) Position{
			"Rotate180":   (*Position).Rotate180,
			"MirrorFiles": (*Position).MirrorFiles,
		} {
			q := tr(&p)
			if err := q.Validate(); err != nil {
				t.Fatalf("%s: %s %s invalid: %v", p.FEN(), name, q.FEN(), err)
			}
			if qq := tr(&q); qq != noCastle {
				t.Fatalf("%s: %s twice = %s", p.FEN(), name, qq.FEN())
			}
		}
		if r := p.Rotate180(); r.Occupied() != p.Occupied().Rotate180() {
			t.Fatalf("%s: Rotate180 bitboards wrong", p.FEN())
		}
		if m := p.MirrorFiles(); m.Occupied() != p.Occupied().MirrorFiles() {
			t.Fatalf("%s: MirrorFiles bitboards wrong", p.FEN())
		}
	}
}
