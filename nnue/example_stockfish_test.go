package nnue_test

import (
	"fmt"
	"os"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// Evaluating a position with Stockfish 15.1's network as Stockfish's eval command does
// (compiled, not run: it needs the 47 MB net).
func ExampleLoadFile_stockfish15() {
	net, err := nnue.LoadFile("nn-ad9b42354671.nnue") // format detected from the version word
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	ev := net.NewEvaluator()
	v := ev.Evaluate(&pos)                              // internal Value for the side to move: -52
	fmt.Printf("%d %+.2f\n", v, net.Centipawns(-v)/100) // -52 +0.14: "NNUE evaluation +0.14 (white side)"
	ev.Trace(&pos).WriteTable(os.Stdout)                // the per-bucket table

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

// Evaluating a position with Stockfish 19's network (threat and pawn-pair inputs) and
// converting to pawns the way Stockfish 19 prints them (compiled, not run: it needs the
// 98 MB net).
func ExampleLoadFile_stockfish19() {
	net, err := nnue.LoadFile("nn-1a298aa575a0.nnue")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, _ := board.ParseFEN("rnb1kb2/2q2p1Q/p2pp1r1/1p6/3NP3/P1N1P1P1/1PP1B2P/R3K2R b KQq - 0 15")
	ev := net.NewEvaluator()
	v := ev.Evaluate(&pos)                   // psqt/16 + positional/16, side to move: -394
	a, rule := nnue.PawnScale(net, &pos)     // 297.6, material-dependent (material 68)
	fmt.Printf("%d %.2f\n", v, float64(v)/a) // -394 -1.32
	fmt.Println(rule)
	ev.Trace(&pos).WriteTable(os.Stdout) // Stockfish 19's "Normalized" table
}
