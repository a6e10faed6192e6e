package main

import (
	"bufio"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

var (
	infoRE = regexp.MustCompile(`^info depth \d+ seldepth \d+ score (cp -?\d+|mate -?\d+) nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$`)
	bestRE = regexp.MustCompile(`^bestmove ([a-h][1-8][a-h][1-8][qrbn]?|0000)$`)
)

// session drives an engine through a pipe, as a GUI does.
type session struct {
	t    *testing.T
	w    *io.PipeWriter
	out  *syncBuffer
	done chan struct{}
}

func newSession(t *testing.T) *session {
	r, w := io.Pipe()
	s := &session{t: t, w: w, out: &syncBuffer{}, done: make(chan struct{})}
	e := newEngine(s.out)
	go func() {
		defer close(s.done)
		e.run(bufio.NewReader(r))
	}()
	return s
}

func (s *session) send(line string) {
	if _, err := io.WriteString(s.w, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// waitFor waits until the output has n lines matching re (generous timeout: a loaded
// machine; speed is not asserted here).
func (s *session) waitFor(re *regexp.Regexp, n int) []string {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var got []string
		for _, l := range strings.Split(s.out.String(), "\n") {
			if re.MatchString(l) {
				got = append(got, l)
			}
		}
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timeout waiting for %v (×%d); output:\n%s", re, n, s.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
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
		"go depth x",
		"frobnicate",
		"bench -3",
		"setoption name EvalFile value /nonexistent.nnue",
	} {
		s.send(bad)
	}
	s.waitFor(regexp.MustCompile(`^info string error: `), 8)
	// The failed position commands left the position unchanged: a search still works.
	s.send("go depth 3")
	best = s.waitFor(bestRE, 3)
	checkLegal(t, &pos, strings.Fields(best[2])[1])
	s.send("eval")
	s.waitFor(regexp.MustCompile(`^info string NNUE evaluation -?\d+ `), 1)
	s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") // stalemate: no legal move
	s.send("go depth 2")
	s.waitFor(regexp.MustCompile(`^bestmove 0000$`), 1)
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

// TestParseGo covers the go parameters and their errors.
func TestParseGo(t *testing.T) {
	l, err := parseGo(strings.Fields("wtime 60000 btime 50000 winc 1000 binc 900 movestogo 20"))
	if err != nil || l.wtime != time.Minute || l.btime != 50*time.Second || l.winc != time.Second || l.binc != 900*time.Millisecond || l.movesToGo != 20 {
		t.Fatalf("parseGo: %+v, %v", l, err)
	}
	l, err = parseGo(strings.Fields("depth 7 nodes 1000 infinite"))
	if err != nil || l.depth != 7 || l.nodes != 1000 || !l.infinite {
		t.Fatalf("parseGo: %+v, %v", l, err)
	}
	for _, bad := range []string{"depth", "depth x", "wtime 1e3", "bogus 1", "searchmoves e2e4"} {
		if _, err := parseGo(strings.Fields(bad)); err == nil {
			t.Errorf("parseGo(%q): no error", bad)
		}
	}
}
