package ucitest_test

import (
	"os"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/internal/uci/ucitest"
)

func ExampleRun() {
	in := strings.NewReader("uci\nisready\nposition startpos moves e2e4\ngo movetime 10\nquit\n")
	ucitest.Run(in, os.Stdout, "first", 1, time.Second)
	// Output:
	// id name fake-first
	// id author nnuekit ucitest
	// option name Hash type spin default 16 min 1 max 1024
	// option name Threads type spin default 1 min 1 max 64
	// option name Skill Level type spin default 20 min 0 max 20
	// option name EvalFile type string default <default>
	// option name Style type combo default Normal var Solid var Normal var Risky
	// option name Ponder type check default false
	// option name Clear Hash type button
	// uciok
	// readyok
	// info depth 1 score cp 0 nodes 1 pv a7a5
	// bestmove a7a5
}
