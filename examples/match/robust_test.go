package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/elo"
	"github.com/nnuekit/nnuekit/internal/uci"
	"github.com/nnuekit/nnuekit/internal/uci/ucitest"
)

// TestSuddenDeath: -tc 0.05+0 between engines that spend 3/4 of their remaining time on each
// move and, like many engines, read "wtime 0" or "go infinite" as "no limit". Their clocks fall
// below zero within a few moves (the pipe's overhead is charged too); match must keep sending
// the real remaining time (at least 1 ms), so no game is lost on time. The margin is generous
// so that a loaded machine's scheduling delays are not time losses; the engines never hang.
func TestSuddenDeath(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "A", "clock", 0), fakeEngine(t, "B", "clock", 0))
	o.nodes, o.tc, o.margin, o.maxMoves = 0, "0.05+0", 3*time.Second, 30
	o.timeout = 10 * time.Second
	tr, log := runMatch(t, o)
	s := tr.summarize()
	if s.GamesPlayed != 2 || len(s.Forfeits) != 0 {
		t.Fatalf("summary %+v\nlog:\n%s", s, log.String())
	}
	// The clocks went below zero, or the test does not test anything: the clock after a
	// game's moves is 50 ms less their times (the PGN comments, "+0.00/1 0.012s").
	b, _ := os.ReadFile(o.pgn)
	for i, g := range strings.Split(string(b), "[Event ")[1:] {
		var used [2]float64
		for j, c := range strings.Split(g, "{")[1:] {
			f := strings.Fields(strings.TrimSuffix(strings.SplitN(c, "}", 2)[0], "s"))
			sec, err := strconv.ParseFloat(strings.TrimSuffix(f[len(f)-1], "s"), 64)
			if err != nil {
				t.Fatalf("comment %q: %v", c, err)
			}
			used[j%2] += sec
		}
		if used[0] <= 0.05 && used[1] <= 0.05 {
			t.Errorf("game %d: clocks never below zero (%.3f s and %.3f s used of 0.05)", i+1, used[0], used[1])
		}
	}
}

// TestOurEngineSuddenDeath: the repository's engine (examples/engine, built here) at -tc
// 0.05+0, 2 games of at most 60 moves each side, no time loss. Skipped with -short. The margin
// (5 s) only absorbs a loaded machine's scheduling (on an idle machine the default 200 ms is
// enough: doc/reliability.md); before match sent 1 ms for a clock at or below zero, the
// engine read "wtime 0" as "no limit" and lost every game on time whatever the margin.
func TestOurEngineSuddenDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds examples/engine")
	}
	bin := filepath.Join(t.TempDir(), "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../engine").CombinedOutput(); err != nil {
		t.Fatalf("building examples/engine: %v\n%s", err, out)
	}
	o := baseOptions(t, "name=a,cmd="+bin, "name=b,cmd="+bin)
	o.each = "option.Threads=1,option.Hash=8"
	o.nodes, o.tc, o.margin, o.maxMoves = 0, "0.05+0", 5*time.Second, 60
	o.openings = "openings/balanced.epd"
	tr, log := runMatch(t, o)
	if s := tr.summarize(); s.GamesPlayed != 2 || len(s.Forfeits) != 0 {
		t.Errorf("summary %+v\nlog:\n%s", s, log.String())
	}
}

// wrapperEngine writes a shell script that starts the fake engine without exec (the shell
// stays the engine's parent and the engine holds the pipes) and returns an -engine value.
func wrapperEngine(t *testing.T, name, mode string, after int) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "engine")); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncd "+dir+"\n./engine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return "name=" + name + ",cmd=" + script + ",env." + ucitest.EnvMode + "=" + mode + ",env." + ucitest.EnvAfter + "=" + itoa(after)
}

// inTime runs f and fails the test if it has not returned within d.
func inTime(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not end within %s", what, d)
	}
}

// TestWrapperHang: a hung engine behind a shell wrapper without exec loses on time, is killed
// with its whole process group and restarted, and the match ends.
func TestWrapperHang(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), wrapperEngine(t, "hang", "hang", 2))
	o.nodes, o.st, o.margin = 0, 0.05, 1500*time.Millisecond // generous: "good" must not lose on time on a loaded machine
	var tr *tournament
	var log *syncBuf
	inTime(t, 60*time.Second, "a match with a hung engine behind a wrapper", func() { tr, log = runMatch(t, o) })
	s := tr.summarize()
	if s.GamesPlayed != 2 || len(s.Forfeits) != 2 || !strings.Contains(s.Forfeits[0].Reason, "hung, restarted") {
		t.Errorf("summary %+v\nlog:\n%s", s, log.String())
	}
}

