package main

import (
	"bytes"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

var (
	infoRE = regexp.MustCompile(`^info depth \d+ seldepth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$`)
	bestRE = regexp.MustCompile(`^bestmove ([a-h][1-8][a-h][1-8][qrbn]?|0000)( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$`)
)

// session drives an engine through a pipe, as a GUI does, and timestamps every output
// line.
type session struct {
	t    *testing.T
	w    *io.PipeWriter
	out  *lineLog
	next int // index of the first line not consumed by expect
	done chan struct{}
}

func newSession(t *testing.T) *session {
	t.Helper()
	r, w := io.Pipe()
	s := &session{t: t, w: w, out: &lineLog{}, done: make(chan struct{})}
	e := newEngine(s.out)
	go func() {
		defer close(s.done)
		e.run(r)
	}()
	t.Cleanup(func() {
		w.Close()
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			t.Error("the engine did not end at the end of its input")
		}
	})
	return s
}

func (s *session) send(line string) time.Time {
	now := time.Now()
	for _, p := range []string{line, "\n"} { // two writes: no copy of a long line
		if _, err := io.WriteString(s.w, p); err != nil {
			s.t.Fatal(err)
		}
	}
	return now
}

// waitFor waits until the output has n lines matching re (generous timeout: a loaded
// machine; speed is not asserted here).
func (s *session) waitFor(re *regexp.Regexp, n int) []string {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var got []string
		for _, l := range s.out.lines() {
			if re.MatchString(l.text) {
				got = append(got, l.text)
			}
		}
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timeout waiting for %v (×%d); output:\n%s", re, n, s.out.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// expect returns the first line after the last expected one that matches re and when it
// was written; ok is false when none came within timeout.
func (s *session) expect(re *regexp.Regexp, timeout time.Duration) (line string, at time.Time, ok bool) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ls := s.out.lines()
		for i := s.next; i < len(ls); i++ {
			if re.MatchString(ls[i].text) {
				s.next = i + 1
				return ls[i].text, ls[i].at, true
			}
		}
		if time.Now().After(deadline) {
			return "", time.Time{}, false
		}
		time.Sleep(time.Millisecond)
	}
}

// lineLog is an io.Writer that records every complete line with the time it was written;
// safe for a concurrent reader.
type lineLog struct {
	mu   sync.Mutex
	part []byte
	ls   []logLine
}

type logLine struct {
	at   time.Time
	text string
}

func (l *lineLog) Write(p []byte) (int, error) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.part = append(l.part, p...)
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			break
		}
		l.ls = append(l.ls, logLine{now, string(l.part[:i])})
		l.part = l.part[i+1:]
	}
	return len(p), nil
}

func (l *lineLog) lines() []logLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.ls)
}

func (l *lineLog) String() string {
	var b strings.Builder
	for _, x := range l.lines() {
		b.WriteString(x.text + "\n")
	}
	return b.String()
}

// TestUCISession: start, options, position with moves, go movetime, go infinite + stop,
// bad input, quit — every output line is well formed and every bestmove legal.
func TestUCISession(t *testing.T) {
	s := newSession(t)
	s.send("uci")
	s.waitFor(regexp.MustCompile(`^uciok$`), 1)
	s.send("setoption name Hash value 16")
	s.send("isready")
	s.waitFor(regexp.MustCompile(`^readyok$`), 1)
	s.send("ucinewgame")
	s.send("position startpos moves e2e4 e7e5 g1f3")
	s.send("go movetime 200")
	best := s.waitFor(bestRE, 1)
	pos := board.StartPosition()
	for _, mv := range []string{"e2e4", "e7e5", "g1f3"} {
		m, err := board.ParseUCIMove(&pos, mv)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ = pos.Play(m)
	}
	checkLegal(t, &pos, strings.Fields(best[0])[1])

	s.send("go infinite")
	s.waitFor(infoRE, 2)
	time.Sleep(50 * time.Millisecond)
	s.send("stop")
	best = s.waitFor(bestRE, 2)
	checkLegal(t, &pos, strings.Fields(best[1])[1])

	// Bad input: each answered by an info string error, the engine keeps running.
	for _, bad := range []string{
		"position fen not/a/fen w - - 0 1",
		"position startpos moves e2e5",
		"setoption name Hash value lots",
		"setoption name Nonsense value 1",
		"frobnicate",
		"bench -3",
		"setoption name EvalFile value /nonexistent.nnue",
	} {
		s.send(bad)
	}
	s.waitFor(regexp.MustCompile(`^info string error: `), 7)
	s.send("go depth x") // a bad go parameter: a warning, and the go searches until stop
	s.waitFor(regexp.MustCompile(`^info string warning: go: depth "x" is not an integer, ignored$`), 1)
	s.send("stop")
	s.waitFor(regexp.MustCompile(`^bestmove 0000$`), 1) // the last position was rejected
	s.send("position startpos moves e2e4 e7e5 g1f3")
	s.send("go depth 3")
	best = s.waitFor(bestRE, 4)
	checkLegal(t, &pos, strings.Fields(best[3])[1])
	s.send("eval")
	s.waitFor(regexp.MustCompile(`^info string NNUE evaluation -?\d+ `), 1)
	s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") // stalemate: no legal move
	s.send("go depth 2")
	s.waitFor(regexp.MustCompile(`^bestmove 0000$`), 2)
	s.send("quit")
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("quit did not end the engine")
	}
	for _, l := range strings.Split(strings.TrimSpace(s.out.String()), "\n") {
		switch {
		case strings.HasPrefix(l, "info depth") && !strings.HasPrefix(l, "info depth 0"):
			if !infoRE.MatchString(l) {
				t.Errorf("malformed info line %q", l)
			}
		case strings.HasPrefix(l, "bestmove"):
			if !bestRE.MatchString(l) {
				t.Errorf("malformed bestmove line %q", l)
			}
		}
	}
}

