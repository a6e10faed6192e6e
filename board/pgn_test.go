package board

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// longPGNGame returns a legal game of 4·cycles plies (knights going back and forth).
func longPGNGame(event string, cycles int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Event %q]\n[Result \"*\"]\n\n", event)
	for i := 0; i < cycles; i++ {
		fmt.Fprintf(&b, "%d. Nf3 Nf6 %d. Ng1 Ng8 ", 2*i+1, 2*i+2)
		if i%8 == 7 {
			b.WriteByte('\n')
		}
	}
	b.WriteString("*\n\n")
	return b.String()
}

// TestReadPGNLongGame: a game of 83 KB between two short ones is read in full, and so is
// the game after it (chess/v2's scanner, limited to 64 KiB, returned only the first game
// and no error).
func TestReadPGNLongGame(t *testing.T) {
	long := longPGNGame("long", 3300)
	if len(long) < 83000 {
		t.Fatalf("long game is only %d bytes", len(long))
	}
	in := longPGNGame("a", 1) + long + longPGNGame("b", 2)
	games, err := ReadPGN(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("%d games, want 3", len(games))
	}
	if len(games[1].Moves) != 4*3300 || games[1].Tags["Event"] != "long" || len(games[2].Moves) != 8 {
		t.Errorf("game 2 %d plies %q, game 3 %d plies", len(games[1].Moves), games[1].Tags, len(games[2].Moves))
	}
	// one line of 200 KB (a comment) inside a game
	in = "[Event \"c\"]\n\n1. e4 {" + strings.Repeat("x", 200<<10) + "} e5 *\n" + longPGNGame("d", 1)
	games, err = ReadPGN(strings.NewReader(in))
	if err != nil || len(games) != 2 || len(games[0].Moves) != 2 {
		t.Fatalf("long line: %d games, err %v", len(games), err)
	}
}

// TestReadPGNErrors: a bad game is skipped and named (game number, line); the others are
// returned; junk, directories and reader errors are errors.
func TestReadPGNErrors(t *testing.T) {
	in := longPGNGame("a", 1) + "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n" + longPGNGame("c", 1)
	games, err := ReadPGN(strings.NewReader(in))
	if len(games) != 2 || games[0].Tags["Event"] != "a" || games[1].Tags["Event"] != "c" {
		t.Fatalf("%d games", len(games))
	}
	var pe *PGNError
	if !errors.As(err, &pe) || pe.Game != 2 || pe.Line != 6 || !errors.Is(err, ErrPGN) {
		t.Fatalf("err = %v (%#v)", err, pe)
	}
	if !strings.Contains(err.Error(), "game 2") || !strings.Contains(err.Error(), "lines 6") {
		t.Errorf("message %q", err)
	}

	junk := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range junk {
		junk[i] = byte(rng.Uint32())
	}
	for name, s := range map[string]string{
		"binary":      string(junk),
		"binary tail": longPGNGame("a", 1) + "\x00\x01\x02",
		"prose":       "this is not a chess game at all",
	} {
		if _, err := ReadPGN(strings.NewReader(s)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	games, err = ReadPGN(strings.NewReader(longPGNGame("a", 1) + "\x00\x01\x02"))
	if len(games) != 1 || err == nil {
		t.Errorf("binary tail: %d games, %v", len(games), err)
	}
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	if _, err := ReadPGN(dir); err == nil {
		t.Error("directory: no error")
	}
	if g, err := ReadPGN(strings.NewReader(" \n\n \t\n")); err != nil || len(g) != 0 {
		t.Errorf("whitespace: %d games, %v", len(g), err)
	}
}

// TestReadPGNSplit: games without tags, comments holding result-like text and tag-like
// lines, variations ending in a result.
func TestReadPGNSplit(t *testing.T) {
	in := "1. e4 e5 *\n1. d4 {1-0\n[Event \"not a tag\"]} d5 (1... Nf6 2. c4) 2. c4 1/2-1/2\n\n[Event \"x\"]\n1. c4 0-1"
	games, err := ReadPGN(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 || len(games[0].Moves) != 2 || len(games[1].Moves) != 3 || len(games[2].Moves) != 1 {
		t.Fatalf("%d games: %+v", len(games), games)
	}
}
