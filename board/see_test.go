package board

import (
	"testing"

	"pgregory.net/rapid"
)

// SEE on hand-checked positions (piece values SEEValues: P 100, N B 300, R 500, Q 900).
// The first two positions are the examples of the Chess Programming Wiki page "SEE - The
// Swap Algorithm" (Rxe5 and the x-ray example Nxe5); the values were recomputed by hand
// with our piece values, the exchange written out in the comment (with knight = 325 the
// second one gives the −225 quoted elsewhere). The others are constructed to isolate one
// rule.
func TestSEEHand(t *testing.T) {
	tests := []struct {
		name, fen, move string
		want            int
	}{
		// CPW: Rxe5 wins the undefended pawn.
		{"CPW 1", "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100},
		// CPW: Nxe5 Nxe5 Rxe5 Bxe5 Qxe5 Qxe5 (x-rays: Qe1 behind Re2, Qh8 behind Bf6);
		// swap list 100, 200, 100, 400, −100, 1000 → White best stops after Nxe5 Nxe5: −200.
		{"CPW 2", "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -200},
		// queen takes a pawn defended by a pawn: 100 − 900
		{"QxP defended", "4k3/8/5p2/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5", -800},
		// doubled rooks against one defender: Rxe5 Rxe5 Rxe5 = +100
		{"x-ray rook", "4k3/4r3/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", 100},
		// the same without the second rook: 100 − 500
		{"single rook", "4k3/4r3/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", -400},
		// en passant on an undefended square wins a pawn
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
		// quiet promotion to an undefended square: 900 − 100
		{"promotion", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 800},
		// promotion into a rook's capture: +800, then Rxa8 loses the queen: 800 − 900
		{"promotion recaptured", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", -100},
		// capturing promotion: rook 500 + 800
		{"capturing promotion", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 1300},
		// Nxe5 dxe5 Kxe5 (the king may capture: no black attacker left): 100 − 300 + 100
		{"king recaptures", "4k3/8/3p4/4pK2/8/5N2/8/8 w - - 0 1", "f3e5", -100},
		// with Re8 also defending the king may not recapture: 100 − 300
		{"king may not recapture", "4r2k/8/3p4/4pK2/8/5N2/8/8 w - - 0 1", "f3e5", -200},
		// a quiet move to an undefended square and castling are 0
		{"quiet", StartFEN, "g1f3", 0},
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 0},
		// a quiet knight move: 0 when the square is safe, −300 when a pawn attacks it
		{"safe knight move", "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "b1c3", 0},
		{"knight into pawn attack", "4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1c3", -300},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := ParseUCIMove(&p, tc.move)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := p.SEE(m); got != tc.want {
			t.Errorf("%s: SEE(%s) = %d, want %d", tc.name, tc.move, got, tc.want)
		}
		if !p.SEEGE(m, tc.want) || p.SEEGE(m, tc.want+1) {
			t.Errorf("%s: SEEGE around %d wrong", tc.name, tc.want)
		}
	}
}

// SEEGE(m, t) == (SEE(m) >= t) for every legal move and random thresholds.
func TestSEEGEMatchesSEE(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := randomGamePosition(rt)
		var l MoveList
		p.GenerateLegal(&l)
		for _, m := range l.Slice() {
			s := p.SEE(m)
			for _, th := range []int{s - 1, s, s + 1, 0, rapid.IntRange(-1200, 1200).Draw(rt, "threshold")} {
				if p.SEEGE(m, th) != (s >= th) {
					rt.Fatalf("%s %v: SEE %d, SEEGE(%d) = %v", p.FEN(), m, s, th, p.SEEGE(m, th))
				}
			}
		}
	})
}

// GivesCheck on the special cases (each checked by hand and against Play + InCheck).
func TestGivesCheckHand(t *testing.T) {
	tests := []struct {
		fen, move string
		want      bool
	}{
		{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true},     // the castled rook checks on f-file
		{"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true},     // O-O-O, rook on d1
		{"6k1/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", false},    //
		{"8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1", "e5d6", true},  // en passant uncovers the rook
		{"8/4P3/3k4/8/8/8/8/4K3 w - - 0 1", "e7e8n", true},   // knight promotion checks
		{"8/4P3/3k4/8/8/8/8/4K3 w - - 0 1", "e7e8q", false},  // the queen on e8 does not
		{"4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", true},  // discovered check
		{"4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "g1f1", false}, // quiet king move
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d7", true},     // direct check
		{"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8", false},    // rook d8, no white king on d-file
		{"r3k3/8/8/8/8/8/8/3K4 b q - 0 1", "e8c8", true},     // rook d8 checks d1
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := ParseUCIMove(&p, tc.move)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.fen, tc.move, err)
		}
		c, _ := p.Play(m)
		if got := p.GivesCheck(m); got != tc.want || c.InCheck() != tc.want {
			t.Errorf("%s %s: GivesCheck %v, child in check %v, want %v", tc.fen, tc.move, got, c.InCheck(), tc.want)
		}
	}
}

func TestDrawRules(t *testing.T) {
	for _, tc := range []struct {
		fen          string
		insufficient bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", true},
		{"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // c8 light, c1 dark: mate possible
		{"3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // d8 and c1 both dark
		{"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/4KR2 w - - 0 1", false},
	} {
		p := mustFEN(t, tc.fen)
		if got := p.IsInsufficientMaterial(); got != tc.insufficient {
			t.Errorf("%s: IsInsufficientMaterial %v", tc.fen, got)
		}
	}
	p := mustFEN(t, "4k3/8/8/8/8/8/8/4KR2 w - - 100 80")
	if !p.IsFiftyMoveDraw() {
		t.Error("fifty moves not detected")
	}
	// a checkmate with the clock at 100 is not a fifty-move draw (back-rank mate Ra8#)
	mate := mustFEN(t, "R6k/6pp/8/8/8/8/8/6K1 b - - 100 80")
	if mate.Status() != Checkmate || mate.IsFiftyMoveDraw() {
		t.Errorf("mate: status %v fifty %v", mate.Status(), mate.IsFiftyMoveDraw())
	}
}

func TestPinnedAndIsCastling(t *testing.T) {
	r := mustFEN(t, "4k3/4r3/8/1b6/8/8/3NR3/4K3 w - - 0 1")
	// the e7 rook pins the e2 rook along the e-file; the b5 bishop's diagonal (c4, d3, e2,
	// f1) does not reach the king, the d2 knight stands on no line to an enemy slider
	if got, want := r.Pinned(), SquareBB(Square(12)); got != want {
		t.Fatalf("Pinned = %#x, want e2 %#x", got, want)
	}
	s := mustFEN(t, "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1") // b4-c3-d2-e1: d2 knight pinned
	if got, want := s.Pinned(), SquareBB(Square(11)); got != want {
		t.Fatalf("Pinned = %#x, want d2 %#x", got, want)
	}
	c := mustFEN(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	for mv, want := range map[string]bool{"e1g1": true, "e1c1": true, "e1f1": false, "a1a8": false} {
		m, _ := ParseMove(mv)
		if c.IsCastling(m) != want {
			t.Errorf("IsCastling(%s) = %v", mv, !want)
		}
	}
}
