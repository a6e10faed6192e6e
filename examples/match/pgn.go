package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/corentings/chess/v2"

	"github.com/nnuekit/nnuekit/board"
)

// Custom PGN tags written by match (PGN allows any tag name).
const (
	tagGame        = "MatchGame"          // 1-based index of the game in the tournament schedule
	tagOpening     = "Opening"            // where the opening came from ("balanced.epd:12")
	tagTermDetails = "TerminationDetails" // the human-readable reason the game ended
)

// formatPGN writes rec as one PGN game with github.com/corentings/chess/v2 (Game.String), and
// checks the text by reading it back with board.ReadPGN (start position, moves and result must
// round-trip). chess/v2 v2.3.2 does not escape tag values, so they are sanitized here.
func (t *tournament) formatPGN(rec *gameRecord) (string, error) {
	var opts []func(*chess.Game)
	fen := rec.start.FEN()
	if fen != board.StartFEN {
		f, err := chess.FEN(fen)
		if err != nil {
			return "", fmt.Errorf("chess/v2 rejects the start FEN %q: %w", fen, err)
		}
		opts = append(opts, f)
	}
	g := chess.NewGame(opts...)
	san := strings.NewReplacer("\"", "'", "\\", "/", "\n", " ")
	tag := func(k, v string) { g.AddTagPair(k, san.Replace(v)) }
	tag("Event", t.event)
	tag("Site", "nnuekit examples/match")
	tag("Date", rec.date.UTC().Format("2006.01.02"))
	tag("Round", strconv.Itoa(rec.sched.pair+1))
	tag("White", t.names[rec.sched.white])
	tag("Black", t.names[rec.sched.black])
	tag("Result", rec.result)
	if fen != board.StartFEN {
		tag("SetUp", "1")
		tag("FEN", fen)
	}
	tag("TimeControl", t.tc.pgnTag())
	tag("Termination", rec.termination)
	tag(tagTermDetails, rec.reason)
	tag(tagGame, strconv.Itoa(rec.sched.idx+1))
	tag(tagOpening, t.openings[rec.sched.opening].name)
	tag("PlyCount", strconv.Itoa(len(rec.book)+len(rec.moves)))

	push := func(m board.Move, comment string) error {
		if err := g.PushNotationMove(m.String(), chess.UCINotation{}, nil); err != nil {
			return fmt.Errorf("chess/v2 rejects move %s: %w", m, err)
		}
		ms := g.Moves()
		ms[len(ms)-1].SetComment(comment)
		return nil
	}
	for _, m := range rec.book {
		if err := push(m, "book"); err != nil {
			return "", err
		}
	}
	for i, m := range rec.moves {
		if err := push(m, rec.comments[i]); err != nil {
			return "", err
		}
	}
	if g.Outcome() == chess.NoOutcome {
		switch rec.result {
		case "1-0":
			g.Resign(chess.Black)
		case "0-1":
			g.Resign(chess.White)
		default:
			_ = g.Draw(chess.DrawOffer)
		}
	}
	if got := g.Outcome().String(); got != rec.result {
		return "", fmt.Errorf("chess/v2 records %s (%v) where match decided %s (%s)", got, g.Method(), rec.result, rec.reason)
	}
	text := g.String() + "\n\n"
	// Check the output.
	games, err := board.ReadPGN(strings.NewReader(text))
	if err != nil || len(games) != 1 {
		return "", fmt.Errorf("the PGN chess/v2 wrote does not read back (%d games): %v\n%s", len(games), err, text)
	}
	rg := games[0]
	all := append(slices.Clone(rec.book), rec.moves...)
	if rg.Start != rec.start || !slices.Equal(rg.Moves, all) || rg.Tags["Result"] != rec.result {
		return "", fmt.Errorf("the PGN chess/v2 wrote reads back differently:\n%s", text)
	}
	return text, nil
}

// playedGame is what resuming needs of a game already in the PGN file.
type playedGame struct {
	idx                  int
	white, black, result string
	fen                  string
	termination, reason  string
	plies                int
}

