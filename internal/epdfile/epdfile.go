// Package epdfile reads the EPD/FEN position files that the example programs take with -epd,
// one position per line, through board.EPDReader: blank lines and '#' comments are skipped,
// a line may be up to board.MaxEPDLineBytes long, and every error names the file and the
// line ("board: positions.epd:17: …"), never "bufio.Scanner: token too long".
package epdfile

import (
	"os"

	"github.com/nnuekit/nnuekit/board"
)

// Each calls fn for every position of the file at path, in file order, and stops at the
// first error: the file's (*os.PathError), a bad line's (*board.EPDError) or fn's own,
// returned unchanged.
func Each(path string, fn func(pos *board.Position) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := board.NewEPDReader(f, path)
	for r.Next() {
		pos := r.Position()
		if err := fn(&pos); err != nil {
			return err
		}
	}
	return r.Err()
}

// ReadAll returns every position of the file at path (see Each for the errors).
func ReadAll(path string) ([]board.Position, error) {
	var out []board.Position
	err := Each(path, func(pos *board.Position) error {
		out = append(out, *pos)
		return nil
	})
	return out, err
}