func checkLegal(t *testing.T, pos *board.Position, uci string) {
	t.Helper()
	m, err := board.ParseUCIMove(pos, uci)
	if err != nil || !pos.IsLegal(m) {
		t.Fatalf("bestmove %s is not legal in %s (%v)", uci, pos.FEN(), err)
	}
}

// TestParseGo covers the go parameters, their clamps and the tokens it skips.
func TestParseGo(t *testing.T) {
	l, notes := parseGo(strings.Fields("wtime 60000 btime 50000 winc 1000 binc 900 movestogo 20"))
	if len(notes) > 0 || l.wtime != time.Minute || l.btime != 50*time.Second || l.winc != time.Second || l.binc != 900*time.Millisecond || l.movesToGo != 20 || !l.clock || !l.wtimeSet || !l.btimeSet {
		t.Fatalf("parseGo: %+v, %v", l, notes)
	}
	l, notes = parseGo(strings.Fields("depth 7 nodes 1000 infinite ponder"))
	if len(notes) > 0 || l.depth != 7 || l.nodes != 1000 || !l.infinite || !l.ponder || l.clock {
		t.Fatalf("parseGo: %+v, %v", l, notes)
	}
	l, notes = parseGo(strings.Fields("searchmoves e2e4 d2d4 xx movetime 50"))
	if len(notes) > 0 || !slices.Equal(l.searchMoves, []string{"e2e4", "d2d4", "xx"}) || l.moveTime != 50*time.Millisecond || !l.moveTimeSet {
		t.Fatalf("parseGo searchmoves: %+v, %v", l, notes)
	}
	// Clamps: no value overflows a Duration, nothing is negative that must not be.
	l, _ = parseGo(strings.Fields("wtime 99999999999999999999 btime -99999999999999999999 winc -5 movetime 9223372036854775807 movestogo -3 depth 1000 nodes -1 mate 99999999999"))
	if l.wtime != maxTimeMs*time.Millisecond || l.btime != -maxTimeMs*time.Millisecond || l.winc != 0 ||
		l.moveTime != maxTimeMs*time.Millisecond || l.movesToGo != 0 || l.depth != maxPly-1 || l.nodes != 1 {
		t.Fatalf("parseGo clamps: %+v", l)
	}
	for bad, want := range map[string]string{
		"depth":            "go: depth without a value ignored",
		"depth x":          `go: depth "x" is not an integer, ignored`,
		"wtime 1e3":        `go: wtime "1e3" is not an integer, ignored`,
		"bogus 1":          `go: unknown parameter "bogus" ignored`,
		"searchmoves":      "go: searchmoves without moves ignored",
		"wtime movetime 5": "go: wtime without a value ignored",
	} {
		l, notes := parseGo(strings.Fields(bad))
		if len(notes) == 0 || notes[0] != want {
			t.Errorf("parseGo(%q): notes %q, want first %q", bad, notes, want)
		}
		if bad == "wtime movetime 5" && (!l.moveTimeSet || l.moveTime != 5*time.Millisecond) {
			t.Errorf("parseGo(%q): movetime lost: %+v", bad, l)
		}
	}
}