// TestInterrupt: cancelling the run (what SIGINT and SIGTERM do) while an engine hangs in a
// search without a clock ends the run at once with the summary and status 130, not after
// -timeout.
func TestInterrupt(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), wrapperEngine(t, "hang", "hang", 1))
	o.timeout = 60 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	var stdout, stderr bytes.Buffer
	status := 0
	start := time.Now()
	inTime(t, 30*time.Second, "an interrupted match", func() { status = runMain(ctx, o, false, &stdout, &stderr) })
	if status != 130 || !strings.Contains(stdout.String(), "0 of 2 games") || !strings.Contains(stderr.String(), "interrupted after 0 of 2 games") {
		t.Errorf("status %d after %s\nstdout:\n%s\nstderr:\n%s", status, time.Since(start), stdout.String(), stderr.String())
	}
	if _, err := os.Stat(outfile.LockPath(o.pgn)); err == nil {
		t.Error("lock file left behind")
	}
}

// TestFloodForfeit: an engine writing without newlines forfeits on a protocol error.
func TestFloodForfeit(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), fakeEngine(t, "flood", "flood", 2))
	tr, log := runMatch(t, o)
	s := tr.summarize()
	if len(s.Forfeits) != 2 || !strings.Contains(s.Forfeits[0].Reason, "broke the protocol") || !strings.Contains(s.Forfeits[0].Reason, "longer than 1048576 bytes") {
		t.Errorf("forfeits %+v\nlog:\n%s", s.Forfeits, log.String())
	}
}

// TestPGNWriteError: -pgn /dev/full: the first game cannot be written; the run ends with a
// clear error and the summary.
func TestPGNWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	o.pgn = "/dev/full"
	o.games = 20
	var stdout, stderr bytes.Buffer
	status := 0
	inTime(t, 60*time.Second, "a match writing to /dev/full", func() { status = runMain(context.Background(), o, false, &stdout, &stderr) })
	if status != 1 || !strings.Contains(stderr.String(), "writing game 1 to /dev/full") || !strings.Contains(stderr.String(), "no space left on device") ||
		!strings.Contains(stdout.String(), "of 20 games") {
		t.Errorf("status %d\nstdout:\n%s\nstderr:\n%s", status, stdout.String(), stderr.String())
	}
}

// onePGN plays a 2-game match and returns the text of its first game alone.
func onePGN(t *testing.T, o options) string {
	t.Helper()
	runMatch(t, o)
	b, err := os.ReadFile(o.pgn)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b[1:], []byte("[Event "))
	return string(b[:i+1])
}

// TestResumeTolerant: a one-game PGN file with CRLF line ends, trailing tabs, ";" comment
// lines or "%" lines is resumed with its game (the file is not cut), and the run completes it.
func TestResumeTolerant(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	game := onePGN(t, o)
	for name, text := range map[string]string{
		"crlf":         strings.ReplaceAll(game, "\n", "\r\n"),
		"tab":          strings.TrimRight(game, "\n") + "\t",
		"tabs":         strings.ReplaceAll(game, "\n", " \t\n"),
		"comment":      game + "; a comment line\n",
		"comment-crlf": strings.ReplaceAll(game+"; a comment\n", "\n", "\r\n"),
		"escape":       "% escape line\n" + game + "% another\n",
		"no-newline":   strings.TrimRight(game, "\n"),
	} {
		o.pgn = filepath.Join(t.TempDir(), name+".pgn")
		os.WriteFile(o.pgn, []byte(text), 0o644)
		var log syncBuf
		tr, err := setup(o, &log)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if tr.playedCount() != 1 || !strings.Contains(log.String(), "resumed 1 games from "+o.pgn) || strings.Contains(log.String(), "cutting") {
			t.Errorf("%s: %d games, log %s", name, tr.playedCount(), log.String())
		}
		if b, _ := os.ReadFile(o.pgn); string(b) != text {
			t.Errorf("%s: the file was changed on resume", name)
		}
		if err := tr.run(context.Background()); err != nil {
			t.Fatal(err)
		}
		tr.release()
		checkPGN(t, o.pgn, 2)
	}
}

// TestLock: a second run on the same -pgn is refused while the first holds it (the error
// names the lock file and the PID); a lock left by a process that is gone is taken over.
func TestLock(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	lock := outfile.LockPath(o.pgn)
	_, err = setup(o, &syncBuf{})
	if err == nil || !strings.Contains(err.Error(), lock) || !strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second run: %v", err)
	}
	tr.release()
	// A PID that does not exist: max pid is below 2^22 on Linux.
	os.WriteFile(lock, []byte("99999999\n"), 0o644)
	var log syncBuf
	tr, err = setup(o, &log)
	if err != nil || !strings.Contains(log.String(), "taking over the stale lock") {
		t.Fatalf("stale lock: %v, %s", err, log.String())
	}
	tr.release()
	if _, err := os.Stat(lock); err == nil {
		t.Error("lock not removed")
	}
}

