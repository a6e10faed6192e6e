package featureset

import (
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// placement builds a position from the first two FEN fields (test helper independent of
// board.ParseFEN).
func placement(t testing.TB, fen string) *board.Position {
	t.Helper()
	f := strings.Fields(fen)
	var p board.Position
	rank, file := 7, 0
	for _, ch := range f[0] {
		switch {
		case ch == '/':
			rank--
			file = 0
		case ch >= '1' && ch <= '8':
			file += int(ch - '0')
		default:
			i := strings.IndexRune("PNBRQKpnbrqk", ch)
			if i < 0 || file > 7 || rank < 0 {
				t.Fatalf("bad fen %q", fen)
			}
			p.Put(board.NewSquare(file, rank), board.Piece(i+1))
			file++
		}
	}
	if len(f) > 1 && f[1] == "b" {
		p.SetSideToMove(board.Black)
	}
	return &p
}
