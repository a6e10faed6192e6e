package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMovesJSON(t *testing.T) {
	var out bytes.Buffer
	// e2e4 then a capture, castling and king moves.
	moves := "e2e4 d7d5 e4d5 g8f6 g1f3 f6d5 f1c4 e7e6 e1g1"
	if err := run(options{set: "all+ka", moves: moves, json: true, verify: true}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 9 {
		t.Fatalf("%d lines", len(lines))
	}
	var r record
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	// e2e4, White's view: ALL e2 pawn own (396) removed, e4 (420) added; KA likewise at
	// 768 + 4·768 (king e1 = square 4).
	want := side{Added: []int{420, 768 + 4*768 + 420}, Removed: []int{396, 768 + 4*768 + 396}}
	if r.Ply != 1 || r.Move != "e2e4" || !equal(r.White, want) {
		t.Fatalf("ply 1: %+v", r)
	}
	// e4xd5: the captured pawn disappears too.
	json.Unmarshal([]byte(lines[2]), &r)
	if len(r.White.Removed) != 4 || len(r.White.Added) != 2 {
		t.Fatalf("capture: %+v", r.White)
	}
	// O-O: White refreshes (KA, own king moved), Black does not.
	json.Unmarshal([]byte(lines[8]), &r)
	if r.Move != "e1g1" || !r.White.Refresh || r.Black.Refresh {
		t.Fatalf("castling: %+v", r)
	}
}

func equal(a, b side) bool {
	return a.Refresh == b.Refresh && slicesEq(a.Added, b.Added) && slicesEq(a.Removed, b.Removed)
}

func slicesEq(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHuman(t *testing.T) {
	var out bytes.Buffer
	if err := run(options{set: "h", moves: "g1f3"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1. g1f3 (white)", "white: +1 -1", "+62     H[f, knight, own]", "-74     H[g, knight, own]", "black: +1 -1", "+63     H[f, knight, their]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}

func TestPGN(t *testing.T) {
	pgn := `[Event "t"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *
`
	f := filepath.Join(t.TempDir(), "g.pgn")
	os.WriteFile(f, []byte(pgn), 0o644)
	var out bytes.Buffer
	if err := run(options{set: "all+ph+pv+mb", pgn: f, json: true, verify: true}, &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 9 {
		t.Fatalf("%d moves", n)
	}
}

func TestErrors(t *testing.T) {
	for _, o := range []options{
		{set: "zz"}, {set: "all", moves: "e2e5"}, {set: "all", moves: "xx"}, {set: "all", fen: "bad"},
		{set: "all", pgn: "/nonexistent"}, {set: "all", pgn: "x", moves: "e2e4"},
	} {
		if err := run(o, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestVerifySaysWhatItChecked: -verify reports how many diffs it compared instead of succeeding
// silently.
func TestVerifySaysWhatItChecked(t *testing.T) {
	var out, log bytes.Buffer
	if err := run(options{set: "all+ph", moves: "e2e4 e7e5 g1f3", verify: true, json: true, log: &log}, &out); err != nil {
		t.Fatal(err)
	}
	want := "diff: -verify: the diffs of 3 moves in 1 game(s), both perspectives (6 diffs), equal the differences of the full active sets of all+ph\n"
	if log.String() != want {
		t.Errorf("-verify report %q, want %q", log.String(), want)
	}
}
