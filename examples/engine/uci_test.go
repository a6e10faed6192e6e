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

// TestPositionHistory: the position command keeps the keys of the game positions before the
// root (since the last irreversible move) for repetitions.
func TestPositionHistory(t *testing.T) {
	e := quietEngine(t)
	if err := e.position(strings.Fields("fen 6k1/8/8/8/8/8/8/q5K1 w - - 0 1 moves g1h2 a1b1 h2g3 b1a1 g3h2 a1b1")); err != nil {
		t.Fatal(err)
	}
	if len(e.history) != 6 {
		t.Fatalf("history: %d keys, want 6", len(e.history))
	}
}
