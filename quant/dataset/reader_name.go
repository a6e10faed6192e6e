package dataset

import (
	"errors"
	"fmt"
	"io"
)

// SetName gives the input a name (usually its file path) used in the Reader's errors:
// a *ParseError gets it in File ("dataset: games.txt: line 12, field 2 …"), and a read error
// of the underlying reader is wrapped as "dataset: games.txt: reading after line 12: …".
func (r *Reader) SetName(name string) { r.name = name }

// located adds the input name and line to err (io.EOF is returned as is).
func (r *Reader) located(err error) error {
	var pe *ParseError
	switch {
	case err == io.EOF:
		return err
	case errors.As(err, &pe):
		if pe.File == "" {
			pe.File = r.name
		}
		return err
	}
	name := r.name
	if name == "" {
		name = "input"
	}
	return fmt.Errorf("dataset: %s: reading after line %d: %w", name, r.line, err)
}
