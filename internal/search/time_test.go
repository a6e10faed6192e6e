package search

import (
	"math"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestTimeBudget: thesis §2.6 (increment + 2 % of the remaining time), movetime less the
// overhead, the safety caps, and the go forms without a usable clock.
func TestTimeBudget(t *testing.T) {
	ms := time.Millisecond
	clock := func(l Limits) Limits {
		l.clock = true
		l.wtimeSet = l.wtime != 0 || l.wtimeSet
		l.btimeSet = l.btime != 0 || l.btimeSet
		return l
	}
	cases := []struct {
		name       string
		l          Limits
		white      bool
		timed      bool
		soft, hard time.Duration
	}{
		{"movetime", Limits{moveTime: 100 * ms, moveTimeSet: true}, true, true, 70 * ms, 70 * ms},
		{"movetime 300 spent to its end", Limits{moveTime: 300 * ms, moveTimeSet: true}, true, true, 270 * ms, 270 * ms},
		{"movetime below the overhead", Limits{moveTime: 40 * ms, moveTimeSet: true}, true, true, 20 * ms, 20 * ms},
		{"movetime 0", Limits{moveTimeSet: true}, true, true, ms, ms},
		{"thesis rule white", clock(Limits{wtime: 60000 * ms, winc: 1000 * ms, btime: 1000 * ms}), true, true, 1100 * ms, 2200 * ms},
		{"thesis rule black", clock(Limits{wtime: 60000 * ms, btime: 10000 * ms, binc: 100 * ms}), false, true, 150 * ms, 300 * ms},
		{"movestogo share", clock(Limits{wtime: 40000 * ms, movesToGo: 9}), true, true, 2000 * ms, 4000 * ms},
		{"safety margin", clock(Limits{wtime: 40 * ms, winc: 2000 * ms}), true, true, 5 * ms, 10 * ms},
		{"nearly flagged", clock(Limits{wtime: 5 * ms}), true, true, ms, ms},
		{"wtime 0 moves at once", clock(Limits{wtimeSet: true, btime: 1000 * ms}), true, true, ms, ms},
		{"wtime < 0 moves at once", clock(Limits{wtime: -50 * ms, btime: 1000 * ms}), true, true, ms, ms},
		{"winc alone", clock(Limits{winc: 1000 * ms}), true, true, 485 * ms, 970 * ms},
		{"movestogo alone", clock(Limits{movesToGo: 10}), true, true, ms, ms},
		{"only the opponent's clock", clock(Limits{btime: 5000 * ms}), true, true, ms, ms},
		{"huge clock", clock(Limits{wtime: maxTimeMs * ms, winc: maxTimeMs * ms}), true, true, (maxTimeMs - 30) * ms / 2, (maxTimeMs - 30) * ms},
		{"infinite", Limits{infinite: true, wtime: 1000 * ms}, true, false, 0, 0},
		{"depth only", Limits{depth: 5}, true, false, 0, 0},
	}
	for _, c := range cases {
		b, _ := c.l.timeBudget(c.white, 30*ms)
		if b.timed != c.timed || b.soft != c.soft || b.hard != c.hard {
			t.Errorf("%s: budget %+v, want timed %v soft %v hard %v", c.name, b, c.timed, c.soft, c.hard)
		}
		if b.soft < 0 || b.hard < 0 || b.soft > b.hard {
			t.Errorf("%s: budget %+v out of order", c.name, b)
		}
	}
}

// TestTimeBudgetProperties: for any go values (parsed, so clamped), the budget is never
// negative, soft ≤ hard, and a clock leaves at least the overhead on it (or moves at once).
func TestTimeBudgetProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var args []string
		for _, k := range []string{"wtime", "btime", "winc", "binc", "movestogo", "movetime"} {
			if rapid.Bool().Draw(rt, k+"?") {
				v := rapid.OneOf(rapid.Int64Range(-1e6, 1e7), rapid.Int64(), rapid.Just(int64(math.MaxInt64))).Draw(rt, k)
				args = append(args, k, strconv.FormatInt(v, 10))
			}
		}
		l, _ := ParseGo(args)
		overhead := time.Duration(rapid.IntRange(0, 5000).Draw(rt, "overhead")) * time.Millisecond
		white := rapid.Bool().Draw(rt, "white")
		b, _ := l.timeBudget(white, overhead)
		if b.soft < 0 || b.hard < 0 || b.soft > b.hard || (b.timed && b.hard < time.Millisecond) {
			rt.Fatalf("go %v: budget %+v", args, b)
		}
		rem, set := l.btime, l.btimeSet
		if white {
			rem, set = l.wtime, l.wtimeSet
		}
		if set && !l.moveTimeSet && b.hard > max(rem-overhead, time.Millisecond) {
			rt.Fatalf("go %v: hard %v leaves less than the overhead %v of the clock %v", args, b.hard, overhead, rem)
		}
	})
}
