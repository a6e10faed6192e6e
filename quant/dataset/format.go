package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// MaxLineBytes bounds the length of one line the Reader accepts (1 MiB, about 60,000 plies of
// compact continuation); longer lines are reported as a *ParseError wrapping ErrLineTooLong
// instead of being buffered without bound.
const MaxLineBytes = 1 << 20

// MaxScore bounds |score| in a line: Stockfish's VALUE_INFINITE is 32001, so 32767 leaves room
// for every score an engine reports. Larger magnitudes are a syntax error.
const MaxScore = 32767

var (
	// ErrSyntax is wrapped by *ParseError for malformed fields (bad number, wrong field count).
	ErrSyntax = errors.New("dataset: syntax error")
	// ErrLineTooLong is wrapped by *ParseError when a line exceeds MaxLineBytes.
	ErrLineTooLong = errors.New("dataset: line too long")
)

// ParseError reports a malformed line: its 1-based line number, the 1-based comma-separated
// field and the 1-based byte column where that field starts, the field's text (shortened to 60
// bytes) and the cause (ErrSyntax, ErrLineTooLong, or a *board.FENError / *board.MoveError from
// package board, so errors.Is(err, board.ErrIllegalMove) works).
type ParseError struct {
	File   string // the input's name when the Reader was given one (Reader.SetName), else ""
	Line   int
	Field  int
	Column int
	Text   string
	Err    error
}

// Error formats the error as `dataset: line L, field F (column C) "text": cause`.
// With a File name it is `dataset: FILE: line L, …`.
func (e *ParseError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("dataset: %s: line %d, field %d (column %d) %q: %v", e.File, e.Line, e.Field, e.Column, e.Text, e.Err)
	}
	return fmt.Sprintf("dataset: line %d, field %d (column %d) %q: %v", e.Line, e.Field, e.Column, e.Text, e.Err)
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

func shorten(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// ParseLine parses one line of the thesis's sample formats (thesis §5.1, App. A.6) and appends its
// samples to dst:
//
//	FEN,score,best                              plain format, one sample
//	FEN,score,best(,played,score,best)*         compact continuation, one sample per group
//	…[,result]                                  nnuekit: optional trailing game result
//
// In a continuation group, played is the move played from the previous sample's position; empty
// means the previous sample's best move was played. The optional trailing result ("1-0", "0-1",
// "1/2-1/2", White's point of view) is recognized by the field count: 3 + 3k fields without it,
// 4 + 3k with it (doc/datagen.md). Every move must be legal in its position. A trailing "\r" is
// ignored. lineNo is used in errors and stored in Sample.Line. On error dst is returned as it was
// passed in, with a *ParseError.
func ParseLine(line string, lineNo int, dst []Sample) ([]Sample, error) {
	line = strings.TrimSuffix(line, "\r")
	start := len(dst)
	fail := func(field, col int, text string, err error) ([]Sample, error) {
		return dst[:start], &ParseError{Line: lineNo, Field: field, Column: col, Text: shorten(text), Err: err}
	}
	if len(line) > MaxLineBytes {
		return fail(1, 1, line, ErrLineTooLong)
	}
	nf := strings.Count(line, ",") + 1
	if nf < 3 || (nf-3)%3 == 2 {
		return fail(nf, len(line)+1, "", fmt.Errorf("%w: %d fields, want FEN,score,best(,played,score,best)*[,result]", ErrSyntax, nf))
	}
	hasResult := (nf-3)%3 == 1
	groups := (nf - 3) / 3 // continuation groups

	rest := line
	col := 1
	field := 0
	next := func() (string, int) {
		field++
		c := col
		i := strings.IndexByte(rest, ',')
		var f string
		if i < 0 {
			f, rest = rest, ""
		} else {
			f, rest = rest[:i], rest[i+1:]
		}
		col += len(f) + 1
		return f, c
	}

	result := NoResult
	if hasResult {
		i := strings.LastIndexByte(line, ',')
		r, err := ParseResult(line[i+1:])
		if err != nil {
			return fail(nf, i+2, line[i+1:], fmt.Errorf("%w: %v", ErrSyntax, err))
		}
		result = r
	}

	f, c := next()
	pos, err := board.ParseFEN(f)
	if err != nil {
		return fail(field, c, f, err)
	}
	var prevBest board.Move
	for g := 0; g <= groups; g++ {
		if g > 0 {
			f, c = next()
			played := prevBest
			if f != "" {
				m, err := parseMove(&pos, f)
				if err != nil {
					return fail(field, c, f, err)
				}
				played = m
			}
			dst[len(dst)-1].Played = played
			pos, _ = pos.Play(played)
		}
		f, c = next()
		score, err := strconv.ParseInt(f, 10, 32)
		if err != nil || score < -MaxScore || score > MaxScore {
			return fail(field, c, f, fmt.Errorf("%w: score must be an integer in [−%d, %d]", ErrSyntax, MaxScore, MaxScore))
		}
		f, c = next()
		best, err := parseMove(&pos, f)
		if err != nil {
			return fail(field, c, f, err)
		}
		dst = append(dst, Sample{Pos: pos, Score: int32(score), Best: best, Line: lineNo, Index: g})
		prevBest = best
	}
	for i := start; i < len(dst); i++ {
		dst[i].Result = result
	}
	return dst, nil
}

// Reader streams samples from text in the thesis's formats (see ParseLine), one line at a time:
// memory is bounded by the longest line (≤ MaxLineBytes) and its samples. Blank lines and lines
// starting with '#' are skipped.
//
//	r := dataset.NewReader(f)
//	for r.Next() {
//		s := r.Sample()
//		…
//	}
//	if err := r.Err(); err != nil { … }
type Reader struct {
	br    *bufio.Reader
	line  int
	game  []Sample
	i     int
	err   error
	bufLn []byte

	partialTail bool
	name        string // SetName
}

// IgnorePartialLastLine makes the Reader drop a last line that has no terminating '\n' instead of
// parsing it, for files another process is still appending to (examples/datagen writes whole
// lines, but a reader can catch a write in progress). Off by default: a complete file may end
// without a newline.
func (r *Reader) IgnorePartialLastLine(ignore bool) { r.partialTail = ignore }

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), i: -1}
}

