package main

// time.go: search limits and time management. With wtime/btime the engine spends the
// increment plus 2 % of its remaining time per move, as the thesis's Lichess bot
// (thesis §2.6), capped so that a safety margin (Move Overhead) always stays on the
// clock; movetime is spent exactly (less the overhead); the thesis's experiments use
// movetime 100 (thesis §2.4).

import (
	"time"
)

// limits is what a go command asks for. Zero fields are unset.
type limits struct {
	wtime, btime, winc, binc time.Duration
	movesToGo                int
	moveTime                 time.Duration
	depth                    int
	nodes                    int64
	infinite                 bool
	ponder                   bool // ignored: searched as infinite until stop/ponderhit
}

// timeBudget returns how long to search for the side to move (white = true for White),
// 0 for no time limit. overhead is the safety margin kept on the clock (communication,
// GUI lag).
func (l *limits) timeBudget(white bool, overhead time.Duration) time.Duration {
	if l.infinite || l.ponder {
		return 0
	}
	if l.moveTime > 0 {
		return max(l.moveTime-overhead, time.Millisecond)
	}
	rem, inc := l.btime, l.binc
	if white {
		rem, inc = l.wtime, l.winc
	}
	if rem <= 0 && inc <= 0 {
		return 0
	}
	budget := inc + rem/50 // thesis §2.6: increment + 2 % of the remaining time
	if l.movesToGo > 0 {
		// Classical controls: never plan less than an even share of the time to the
		// next control (the 2 % rule alone would leave time unused).
		budget = max(budget, rem/time.Duration(l.movesToGo+1)+inc)
	}
	// Safety: never use more than the remaining time less the overhead, nor more than
	// half of it in one move.
	budget = min(budget, rem-overhead, rem/2+inc/2)
	return max(budget, time.Millisecond)
}
