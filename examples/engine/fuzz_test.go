package main

import (
	"bufio"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/search"
)

// FuzzCommand feeds arbitrary lines to the UCI command parser (position, setoption,
// ucinewgame, eval, unknown commands; go lines through search.ParseGo only, so that no search
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
		"go wtime 0 btime -5 movestogo 3", "go movetime 9223372036854775807", "go searchmoves e2e4 d2d4 depth 3",
		"go ponder wtime 100 btime 100", "go frob 1 depth x wtime", "position startpos moves e2e4 e7e4",
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
				search.ParseGo(fields[1:]) // internal/search FuzzParseGo checks the values
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

// FuzzReadLine: readLine splits any input into the same lines as strings.Split on '\n',
// giving up (and counting) the lines over the limit, with a reader buffer smaller than
// the lines.
func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"", "uci\nisready\n", "a\n\nb", strings.Repeat("x", 100) + "\nok\n", "\xff\x00\r\n"} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, in string, limit int) {
		limit = 1 + abs(limit)%64
		br := bufio.NewReaderSize(strings.NewReader(in), 16)
		want := strings.SplitAfter(in, "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		for i := 0; ; i++ {
			line, n, err := readLine(br, limit)
			if i >= len(want) {
				if n != 0 || err == nil {
					t.Fatalf("line %d beyond the input: %q, %d, %v", i, line, n, err)
				}
				return
			}
			if n != len(want[i]) || (n <= limit && line != want[i]) || (n > limit && line != "") {
				t.Fatalf("line %d: %q (%d bytes), want %q (limit %d)", i, line, n, want[i], limit)
			}
			if err != nil {
				if i != len(want)-1 {
					t.Fatalf("line %d: %v before the end", i, err)
				}
				return
			}
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
