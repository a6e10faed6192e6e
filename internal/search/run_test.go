package search

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseGo covers the go parameters, their clamps and the tokens it skips.
func TestParseGo(t *testing.T) {
	l, notes := ParseGo(strings.Fields("wtime 60000 btime 50000 winc 1000 binc 900 movestogo 20"))
	if len(notes) > 0 || l.wtime != time.Minute || l.btime != 50*time.Second || l.winc != time.Second || l.binc != 900*time.Millisecond || l.movesToGo != 20 || !l.clock || !l.wtimeSet || !l.btimeSet {
		t.Fatalf("ParseGo: %+v, %v", l, notes)
	}
	l, notes = ParseGo(strings.Fields("depth 7 nodes 1000 infinite ponder"))
	if len(notes) > 0 || l.depth != 7 || l.nodes != 1000 || !l.infinite || !l.ponder || l.clock {
		t.Fatalf("ParseGo: %+v, %v", l, notes)
	}
	l, notes = ParseGo(strings.Fields("searchmoves e2e4 d2d4 xx movetime 50"))
	if len(notes) > 0 || !slices.Equal(l.searchMoves, []string{"e2e4", "d2d4", "xx"}) || l.moveTime != 50*time.Millisecond || !l.moveTimeSet {
		t.Fatalf("ParseGo searchmoves: %+v, %v", l, notes)
	}
	// Clamps: no value overflows a Duration, nothing is negative that must not be.
	l, _ = ParseGo(strings.Fields("wtime 99999999999999999999 btime -99999999999999999999 winc -5 movetime 9223372036854775807 movestogo -3 depth 1000 nodes -1 mate 99999999999"))
	if l.wtime != maxTimeMs*time.Millisecond || l.btime != -maxTimeMs*time.Millisecond || l.winc != 0 ||
		l.moveTime != maxTimeMs*time.Millisecond || l.movesToGo != 0 || l.depth != maxPly-1 || l.nodes != 1 {
		t.Fatalf("ParseGo clamps: %+v", l)
	}
	for bad, want := range map[string]string{
		"depth":            "go: depth without a value ignored",
		"depth x":          `go: depth "x" is not an integer, ignored`,
		"wtime 1e3":        `go: wtime "1e3" is not an integer, ignored`,
		"bogus 1":          `go: unknown parameter "bogus" ignored`,
		"searchmoves":      "go: searchmoves without moves ignored",
		"wtime movetime 5": "go: wtime without a value ignored",
	} {
		l, notes := ParseGo(strings.Fields(bad))
		if len(notes) == 0 || notes[0] != want {
			t.Errorf("ParseGo(%q): notes %q, want first %q", bad, notes, want)
		}
		if bad == "wtime movetime 5" && (!l.moveTimeSet || l.moveTime != 5*time.Millisecond) {
			t.Errorf("ParseGo(%q): movetime lost: %+v", bad, l)
		}
	}
}

// FuzzParseGo: no go command makes ParseGo return a value outside its clamps or a time
// budget that is negative or inverted.
func FuzzParseGo(f *testing.F) {
	for _, s := range []string{
		"wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
		"depth -1 nodes 99999999999999999999",
		"wtime 0 btime -5 movestogo 3", "movetime 9223372036854775807", "searchmoves e2e4 d2d4 depth 3",
		"ponder wtime 100 btime 100", "frob 1 depth x wtime", "mate 99999999999", "infinite",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l, _ := ParseGo(strings.Fields(line))
		const maxT = maxTimeMs * time.Millisecond
		if l.depth < 0 || l.depth >= maxPly || l.nodes < 0 || l.movesToGo < 0 || l.movesToGo > maxMovesToGo ||
			l.winc < 0 || l.binc < 0 || max(l.wtime, l.btime, l.winc, l.binc, l.moveTime) > maxT ||
			min(l.wtime, l.btime, l.moveTime) < -maxT {
			t.Fatalf("ParseGo(%q) = %+v out of range", line, l)
		}
		for _, white := range []bool{true, false} {
			b, _ := l.timeBudget(white, 30*time.Millisecond)
			if b.soft < 0 || b.soft > b.hard || b.timed != (b.hard > 0) {
				t.Fatalf("go %q: budget %+v", line, b)
			}
		}
	})
}