// TestDefaults: no flag default names a file: no -pgn means no PGN written (nothing appears in
// the current directory), and -build-openings needs -out and refuses an existing one without
// -force.
func TestDefaults(t *testing.T) {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	c := defineFlags(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if c.o.pgn != "" || c.bc.out != "" || c.o.jsonOut != "" {
		t.Errorf("defaults: -pgn %q -out %q -json-out %q", c.o.pgn, c.bc.out, c.o.jsonOut)
	}
	var help bytes.Buffer
	fs.SetOutput(&help)
	fs.Usage()
	for _, want := range []string{"Usage:", "Example:", "match -engine", "-json-out"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("-help has no %q:\n%s", want, help.String())
		}
	}
	dir := t.TempDir()
	t.Chdir(dir)
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	o.pgn, o.openings = "", ""
	var stdout, stderr bytes.Buffer
	if st := runMain(context.Background(), o, false, &stdout, &stderr); st != 0 || !strings.Contains(stderr.String(), "no -pgn: the games are not saved") {
		t.Errorf("status %d, stderr %s", st, stderr.String())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written into the current directory: %v", ents)
	}
	bc := buildConfig{in: "testdata/openings.epd"}
	if err := buildOpenings(context.Background(), bc, io.Discard); err == nil || !strings.Contains(err.Error(), "needs -out") {
		t.Errorf("no -out: %v", err)
	}
	bc.out = filepath.Join(dir, "x.epd")
	os.WriteFile(bc.out, []byte("keep\n"), 0o644)
	if err := buildOpenings(context.Background(), bc, io.Discard); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("existing -out: %v", err)
	}
	if b, _ := os.ReadFile(bc.out); string(b) != "keep\n" {
		t.Error("existing -out changed")
	}
}

// TestOptionsChecked: an option the engine does not declare, a value outside its range, or a
// missing EvalFile stops match before any game; with -lenient it is skipped with a warning and
// the summary lists what the engine was given.
func TestOptionsChecked(t *testing.T) {
	for _, bad := range []string{"option.Hsh=64", "option.Skil Level=3", "option.Hash=4096", "option.EvalFile=/nonexistent/net.nnue"} {
		o := baseOptions(t, fakeEngine(t, "A", "first", 0)+","+bad, fakeEngine(t, "B", "first", 0))
		if _, err := setup(o, &syncBuf{}); err == nil || !strings.Contains(err.Error(), "option rejected") {
			t.Errorf("%s: %v", bad, err)
		}
		if _, err := os.Stat(o.pgn); err == nil {
			t.Errorf("%s: a PGN was written", bad)
		}
		o.lenient = true
		var log syncBuf
		tr, err := setup(o, &log)
		if err != nil {
			t.Errorf("%s, -lenient: %v", bad, err)
			continue
		}
		tr.release()
		name, _, _ := strings.Cut(strings.TrimPrefix(bad, "option."), "=")
		es := tr.summarize().Engines[0]
		if !strings.Contains(log.String(), "warning") || es.Options["Hash"] != "4" && name != "Hash" || es.OptionsRejected[name] == "" {
			t.Errorf("%s, -lenient: options %v rejected %v, log %s", bad, es.Options, es.OptionsRejected, log.String())
		}
		if _, ok := es.Options[name]; ok && name != "Hash" {
			t.Errorf("%s, -lenient: rejected option recorded as set: %v", bad, es.Options)
		}
	}
	// Names are matched without regard to case and recorded as the engine spells them.
	o := baseOptions(t, fakeEngine(t, "A", "first", 0)+",option.skill level=3", fakeEngine(t, "B", "first", 0))
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	tr.release()
	if es := tr.summarize().Engines[0]; es.Options["Skill Level"] != "3" {
		t.Errorf("options %v", es.Options)
	}
}

