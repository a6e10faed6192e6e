package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/search"
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

// quietEngine returns an engine writing to io.Discard.
func quietEngine(t testing.TB) *engine {
	t.Helper()
	return newEngine(io.Discard)
}

// searchPos searches pos with e's threads and limits lim; it returns the best move, the
// main thread's score and the searcher.
func searchPos(e *engine, pos board.Position, lim search.Limits) (board.Move, int, *search.Searcher) {
	e.root, e.history = pos, nil
	s := e.newSearcher(&e.root, lim, nil)
	m := s.Run(&e.root, nil)
	return m, s.Score(), s
}

// newTT returns a table of mb MiB (small sizes that cannot fail) for tests.
func newTT(mb int) *search.TT {
	t, err := search.NewTT(mb)
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