// readLine returns the next line without its newline; io.EOF at the end.
func (r *Reader) readLine() (string, error) {
	r.bufLn = r.bufLn[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.bufLn)+len(chunk) > MaxLineBytes+2 {
			// Skip the rest of the line so that Line numbers stay right, then report.
			for err == bufio.ErrBufferFull {
				_, err = r.br.ReadSlice('\n')
			}
			r.line++
			return "", &ParseError{Line: r.line, Field: 1, Column: 1, Text: shorten(string(r.bufLn)), Err: ErrLineTooLong}
		}
		r.bufLn = append(r.bufLn, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(r.bufLn) > 0 {
			if r.partialTail {
				return "", io.EOF
			}
			r.line++
			return string(r.bufLn), nil
		}
		if err != nil {
			return "", err
		}
		r.line++
		return string(bytes.TrimSuffix(r.bufLn, []byte{'\n'})), nil
	}
}

// NextLine parses the next non-blank, non-comment line and returns its samples (one game, or one
// sample for the plain format) in a slice that is reused by the next call. It returns io.EOF at
// the end of the input and a *ParseError for a malformed line. Do not mix NextLine with Next.
func (r *Reader) NextLine() ([]Sample, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		ln, err := r.readLine()
		if err != nil {
			err = r.located(err)
			r.err = err
			return nil, err
		}
		t := strings.TrimSpace(ln)
		if t == "" || t[0] == '#' {
			continue
		}
		r.game, err = ParseLine(ln, r.line, r.game[:0])
		if err != nil {
			err = r.located(err)
			r.err = err
			return nil, err
		}
		return r.game, nil
	}
}

// Next advances to the next sample and reports whether there is one. At the end of the input or
// on the first error it returns false; Err tells which.
func (r *Reader) Next() bool {
	if r.i+1 < len(r.game) {
		r.i++
		return true
	}
	if _, err := r.NextLine(); err != nil {
		r.game, r.i = r.game[:0], -1
		return false
	}
	r.i = 0
	return true
}

// Sample returns the current sample. It points into the Reader's buffer and stays valid until
// the Reader moves to the next line: copy it (*s) to keep it.
func (r *Reader) Sample() *Sample {
	if r.i < 0 || r.i >= len(r.game) {
		return nil
	}
	return &r.game[r.i]
}

// Game returns all samples of the current sample's line (the game it belongs to), valid until
// the Reader moves to the next line.
func (r *Reader) Game() []Sample { return r.game }

// Line returns the 1-based number of the last line read.
func (r *Reader) Line() int { return r.line }

// Err returns the first error other than io.EOF met by Next or NextLine, or nil.
func (r *Reader) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// AppendGame appends one line in the compact continuation format (thesis §5.1) for samples, which
// must be consecutive positions of one game: samples[i+1].Pos is samples[i].Pos after
// samples[i].Played. The played field is written empty when Played == Best. If result is not
// NoResult it is appended as a trailing field. The line ends with '\n'. Errors: no samples, a
// NullMove best move, or a NullMove Played before the last sample.
func AppendGame(dst []byte, samples []Sample, result Result) ([]byte, error) {
	if len(samples) == 0 {
		return dst, errors.New("dataset: AppendGame: no samples")
	}
	for i := range samples {
		s := &samples[i]
		if s.Best == board.NullMove {
			return dst, fmt.Errorf("dataset: AppendGame: sample %d has no best move", i)
		}
		if i == 0 {
			dst = s.Pos.AppendFEN(dst)
		} else {
			p := samples[i-1].Played
			if p == board.NullMove {
				return dst, fmt.Errorf("dataset: AppendGame: sample %d has no played move but is not the last", i-1)
			}
			dst = append(dst, ',')
			if p != samples[i-1].Best {
				dst = append(dst, p.String()...)
			}
		}
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(s.Score), 10)
		dst = append(dst, ',')
		dst = append(dst, s.Best.String()...)
	}
	if result != NoResult {
		dst = append(dst, ',')
		dst = append(dst, result.String()...)
	}
	return append(dst, '\n'), nil
}

// AppendPlain appends one plain-format line "FEN,score,best\n" (thesis App. A.6), with a trailing
// ",result" when s.Result is known. Error: a NullMove best move.
func AppendPlain(dst []byte, s *Sample) ([]byte, error) {
	one := *s
	one.Played = board.NullMove
	return AppendGame(dst, []Sample{one}, s.Result)
}

// Writer writes lines in the thesis's formats to a buffered stream. Call Flush at the end.
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// WriteGame writes one compact line (see AppendGame).
func (w *Writer) WriteGame(samples []Sample, result Result) error {
	var err error
	w.buf, err = AppendGame(w.buf[:0], samples, result)
	if err != nil {
		return err
	}
	_, err = w.w.Write(w.buf)
	return err
}

// WritePlain writes one plain line (see AppendPlain).
func (w *Writer) WritePlain(s *Sample) error {
	var err error
	w.buf, err = AppendPlain(w.buf[:0], s)
	if err != nil {
		return err
	}
	_, err = w.w.Write(w.buf)
	return err
}

// Flush writes buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }
