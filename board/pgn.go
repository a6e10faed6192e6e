package board

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	chess "github.com/corentings/chess/v2"
)

// MaxPGNGameBytes bounds the text of one PGN game (tags, movetext and comments): 16 MiB,
// about 200 times the longest game of a normal database. A longer game is skipped and
// reported as a *PGNError; the games after it are still read.
const MaxPGNGameBytes = 16 << 20

// maxPGNErrors bounds the errors ReadPGN collects before it stops reading.
const maxPGNErrors = 100

// ErrPGN is wrapped by every *PGNError, so errors.Is(err, ErrPGN) tests for a PGN problem.
var ErrPGN = errors.New("board: bad PGN")

// PGNError reports a PGN game that ReadPGN could not read: its 1-based number in the
// stream (counting every game, read or not), the 1-based line where its text starts
// (Line) and the line where the problem was seen (ErrLine; equal to Line when chess/v2
// does not say), and the cause. errors.Is(e, ErrPGN) holds; Unwrap also returns the cause
// (a *FENError for a bad FEN tag, a *MoveError for an illegal move, an I/O error …).
type PGNError struct {
	Game    int
	Line    int
	ErrLine int
	Reason  string
	Err     error
}

// Error returns e.g. `board: PGN game 3 (line 120): ply 17: board: move "e2e5" …`.
func (e *PGNError) Error() string {
	loc := fmt.Sprintf("line %d", e.Line)
	if e.ErrLine != 0 && e.ErrLine != e.Line {
		loc = fmt.Sprintf("lines %d–%d", e.Line, e.ErrLine)
	}
	s := fmt.Sprintf("board: PGN game %d (%s): %s", e.Game, loc, e.Reason)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns ErrPGN and the cause.
func (e *PGNError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrPGN}
	}
	return []error{ErrPGN, e.Err}
}

// ReadPGN reads every game of a PGN stream. The stream is split into games line by line
// (no line-length limit; a game's text is limited to MaxPGNGameBytes): a tag line
// ("[Tag "value"]") after movetext, or a game-termination marker (1-0, 0-1, 1/2-1/2, *)
// ending the movetext outside comments and variations, ends a game. Each game is then
// tokenized and parsed with chess/v2 (SAN moves, comments, NAGs, variations; variations
// are dropped), its FEN tag validated by ParseFEN and every move checked with PlayChecked.
//
// It returns every game it could read, in order, and — when some could not be read — an
// error: a *PGNError naming the game number and line for each bad game (joined with
// errors.Join when there are several; errors.As finds the first), skipping the bad game
// and continuing. A read error of r (for example r is a directory), binary data (a NUL or
// other control byte outside \t \n \v \f \r and DOS end-of-file 0x1A) or a non-empty stream
// with no game are errors too and end the reading; so do more than 100 bad games. A stream
// holding only whitespace gives no games and no error.
func ReadPGN(r io.Reader) (games []Game, err error) {
	var errs []error
	report := func(e *PGNError) bool {
		errs = append(errs, e)
		return len(errs) < maxPGNErrors
	}
	s := pgnSplitter{br: bufio.NewReaderSize(r, 64<<10)}
	n := 0
	for {
		chunk, err := s.next()
		if chunk.text != "" || chunk.tooLong {
			n++
			switch {
			case chunk.tooLong:
				if !report(&PGNError{Game: n, Line: chunk.line, ErrLine: chunk.endLine,
					Reason: fmt.Sprintf("game text longer than %d bytes, skipped", MaxPGNGameBytes)}) {
					return games, errors.Join(errs...)
				}
			default:
				g, perr := parsePGNText(chunk.text)
				if perr != nil {
					if !report(&PGNError{Game: n, Line: chunk.line, ErrLine: chunk.endLine, Reason: "cannot read", Err: perr}) {
						return games, errors.Join(errs...)
					}
				} else {
					games = append(games, g)
				}
			}
		}
		if err != nil {
			if err != io.EOF {
				errs = append(errs, &PGNError{Game: n + 1, Line: max(s.line, 1), ErrLine: max(s.line, 1), Reason: "reading stream", Err: err})
			}
			break
		}
	}
	if len(errs) == 0 && n == 0 && s.nonSpace {
		errs = append(errs, &PGNError{Game: 1, Line: 1, Reason: "no PGN game in a non-empty stream"})
	}
	return games, errors.Join(errs...)
}

// pgnChunk is the text of one game.
type pgnChunk struct {
	text          string
	line, endLine int // 1-based first and last line
	tooLong       bool
}

// pgnSplitter cuts a PGN stream into games, keeping brace-comment and variation state
// across lines.
type pgnSplitter struct {
	br        *bufio.Reader
	line      int // lines read so far
	inComment bool
	depth     int // open '(' outside comments
	nonSpace  bool
	pending   []byte // a tag line that starts the next game
	pendLine  int
}

var errBinary = errors.New("binary data: not a PGN text")

