// Command engine is a UCI chess engine on nnuekit, in the form thesis §2 describes:
// iterative deepening, principal variation search, quiescence search, a shared
// transposition table, null-move pruning, late move reductions, killer and history move
// ordering, Lazy SMP threads — evaluating with any network nnuekit loads (default: the
// embedded network), incrementally through nnue.AccumulatorStack.
//
// Usage:
//
//	go run ./examples/engine            # speaks UCI on stdin/stdout (plug into a GUI)
//	go run ./examples/engine -help      # synopsis, examples, flags
//	go run ./examples/engine bench [depth] [evalfile]   # Stockfish-style bench, then exit
//	go run ./examples/engine -cpuprofile cpu.out bench 10 ../shared/thesis-models/hv.nn
//
// Options (setoption name … value …): Hash (MiB, default 128, at most what the machine
// can give), Threads (default 1), EvalFile (path of a regular file holding a thesis .nn,
// Stockfish .nnue or native network; "<default>" for the embedded network, "<material>"
// for a material-only evaluation), Move Overhead (ms, default 30), DebugEval (verify
// incremental == refresh at every node), Ponder. Every go form is answered (time.go has
// the time rules; unknown go tokens are skipped with an info string; searchmoves and
// ponder/ponderhit work). Besides the UCI commands it understands `eval` (network output;
// Stockfish nets print the NNUE contribution table), `bench [depth [evalfile]]`
// (interruptible by stop and quit) and `d` (print the position). doc/engine.md documents
// the commands, the behaviour on bad input, the search features, their sources, speed
// and memory.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
)

func main() {
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the bench to `file`")
	flag.Usage = usage
	flag.Parse()
	args := flag.Args()
	if len(args) > 0 && (args[0] != "bench" || len(args) > 3) {
		fmt.Fprintf(os.Stderr, "engine: unexpected arguments %q\n", args)
		usage()
		os.Exit(2)
	}
	e := newEngine(os.Stdout)
	if len(args) > 0 {
		depth := defaultBenchDepth
		if len(args) > 1 {
			d, err := strconv.Atoi(args[1])
			if err != nil || d < 1 {
				fmt.Fprintln(os.Stderr, "engine: bench depth must be an integer ≥ 1")
				usage()
				os.Exit(2)
			}
			depth = d
		}
		if len(args) > 2 {
			if err := e.setEvalFile(args[2]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			defer f.Close()
			defer pprof.StopCPUProfile()
		}
		e.bench(depth, nil)
		e.flush()
		return
	}
	e.run(os.Stdin)
}

// usageText is printed by -help (and on a bad command line) before the flags.
const usageText = `engine: a UCI chess engine on nnuekit (doc/engine.md).

Synopsis:
  engine [-cpuprofile file]                     speak UCI on stdin/stdout (for a GUI)
  engine [-cpuprofile file] bench [depth [evalfile]]
                                                search the 12 bench positions, print nodes/s

Examples:
  engine                                        then type: uci, isready, position startpos, go movetime 1000
  engine bench 10 ../shared/nets/nn-ad9b42354671.nnue

The engine's output is the UCI protocol itself; it has no -json flag.
Flags:
`

func usage() {
	fmt.Fprint(flag.CommandLine.Output(), usageText)
	flag.PrintDefaults()
}
