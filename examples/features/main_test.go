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

func TestJSONStartPosition(t *testing.T) {
	var out bytes.Buffer
	if err := run(options{set: "hv+h", json: true}, &out); err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r["set"] != "hv+h" || r["size"].(float64) != 864 || len(r["white"].([]any)) != 64 || len(r["black"].([]any)) != 64 {
		t.Fatalf("unexpected %v", r)
	}
	if _, ok := r["fen"]; ok {
		t.Fatal("fen field without -epd")
	}
	// ALL e2 pawn own = (4·8+1)·12 = 396.
	found := false
	for _, x := range r["white"].([]any) {
		found = found || x.(float64) == 396
	}
	if !found {
		t.Fatal("396 not active")
	}
}

func TestHumanOutput(t *testing.T) {
	var out bytes.Buffer
	if err := run(options{set: "all", fen: "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"white: 3 active", "420 ALL[e4, pawn, own]", "black: 3 active", "   433 ALL[e5, pawn, their]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEPD(t *testing.T) {
	epd := filepath.Join(shared, "data", "positions.epd")
	if _, err := os.Stat(epd); err != nil {
		testenv.SkipNoShared(t, "features: ../shared absent")
	}
	data, _ := os.ReadFile(epd)
	lines := strings.SplitAfterN(string(data), "\n", 51)[:50]
	tmp := filepath.Join(t.TempDir(), "p.epd")
	os.WriteFile(tmp, []byte(strings.Join(lines, "")), 0o644)
	var out bytes.Buffer
	if err := run(options{set: "all+mc", epd: tmp, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var r struct {
			FEN          string
			Set          string
			Size         int
			White, Black []int
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.FEN != strings.TrimSpace(lines[n]) || r.Size != 974 {
			t.Fatalf("line %d: %+v", n, r)
		}
		n++
	}
	if n != 50 {
		t.Fatalf("%d lines", n)
	}
}

func TestErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.epd")
	os.WriteFile(bad, []byte(startLine+"\nnot a fen\n"), 0o644)
	for _, o := range []options{
		{set: "nope"}, {set: "all", fen: "8/8/8 w - - 0 1"}, {set: "all", epd: "/nonexistent"},
		{set: "all", epd: bad}, {set: "all", fen: startLine, epd: bad},
	} {
		if err := run(o, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

const startLine = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func TestDead(t *testing.T) {
	var out bytes.Buffer
	if err := run(options{set: "all+v", dead: true}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"set all+v: 36 of 864 features dead by rule", "ALL[a1, pawn, own]", "V[8, pawn, their]", "pawn on rank 1 or 8"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}