// TestJSON: -json prints the summary as JSON on stdout (and only that); -json-out FILE writes
// it to a file, refuses an existing file without -force, and replaces its own summary when the
// tournament is resumed.
func TestJSON(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	o.games = 20
	var stdout, stderr bytes.Buffer
	if st := runMain(context.Background(), o, true, &stdout, &stderr); st != 0 {
		t.Fatalf("status %d: %s", st, stderr.String())
	}
	var s summary
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil || s.GamesPlayed != 20 || s.Engines[0].Options["Hash"] != "4" {
		t.Errorf("stdout is not the JSON summary: %v\n%s", err, stdout.String())
	}
	o.pgn = ""
	o.jsonOut = filepath.Join(t.TempDir(), "j.json")
	os.WriteFile(o.jsonOut, []byte("{}\n"), 0o644)
	stdout.Reset()
	if st := runMain(context.Background(), o, false, &stdout, &stderr); st != 2 || !strings.Contains(stderr.String(), "exists") {
		t.Errorf("existing -json-out without -pgn: status %d, %s", st, stderr.String())
	}
	o.pgn = filepath.Join(t.TempDir(), "j.pgn")
	stderr.Reset()
	if st := runMain(context.Background(), o, false, &stdout, &stderr); st != 2 || !strings.Contains(stderr.String(), "exists") {
		t.Errorf("existing -json-out: status %d, %s", st, stderr.String())
	}
	o.force = true
	stderr.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // interrupt after the first game
		for ctx.Err() == nil {
			if b, _ := os.ReadFile(o.pgn); bytes.Contains(b, []byte("[Event ")) {
				cancel()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	st := runMain(ctx, o, false, &stdout, &stderr)
	cancel()
	b, err := os.ReadFile(o.jsonOut)
	if st != 130 || err != nil || json.Unmarshal(b, &s) != nil || s.GamesPlayed == 0 || s.GamesPlayed == 20 {
		t.Fatalf("interrupted run: status %d, %s\n%s", st, stderr.String(), b)
	}
	// Resumed without -force: its own summary is brought up to date.
	o.force = false
	if st := runMain(context.Background(), o, false, &stdout, &stderr); st != 0 {
		t.Fatalf("resumed run: status %d, %s", st, stderr.String())
	}
	b, _ = os.ReadFile(o.jsonOut)
	if json.Unmarshal(b, &s) != nil || s.GamesPlayed != 20 {
		t.Errorf("resumed summary:\n%s", b)
	}
}

// TestScoreBound: a score of 0 (or 100 %) prints a one-sided 95 % bound and a note, not -inf.
func TestScoreBound(t *testing.T) {
	tr := &tournament{names: []string{"A", "B"}, openings: []opening{{start: board.StartPosition()}}}
	tr.specs = make([]uci.Spec, 2)
	tr.makeSchedule(10, false, 1)
	for _, g := range tr.games {
		if g.white == 0 {
			tr.results[g.idx] = "0-1"
		} else {
			tr.results[g.idx] = "1-0"
		}
	}
	var out bytes.Buffer
	tr.printSummary(&out, tr.summarize())
	// 10 games lost: score ≤ 1 − 0.05^(1/10) = 0.2589 at 95 %, Elo ≤ −400·log10(1/0.2589 − 1) = −182.7.
	for _, want := range []string{"< -183", "A scored 0 (0 of 10) against B: no finite Elo estimate; Elo below -183 (95 %, one-sided)", "-prior N"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "inf") {
		t.Errorf("inf printed:\n%s", out.String())
	}
	if b := eloBound(elo.WDL{W: 10}); b < 182.6 || b > 182.8 {
		t.Errorf("bound %v", b)
	}
}

// FuzzPGNTail: on any file text, resuming never panics, keeps byte offsets when blanking
// comment lines, and never changes a file whose last game ends with its result token; a cut
// only removes a tail that starts with a tag line.
func FuzzPGNTail(f *testing.F) {
	g := "[Event \"x\"]\n[MatchGame \"1\"]\n[Result \"1-0\"]\n\n1. e4 {book} e5 {+0.1/1 0.001s} 1-0\n\n"
	for _, s := range []string{g, strings.ReplaceAll(g, "\n", "\r\n"), g + "; c\n", g + "[Event \"y\"]\n\n1. e4 e5 ", "% x\n" + g + "\t",
		"{ [x] ; y\n} 1-0", "", "; only\n", g + "(1. d4) *"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b := blankCommentLines([]byte(text))
		if len(b) != len(text) || strings.Count(string(b), "\n") != strings.Count(text, "\n") {
			t.Fatalf("blanking changed the length or the lines")
		}
		last, start := lastGame(b)
		if start >= 0 && (start > len(b) || !strings.HasPrefix(strings.TrimLeft(string(b[start:]), " \t\r\v\f"), "[")) {
			t.Fatalf("game start %d is not a tag line", start)
		}
		path := filepath.Join(t.TempDir(), "f.pgn")
		os.WriteFile(path, []byte(text), 0o644)
		_, _, _ = readPGNFile(path, io.Discard)
		after, _ := os.ReadFile(path)
		if isResult(last) && string(after) != text {
			t.Fatalf("a file ending with a result token was changed")
		}
		if string(after) != text && (start < 0 || len(after) != start) {
			t.Fatalf("cut at %d, the last game starts at %d", len(after), start)
		}
	})
}
