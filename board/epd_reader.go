package board

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxEPDLineBytes bounds one line of an EPD file read by EPDReader (1 MiB: a position
// plus operations is rarely above 200 bytes). A longer line is an *EPDError naming the
// file and line, not "bufio.Scanner: token too long".
const MaxEPDLineBytes = 1 << 20

// ErrEPDLineTooLong is wrapped by the *EPDError of a line longer than MaxEPDLineBytes.
var ErrEPDLineTooLong = errors.New("board: EPD line too long")

// EPDError reports a bad line of an EPD file: the file name given to NewEPDReader, the
// 1-based line number and the cause (a *FENError from ParseEPD, ErrEPDLineTooLong, or a
// read error of the underlying reader).
type EPDError struct {
	File string
	Line int
	Err  error
}

// Error returns `board: FILE:LINE: cause`, without repeating the package name when the cause is
// one of this package's errors (`board: a.epd:3: bad FEN placement at offset 5: …`).
func (e *EPDError) Error() string {
	return fmt.Sprintf("board: %s:%d: %s", e.File, e.Line, strings.TrimPrefix(e.Err.Error(), "board: "))
}

// Unwrap returns the cause.
func (e *EPDError) Unwrap() error { return e.Err }

// EPDReader reads EPD (or FEN) positions one line at a time, skipping blank lines and
// lines starting with '#'. Memory is bounded by MaxEPDLineBytes. It stops at the first
// error (Err); a reader error is an error, never a silent end.
//
//	r := board.NewEPDReader(f, "positions.epd")
//	for r.Next() {
//		pos, ops := r.Position(), r.Ops()
//		…
//	}
//	if err := r.Err(); err != nil { … } // "board: positions.epd:17: …"
type EPDReader struct {
	br   *bufio.Reader
	name string
	line int
	pos  Position
	ops  map[string]string
	err  error
	buf  []byte
}

// NewEPDReader returns an EPDReader on r; name (a file path) is used in errors.
func NewEPDReader(r io.Reader, name string) *EPDReader {
	return &EPDReader{br: bufio.NewReaderSize(r, 64<<10), name: name}
}

// Next reads the next position and reports whether there is one; false at the end of the
// input or on the first error (Err tells which).
func (r *EPDReader) Next() bool {
	for r.err == nil {
		line, err := r.readLine()
		if err != nil {
			if err != io.EOF {
				r.err = &EPDError{File: r.name, Line: r.line, Err: err}
			}
			return false
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		r.pos, r.ops, err = ParseEPD(string(t))
		if err != nil {
			r.err = &EPDError{File: r.name, Line: r.line, Err: err}
			return false
		}
		return true
	}
	return false
}

func (r *EPDReader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		frag, err := r.br.ReadSlice('\n')
		if len(r.buf)+len(frag) > MaxEPDLineBytes+2 {
			for err == bufio.ErrBufferFull {
				_, err = r.br.ReadSlice('\n')
			}
			r.line++
			return nil, fmt.Errorf("%w: more than %d bytes", ErrEPDLineTooLong, MaxEPDLineBytes)
		}
		r.buf = append(r.buf, frag...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(r.buf) > 0:
			r.line++
			return r.buf, nil
		case err != nil:
			return nil, err
		}
		r.line++
		return r.buf, nil
	}
}

// Position returns the current position.
func (r *EPDReader) Position() Position { return r.pos }

// Ops returns the current line's operations (see ParseEPD).
func (r *EPDReader) Ops() map[string]string { return r.ops }

// Line returns the 1-based line number of the current position.
func (r *EPDReader) Line() int { return r.line }

// Err returns the error that ended the reading, or nil at a clean end.
func (r *EPDReader) Err() error { return r.err }
