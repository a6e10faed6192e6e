package dataset

import (
	"math"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

func TestStockfish151Scale(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want float64
	}{
		// all pieces: npm = 2·(2·781 + 2·825 + 2·1276 + 2538) = 16604, 106·16604/5120 = 343
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1407.0 / 1024 * 195 / 211},
		// kings and pawns, clock 100
		{"4k3/4p3/8/8/8/8/4P3/4K3 w - - 100 80", 1064.0 / 1024 * 95 / 211},
		// one rook each, clock 20: npm 2552, 106·2552/5120 = 52 (integer division)
		{"r3k3/8/8/8/8/8/8/R3K3 b - - 20 60", 1116.0 / 1024 * 175 / 211},
	} {
		pos, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := Stockfish151Scale(&pos); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: scale %v, want %v", tc.fen, got, tc.want)
		}
		if got := UnscaleStockfish151(&pos, 1000); math.Abs(got-1000/tc.want) > 1e-9 {
			t.Errorf("%s: unscaled 1000 → %v, want %v", tc.fen, got, 1000/tc.want)
		}
	}
}
