package epdfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.epd")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadAll(t *testing.T) {
	p := write(t, "# comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n8/8/4k3/8/8/3QK3/8/8 w - - id \"x\";\n")
	ps, err := ReadAll(p)
	if err != nil || len(ps) != 2 {
		t.Fatalf("ReadAll = %d positions, %v; want 2, nil", len(ps), err)
	}
	if ps[0] != board.StartPosition() {
		t.Errorf("first position %s", ps[0].FEN())
	}
}

func TestErrorsNameFileAndLine(t *testing.T) {
	p := write(t, "8/8/4k3/8/8/3QK3/8/8 w - -\nnot a fen\n")
	_, err := ReadAll(p)
	var e *board.EPDError
	if !errors.As(err, &e) || e.Line != 2 || e.File != p {
		t.Fatalf("err = %v; want an *board.EPDError at %s:2", err, p)
	}
	long := write(t, "8/8/4k3/8/8/3QK3/8/8 w - - c0 \""+strings.Repeat("x", 70<<10)+"\";\n")
	if _, err := ReadAll(long); err != nil {
		t.Errorf("a 70 KiB line: %v", err)
	}
	if _, err := ReadAll(filepath.Join(t.TempDir(), "missing.epd")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	stop := errors.New("stop")
	if err := Each(p, func(*board.Position) error { return stop }); err != stop {
		t.Errorf("fn's error: %v", err)
	}
}
