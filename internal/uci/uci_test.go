package uci

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/internal/uci/ucitest"
)

func TestMain(m *testing.M) {
	ucitest.MaybeRun()
	os.Exit(m.Run())
}

func fake(t *testing.T, mode string, after int) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Name: "fake", Cmd: exe, Env: []string{
		ucitest.EnvMode + "=" + mode, ucitest.EnvAfter + "=" + string(rune('0'+after)), ucitest.EnvSleep + "=2s",
	}, Options: []Option{{"Hash", "8"}}, StartTimeout: 5 * time.Second}
}

func TestFakeGame(t *testing.T) {
	e, err := Start(fake(t, "first", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.IDName != "fake-first" || e.IDAuthor != "nnuekit ucitest" || e.Name() != "fake" {
		t.Errorf("id %q %q name %q", e.IDName, e.IDAuthor, e.Name())
	}
	if err := e.NewGame(time.Second); err != nil {
		t.Fatal(err)
	}
	r, err := e.Go(PositionCommand("", []string{"e2e4"}), Limits{MoveTime: 10 * time.Millisecond}, time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if r.BestMove != "a7a5" || !r.Info.HasScore || r.Info.Score.CP != 0 || r.Depth != 1 || r.Nodes != 1 {
		t.Errorf("result %+v", r)
	}
	r, err = e.Go(PositionCommand("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", nil), Limits{Nodes: 10}, time.Time{})
	if err != nil || r.Info.Score.CP != -900 {
		t.Errorf("result %+v, %v", r, err)
	}
}

func TestCrash(t *testing.T) {
	e, err := Start(fake(t, "crash", 2))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	pos := PositionCommand("", nil)
	if _, err := e.Go(pos, Limits{Nodes: 1}, time.Now().Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = e.Go(pos, Limits{Nodes: 1}, time.Now().Add(5*time.Second))
	var ee *Error
	if !errors.Is(err, ErrExited) || !errors.As(err, &ee) || !strings.Contains(ee.Stderr, "deliberate crash") ||
		!strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("error %v", err)
	}
	if e.Alive() {
		t.Error("crashed engine alive")
	}
	if err := e.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Go(pos, Limits{Nodes: 1}, time.Now().Add(5*time.Second)); err != nil {
		t.Errorf("after restart: %v", err)
	}
}

func TestHang(t *testing.T) {
	e, err := Start(fake(t, "hang", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	start := time.Now()
	_, err = e.Go(PositionCommand("", nil), Limits{MoveTime: 10 * time.Millisecond}, time.Now().Add(200*time.Millisecond))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout took %s", d)
	}
	if _, err := e.Stop(100 * time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Errorf("stop: %v", err)
	}
	e.Kill()
	if e.Alive() {
		t.Error("killed engine alive")
	}
}

func TestStartFailures(t *testing.T) {
	if _, err := Start(Spec{Cmd: "/nonexistent/engine"}); err == nil {
		t.Error("nonexistent engine started")
	}
	s := fake(t, "nouci", 1)
	s.StartTimeout = 200 * time.Millisecond
	if _, err := Start(s); !errors.Is(err, ErrTimeout) {
		t.Errorf("nouci: %v", err)
	}
	if _, err := Start(fake(t, "exit", 1)); !errors.Is(err, ErrExited) {
		t.Errorf("exit: %v", err)
	}
}

func TestStockfish(t *testing.T) {
	const sf = "/usr/games/stockfish"
	if _, err := os.Stat(sf); err != nil {
		t.Skipf("%s absent (apt-get install stockfish): %v", sf, err)
	}
	e, err := Start(Spec{Cmd: sf, Options: []Option{{"Threads", "1"}, {"Hash", "16"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !strings.HasPrefix(e.IDName, "Stockfish") {
		t.Errorf("id name %q", e.IDName)
	}
	// Mate in one: Qd8# is the only mate; a search must find it with a mate score.
	r, err := e.Go(PositionCommand("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1", nil), Limits{Depth: 5}, time.Now().Add(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if r.BestMove != "d1d8" || !r.Info.Score.IsMate || r.Info.Score.Mate != 1 {
		t.Errorf("result %+v", r)
	}
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want Info
	}{
		{"info depth 3 score mate -2", true, Info{Depth: 3, HasScore: true, Score: Score{Mate: -2, IsMate: true}}},
		{"info string NNUE evaluation enabled", true, Info{}},
		{"info depth 3 score cp x", false, Info{}},
		{"info depth 3 score", false, Info{}},
		{"bestmove e2e4", false, Info{}},
		{"info multipv 2 score cp 10 lowerbound", true, Info{MultiPV: 2, HasScore: true, Score: Score{CP: 10, LowerBound: true}}},
	}
	for _, tc := range tests {
		got, ok := ParseInfo(tc.line)
		if ok != tc.ok || got.Depth != tc.want.Depth || got.HasScore != tc.want.HasScore || got.Score != tc.want.Score || got.MultiPV != tc.want.MultiPV {
			t.Errorf("%q: %+v %v, want %+v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
	for _, s := range []struct {
		s    Score
		str  string
		cent int
	}{{Score{CP: 35}, "+0.35", 35}, {Score{CP: -120}, "-1.20", -120}, {Score{Mate: 5, IsMate: true}, "+M5", 99995}, {Score{Mate: -3, IsMate: true}, "-M3", -99997}} {
		if s.s.String() != s.str || s.s.Centipawns() != s.cent {
			t.Errorf("%+v: %s %d", s.s, s.s.String(), s.s.Centipawns())
		}
	}
	if got := (Limits{}).Command(); got != "go infinite" {
		t.Errorf("zero limits: %q", got)
	}
	if got := (Limits{MoveTime: 100 * time.Millisecond, Nodes: 5}).Command(); got != "go movetime 100 nodes 5" {
		t.Errorf("%q", got)
	}
}

func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{"info depth 12 seldepth 17 multipv 1 score cp -35 upperbound nodes 48213 nps 401775 time 120 pv e7e5 g1f3",
		"info string x", "info score mate 0", "info depth"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, ok := ParseInfo(s)
		if !ok && in.HasScore {
			t.Errorf("%q: not ok but has a score", s)
		}
	})
}
