package uci

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLimitsClock: a timed search never becomes "go infinite" and never sends a clock of 0:
// clocks at or below zero (both sides, or one) are sent as 1 ms.
func TestLimitsClock(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		l    Limits
		want string
	}{
		{Limits{Clock: true}, "go wtime 1 btime 1"},
		{Limits{Clock: true, WTime: -5 * ms, BTime: -2 * ms}, "go wtime 1 btime 1"},
		{Limits{Clock: true, WTime: 700 * time.Microsecond, BTime: 30 * ms}, "go wtime 1 btime 30"},
		{Limits{WTime: -5 * ms, BTime: 40 * ms, WInc: 10 * ms, BInc: 10 * ms}, "go wtime 1 btime 40 winc 10 binc 10"},
		{Limits{Clock: true, WTime: 2 * time.Second, BTime: time.Second, MovesToGo: 5}, "go wtime 2000 btime 1000 movestogo 5"},
		{Limits{MoveTime: 400 * time.Microsecond}, "go movetime 1"},
		{Limits{}, "go infinite"},
	}
	for _, tc := range tests {
		if got := tc.l.Command(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.l, got, tc.want)
		}
	}
}

// TestFlood: an engine writing a 64 MiB line without a newline is a protocol error after
// MaxLineBytes, with bounded memory, not an out-of-memory crash.
func TestFlood(t *testing.T) {
	e, err := Start(fake(t, "flood", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Kill()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err = e.Go(PositionCommand("", nil), Limits{Nodes: 1}, time.Now().Add(30*time.Second))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "longer than 1048576 bytes") {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %s", d)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("%d MiB allocated reading the flood", alloc>>20)
	}
	e.Kill()
	if e.Alive() {
		t.Error("engine alive after Kill")
	}
}

// TestLineLimit: lines up to MaxLineBytes are read whole, CRLF line ends removed.
func TestLineLimit(t *testing.T) {
	long := strings.Repeat("y", MaxLineBytes)
	r := strings.NewReader("a\r\n\n" + long + "\r\n" + long + "z\n")
	lines := make(chan string, 10)
	err := readLines(r, lines, newQueueBudget(maxQueuedBytes), make(chan struct{}))
	if !errors.Is(err, ErrProtocol) || len(lines) != 2 || <-lines != "a" || <-lines != long {
		t.Errorf("err %v, %d lines", err, len(lines))
	}
}

// TestWrapperHang: a hung engine started by a shell script without exec (the script holds
// the engine as a child, which holds the output pipe): Kill and Close return in bounded time
// and the engine process is gone.
func TestWrapperHang(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "engine")); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "wrapper.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncd "+dir+"\n./engine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := fake(t, "hang", 1)
	s.Cmd = script
	for _, how := range []string{"kill", "close"} {
		e, err := Start(s)
		if err != nil {
			t.Fatal(err)
		}
		child := childPID(e.p.cmd.Process.Pid)
		if _, err := e.Go(PositionCommand("", nil), Limits{Nodes: 1}, time.Now().Add(200*time.Millisecond)); !errors.Is(err, ErrTimeout) {
			t.Fatalf("error %v", err)
		}
		done := make(chan struct{})
		go func() {
			if how == "kill" {
				e.Kill()
			} else {
				e.Close()
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s of a hung engine behind a wrapper did not return", how)
		}
		if child > 0 && processLives(child) {
			t.Errorf("%s: the engine process %d outlives its wrapper", how, child)
		}
	}
}

