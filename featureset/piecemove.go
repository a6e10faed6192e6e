package featureset

import (
	"github.com/nnuekit/nnuekit/board"
)

// movesBlock is the second summand of the draft's PIECE-MOVE (seed 004 §2.4.4):
// SQUARE_P × SQUARE_move(P), 64·64 features: ⟨from, to⟩ is active when some piece (either
// color) on from can move to to.
type movesBlock struct{ leaf }

// Moves returns the MOVES block ("moves", 4,096 features): index from·64 + to on the
// oriented board (rank-major squares), active when a piece of either color on from has
// to among its mobility targets — the moves of the thesis code's mobility (MB/MC, thesis
// §6.4: attacks minus own pieces, pawns capture diagonally onto enemy pieces and push one
// square, legal for the mover's king; no castling, double push or en passant). The draft
// leaves "move(P)" open; this is the definition the thesis's own mobility blocks use
// (doc/featuresets.md). Diff recomputes: a move changes moves all over the board (the
// draft: "not friendly to efficiently update"). At most 32·27 are active.
func Moves(o Orientation) Block {
	return &movesBlock{newLeaf("moves", "MOVES", o, Flip, Squares, Squares)}
}

func (b *movesBlock) MaxActive() int { return 32 * 27 }

func (b *movesBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

func (b *movesBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	m := b.orient.Mask(pos, persp)
	var set [64]uint64 // one word per oriented from-square
	for c := board.White; c <= board.Black; c++ {
		var x mobCtx
		if !newMobCtx(pos, c, &x) {
			continue
		}
		for bb := pos.ByColor(c); bb != 0; {
			from := bb.PopFirst()
			t := x.targets(from, pos.PieceAt(from).Role())
			set[from^m] |= uint64(orientBB(t, m))
		}
	}
	return appendBits(dst, set[:], off)
}

// AppendDiff recomputes.
func (b *movesBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	return genericDiff(b, before, after, persp, off, added, removed)
}

// DeadNoMove: no piece moves from the first square to the second (not a queen line or a
// knight jump, or the same square).
const DeadNoMove = "no piece moves between these squares (not a queen line or knight jump)"

func (b *movesBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	for f := board.Square(0); f < 64; f++ {
		reach := board.QueenAttacks(f, 0) | board.KnightAttacks(f)
		for t := board.Square(0); t < 64; t++ {
			if !reach.Has(t) {
				dst = append(dst, DeadFeature{off + int(f)*64 + int(t), DeadNoMove})
			}
		}
	}
	return dst
}

// PieceMove returns the draft's PIECE-MOVE (seed 004 §2.4.4) as the sum ALL ⊕ MOVES:
// 768 + 4,096 = 4,864 features, spec "all+moves".
func PieceMove(o Orientation) Block {
	b, err := Sum(All(o), Moves(o))
	if err != nil {
		panic(err)
	}
	return b
}

func init() {
	register("moves", "MOVES, 4096: from-square × to-square of every piece's mobility targets (draft §2.4.4)", Moves)
	register("piece-move", "PIECE-MOVE, 4864 = all+moves (draft §2.4.4)", PieceMove)
}
