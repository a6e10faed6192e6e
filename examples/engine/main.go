// Command engine is a UCI chess engine on nnuekit, in the form thesis §2 describes:
// iterative deepening, principal variation search, quiescence search, a shared
// transposition table, null-move pruning, late move reductions, killer and history move
// ordering, Lazy SMP threads — evaluating with any network nnuekit loads (default: the
// embedded network), incrementally through nnue.AccumulatorStack.
//
// Usage:
//
//	go run ./examples/engine            # speaks UCI on stdin/stdout (plug into a GUI)
//	go run ./examples/engine bench [depth] [evalfile]   # Stockfish-style bench, then exit
//
// Options (setoption name … value …): Hash (MiB, default 128), Threads (default 1),
// EvalFile (path of a thesis .nn, Stockfish .nnue or native network; "<default>" for the
// embedded network, "<material>" for a material-only evaluation), Move Overhead (ms,
// default 30), DebugEval (verify incremental == refresh at every node). Besides the UCI
// commands it understands `eval` (network output; Stockfish nets print the NNUE
// contribution table), `bench [depth]` and `d` (print the position). doc/engine.md
// documents the search features, their sources, speed and memory.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	e := newEngine(os.Stdout)
	if len(os.Args) > 1 && os.Args[1] == "bench" {
		depth := defaultBenchDepth
		if len(os.Args) > 2 {
			d, err := strconv.Atoi(os.Args[2])
			if err != nil || d < 1 {
				fmt.Fprintln(os.Stderr, "usage: engine bench [depth] [evalfile]")
				os.Exit(2)
			}
			depth = d
		}
		if len(os.Args) > 3 {
			if err := e.setEvalFile(os.Args[3]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		e.bench(depth)
		e.flush()
		return
	}
	e.run(bufio.NewReader(os.Stdin))
}
