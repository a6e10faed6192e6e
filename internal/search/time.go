package search

// time.go: search limits and time management. With wtime/btime the engine spends the
// increment plus 2 % of its remaining time per move, as the thesis's Lichess bot
// (thesis §2.6), capped so that a safety margin (Move Overhead) always stays on the
// clock; movetime is spent to its end (less the overhead); the thesis's experiments use
// movetime 100 (thesis §2.4). Every value is clamped when it is parsed (parseGo), so no
// product or sum here can overflow a time.Duration.

import (
	"fmt"
	"time"
)

// maxTimeMs bounds every time value of a go command (about 3.2 years): 10¹¹ ms is 10¹⁷ ns,
// so sums and small multiples stay far inside a time.Duration (≈ 9.2·10¹⁸ ns).
const maxTimeMs = 100_000_000_000

// maxMovesToGo bounds movestogo.
const maxMovesToGo = 1_000_000

// Limits is what a go command asks for. Zero fields are unset unless a flag says otherwise.
type Limits struct {
	wtime, btime, winc, binc time.Duration // clamped to ±maxTimeMs; increments ≥ 0
	wtimeSet, btimeSet       bool          // wtime / btime were given (0 or less: flagged)
	clock                    bool          // any of wtime, btime, winc, binc, movestogo was given
	movesToGo                int           // 0: sudden death
	moveTime                 time.Duration // with moveTimeSet; ≤ 0 means move at once
	moveTimeSet              bool
	depth                    int   // 1 … maxPly−1; 0: unset
	nodes                    int64 // ≥ 1; 0: unset
	infinite                 bool  // bestmove only after stop
	ponder                   bool  // no time limit until ponderhit; bestmove only after ponderhit or stop
	searchMoves              []string
}

// budget is the time plan of one search, measured from the start of its clock (the go
// command, or ponderhit for go ponder).
type budget struct {
	timed bool          // false: no time limit (depth, nodes, infinite, a bare go)
	soft  time.Duration // no iteration is started after soft
	hard  time.Duration // the search stops at hard (a timer and every thread's clock check)
}

// timeBudget returns the time plan for the side to move (white = true for White) and a
// note for an "info string" when the go command lacks the side to move's clock (empty
// otherwise). overhead is the safety margin kept on the clock (communication, GUI lag).
//
//   - movetime t: hard = soft = t − overhead, at least t/2 and 1 ms; t ≤ 0 moves at once.
//   - remaining time ≤ 0 (wtime 0, a flagged clock): move at once (1 ms; the first
//     iteration still completes, see searcher.timeUp).
//   - remaining time r > 0 with increment i: B = i + r/50 (thesis §2.6), with movestogo n at
//     least r/(n+1) + i; B ≤ r − overhead and B ≤ r/2 + i/2; hard = B, soft = B/2.
//   - increment without remaining time (go winc 1000): hard = i − overhead (at least i/2),
//     soft = hard/2, with a note.
//   - clock tokens without remaining time or increment for the side to move (go
//     movestogo 10, or only btime while White is to move): move at once, with a note.
//   - no clock and no movetime: no time limit.
func (l *Limits) timeBudget(white bool, overhead time.Duration) (budget, string) {
	const ms = time.Millisecond
	if l.infinite {
		return budget{}, ""
	}
	if l.moveTimeSet {
		h := max(l.moveTime-overhead, l.moveTime/2, ms)
		return budget{timed: true, soft: h, hard: h}, ""
	}
	if !l.clock {
		return budget{}, ""
	}
	rem, set, inc, name := l.btime, l.btimeSet, l.binc, "btime"
	if white {
		rem, set, inc, name = l.wtime, l.wtimeSet, l.winc, "wtime"
	}
	now := budget{timed: true, soft: ms, hard: ms}
	switch {
	case !set && inc > 0:
		h := max(inc-overhead, inc/2, ms)
		return budget{timed: true, soft: max(h/2, ms), hard: h},
			fmt.Sprintf("go: no %s for the side to move: spending the increment", name)
	case !set:
		return now, fmt.Sprintf("go: no %s or increment for the side to move: moving at once", name)
	case rem <= 0:
		return now, ""
	}
	b := inc + rem/50 // thesis §2.6: increment + 2 % of the remaining time
	if l.movesToGo > 0 {
		// Classical controls: never plan less than an even share of the time to the
		// next control (the 2 % rule alone would leave time unused).
		b = max(b, rem/time.Duration(l.movesToGo+1)+inc)
	}
	// Safety: never use more than the remaining time less the overhead, nor more than
	// half of it in one move.
	b = max(min(b, rem-overhead, rem/2+inc/2), ms)
	return budget{timed: true, soft: max(b/2, ms), hard: b}, ""
}
