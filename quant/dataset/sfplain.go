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

// Stockfish's plain text training data (".plain", emitPlainEntry in
// src/extra/nnue_data_binpack_format.h on Stockfish's tools branch) holds one record per
// position, six lines each:
//
//	fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//	move e2e4
//	score 38
//	ply 0
//	result 1
//	e
//
// score is from the side to move's point of view in internal units, ply the game ply of the
// position (0 at the start position), result the game result from the side to move's point of
// view (1 win, 0 draw, −1 loss). Stockfish prints castling as the king's two-square move and an
// en-passant square only when an en-passant capture is possible.

// StockfishPlainWriter writes samples in Stockfish's plain text format. The FEN's en-passant
// square is printed by Stockfish's rule (only when a capture is possible); the ply is derived
// from the fullmove number and side to move; an unknown result is written as 0. For a sample
// stream read from a binpack it writes exactly what Stockfish's `convert x.binpack x.plain`
// writes (tested on a fixture).
type StockfishPlainWriter struct {
	w   *bufio.Writer
	buf []byte
}

// NewStockfishPlainWriter returns a StockfishPlainWriter writing to w.
func NewStockfishPlainWriter(w io.Writer) *StockfishPlainWriter {
	return &StockfishPlainWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// AppendStockfishPlain appends the six-line record of s to dst. Error: a NullMove best move.
func AppendStockfishPlain(dst []byte, s *Sample) ([]byte, error) {
	if s.Best == board.NullMove {
		return dst, errors.New("dataset: plain: sample has no best move")
	}
	p := sfNormalize(s.Pos)
	dst = append(dst, "fen "...)
	dst = p.AppendFEN(dst)
	dst = append(dst, "\nmove "...)
	dst = append(dst, s.Best.String()...)
	dst = append(dst, "\nscore "...)
	dst = strconv.AppendInt(dst, int64(s.Score), 10)
	dst = append(dst, "\nply "...)
	dst = strconv.AppendInt(dst, int64(gamePly(&p)), 10)
	dst = append(dst, "\nresult "...)
	dst = strconv.AppendInt(dst, int64(stmResult(s)), 10)
	return append(dst, "\ne\n"...), nil
}

// Write writes one record. Errors: see AppendStockfishPlain, or the underlying writer's.
func (w *StockfishPlainWriter) Write(s *Sample) error {
	var err error
	w.buf, err = AppendStockfishPlain(w.buf[:0], s)
	if err != nil {
		return err
	}
	_, err = w.w.Write(w.buf)
	return err
}

// Close flushes the buffer (the underlying writer stays open).
func (w *StockfishPlainWriter) Close() error { return w.w.Flush() }

// maxPlainLine bounds one line of a plain file (a FEN is < 100 bytes).
const maxPlainLine = 4096

// StockfishPlainReader streams samples from Stockfish's plain text format. Lines other than
// fen, move, score, ply, result and e are ignored, as Stockfish's reader does; blank lines are
// skipped; "\r\n" line ends are accepted. A record needs fen, move and score; without ply the
// FEN's fullmove number stands, with it the fullmove number becomes ply/2 + 1 (what Stockfish
// keeps); without result the Result is NoResult. The FEN's en-passant square is kept only where
// a capture is possible (Stockfish's rule). Played is set to Best when the next record continues
// the game (the position after Best, ply + 1, same game result), as in a binpack chain. Line is
// the 1-based line of the record's "fen" line, Index its place in such a chain.
//
// Bad input stops the stream with a *FormatError naming the byte offset of the bad line (and
// its line number), wrapping ErrCorrupt (and the board error for a bad FEN or illegal move)
// or ErrTruncated for a record cut off by the end of the input.
type StockfishPlainReader struct {
	br        *bufio.Reader
	off       int64
	line      int
	cur, next Sample
	hasNext   bool
	err       error
	pending   error // error met while reading the lookahead record
	done      bool
	lnBuf     []byte
}

// NewStockfishPlainReader returns a StockfishPlainReader reading from r.
func NewStockfishPlainReader(r io.Reader) *StockfishPlainReader {
	return &StockfishPlainReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Offset returns the number of input bytes consumed so far.
func (r *StockfishPlainReader) Offset() int64 { return r.off }

// readLine returns the next line without its line end, its start offset, or io.EOF.
func (r *StockfishPlainReader) readLine() (string, int64, error) {
	start := r.off
	r.lnBuf = r.lnBuf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.off += int64(len(chunk))
		if len(r.lnBuf)+len(chunk) > maxPlainLine {
			r.line++
			return "", start, &FormatError{Format: "plain", Offset: start, Err: fmt.Errorf("%w: line %d longer than %d bytes", ErrCorrupt, r.line, maxPlainLine)}
		}
		r.lnBuf = append(r.lnBuf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(r.lnBuf) == 0 {
				return "", start, io.EOF
			}
			err = nil
		}
		if err != nil {
			return "", start, err
		}
		r.line++
		ln := bytes.TrimSuffix(r.lnBuf, []byte{'\n'})
		ln = bytes.TrimSuffix(ln, []byte{'\r'})
		return string(ln), start, nil
	}
}

// readRecord reads one record; io.EOF at a clean end.
func (r *StockfishPlainReader) readRecord(s *Sample) error {
	var (
		pos             board.Position
		haveFEN, haveSc bool
		moveText        string
		moveOff         int64
		moveLine        int
		recOff          int64 = -1
		ply                   = -1
		res                   = 2
		score           int64
		fenLine         int
	)
	bad := func(off int64, line int, format string, a ...any) error {
		return &FormatError{Format: "plain", Offset: off, Err: fmt.Errorf("line %d: %w: %s", line, ErrCorrupt, fmt.Sprintf(format, a...))}
	}
	for {
		ln, off, err := r.readLine()
		if err == io.EOF {
			if recOff >= 0 {
				return &FormatError{Format: "plain", Offset: recOff, Err: fmt.Errorf("%w: record without its final \"e\" line", ErrTruncated)}
			}
			return io.EOF
		}
		if err != nil {
			return err
		}
		t := strings.TrimLeft(ln, " \t")
		if t == "" {
			continue
		}
		if recOff < 0 {
			recOff = off
		}
		key, val, _ := strings.Cut(t, " ")
		val = strings.TrimLeft(val, " \t")
		switch key {
		case "e":
			if !haveFEN || moveText == "" || !haveSc {
				return bad(recOff, r.line, "record lacks fen, move or score")
			}
			m, err := board.ParseUCIMove(&pos, moveText)
			if err != nil {
				return &FormatError{Format: "plain", Offset: moveOff, Err: fmt.Errorf("line %d: %w: %w", moveLine, ErrCorrupt, err)}
			}
			result := NoResult
			if res != 2 {
				result, _ = resultFromSTM(res, pos.SideToMove())
			}
			if ply >= 0 {
				setPly(&pos, ply, pos.HalfmoveClock())
			}
			*s = Sample{Pos: pos, Score: int32(score), Best: m, Result: result, Line: fenLine}
			return nil
		case "fen":
			p, err := board.ParseFEN(val)
			if err != nil {
				return &FormatError{Format: "plain", Offset: off, Err: fmt.Errorf("line %d: %w: %w", r.line, ErrCorrupt, err)}
			}
			pos, haveFEN, fenLine = sfNormalize(p), true, r.line
		case "move":
			moveText, moveOff, moveLine = val, off, r.line
		case "score":
			v, err := strconv.ParseInt(val, 10, 32)
			if err != nil || v < -32768 || v > 32767 {
				return bad(off, r.line, "score %q, want an integer in [-32768, 32767]", val)
			}
			score, haveSc = v, true
		case "ply":
			v, err := strconv.Atoi(val)
			if err != nil || v < 0 || v > 0x3FFF {
				return bad(off, r.line, "ply %q, want an integer in [0, 16383]", val)
			}
			ply = v
		case "result":
			v, err := strconv.Atoi(val)
			if err != nil || v < -1 || v > 1 {
				return bad(off, r.line, "result %q, want -1, 0 or 1", val)
			}
			res = v
		}
	}
}

// Next advances to the next sample; false at the end of the input or on error (see Err).
func (r *StockfishPlainReader) Next() bool {
	if r.err != nil || r.done {
		return false
	}
	if r.hasNext {
		r.cur, r.hasNext = r.next, false
	} else {
		if r.pending != nil {
			r.err, r.pending = r.pending, nil
			return false
		}
		if err := r.readRecord(&r.cur); err != nil {
			if err == io.EOF {
				r.done = true
			} else {
				r.err = err
			}
			return false
		}
	}
	// Look ahead one record to set Played.
	if r.pending == nil {
		err := r.readRecord(&r.next)
		switch {
		case err == nil:
			r.hasNext = true
			after := sfPlay(&r.cur.Pos, r.cur.Best)
			if r.next.Result == r.cur.Result && gamePly(&r.cur.Pos)+1 == gamePly(&r.next.Pos) && samePosition(&after, &r.next.Pos) {
				r.cur.Played = r.cur.Best
				r.next.Index = r.cur.Index + 1
			}
		case err != io.EOF:
			r.pending = err
		}
	}
	return true
}

// Sample returns the current sample (valid until the next call of Next).
func (r *StockfishPlainReader) Sample() *Sample {
	if r.err != nil || r.done {
		return nil
	}
	return &r.cur
}

// Err returns the first error met, or nil at a clean end of the input.
func (r *StockfishPlainReader) Err() error { return r.err }

// maxGameSamples bounds the samples one line of a TextWriter holds (about 25 bytes each, far
// below MaxLineBytes); longer games continue on a new line.
const maxGameSamples = 20000

// TextWriter writes a sample stream in the thesis's compact format with results (one line per
// game, see AppendGame): consecutive samples go on one line while each sample's Played leads to
// the next sample's position and the result is the same. Call Close at the end.
type TextWriter struct {
	w    *Writer
	game []Sample
}

// NewTextWriter returns a TextWriter writing to w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{w: NewWriter(w)} }

// Write adds one sample. Errors: a sample without a best move, or the underlying writer's.
func (t *TextWriter) Write(s *Sample) error {
	if s.Best == board.NullMove {
		return errors.New("dataset: text: sample has no best move")
	}
	if n := len(t.game); n > 0 {
		last := &t.game[n-1]
		cont := n < maxGameSamples && last.Played != board.NullMove && last.Result == s.Result
		if cont {
			after, _ := last.Pos.Play(last.Played)
			cont = after.Mailbox() == s.Pos.Mailbox() && after.SideToMove() == s.Pos.SideToMove() && after.Castling() == s.Pos.Castling()
		}
		if !cont {
			if err := t.flush(); err != nil {
				return err
			}
		}
	}
	t.game = append(t.game, *s)
	return nil
}

func (t *TextWriter) flush() error {
	if len(t.game) == 0 {
		return nil
	}
	err := t.w.WriteGame(t.game, t.game[0].Result)
	t.game = t.game[:0]
	return err
}

// Close writes the last game and flushes (the underlying writer stays open).
func (t *TextWriter) Close() error {
	if err := t.flush(); err != nil {
		return err
	}
	return t.w.Flush()
}

var (
	_ SampleReader = (*Reader)(nil)
	_ SampleReader = (*BinpackReader)(nil)
	_ SampleReader = (*StockfishPlainReader)(nil)
	_ SampleWriter = (*BinpackWriter)(nil)
	_ SampleWriter = (*StockfishPlainWriter)(nil)
	_ SampleWriter = (*TextWriter)(nil)
)
