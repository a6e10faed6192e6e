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

// A search loop generates into a MoveList on the stack (no allocation), orders captures
// by SEE and keeps the polyglot key of every position.
func ExamplePosition_GenerateLegal() {
	p, _ := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var all, captures board.MoveList
	p.GenerateLegal(&all)
	p.GenerateCaptures(&captures)
	fmt.Println(all.Len(), "legal moves,", captures.Len(), "captures")
	best, bestSEE := board.NullMove, -1<<30
	for _, m := range captures.Slice() {
		if s := p.SEE(m); s > bestSEE {
			best, bestSEE = m, s
		}
	}
	fmt.Println("best capture by SEE:", best, bestSEE, p.CapturedPiece(best))
	fmt.Println("perft(3):", p.Perft(3))
	// Output:
	// 48 legal moves, 8 captures
	// best capture by SEE: e2a6 300 b
	// perft(3): 97862
}

// Key is the polyglot key (the key of polyglot opening books), updated by Play.
func ExamplePosition_Key() {
	p := board.StartPosition()
	fmt.Printf("%016x\n", p.Key())
	m, _ := board.ParseUCIMove(&p, "e2e4")
	p, _ = p.Play(m)
	fmt.Printf("%016x %v\n", p.Key(), p.Key() == p.ComputeKey())
	n, _ := p.PlayNull()
	fmt.Println(n.FEN())
	// Output:
	// 463b96181691fc9c
	// 823c9b50fd114196 true
	// rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2
}
