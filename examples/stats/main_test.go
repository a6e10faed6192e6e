package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/testenv"
)

const startLine = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func TestStartPositionJSON(t *testing.T) {
	f := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(f, []byte(startLine+"\n"), 0o644)
	var out, bar bytes.Buffer
	if err := run(options{set: "all+h+ph", epd: f, json: true, thesisTool: true}, &out, &bar); err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Positions != 1 || rep.Moves != 20 || len(rep.Blocks) != 3 {
		t.Fatalf("%+v", rep)
	}
	all := rep.Blocks[0]
	// Every opening move: one feature leaves, one arrives; White to move, so the thesis
	// tool's perspectives agree and it counts the same (but no dedup in active).
	if all.Active != 32 || all.Added != 1 || all.Removed != 1 || all.Thesis == nil ||
		all.ThesisTool == nil || *all.ThesisTool != (triple{32, 1, 1}) {
		t.Fatalf("all: %+v %+v", all, all.ThesisTool)
	}
	if h := rep.Blocks[1]; h.Added != 0.2 || h.ThesisTool.Added != 0.2 {
		t.Fatalf("h: %+v", h)
	}
	if rep.Blocks[2].ThesisTool != nil {
		t.Fatal("ph has no tool reproduction")
	}
	if !strings.Contains(bar.String(), "100% 1/1 positions") {
		t.Fatalf("progress %q", bar.String())
	}
}

// With Black to move, the tool's count table (White's view) and its changes (Black's
// view) disagree: removals go missing.
func TestThesisToolMixUp(t *testing.T) {
	f := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(f, []byte("k7/8/8/8/8/8/3P4/4K3 b - - 0 1\n"), 0o644)
	var out bytes.Buffer
	if err := run(options{set: "all", epd: f, json: true, thesisTool: true}, &out, nil); err != nil {
		t.Fatal(err)
	}
	var rep report
	json.Unmarshal(out.Bytes(), &rep)
	b := rep.Blocks[0]
	if b.Added != 1 || b.Removed != 1 || b.ThesisTool.Added != 1 || b.ThesisTool.Removed != 0 {
		t.Fatalf("%+v %+v", b, b.ThesisTool)
	}
}

func TestHumanTable(t *testing.T) {
	epd := filepath.Join("..", "..", "..", "shared", "data", "positions.epd")
	if _, err := os.Stat(epd); err != nil {
		testenv.SkipNoShared(t, "stats: ../shared absent")
	}
	data, _ := os.ReadFile(epd)
	f := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(f, []byte(strings.Join(strings.SplitAfterN(string(data), "\n", 101)[:100], "")), 0o644)
	var out bytes.Buffer
	if err := run(options{set: "hv+mc", epd: f}, &out, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"100 positions", "hv              768 |", "mc              206 |    12.00"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}

func TestErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.epd")
	os.WriteFile(bad, []byte("garbage\n"), 0o644)
	for _, o := range []options{{set: "q"}, {set: "all"}, {set: "all", epd: "/nonexistent"}, {set: "all", epd: bad}} {
		if err := run(o, &bytes.Buffer{}, nil); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestProgressNotTerminal: progress to a file or pipe is whole lines (one per 10%), no carriage
// returns; to a terminal it is one line redrawn in place.
func TestProgressNotTerminal(t *testing.T) {
	f := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(f, []byte(strings.Repeat("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n", 25)), 0o644)
	var bar bytes.Buffer
	if err := run(options{set: "all", epd: f, json: true}, &bytes.Buffer{}, &bar); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(bar.String(), "\n"), "\n")
	if strings.Contains(bar.String(), "\r") || len(lines) != 11 || lines[10] != "stats: 100% 25/25 positions" {
		t.Errorf("progress to a non-terminal: %q", bar.String())
	}
	bar.Reset()
	if err := run(options{set: "all", epd: f, json: true, tty: true}, &bytes.Buffer{}, &bar); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(bar.String(), "\n"); n != 1 || !strings.HasPrefix(bar.String(), "\rstats [") {
		t.Errorf("progress to a terminal: %q", bar.String())
	}
}