// readPGNFile reads the games already in path for resuming. A missing file, or one that is not
// a regular file (a device or FIFO used as a write-only sink: -pgn /dev/null), has no games.
// Line ends may be LF or CRLF; trailing spaces and tabs, ";" comment lines and "%" escape lines
// are allowed anywhere. A last game without its result token (an interrupted write) is cut
// from the file, with a message; a game that ends with its result token is never cut: a file
// whose games do not read is refused. endsInNewline reports whether the file is empty or ends
// with a line end (else the next game must start on a new line). Errors: unreadable file,
// unreadable games, a game without a MatchGame tag.
func readPGNFile(path string, logw io.Writer) (games []playedGame, endsInNewline bool, err error) {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !st.Mode().IsRegular() {
		return nil, true, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	text := blankCommentLines(b)
	parsed, rerr := board.ReadPGN(bytes.NewReader(text))
	last, cut := lastGame(text)
	if isResult(last) {
		if rerr != nil {
			return nil, false, fmt.Errorf("%s: %w (the file is left as it is: fix it or use another -pgn)", path, rerr)
		}
	} else if len(bytes.TrimSpace(text)) > 0 {
		// An unfinished last game: cut it if everything before it reads.
		if cut < 0 {
			return nil, false, fmt.Errorf("%s: not a PGN file of match (no tag line before its text)", path)
		}
		before, err2 := board.ReadPGN(bytes.NewReader(text[:cut]))
		if err2 != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err2)
		}
		why := "no result token at its end"
		if rerr != nil {
			why = rerr.Error()
		}
		fmt.Fprintf(logw, "match: %s: cutting an unfinished last game (%d bytes from byte %d: %s)\n", path, len(b)-cut, cut, why)
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, false, err
		}
		parsed, b = before, b[:cut]
	}
	out := make([]playedGame, 0, len(parsed))
	for i, g := range parsed {
		n, err := strconv.Atoi(g.Tags[tagGame])
		if err != nil || n < 1 {
			return nil, false, fmt.Errorf("%s: game %d has no %s tag: not written by match", path, i+1, tagGame)
		}
		out = append(out, playedGame{idx: n - 1, white: g.Tags["White"], black: g.Tags["Black"], result: g.Tags["Result"],
			fen: g.Start.FEN(), termination: g.Tags["Termination"], reason: g.Tags[tagTermDetails], plies: len(g.Moves)})
	}
	return out, len(b) == 0 || b[len(b)-1] == '\n', nil
}

// blankCommentLines returns b with the text of every ";" comment line and "%" escape line (PGN
// standard §6 and §8.2.1: the first non-blank character of the line, outside a brace comment)
// replaced by spaces, so that line numbers and byte offsets are kept.
func blankCommentLines(b []byte) []byte {
	out := bytes.Clone(b)
	inBrace := false
	for i := 0; i < len(out); {
		end := bytes.IndexByte(out[i:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += i
		}
		line := out[i:end]
		trim := bytes.TrimLeft(line, " \t\r")
		if !inBrace && len(trim) > 0 && (trim[0] == ';' || trim[0] == '%') {
			for j := range line {
				if line[j] != '\r' {
					line[j] = ' '
				}
			}
		} else {
			for j := 0; j < len(line); j++ {
				switch {
				case inBrace && line[j] == '}':
					inBrace = false
				case !inBrace && line[j] == '{':
					inBrace = true
				case !inBrace && line[j] == ';':
					j = len(line) // rest-of-line comment
				}
			}
		}
		i = end + 1
	}
	return out
}

// lastGame returns the last movetext token of the last game of text (outside comments and
// variations; "" if none) and the byte offset where that game's tag section starts (-1 if
// there is no tag line).
func lastGame(text []byte) (last string, start int) {
	start = -1
	inBrace, depth := false, 0
	inMoves := false // a movetext line was seen since the last tag line
	for i := 0; i < len(text); {
		end := bytes.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += i
		}
		line := text[i:end]
		trim := bytes.TrimSpace(line)
		switch {
		case len(trim) == 0:
		case !inBrace && trim[0] == '[':
			if inMoves || start < 0 {
				start, last, depth = i, "", 0
			}
			inMoves = false
		default:
			inMoves = true
			tok := -1
			flush := func(j int) {
				if tok >= 0 && depth == 0 {
					last = string(line[tok:j])
				}
				tok = -1
			}
			for j := 0; j <= len(line); j++ {
				c := byte(' ')
				if j < len(line) {
					c = line[j]
				}
				if inBrace {
					if c == '}' {
						inBrace = false
					}
					continue
				}
				switch c {
				case ' ', '\t', '\r', '\v', '\f':
					flush(j)
				case '{':
					flush(j)
					inBrace = true
				case ';':
					flush(j)
					j = len(line)
				case '(':
					flush(j)
					depth++
				case ')':
					flush(j)
					depth = max(depth-1, 0)
				default:
					if tok < 0 {
						tok = j
					}
				}
			}
		}
		i = end + 1
	}
	return last, start
}

func isResult(tok string) bool {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// checkPGNPath checks -pgn before the tournament starts: its directory must exist, and it must
// not be a directory, the opening file or the -json-out file (compared by device and inode).
// A path that exists and is not a regular file (a device, a FIFO) is accepted as a write-only
// output: it is not read back, so the run cannot be resumed from it.
func checkPGNPath(pgn, openings, jsonOut string) error {
	if pgn == "" {
		return nil
	}
	st, err := os.Stat(pgn)
	if errors.Is(err, os.ErrNotExist) {
		if dst, derr := os.Stat(filepath.Dir(pgn)); derr != nil || !dst.IsDir() {
			return fmt.Errorf("-pgn %s: directory %s does not exist", pgn, filepath.Dir(pgn))
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("-pgn %s: %w", pgn, err)
	}
	if st.IsDir() {
		return fmt.Errorf("-pgn %s: is a directory", pgn)
	}
	for _, in := range []struct{ flag, path string }{{"-openings", openings}, {"-json-out", jsonOut}} {
		if in.path == "" {
			continue
		}
		if ist, err := os.Stat(in.path); err == nil && os.SameFile(st, ist) {
			return fmt.Errorf("-pgn %s is the same file as %s %s", pgn, in.flag, in.path)
		}
	}
	return nil
}
