package main

import (
	"strings"
	"testing"
)

// FuzzCommand feeds arbitrary lines to the UCI command parser (position, setoption,
// ucinewgame, eval, unknown commands; go lines through parseGo only, so that no search
// starts): no input may panic, and a failed position command leaves the position legal.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		"position startpos moves e2e4 e7e5",
		"position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves c7c5",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position startpos moves e2e5",
		"setoption name Hash value 1",
		"setoption name Threads value 0",
		"setoption name Move Overhead value 10",
		"setoption name DebugEval value maybe",
		"go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
		"go depth -1 nodes 99999999999999999999",
		"eval", "d", "isready", "ucinewgame", "\x00\xff",
	} {
		f.Add(s)
	}
	e := quietEngine(f)
	f.Fuzz(func(t *testing.T, line string) {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			switch fields[0] {
			case "go":
				if l, err := parseGo(fields[1:]); err == nil {
					if l.depth < 0 || l.depth >= maxPly || l.nodes < 0 || l.movesToGo < 0 {
						t.Fatalf("parseGo(%q) = %+v out of range", line, l)
					}
				}
				return
			case "bench", "quit", "stop", "setoption":
				if fields[0] == "setoption" && !strings.Contains(strings.ToLower(line), "evalfile") &&
					!strings.Contains(strings.ToLower(line), "hash") {
					break
				}
				return // bench searches; quit/stop need a session; EvalFile/Hash load or allocate
			}
		}
		e.command(line)
		if err := e.root.Validate(); err != nil {
			t.Fatalf("after %q the root position is invalid: %v", line, err)
		}
	})
}
