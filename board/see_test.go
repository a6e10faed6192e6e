package board

import (
	"testing"

	"pgregory.net/rapid"
)

// SEE on hand-checked positions (piece values SEEValues: P 100, N B 300, R 500, Q 900).
// The first two positions are the examples of the Chess Programming Wiki page "Static
// Exchange Evaluation"; the values were recomputed by hand with our piece values, the
// exchange written out in the comment. The others are constructed to isolate one rule.
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
