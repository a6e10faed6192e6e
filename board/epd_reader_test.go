package board

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestEPDReader: a line over 64 KiB (bufio.Scanner's limit) is read when under
// MaxEPDLineBytes, a longer one and a bad FEN fail naming file and line, and a
// directory is an error.
func TestEPDReader(t *testing.T) {
	long := StartFEN + " c0 \"" + strings.Repeat("x", 100<<10) + "\";"
	in := "# comment\n\n" + StartFEN + "\n" + long + "\n" + StartFEN + " " + strings.Repeat("y", MaxEPDLineBytes) + "\n"
	r := NewEPDReader(strings.NewReader(in), "p.epd")
	n := 0
	for r.Next() {
		n++
		if p := r.Position(); p != StartPosition() {
			t.Errorf("line %d: %s", r.Line(), p.FEN())
		}
	}
	var e *EPDError
	if n != 2 || !errors.As(r.Err(), &e) || e.Line != 5 || e.File != "p.epd" || !errors.Is(r.Err(), ErrEPDLineTooLong) ||
		!strings.HasPrefix(r.Err().Error(), "board: p.epd:5: ") {
		t.Fatalf("%d positions, err %v", n, r.Err())
	}
	r = NewEPDReader(strings.NewReader(StartFEN+"\n8/8/8 w - -\n"), "q.epd")
	for r.Next() {
	}
	if !errors.As(r.Err(), &e) || e.Line != 2 || !errors.Is(r.Err(), ErrSyntax) {
		t.Errorf("bad FEN: %v", r.Err())
	}
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	r = NewEPDReader(dir, "dir")
	if r.Next() || r.Err() == nil {
		t.Errorf("directory: %v", r.Err())
	}
}
