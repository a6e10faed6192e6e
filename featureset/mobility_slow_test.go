package featureset

import (
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// targetsSlow is the literal thesis rule: really move the piece to every candidate and
// keep the target if the mover's king (re-read after the move) is not attacked.
func (x *mobCtx) targetsSlow(from board.Square, role board.Role) board.Bitboard {
	var safe board.Bitboard
	for cand := x.pseudo(from, role); cand != 0; {
		to := cand.PopFirst()
		toBB := board.SquareBB(to)
		o := x.occ&^board.SquareBB(from) | toBB
		k := x.ksq
		if role == board.King {
			k = to
		}
		if !x.attacked(k, o, ^toBB) {
			safe |= toBB
		}
	}
	return safe
}

func checkMobilityOracle(t interface{ Fatalf(string, ...any) }, pos *board.Position) {
	for c := board.White; c <= board.Black; c++ {
		var x mobCtx
		if !newMobCtx(pos, c, &x) {
			continue
		}
		for bb := x.own; bb != 0; {
			from := bb.PopFirst()
			role := pos.PieceAt(from).Role()
			if f, s := x.targets(from, role), x.targetsSlow(from, role); f != s {
				t.Fatalf("%s: %v on %v: targets %x, move-and-check %x", pos.FEN(), pos.PieceAt(from), from, uint64(f), uint64(s))
			}
		}
	}
}

func TestMobilityMatchesMoveAndCheck(t *testing.T) {
	for _, p := range epdAll(t) {
		checkMobilityOracle(t, &p)
	}
}

func TestMobilityMatchesMoveAndCheckRandom(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var pos board.Position
		for c := board.White; c <= board.Black; c++ {
			pos.Put(board.Square(rapid.IntRange(0, 63).Draw(rt, "k")), board.MakePiece(c, board.King))
		}
		n := rapid.IntRange(0, 16).Draw(rt, "n")
		for i := 0; i < n; i++ {
			sq := board.Square(rapid.IntRange(0, 63).Draw(rt, "sq"))
			if pos.PieceAt(sq).Valid() && pos.PieceAt(sq).Role() == board.King {
				continue
			}
			pos.Put(sq, board.Piece(rapid.IntRange(1, 12).Draw(rt, "pc")))
		}
		checkMobilityOracle(rt, &pos)
	})
}
