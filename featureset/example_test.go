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
