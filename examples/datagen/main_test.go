package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

const stockfish = "/usr/games/stockfish"

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
	f, n, err := prepareOutput(out)
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
