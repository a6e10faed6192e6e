package dataset

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestReaderErrorsNamed: a line over MaxLineBytes and a reader error name the file and
// the line; the lines before them are read.
func TestReaderErrorsNamed(t *testing.T) {
	good := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,20,e2e4\n"
	in := good + "8/8/8/8/8/8/8/8 w - - 0 1," + strings.Repeat("1", MaxLineBytes) + "\n" + good
	r := NewReader(strings.NewReader(in))
	r.SetName("games.txt")
	n := 0
	for r.Next() {
		n++
	}
	var pe *ParseError
	if n != 1 || !errors.As(r.Err(), &pe) || pe.Line != 2 || pe.File != "games.txt" ||
		!errors.Is(r.Err(), ErrLineTooLong) || !strings.Contains(r.Err().Error(), "games.txt: line 2") {
		t.Fatalf("%d samples, err %v", n, r.Err())
	}
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	r = NewReader(dir)
	r.SetName("somedir")
	for r.Next() {
	}
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "somedir") {
		t.Errorf("directory: %v", err)
	}
}