// readLine returns the next line without its end, reading as much as needed.
func (s *pgnSplitter) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := s.br.ReadSlice('\n')
		for _, c := range frag {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' && c != 0x1a {
				return nil, fmt.Errorf("%w: byte 0x%02x on line %d", errBinary, c, s.line+1)
			}
		}
		line = append(line, frag...)
		if err == bufio.ErrBufferFull {
			if len(line) > MaxPGNGameBytes {
				return line, nil // the caller sees an overlong game; the line goes on
			}
			continue
		}
		if len(line) > 0 || err == nil {
			s.line++
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// next returns the next game's text; err is io.EOF at the end of the stream.
func (s *pgnSplitter) next() (pgnChunk, error) {
	var buf bytes.Buffer
	var c pgnChunk
	moves := false
	if s.pending != nil {
		buf.Write(s.pending)
		buf.WriteByte('\n')
		c.line = s.pendLine
		c.endLine = s.pendLine
		s.pending = nil
	}
	finish := func() pgnChunk {
		if !c.tooLong {
			c.text = buf.String()
		}
		return c
	}
	for {
		line, err := s.readLine()
		if errors.Is(err, errBinary) {
			return pgnChunk{}, err
		}
		trim := bytes.TrimSpace(line)
		if len(trim) > 0 {
			s.nonSpace = true
			if c.line == 0 {
				c.line = s.line
			}
			c.endLine = s.line
			isTag := !s.inComment && trim[0] == '['
			if isTag && moves {
				s.pending = append([]byte(nil), trim...)
				s.pendLine = s.line
				s.inComment, s.depth = false, 0
				return finish(), nil
			}
			if !isTag && trim[0] != '%' { // '%' at line start: escape line (PGN spec 6)
				moves = true
			}
			if buf.Len()+len(line) > MaxPGNGameBytes {
				c.tooLong = true
				buf.Reset()
			}
			if !c.tooLong {
				buf.Write(line)
				buf.WriteByte('\n')
			}
			if !isTag && trim[0] != '%' && s.scanMovetext(trim) {
				s.inComment, s.depth = false, 0
				return finish(), err
			}
		}
		if err != nil {
			return finish(), err
		}
	}
}

// scanMovetext updates the comment and variation state over one movetext line and
// reports whether the line ends with a game-termination marker outside comments and
// variations.
func (s *pgnSplitter) scanMovetext(line []byte) bool {
	last := ""
	tokStart := -1
	for i := 0; i <= len(line); i++ {
		var ch byte = ' '
		if i < len(line) {
			ch = line[i]
		}
		if s.inComment {
			if ch == '}' {
				s.inComment = false
			}
			continue
		}
		switch ch {
		case '{':
			s.inComment = true
		case ';':
			i = len(line) // rest-of-line comment
		case '(':
			s.depth++
		case ')':
			if s.depth > 0 {
				s.depth--
			}
		}
		sep := ch == ' ' || ch == '\t' || ch == '{' || ch == ';' || ch == '(' || ch == ')' || i >= len(line)
		if sep {
			if tokStart >= 0 {
				if s.depth == 0 || ch == '(' {
					last = string(line[tokStart:i])
				}
				tokStart = -1
			}
			if ch != ' ' && ch != '\t' && i < len(line) {
				last = ""
			}
		} else if tokStart < 0 {
			tokStart = i
		}
	}
	if s.inComment || s.depth > 0 {
		return false
	}
	switch last {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// parsePGNText tokenizes and parses one game with chess/v2, then replays its moves.
func parsePGNText(text string) (g Game, err error) {
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("chess/v2 panicked: %v", e)
		}
	}()
	tokens, err := chess.TokenizeGame(&chess.GameScanned{Raw: text})
	if err != nil {
		return Game{}, err
	}
	g = Game{Tags: map[string]string{}}
	for i := 0; i+1 < len(tokens); i++ {
		if tokens[i].Type == chess.TagKey && tokens[i+1].Type == chess.TagValue {
			g.Tags[tokens[i].Value] = tokens[i+1].Value
		}
	}
	g.Start = StartPosition()
	if fen, ok := g.Tags["FEN"]; ok {
		if g.Start, err = ParseFEN(fen); err != nil {
			return Game{}, err
		}
	}
	cg, err := chess.NewParser(tokens).Parse()
	if err != nil {
		return Game{}, err
	}
	p := g.Start
	for i, cm := range cg.Moves() {
		m := fromChessMove(cm)
		next, _, err := p.PlayChecked(m)
		if err != nil {
			return Game{}, fmt.Errorf("ply %d: %w", i+1, err)
		}
		g.Moves = append(g.Moves, m)
		p = next
	}
	if len(g.Tags) == 0 && len(g.Moves) == 0 && !strings.ContainsAny(text, "*") {
		return Game{}, errors.New("no tags and no moves")
	}
	return g, nil
}
