package featureset_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

func Example() {
	set, err := featureset.Parse("all+ph")
	if err != nil {
		panic(err)
	}
	// A white pawn on e4 and the two kings.
	var pos board.Position
	pos.Put(board.NewSquare(4, 3), board.MakePiece(board.White, board.Pawn))
	pos.Put(board.E1, board.MakePiece(board.White, board.King))
	pos.Put(board.E8, board.MakePiece(board.Black, board.King))

	fmt.Println(set, set.Size())
	for _, i := range set.Active(&pos, board.White, nil) {
		fmt.Println(i, set.Describe(i))
	}
	// Output:
	// all+ph 1920
	// 394 ALL[e1, king, own]
	// 420 ALL[e4, pawn, own]
	// 479 ALL[e8, king, their]
	// 1366 PH[e, pawn, own, king, their]
	// 1477 PH[e, king, own, pawn, own]
}

// ExampleSet_PieceSquare computes feature indices the way an engine with its own board does:
// from (piece, square) and the perspective's own king square, without a board.Position.
func ExampleSet_PieceSquare() {
	ps := featureset.MustParse("halfkav2_hm").PieceSquare()
	e2, _ := board.ParseSquare("e2")
	e4, _ := board.ParseSquare("e4")
	g1, _ := board.ParseSquare("g1")
	e8, _ := board.ParseSquare("e8")
	wp := board.MakePiece(board.White, board.Pawn)
	fmt.Println("white pawn e4, White's view, king g1:", ps.Index(board.White, g1, wp, e4))
	fmt.Println("same pawn, Black's view, king e8:", ps.Index(board.Black, e8, wp, e4))

	// 1. e4: one dirty piece; no refresh (the own king did not move).
	d := board.DirtyPieces{N: 1, Pieces: [3]board.DirtyPiece{{Piece: wp, From: e2, To: e4}}}
	added, removed := ps.AppendDiff(board.White, g1, &d, nil, nil)
	fmt.Println("refresh:", ps.RequiresRefresh(board.White, &d), "added:", added, "removed:", removed)
	// 704·bucket(g1)=704·29 + e4 (28) = 20444; Black: 704·bucket(e1)=704·31 + 64 (their) + e5 (36).
	// Output:
	// white pawn e4, White's view, king g1: 20444
	// same pawn, Black's view, king e8: 21924
	// refresh: false added: [20444] removed: [20428]
}
