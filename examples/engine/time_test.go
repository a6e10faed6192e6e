package main

import (
	"testing"
	"time"
)

// TestTimeBudget: thesis §2.6 (increment + 2 % of the remaining time), movetime less the
// overhead, and the safety caps.
func TestTimeBudget(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name  string
		l     limits
		white bool
		want  time.Duration
	}{
		{"movetime", limits{moveTime: 100 * ms}, true, 70 * ms},
		{"thesis rule white", limits{wtime: 60000 * ms, winc: 1000 * ms, btime: 1000 * ms}, true, 2200 * ms},
		{"thesis rule black", limits{wtime: 60000 * ms, btime: 10000 * ms, binc: 100 * ms}, false, 300 * ms},
		{"movestogo share", limits{wtime: 40000 * ms, movesToGo: 9}, true, 4000 * ms},
		{"safety margin", limits{wtime: 40 * ms, winc: 2000 * ms}, true, 10 * ms},
		{"nearly flagged", limits{wtime: 5 * ms}, true, ms},
		{"infinite", limits{infinite: true, wtime: 1000 * ms}, true, 0},
		{"depth only", limits{depth: 5}, true, 0},
	}
	for _, c := range cases {
		if got := c.l.timeBudget(c.white, 30*ms); got != c.want {
			t.Errorf("%s: budget %v, want %v", c.name, got, c.want)
		}
	}
}
