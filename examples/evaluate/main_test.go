package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/testenv"
)

const shared = "../../../shared"

func requireShared(t *testing.T) {
	if _, err := os.Stat(filepath.Join(shared, "thesis-models", "hv.nn")); err != nil {
		t.Skip("evaluate: ../shared absent")
	}
}

// TestJSONMatchesGolden evaluates the first 200 positions of positions.epd with -json and
// compares with golden-evals.jsonl.
func TestJSONMatchesGolden(t *testing.T) {
	requireShared(t)
	epd, err := os.ReadFile(filepath.Join(shared, "data", "positions.epd"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfterN(string(epd), "\n", 201)[:200]
	tmp := filepath.Join(t.TempDir(), "p.epd")
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(options{net: filepath.Join(shared, "thesis-models", "all+ph.nn"), epd: tmp, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	gf, err := os.Open(filepath.Join(shared, "thesis-models", "golden-evals.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer gf.Close()
	gs := bufio.NewScanner(gf)
	os := bufio.NewScanner(&out)
	n := 0
	for os.Scan() {
		line := os.Text()
		if !strings.HasPrefix(line, `{"fen": "`) || !strings.Contains(line, `", "eval": `) {
			t.Fatalf("line %q does not follow the contract", line)
		}
		var got struct {
			FEN  string `json:"fen"`
			Eval *int   `json:"eval"`
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil || got.Eval == nil {
			t.Fatalf("bad JSON %q: %v", line, err)
		}
		gs.Scan()
		var want map[string]any
		if err := json.Unmarshal(gs.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		if got.FEN != want["fen"] || float64(*got.Eval) != want["all+ph"] {
			t.Fatalf("line %d: got %s, golden %s", n+1, line, gs.Text())
		}
		n++
	}
	if n != 200 {
		t.Fatalf("%d lines, want 200", n)
	}
}

// TestIncrementalEqualsRefresh plays a move list and a PGN game with -incremental -verify
// and compares the printed numbers with refresh evaluations of the same FENs: with the
// pairwise all+ph+pv net, and with NNUEKIT_FULL the mobility net all+mb (whose loads take
// seconds each).
func TestIncrementalEqualsRefresh(t *testing.T) {
	requireShared(t)
	netName := "all+ph+pv"
	if testenv.Full() {
		netName = "all+mb"
	}
	net := filepath.Join(shared, "thesis-models", netName+".nn")
	nw, err := loadNetwork(options{net: net})
	if err != nil {
		t.Fatal(err)
	}
	pgn := filepath.Join(t.TempDir(), "g.pgn")
	game := `[Event "t"]
[Result "*"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 Bf5 6. Bc4 e6 7. O-O c6 8. Re1 Nbd7 9. d5 O-O-O *
`
	if err := os.WriteFile(pgn, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []options{
		{net: net, incremental: true, verify: true, json: true, moves: "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f6e4 f1e1 d7d5"},
		{net: net, incremental: true, verify: true, json: true, pgn: pgn},
		{net: net, incremental: true, verify: true, json: true, fen: "8/P7/8/8/8/8/6k1/4K2R w K - 0 1", moves: "a7a8n g2g3 e1g1"},
	} {
		var inc bytes.Buffer
		if err := run(o, &inc); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(inc.String()), "\n")
		if len(lines) < 4 {
			t.Fatalf("only %d lines", len(lines))
		}
		for _, l := range lines {
			var r struct {
				FEN  string `json:"fen"`
				Eval int    `json:"eval"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			var ref bytes.Buffer
			if err := runWith(nw, &options{fen: r.FEN, json: true}, &ref); err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(ref.String()) != l {
				t.Fatalf("incremental %s, refresh %s", l, ref.String())
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, o := range []options{
		{},
		{net: "/nonexistent.nn", fen: "8/8/8/8/8/8/8/8 w - - 0 1"},
	} {
		if err := run(o, new(bytes.Buffer)); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	requireShared(t)
	net := filepath.Join(shared, "thesis-models", "hv.nn")
	for _, o := range []options{
		{net: net},
		{net: net, fen: "not a fen"},
		{net: net, fen: "8/8/8/8/8/8/8/8 w - - 0 1", epd: "x"},
		{net: net, moves: "e2e4"},
		{net: net, incremental: true},
		{net: net, incremental: true, moves: "e2e5"},
	} {
		if err := run(o, new(bytes.Buffer)); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestPlainOutputLabels checks that the default output (the README's first command)
// names the network, the units and the conversion, and the side to move's point of view.
func TestPlainOutputLabels(t *testing.T) {
	var out bytes.Buffer
	fen := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	if err := run(options{fen: fen}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines:\n%s", out.String())
	}
	for i, want := range []string{
		"network: embedded default (nnue.Default): ",
		"eval: the network's output for the side to move, in its internal units; pawns = eval ÷ ",
		"Black to move: eval ",
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want)
		}
	}
	var v int
	var p, wp float64
	if _, err := fmt.Sscanf(lines[2], "Black to move: eval %d (Black's view) = %f pawns; White's view %f pawns", &v, &p, &wp); err != nil {
		t.Fatalf("%q: %v", lines[2], err)
	}
	if p != -wp || !strings.HasSuffix(lines[2], "| "+fen) {
		t.Errorf("%q: views %v and %v", lines[2], p, wp)
	}
	// -json: the stable members first, then "pawns"
	out.Reset()
	if err := run(options{fen: fen, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"fen": %q, "eval": %d, "pawns": %.2f}`, fen, v, p)
	if got := strings.TrimSpace(out.String()); got != want {
		t.Errorf("-json: %s, want %s", got, want)
	}
}

// TestEPDLongLineAndBadLine: a line over 64 KiB (a long EPD comment) is read, and a bad
// line is an error naming the file and the line (issue 16: it was "bufio.Scanner: token
// too long" naming neither).
func TestEPDLongLineAndBadLine(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.epd")
	text := "8/8/4k3/8/8/3QK3/8/8 w - - c0 \"" + strings.Repeat("x", 80<<10) + "\";\n"
	if err := os.WriteFile(long, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(options{epd: long}, &out); err != nil {
		t.Fatalf("80 KiB EPD line: %v", err)
	}
	if !strings.Contains(out.String(), "8/8/4k3/8/8/3QK3/8/8 w") {
		t.Errorf("output does not show the position:\n%s", out.String())
	}
	bad := filepath.Join(dir, "bad.epd")
	if err := os.WriteFile(bad, []byte("8/8/4k3/8/8/3QK3/8/8 w - -\n8/8/8/8 w - -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(options{epd: bad}, new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), bad+":2:") {
		t.Errorf("bad line: %v; want an error naming %s:2", err, bad)
	}
}

// TestDescribe: -describe prints the embedded default's architecture string on one line,
// -v adds the description, -json wraps the string in {"architecture": …}.
func TestDescribe(t *testing.T) {
	const want = "ft=all:i16 width=256 stack=stm>screlu_affine.i16(255,255,1) buckets=pieces(8,2,4) out=*400/16320 pawn=361"
	var out bytes.Buffer
	if err := run(options{describe: true}, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != want+"\n" {
		t.Errorf("-describe: %q, want %q", got, want)
	}
	out.Reset()
	if err := run(options{describe: true, verbose: true}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), want+"\ninputs: 1 feature blocks, 768 features") || !strings.Contains(out.String(), "512 → 1: screlu_affine") {
		t.Errorf("-describe -v:\n%s", out.String())
	}
	out.Reset()
	if err := run(options{describe: true, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `{"architecture":"`+want+`"}`+"\n" {
		t.Errorf("-describe -json: %s", got)
	}
}
