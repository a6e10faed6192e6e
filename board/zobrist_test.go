package board

import (
	"strconv"
	"strings"
	"testing"

	chess "github.com/corentings/chess/v2"
)

// The test keys of the polyglot book format specification (H. G. Muller,
// hgm.nubati.net/book_format.html, "Test cases"): the start position and the positions
// after the listed moves.
var polyglotTestKeys = []struct {
	moves string
	key   uint64
}{
	{"", 0x463b96181691fc9c},
	{"e2e4", 0x823c9b50fd114196},
	{"e2e4 d7d5", 0x0756b94461c50fb0},
	{"e2e4 d7d5 e4e5", 0x662fafb965db29d4},
	{"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
	{"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
	{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
	{"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
	{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
}

func TestPolyglotKeys(t *testing.T) {
	for _, tc := range polyglotTestKeys {
		p := StartPosition()
		for _, s := range strings.Fields(tc.moves) {
			m, err := ParseUCIMove(&p, s)
			if err != nil {
				t.Fatal(err)
			}
			p, _ = p.Play(m)
		}
		if got := p.Key(); got != tc.key {
			t.Errorf("after %q: Key = %#016x, want %#016x", tc.moves, got, tc.key)
		}
		if got := p.ComputeKey(); got != tc.key {
			t.Errorf("after %q: ComputeKey = %#016x, want %#016x", tc.moves, got, tc.key)
		}
		// the same position parsed from its FEN has the same key
		q := mustFEN(t, p.FEN())
		if q.Key() != tc.key {
			t.Errorf("after %q: ParseFEN(%s).Key = %#016x", tc.moves, p.FEN(), q.Key())
		}
	}
}

// The key table equals chess/v2's copy of the polyglot Random64 table, and Key equals
// chess/v2's independent polyglot hasher on the perft positions.
func TestPolyglotTableMatchesChessV2(t *testing.T) {
	h := chess.GetPolyglotHashes()
	if len(h) != len(polyglotRandom) {
		t.Fatalf("chess/v2 has %d numbers, we have %d", len(h), len(polyglotRandom))
	}
	for i, s := range h {
		v, err := strconv.ParseUint(s, 16, 64)
		if err != nil || v != polyglotRandom[i] {
			t.Fatalf("Random64[%d]: chess/v2 %s, ours %#016x", i, s, polyglotRandom[i])
		}
	}
	for _, tc := range perftCases {
		p := mustFEN(t, tc.fen)
		want, err := chess.NewZobristHasher().HashPosition(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := strconv.FormatUint(p.Key(), 16); strings.TrimLeft(want, "0") != got {
			t.Errorf("%s: Key %s, chess/v2 %s", tc.name, got, want)
		}
	}
}

func TestKeyZeroPositionAndPawnKey(t *testing.T) {
	var p Position
	if p.ComputeKey() != p.Key() || p.PawnKey() != 0 {
		t.Fatalf("zero Position: Key %#x ComputeKey %#x PawnKey %#x", p.Key(), p.ComputeKey(), p.PawnKey())
	}
	s := StartPosition()
	var want uint64
	for sq := Square(0); sq < 64; sq++ {
		if pc := s.PieceAt(sq); pc != NoPiece && pc.Role() == Pawn {
			kind := 0
			if pc.Color() == White {
				kind = 1
			}
			want ^= polyglotRandom[64*kind+int(sq)]
		}
	}
	if s.PawnKey() != want || s.computePawnKey() != want {
		t.Fatalf("start PawnKey %#x, want %#x", s.PawnKey(), want)
	}
	// a knight move keeps the pawn key, a pawn move changes it
	n, _ := s.Play(NewMove(G1, Square(21)))
	if n.PawnKey() != want {
		t.Fatal("knight move changed the pawn key")
	}
	e, _ := s.Play(NewMove(Square(12), Square(28)))
	if e.PawnKey() == want || e.PawnKey() != e.computePawnKey() {
		t.Fatal("pawn move: wrong pawn key")
	}
}

func TestPlayNull(t *testing.T) {
	p := mustFEN(t, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	q, d := p.PlayNull()
	if d.N != 0 {
		t.Fatalf("DirtyPieces %+v", d)
	}
	if got, want := q.FEN(), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3"; got != want {
		t.Fatalf("PlayNull: %s, want %s", got, want)
	}
	if q.Key() != q.ComputeKey() || q.Key() == p.Key() {
		t.Fatal("PlayNull key")
	}
	r, _ := q.PlayNull()
	if r.FullmoveNumber() != 4 || r.HalfmoveClock() != 2 || r.SideToMove() != White {
		t.Fatalf("second null: %s", r.FEN())
	}
	// two null moves give back the key of the position without its en-passant square
	p.SetEnPassant(NoSquare)
	if r.Key() != p.Key() {
		t.Fatal("null null key")
	}
}
