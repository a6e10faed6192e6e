package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/testenv"
)

const shared = "../../../shared"

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// CPW "Perft Results": start position perft(3) = 8,902.
func TestJSONStartPosition(t *testing.T) {
	var out bytes.Buffer
	if err := run(options{depth: 3, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r["fen"] != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" || r["depth"].(float64) != 3 ||
		r["nodes"].(float64) != 8902 || r["nps"].(float64) <= 0 || len(r) != 4 {
		t.Fatalf("unexpected %v", r)
	}
}

// CPW "Perft Results": Kiwipete perft(2) = 2,039 over 48 root moves; Stockfish's
// "go perft 2" prints e1g1: 43 and e2a6: 36 among them.
func TestDivideKiwipete(t *testing.T) {
	var out bytes.Buffer
	if err := run(options{fen: kiwipete, depth: 2, divide: true}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"fen " + kiwipete, "\ne1g1: 43\n", "\ne2a6: 36\n", "depth 2 nodes 2039 "} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, ": "); n != 48 {
		t.Errorf("%d divide lines, want 48", n)
	}
	out.Reset()
	if err := run(options{fen: kiwipete, depth: 2, divide: true, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	var r record
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Nodes != 2039 || len(r.Divide) != 48 || r.Divide["e1g1"] != 43 {
		t.Fatalf("%+v", r)
	}
}

// An EPD file: the CPW positions 3 and 5 at depth 3 (2,812 and 62,379), comments skipped.
func TestEPDFile(t *testing.T) {
	epd := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(epd, []byte("# CPW perft positions\n8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\n\n"+
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8\n"), 0o644)
	var out bytes.Buffer
	if err := run(options{epd: epd, depth: 3, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	var got []uint64
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Nodes)
	}
	if len(got) != 2 || got[0] != 2812 || got[1] != 62379 {
		t.Fatalf("nodes %v", got)
	}
}

// The first positions of ../shared/data/positions.epd agree with the board package's
// Stockfish reference counts (board/testdata/positions-perft3.txt).
func TestSharedEPD(t *testing.T) {
	epd := filepath.Join(shared, "data", "positions.epd")
	if _, err := os.Stat(epd); err != nil {
		testenv.SkipNoShared(t, "perft: ../shared absent")
	}
	data, _ := os.ReadFile(epd)
	lines := strings.SplitAfterN(string(data), "\n", 11)[:10]
	tmp := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(tmp, []byte(strings.Join(lines, "")), 0o644)
	ref, err := os.ReadFile("../../board/testdata/positions-perft3.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for _, l := range strings.Split(string(ref), "\n") {
		var n uint64
		if nodes, fen, ok := strings.Cut(l, "\t"); ok && !strings.HasPrefix(l, "#") {
			json.Unmarshal([]byte(nodes), &n)
			want[fen] = n
		}
	}
	var out bytes.Buffer
	if err := run(options{epd: tmp, depth: 3, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	n := 0
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if w, ok := want[r.FEN]; !ok || w != r.Nodes {
			t.Fatalf("%s: %d nodes, Stockfish %d", r.FEN, r.Nodes, w)
		}
		n++
	}
	if n != 10 {
		t.Fatalf("%d positions", n)
	}
}

func TestErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.epd")
	os.WriteFile(bad, []byte(kiwipete+"\nnot a fen\n"), 0o644)
	for _, tc := range []struct {
		o    options
		code int
		msg  string
	}{
		{options{fen: "8/8/8 w - - 0 1", depth: 3}, 2, "3 ranks, want 8"},
		{options{fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", depth: 3}, 2, "fields"},
		{options{fen: "4k3/8/8/8/8/8/8/4K2K w - - 0 1", depth: 3}, 2, "more than one king"},
		{options{depth: 0}, 2, "-depth"},
		{options{fen: kiwipete, epd: bad, depth: 1}, 2, "not both"},
		{options{epd: bad, depth: 1}, 2, "bad.epd:2"},
		{options{epd: "/nonexistent", depth: 1}, 1, "nonexistent"},
	} {
		err := run(tc.o, &bytes.Buffer{})
		if err == nil || exitCode(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v: error %v (exit %d), want exit %d with %q", tc.o, err, exitCode(err), tc.code, tc.msg)
		}
	}
}
