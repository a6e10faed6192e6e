package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/cmdtest"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

const stockfish = "/usr/games/stockfish"

// fakeEngineEnv makes the test binary a minimal UCI engine (see fakeEngine) when set, so the
// output handling is tested without Stockfish.
const fakeEngineEnv = "NNUEKIT_DATAGEN_FAKE_ENGINE"

func TestMain(m *testing.M) {
	cmdtest.RunMainIfAsked("datagen", main)
	if os.Getenv(fakeEngineEnv) == "1" {
		fakeEngine(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine speaks just enough UCI for datagen: it plays the legal move with the lowest index in
// the order of a seeded walk over the legal moves (deterministic per position) and always reports
// "score cp 0".
func fakeEngine(in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	pos := board.StartPosition()
	say := func(s string) { fmt.Fprintln(out, s) }
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name fake")
			say("option name Threads type spin default 1 min 1 max 1")
			say("option name Hash type spin default 16 min 1 max 1024")
			say("uciok")
		case "isready":
			say("readyok")
		case "position":
			if len(f) >= 8 && f[1] == "fen" {
				p, err := board.ParseFEN(strings.Join(f[2:8], " "))
				if err == nil {
					pos = p
				}
			} else {
				pos = board.StartPosition()
			}
		case "go":
			ms := pos.LegalMoves()
			if len(ms) == 0 {
				say("info depth 1 score mate 0")
				say("bestmove 0000")
				continue
			}
			m := ms[int(pos.Key()%uint64(len(ms)))]
			say("info depth 1 score cp 0 nodes 1 pv " + m.String())
			say("bestmove " + m.String())
		case "quit":
			return
		}
	}
}

// fakeOptions are options that play short games with the fake engine.
func fakeOptions(t *testing.T, out string, games int) options {
	t.Setenv(fakeEngineEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return options{out: out, games: games, nodes: 1, workers: 1, seed: 1, engine: exe, hash: 16, quiet: true}
}

func needStockfish(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(stockfish); err != nil {
		t.Skipf("%s absent (apt-get install stockfish): %v", stockfish, err)
	}
}

// TestSmoke is the CI smoke run: 4 games at 200 nodes with 2 workers, then a resume to 6 games;
// the file must hold 6 whole games that parse, with results.
func TestSmoke(t *testing.T) {
	needStockfish(t)
	out := filepath.Join(t.TempDir(), "smoke.txt")
	o := options{out: out, games: 4, nodes: 200, workers: 2, seed: 3, engine: stockfish, hash: 16, quiet: true}
	st, err := run(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if st.games != 4 || st.total != 4 || st.positions == 0 || st.quiet > st.positions {
		t.Fatalf("stats %+v", st)
	}
	o.games = 6
	o.appendTo = true
	st2, err := run(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if st2.games != 2 || st2.total != 6 {
		t.Fatalf("resume stats %+v", st2)
	}
	fs, err := readStats(out)
	if err != nil {
		t.Fatal(err)
	}
	if fs.games != 6 || fs.positions != st.positions+st2.positions || fs.quiet != st.quiet+st2.quiet ||
		fs.results[dataset.NoResult] != 0 {
		t.Errorf("file stats %+v, run stats %+v %+v", fs, st, st2)
	}
	// Nothing to do when the file already holds enough games.
	if st3, err := run(context.Background(), o, io.Discard); err != nil || st3.games != 0 || st3.total != 6 {
		t.Errorf("third run: %+v, %v", st3, err)
	}
}

// TestTruncatedTail: a crash can leave a partial last line; the next run cuts it.
func TestTruncatedTail(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.txt")
	whole := board.StartFEN + ",10,e2e4,1-0\n"
	if err := os.WriteFile(out, []byte(whole+whole+board.StartFEN+",3"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, n, err := prepareOutput(out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, _ := os.ReadFile(out)
	if n != 2 || string(b) != whole+whole {
		t.Errorf("n = %d, file %q", n, b)
	}
}

// TestStop: cancelling the context drops the games in progress; the file holds whole lines only.
func TestStop(t *testing.T) {
	needStockfish(t)
	out := filepath.Join(t.TempDir(), "stop.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	o := options{out: out, games: 1000, nodes: 300, workers: 2, seed: 5, engine: stockfish, hash: 16, quiet: true}
	st, err := run(ctx, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Error("partial last line")
	}
	if got := int64(strings.Count(string(b), "\n")); got != st.games || st.games >= 1000 {
		t.Errorf("%d lines, %d games reported", got, st.games)
	}
}

func TestBadEngine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.txt")
	o := options{out: out, games: 1, nodes: 10, workers: 1, seed: 1, engine: "/bin/true", hash: 16, quiet: true}
	if _, err := run(context.Background(), o, io.Discard); err == nil {
		t.Error("run with /bin/true as engine succeeded")
	}
	o.nodes = 0
	if _, err := run(context.Background(), o, io.Discard); err == nil {
		t.Error("-nodes 0 accepted")
	}
}

func TestScoreConversion(t *testing.T) {
	tests := []struct {
		line string
		want int32
		ok   bool
	}{
		{"info depth 10 seldepth 14 multipv 1 score cp 100 nodes 800 pv e2e4", 361, true},
		{"info depth 10 score cp -35 nodes 800", -126, true}, // −35·3.61 = −126.35
		{"info depth 5 score mate 1 pv d8h4", 31999, true},
		{"info depth 5 score mate -2", -31996, true},
		{"info depth 5 multipv 2 score cp 10", 0, false},
		{"info string NNUE evaluation using nn-ad9b42354671.nnue enabled", 0, false},
		{"info depth 3 score cp x", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseInfoScore(strings.Fields(tc.line))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: %d %v, want %d %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestOpenings(t *testing.T) {
	ops, err := loadOpenings()
	if err != nil {
		t.Fatal(err)
	}
	// The lichess ECO list of chess/v2 v2.3.2 has 3,397 lines; all must parse.
	if len(ops) < 3390 {
		t.Errorf("%d openings", len(ops))
	}
	var errs []error
	for _, line := range ops {
		p := board.StartPosition()
		for _, m := range line {
			if !p.IsLegal(m) {
				errs = append(errs, errors.New(m.String()))
			}
			p, _ = p.Play(m)
		}
	}
	if len(errs) > 0 {
		t.Errorf("%d illegal opening moves", len(errs))
	}
}

// TestOutputRules: an existing output is never appended to or replaced without -append or -force,
// never when it holds another format, and an output that is not a regular file is refused before
// any engine starts.
func TestOutputRules(t *testing.T) {
	dir := t.TempDir()
	o := fakeOptions(t, "", 2)
	plain := filepath.Join(dir, "sf.txt")
	sfPlain := "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore 30\nply 0\nresult 0\ne\n"
	os.WriteFile(plain, []byte(strings.Repeat(sfPlain, 100)), 0o644)
	bin := filepath.Join(dir, "data.txt.bak")
	binBytes, _ := os.ReadFile("../../quant/dataset/testdata/binpack/sfgen.binpack")
	os.WriteFile(bin, binBytes, 0o644)
	full := filepath.Join(dir, "full.txt")
	if err := os.Symlink("/dev/full", full); err != nil {
		t.Fatal(err)
	}
	whole := board.StartFEN + ",10,e2e4,1-0\n"
	mine := filepath.Join(dir, "mine.txt")
	os.WriteFile(mine, []byte(whole), 0o644)
	for _, tc := range []struct {
		out             string
		appendTo, force bool
		want            string
	}{
		{out: "", want: "-out is required"},
		{out: mine, want: "exists"},
		{out: plain, appendTo: true, want: "not a datagen file"},
		{out: bin, appendTo: true, want: "binpack"},
		{out: full, appendTo: true, want: "not a regular file"},
		{out: full, force: true, want: "not a regular file"},
		{out: full, want: "exists"},
		{out: mine, appendTo: true, force: true, want: "exclude"},
		{out: plain, force: true, want: "not a datagen file"},
		{out: bin, force: true, want: "binpack"},
		{out: filepath.Join(dir, "x.plain"), want: "convert"},
		{out: filepath.Join(dir, "nodir", "x.txt"), want: "does not exist"},
	} {
		o.out, o.appendTo, o.force = tc.out, tc.appendTo, tc.force
		start := time.Now()
		_, err := run(context.Background(), o, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("-out %s -append=%v -force=%v: %v, want an error containing %q", tc.out, tc.appendTo, tc.force, err, tc.want)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("-out %s: refused after %v", tc.out, el)
		}
	}
	if b, _ := os.ReadFile(plain); string(b) != strings.Repeat(sfPlain, 100) {
		t.Error("the .plain file was changed")
	}
	if b, _ := os.ReadFile(bin); len(b) != len(binBytes) {
		t.Errorf("the binpack now holds %d bytes, want %d", len(b), len(binBytes))
	}
	if b, _ := os.ReadFile(mine); string(b) != whole {
		t.Error("the datagen file was changed")
	}
}

// TestFakeEngineRuns: a new file, -append (resume) and -force with the fake engine.
func TestFakeEngineRuns(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "d.txt")
	o := fakeOptions(t, out, 2)
	st, err := run(context.Background(), o, io.Discard)
	if err != nil || st.games != 2 {
		t.Fatalf("new file: %+v, %v", st, err)
	}
	o.games, o.appendTo = 3, true
	st, err = run(context.Background(), o, io.Discard)
	if err != nil || st.games != 1 || st.total != 3 {
		t.Fatalf("-append: %+v, %v", st, err)
	}
	fs, err := readStats(out)
	if err != nil || fs.games != 3 {
		t.Fatalf("after -append: %+v, %v", fs, err)
	}
	o.games, o.appendTo, o.force = 1, false, true
	st, err = run(context.Background(), o, io.Discard)
	if err != nil || st.total != 1 {
		t.Fatalf("-force: %+v, %v", st, err)
	}
	if fs, err := readStats(out); err != nil || fs.games != 1 {
		t.Fatalf("after -force: %+v, %v", fs, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d directory entries, want 1 (no temporary file left)", len(ents))
	}
}

// TestWriteErrorEnds: -append to a file whose writes fail ends the run with the write error
// instead of spinning, and an interrupt is honoured.
func TestWriteErrorEnds(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "d.txt")
	o := fakeOptions(t, out, 1000)
	os.WriteFile(out, nil, 0o644)
	// a regular file whose writes fail (as /dev/full's do), through appendWriter
	saved := appendWriter
	appendWriter = func(*os.File) io.Writer { return failingWriter{} }
	defer func() { appendWriter = saved }()
	o.appendTo = true
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	_, err := run(ctx, o, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no space") {
		t.Errorf("write error: %v", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("the run took %v to end after a write error", el)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestJSONOutput: -json prints the run's summary, and -stats -json the file's statistics, as one
// JSON object on stdout.
func TestJSONOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.txt")
	o := fakeOptions(t, out, 2)
	text, code := runMain(t, "-out", out, "-games", "2", "-nodes", "1", "-workers", "1", "-engine", o.engine, "-quiet", "-json")
	var sum struct {
		Out        string `json:"out"`
		TotalGames int    `json:"total_games"`
		Games      int    `json:"games"`
		Positions  int    `json:"positions"`
	}
	if err := json.Unmarshal([]byte(text), &sum); err != nil || code != 0 || sum.Out != out || sum.Games != 2 || sum.TotalGames != 2 || sum.Positions == 0 {
		t.Fatalf("exit %d, output %q: %+v, %v", code, text, sum, err)
	}
	text, code = runMain(t, "-stats", out, "-json")
	var st struct {
		Games, Positions int
		Results          map[string]int
	}
	if err := json.Unmarshal([]byte(text), &st); err != nil || code != 0 || st.Games != 2 || st.Positions != sum.Positions || st.Results["1/2-1/2"]+st.Results["1-0"]+st.Results["0-1"] != 2 {
		t.Errorf("-stats -json: exit %d, %q: %+v, %v", code, text, st, err)
	}
}

// TestStopFake: cancelling (Ctrl-C) ends a run on a new file with the finished games renamed
// into place, whole lines only, and no temporary file left (fake engine, no Stockfish needed).
func TestStopFake(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "stop.txt")
	o := fakeOptions(t, out, 100000)
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	st, err := run(ctx, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := int64(strings.Count(string(b), "\n")); got != st.games || st.games == 0 || st.games >= 100000 || b[len(b)-1] != '\n' {
		t.Errorf("%d lines, %d games reported", got, st.games)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d directory entries, want 1", len(ents))
	}
}

// TestLocked: a second run on an output another run is writing is refused (two resumes would
// append the same games twice; two new files would be renamed over each other).
func TestLocked(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.txt")
	unlock, err := outfile.Lock(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	o := fakeOptions(t, out, 1)
	if _, err := run(context.Background(), o, io.Discard); !errors.Is(err, outfile.ErrLocked) {
		t.Errorf("run on a locked output: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the locked output was written")
	}
}
