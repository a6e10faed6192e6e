package board

import (
	"os"
	"strings"
	"testing"

	chess "github.com/corentings/chess/v2"

	"github.com/nnuekit/nnuekit/internal/testenv"
)

// perftSlow counts the leaf nodes of depth d without bulk counting, through
// AppendLegalMoves and Play (every leaf is played: checks Play and the generator together).
func perftSlow(p *Position, d int) uint64 {
	if d == 0 {
		return 1
	}
	var buf [256]Move
	var n uint64
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		c, _ := p.Play(m)
		n += perftSlow(&c, d-1)
	}
	return n
}

// Standard perft positions and counts: Chess Programming Wiki, "Perft Results"
// (positions 1–6; position 4 also mirrored).
var perftCases = []struct {
	name   string
	fen    string
	counts []uint64 // counts[d-1] = perft(d)
	depth  int      // depth run without -short (the deepest, total a few seconds)
}{
	{"startpos", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324}, 6},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603, 193690690}, 5},
	{"pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624, 11030083, 178633661}, 6},
	{"pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}, 5},
	{"pos4mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]uint64{6, 264, 9467, 422333, 15833292, 706045033}, 5},
	{"pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379, 2103487, 89941194}, 5},
	{"pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890, 3894594, 164075551}, 5},
}

// TestPerft checks the CPW counts: every depth up to 4 with -short (3 under -race), the
// deepest listed depth with NNUEKIT_FULL (5 or 6: 0.8 G nodes in all), one less otherwise;
// NNUEKIT_PERFT_DEEP=1 runs every listed depth, up to pos3's 7 and pos4's 6. The counts up
// to depth 3 are also checked without bulk counting.
func TestPerft(t *testing.T) {
	deep := os.Getenv("NNUEKIT_PERFT_DEEP") == "1"
	full := testenv.Full()
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			depth := tc.depth
			switch {
			case deep:
				depth = len(tc.counts)
			case raceEnabled:
				depth = 3
			case testing.Short():
				depth = 4
			case !full:
				depth--
			}
			for d := 1; d <= depth; d++ {
				if d < depth && d > 4 {
					continue // the deep runs check only the deepest depth
				}
				if got := p.Perft(d); got != tc.counts[d-1] {
					t.Fatalf("perft(%d) = %d, want %d", d, got, tc.counts[d-1])
				}
				if d <= 3 {
					if got := perftSlow(&p, d); got != tc.counts[d-1] {
						t.Fatalf("perft without bulk counting (%d) = %d, want %d", d, got, tc.counts[d-1])
					}
				}
			}
		})
	}
}

// chessChildFEN plays our move m on chess/v2's copy of p and returns chess/v2's FEN of
// the child, with the en-passant field normalized to our policy (kept only when an
// en-passant capture is legal in the child).
func chessChildFEN(t *testing.T, p *Position, m Move) string {
	t.Helper()
	cp, cms := chessMoves(p)
	for i := range cms {
		if fromChessMove(&cms[i]) != m {
			continue
		}
		child := cp.Update(&cms[i])
		fen := child.String()
		if child.EnPassantSquare() != chess.NoSquare {
			legal := false
			for _, cm := range child.ValidMoves() {
				if cm.HasTag(chess.EnPassant) {
					legal = true
				}
			}
			if !legal {
				f := strings.Fields(fen)
				f[3] = "-"
				fen = strings.Join(f, " ")
			}
		}
		return fen
	}
	t.Fatalf("%s: move %v not found in chess/v2's moves", p.FEN(), m)
	return ""
}

// TestPlayMatchesChessV2 walks the move trees of the perft positions at shallow depth and
// checks for every move that Play's child equals chess/v2's (FEN, en-passant normalized),
// that the child validates, and that DirtyPieces turns the parent mailbox into the child's.
func TestPlayMatchesChessV2(t *testing.T) {
	depth := 2
	if testing.Short() || raceEnabled {
		depth = 1
	}
	nodes := 0
	var walk func(p *Position, d int)
	walk = func(p *Position, d int) {
		for _, m := range p.LegalMoves() {
			c, dp := p.Play(m)
			nodes++
			if got, want := c.FEN(), chessChildFEN(t, p, m); got != want {
				t.Fatalf("%s %v:\n got %s\nwant %s", p.FEN(), m, got, want)
			}
			checkChild(t, p, m, &c, &dp)
			if d > 1 {
				walk(&c, d-1)
			}
		}
	}
	for _, tc := range perftCases {
		p := mustFEN(t, tc.fen)
		walk(&p, depth)
	}
	t.Logf("%d moves checked", nodes)
}

// checkChild checks the invariants of one Play: validity, FEN round trip, DirtyPieces
// shape and that applying it to the parent mailbox gives the child mailbox.
func checkChild(t tb, p *Position, m Move, c *Position, d *DirtyPieces) {
	t.Helper()
	if err := c.Validate(); err != nil {
		t.Fatalf("%s %v: child invalid: %v", p.FEN(), m, err)
	}
	if q, err := ParseFEN(c.FEN()); err != nil || q != *c {
		t.Fatalf("%s %v: child FEN round trip: %v", p.FEN(), m, err)
	}
	mb := p.Mailbox()
	d.ApplyTo(&mb)
	if mb != c.Mailbox() {
		t.Fatalf("%s %v: DirtyPieces %+v do not give the child mailbox", p.FEN(), m, d.Slice())
	}
	if d.N < 1 || d.N > 3 || d.Pieces[0].Piece != p.PieceAt(m.From()) || d.Pieces[0].From != m.From() {
		t.Fatalf("%s %v: bad first dirty piece %+v", p.FEN(), m, d.Slice())
	}
	_, promo := m.Promotion()
	if promo != (d.Pieces[0].To == NoSquare) {
		t.Fatalf("%s %v: promotion/To mismatch %+v", p.FEN(), m, d.Slice())
	}
}
