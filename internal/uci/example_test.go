package uci_test

import (
	"fmt"
	"time"

	"github.com/nnuekit/nnuekit/internal/uci"
)

func ExampleParseInfo() {
	in, ok := uci.ParseInfo("info depth 12 seldepth 17 multipv 1 score cp -35 upperbound nodes 48213 nps 401775 time 120 pv e7e5 g1f3")
	fmt.Println(ok, in.Depth, in.Score, in.Score.UpperBound, in.Nodes, in.Time, in.PV)
	lim := uci.Limits{WTime: 10 * time.Second, BTime: 9500 * time.Millisecond, WInc: 100 * time.Millisecond, BInc: 100 * time.Millisecond}
	fmt.Println(lim.Command())
	fmt.Println(uci.PositionCommand("", []string{"e2e4", "e7e5"}))
	// Output:
	// true 12 -0.35 true 48213 120ms [e7e5 g1f3]
	// go wtime 10000 btime 9500 winc 100 binc 100
	// position startpos moves e2e4 e7e5
}
