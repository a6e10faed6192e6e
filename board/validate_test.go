package board

import (
	"errors"
	"testing"
)

// TestValidateImpossible: FENs that no game can reach are rejected, naming the rule;
// the reachable neighbours of each are accepted.
func TestValidateImpossible(t *testing.T) {
	for _, c := range []struct{ fen, why string }{
		{"4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "double check by two knights"},
		{"4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1", "double check by two pawns"},
		{"4k3/8/3N4/8/8/8/5P2/4K3 w - - 0 1", "side not to move in check"},
		{"R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", "rooks from both sides"},
		{"4k3/8/8/1B5B/8/8/8/4K3 b - - 0 1", "two bishops"},
		{"4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1", "pawn and knight"},
		{"4k3/8/8/8/8/8/8/3K4 w - - 0 0", "fullmove 0"},
		{"8/8/8/8/8/8/8/3K4 w - - 0 1", "no black king"},
		{"3kk3/8/8/8/8/8/8/3K4 w - - 0 1", "two black kings"},
		{"8/8/8/8/8/8/3k4/3K4 w - - 0 1", "adjacent kings"},
		{"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on rank 1"},
		{"4k2P/8/8/8/8/8/8/4K3 b - - 0 1", "pawn on rank 8"},
		{"4k3/8/8/8/4Pp2/8/8/4K3 b - e3 5 3", "en passant with halfmove 5"},
		{"4k3/8/8/8/4Pp2/8/8/4K3 b - e6 0 3", "en passant on the wrong rank"},
		{"k7/8/8/8/4Pp2/8/8/R3K3 b - e3 0 3", "rook check not discovered by the double push"},
		{"8/8/8/8/4P3/5k2/6P1/4K3 b - e3 0 3", "pawn check by a pawn that did not just push"},
		{"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "negative halfmove"},
	} {
		p, err := ParseFEN(c.fen)
		if err == nil {
			t.Errorf("%s (%s): accepted", c.fen, c.why)
			continue
		}
		if !errors.Is(err, ErrIllegalPosition) && !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: %v is neither kind", c.fen, err)
		}
		_ = p
	}
	for _, fen := range []string{
		"4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1",  // knight + discovered rook
		"3Rk3/8/8/8/8/8/8/4R1K1 b - - 0 1",   // exd8=R: two rooks, perpendicular lines
		"4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1",  // bishop + rook
		"4k3/3P4/8/8/8/8/8/4R1K1 b - - 0 1",  // pawn + rook
		"8/8/8/8/3kPp2/8/8/4K3 b - e3 0 3",   // check by the pushed pawn
		"8/8/8/8/4Pp2/8/8/k3K1B1 b - e3 0 3", // quiet double push
		"8/8/8/8/4Pp2/8/8/R3K2k b - e3 0 3",  // the rook is blocked by the king
		"8/8/8/8/4Pp2/8/8/4K2k b - e3 0 3",
		"8/8/8/8/1k2Pp2/8/8/4K3 b - e3 0 3",
		"7k/8/8/8/4Pp2/8/4K3/4R3 b - - 0 3",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
	} {
		if _, err := ParseFEN(fen); err != nil {
			t.Errorf("%s: %v", fen, err)
		}
	}
	// Put can build king-less positions; Validate rejects them.
	var p Position
	p.Put(E1, MakePiece(White, King))
	if err := p.Validate(); err == nil {
		t.Error("position without a black king validates")
	}
}
