package nnue_test

import (
	"fmt"
	"os"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// Evaluating a position with Stockfish 15.1's network as Stockfish's eval command does
// (compiled, not run: it needs the 47 MB net).
func Example_stockfish() {
	net, err := nnue.LoadFile("nn-ad9b42354671.nnue") // format detected from the version word
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	ev := net.NewEvaluator()
	v := ev.Evaluate(&pos)                             // internal Value for the side to move: -52
	fmt.Println(v, nnue.FormatStockfishPawns(-v, 361)) // "NNUE evaluation +0.14 (white side)"
	ev.Trace(&pos).WriteTable(os.Stdout)               // the per-bucket table

	// In a search: lazy updates, and own-king refreshes through a refresh table.
	stack := net.NewAccumulatorStack()
	stack.UseRefreshTable(net.NewRefreshTable())
	stack.Reset(&pos)
	for _, m := range pos.LegalMoves() {
		after, dirty := pos.Play(m)
		stack.Push(&after, &dirty)
		_ = stack.Evaluate()
		stack.Pop()
	}
}