// childPID returns the first child of pid (from /proc), or 0.
func childPID(pid int) int {
	p := strconv.Itoa(pid)
	b, err := os.ReadFile("/proc/" + p + "/task/" + p + "/children")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// processLives reports whether pid exists and is not a zombie, waiting up to 2 s for it to go.
func processLives(pid int) bool {
	for range 200 {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && strings.HasPrefix(string(b[i:]), ") Z") {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// TestGoContext: a search of a hung engine ends when the context does.
func TestGoContext(t *testing.T) {
	e, err := Start(fake(t, "hang", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = e.GoContext(ctx, PositionCommand("", nil), Limits{}, time.Time{})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("error %v after %s", err, time.Since(start))
	}
}

func TestParseOptionSpec(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want OptionSpec
	}{
		{"option name Hash type spin default 16 min 1 max 33554432", true, OptionSpec{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 33554432, HasMin: true, HasMax: true}},
		{"option name Skill Level type spin default 20 min 0 max 20", true, OptionSpec{Name: "Skill Level", Type: "spin", Default: "20", Max: 20, HasMin: true, HasMax: true}},
		{"option name SyzygyPath type string default <empty>", true, OptionSpec{Name: "SyzygyPath", Type: "string", Default: "<empty>"}},
		{"option name Clear Hash type button", true, OptionSpec{Name: "Clear Hash", Type: "button"}},
		{"option name Hash type spin min x", false, OptionSpec{}},
		{"option name Hash", false, OptionSpec{}},
		{"option type spin", false, OptionSpec{}},
		{"id name x", false, OptionSpec{}},
	}
	for _, tc := range tests {
		got, ok := ParseOptionSpec(tc.line)
		if ok != tc.ok || got.Name != tc.want.Name || got.Type != tc.want.Type || got.Default != tc.want.Default ||
			got.Min != tc.want.Min || got.Max != tc.want.Max || got.HasMin != tc.want.HasMin || got.HasMax != tc.want.HasMax {
			t.Errorf("%q: %+v %v, want %+v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
	o, ok := ParseOptionSpec("option name Style type combo default Normal var Solid var Normal var Risky")
	if !ok || len(o.Vars) != 3 || o.Vars[2] != "Risky" {
		t.Errorf("combo %+v", o)
	}
}

// TestOptions: options the engine did not declare, values outside its declared range and a
// missing network file fail Start (ErrOption), or with Lenient are skipped and listed; the
// options set are recorded as the engine spells them.
func TestOptions(t *testing.T) {
	net := filepath.Join(t.TempDir(), "x.nnue")
	os.WriteFile(net, []byte("net"), 0o644)
	for _, tc := range []struct {
		opts []Option
		bad  string // "" if accepted
	}{
		{[]Option{{"hash", "8"}, {"skill level", "3"}, {"EvalFile", net}, {"Style", "risky"}, {"Ponder", "true"}, {"Clear Hash", ""}}, ""},
		{[]Option{{"EvalFile", "<default>"}}, ""},
		{[]Option{{"Hsh", "64"}}, `"Hsh" is not an option of this engine`},
		{[]Option{{"Skil Level", "3"}}, `"Skil Level" is not an option`},
		{[]Option{{"Hash", "2048"}}, "outside the declared range 1 … 1024"},
		{[]Option{{"Threads", "x"}}, "not an integer"},
		{[]Option{{"Ponder", "yes"}}, "true or false"},
		{[]Option{{"Style", "Wild"}}, "not one of Solid, Normal, Risky"},
		{[]Option{{"EvalFile", "/nonexistent/x.nnue"}}, "no such file"},
		{[]Option{{"EvalFile", filepath.Dir(net)}}, "not a regular file"},
	} {
		s := fake(t, "first", 1)
		s.Options = tc.opts
		e, err := Start(s)
		if tc.bad == "" {
			if err != nil {
				t.Errorf("%v: %v", tc.opts, err)
				continue
			}
			if len(e.Accepted) != len(tc.opts) || (tc.opts[0].Name == "hash" && e.Accepted[0].Name != "Hash") {
				t.Errorf("%v: accepted %v", tc.opts, e.Accepted)
			}
			e.Close()
			continue
		}
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), tc.bad) {
			t.Errorf("%v: error %v, want %q", tc.opts, err, tc.bad)
		}
		s.Lenient = true
		s.Options = append([]Option{{"Hash", "8"}}, tc.opts...)
		e, err = Start(s)
		if err != nil {
			t.Errorf("lenient %v: %v", tc.opts, err)
			continue
		}
		if len(e.Accepted) != 1 || len(e.Rejected) != 1 || !errors.Is(e.Rejected[0].Err, ErrOption) {
			t.Errorf("lenient %v: accepted %v rejected %v", tc.opts, e.Accepted, e.Rejected)
		}
		e.Close()
	}
}

// FuzzParseOptionSpec: any line parses or is refused without a panic; a parsed option has a
// name and a non-empty type, both words of the line.
func FuzzParseOptionSpec(f *testing.F) {
	for _, s := range []string{"option name Hash type spin default 16 min 1 max 33554432", "option name Skill Level type spin default 20 min 0 max 20",
		"option name Style type combo default Normal var Solid var Normal var Risky", "option name Clear Hash type button",
		"option name name type string default <empty>", "option name x type spin min 99999999999999999999", "option name", "option type"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, ok := ParseOptionSpec(line)
		if ok && (o.Name == "" || o.Type == "" || !slices.Contains(strings.Fields(line), "type")) {
			t.Errorf("%q: %+v", line, o)
		}
	})
}
