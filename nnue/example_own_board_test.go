package nnue_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// ExampleAccumulatorStack_PushDelta keeps the accumulators of an engine that has its own
// board — here a mailbox numbered from a8 = 0, as many engines keep it — with no
// board.Position: ResetBoard takes the root board, PushDelta each move's dirty pieces and
// king squares, Pop unmakes. The squares given to nnue are board.Square numbers
// (a1 = 0), so this engine converts with sq ^ 56.
func ExampleAccumulatorStack_PushDelta() {
	net, err := nnue.Default() // ALL features: a piece-square set
	if err != nil {
		panic(err)
	}
	st := net.NewAccumulatorStack()
	st.Reserve(16) // no allocation in the search after this

	// The engine's board: mailbox[0] = a8 … mailbox[63] = h1.
	var mailbox [64]board.Piece
	for i, r := range []board.Role{board.Rook, board.Knight, board.Bishop, board.Queen, board.King, board.Bishop, board.Knight, board.Rook} {
		mailbox[i], mailbox[56+i] = board.MakePiece(board.Black, r), board.MakePiece(board.White, r)
		mailbox[8+i], mailbox[48+i] = board.MakePiece(board.Black, board.Pawn), board.MakePiece(board.White, board.Pawn)
	}
	kings := [2]int{60, 4} // e1, e8 in a8 = 0 numbering
	stm := board.White

	var root [64]board.Piece // ResetBoard's mailbox is indexed by board.Square
	for sq, pc := range mailbox {
		root[sq^56] = pc
	}
	if err := st.ResetBoard(&root, stm); err != nil {
		panic(err)
	}

	// The engine's make-move: the moving piece, a captured piece, the king squares.
	sq := func(name string) int { return int(name[0]-'a') + 8*int('8'-name[1]) } // a8 = 0
	play := func(from, to string) {
		f, t := sq(from), sq(to)
		var d nnue.Delta
		d.Dirty.Pieces[0] = board.DirtyPiece{Piece: mailbox[f], From: board.Square(f ^ 56), To: board.Square(t ^ 56)}
		d.Dirty.N = 1
		if victim := mailbox[t]; victim != board.NoPiece {
			d.Dirty.Pieces[1] = board.DirtyPiece{Piece: victim, From: board.Square(t ^ 56), To: board.NoSquare}
			d.Dirty.N = 2
		}
		if mailbox[f].Role() == board.King {
			kings[stm] = t
		}
		mailbox[t], mailbox[f] = mailbox[f], board.NoPiece
		stm = stm.Other()
		d.Kings = [2]board.Square{board.Square(kings[board.White] ^ 56), board.Square(kings[board.Black] ^ 56)}
		d.SideToMove = stm
		if err := st.PushDelta(&d); err != nil {
			panic(err)
		}
	}
	play("e2", "e4")
	play("d7", "d5")
	play("e4", "d5") // a capture: two dirty pieces
	play("e8", "d7") // a king move
	own := st.Evaluate()

	check, _ := board.ParseFEN("rnbq1bnr/pppkpppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR w KQ - 1 3")
	fmt.Println("own board equals a refresh:", own == net.Evaluate(&check))
	st.Pop() // unmake the king move
	fmt.Println("plies on the stack:", st.Len()-1)
	// Output:
	// own board equals a refresh: true
	// plies on the stack: 3
}
