package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// shared returns the path of a file under ../shared (from the repository root), or skips.
func shared(t testing.TB, parts ...string) string {
	t.Helper()
	p := filepath.Join(append([]string{"..", "..", "..", "shared"}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("engine: %s absent (../shared not mounted)", p)
	}
	return p
}

// epdPositions returns the first n positions of ../shared/data/positions.epd, or skips.
func epdPositions(t testing.TB, n int) []board.Position {
	data, err := os.ReadFile(shared(t, "data", "positions.epd"))
	if err != nil {
		t.Fatal(err)
	}
	var out []board.Position
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if len(out) == n {
			break
		}
		p, _, err := board.ParseEPD(l)
		if err != nil {
			t.Fatalf("positions.epd line %d: %v", i+1, err)
		}
		out = append(out, p)
	}
	return out
}

// quietEngine returns an engine writing to io.Discard.
func quietEngine(t testing.TB) *engine {
	t.Helper()
	return newEngine(io.Discard)
}

// searchPos searches pos with e's threads and limits lim; it returns the best move, the
// main thread's score and the searcher.
func searchPos(e *engine, pos board.Position, lim limits) (board.Move, int, *searcher) {
	e.root, e.history = pos, nil
	s := e.newSearcher(&e.root, lim, nil)
	m := s.run(&e.root, nil)
	return m, s.threads[0].bestScore, s
}

// newTT returns a table of mb MiB (small sizes that cannot fail) for tests.
func newTT(mb int) *tt {
	t, err := allocTT(mb)
	if err != nil {
		panic(err)
	}
	return t
}

// startPos returns the start position.
func startPos() board.Position { return board.StartPosition() }

// flagOutput sends the flag package's output to w until the returned function is called.
func flagOutput(w io.Writer) func() {
	old := flag.CommandLine.Output()
	flag.CommandLine.SetOutput(w)
	return func() { flag.CommandLine.SetOutput(old) }
}
