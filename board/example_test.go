package board_test

import (
	"errors"
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// Parse a FEN, play a capture and print the position after it and the dirty pieces that
// an accumulator update would consume.
func Example() {
	p, err := board.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(p.LegalMoves()), "legal moves")
	m, err := board.ParseSAN(&p, "Nxe5")
	if err != nil {
		panic(err)
	}
	child, dirty := p.Play(m)
	fmt.Println(m, child.FEN())
	for _, d := range dirty.Slice() {
		fmt.Printf("%v %v -> %v\n", d.Piece, d.From, d.To)
	}
	// Output:
	// 27 legal moves
	// f3e5 r1bqkbnr/pppp1ppp/2n5/4N3/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 3
	// N f3 -> e5
	// p e5 -> -
}

// Castling is written as the king's move; the rook's move is the second dirty piece.
func ExamplePosition_Play_castling() {
	p, _ := board.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	m, _ := board.ParseUCIMove(&p, "e1g1")
	child, dirty := p.Play(m)
	fmt.Println(child.FEN())
	for _, d := range dirty.Slice() {
		fmt.Printf("%v %v -> %v\n", d.Piece, d.From, d.To)
	}
	// Output:
	// r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1
	// K e1 -> g1
	// R h1 -> f1
}

// Errors say which field is wrong and where; errors.Is tells syntax from illegality.
func ExampleParseFEN_error() {
	_, err := board.ParseFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1")
	fmt.Println(err)
	fmt.Println(errors.Is(err, board.ErrIllegalPosition), errors.Is(err, board.ErrSyntax))
	var fe *board.FENError
	if errors.As(err, &fe) {
		fmt.Println(fe.Field, fe.Offset)
	}
	// Output:
	// board: bad FEN en passant at offset 51: en-passant square not on rank 6 for the side to move
	// true false
	// en passant 51
}
