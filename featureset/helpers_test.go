package featureset

import (
	"os"
	"path/filepath"
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

// epdSample returns up to n positions of ../shared/data/positions.epd (every k-th line),
// or none when the shared data is absent.
func epdSample(t testing.TB, n int) []board.Position {
	data, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "positions.epd"))
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	step := max(1, len(lines)/n)
	var out []board.Position
	for i := 0; i < len(lines); i += step {
		p, _, err := board.ParseEPD(lines[i])
		if err != nil {
			t.Fatalf("positions.epd line %d: %v", i+1, err)
		}
		out = append(out, p)
	}
	return out
}

// epdAll returns every position of ../shared/data/positions.epd, or skips.
func epdAll(t testing.TB) []board.Position {
	sharedDir(t)
	return epdSample(t, 1<<30)
}
