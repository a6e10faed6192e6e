package dataset

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/nnuekit/nnuekit/board"
)

// checkQuickLegal compares quickLegal with the legal move list on every from/to pair (with and
// without each promotion): it must never accept an illegal move, and must accept every legal move
// that is neither castling nor en passant.
func checkQuickLegal(t interface {
	Fatalf(string, ...any)
}, p *board.Position) {
	legal := map[board.Move]bool{}
	for _, m := range p.LegalMoves() {
		legal[m] = true
	}
	for from := board.Square(0); from < 64; from++ {
		for to := board.Square(0); to < 64; to++ {
			ms := []board.Move{board.NewMove(from, to)}
			for r := board.Knight; r <= board.Queen; r++ {
				ms = append(ms, board.NewPromotion(from, to, r))
			}
			ms = append(ms, board.NewPromotion(from, to, board.King), board.NewPromotion(from, to, board.Pawn))
			for _, m := range ms {
				q := quickLegal(p, m)
				if q && !legal[m] {
					t.Fatalf("%s: quickLegal accepts illegal %s", p.FEN(), m)
				}
				if legal[m] && !q {
					pc := p.PieceAt(from)
					castle := pc.Role() == board.King && (to.File()-from.File() == 2 || from.File()-to.File() == 2)
					ep := pc.Role() == board.Pawn && from.File() != to.File() && p.PieceAt(to) == board.NoPiece
					if !castle && !ep {
						t.Fatalf("%s: quickLegal rejects legal %s", p.FEN(), m)
					}
				}
			}
		}
	}
}

func TestQuickLegal(t *testing.T) {
	for _, fen := range []string{
		startFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // perft "kiwipete"
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                            // pins along the rank
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",        // en passant
		"rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",        // in check
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                              // promotions
		"8/8/8/1k6/8/B2K4/3b4/8 w - - 8 91",
	} {
		p := mustFEN(t, fen)
		checkQuickLegal(t, &p)
	}
	rapid.Check(t, func(t *rapid.T) {
		p := board.StartPosition()
		n := rapid.IntRange(0, 120).Draw(t, "plies")
		for range n {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Play(ms[rapid.IntRange(0, len(ms)-1).Draw(t, "move")])
		}
		checkQuickLegal(t, &p)
	})
}
