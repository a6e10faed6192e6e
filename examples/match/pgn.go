package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
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

// readPGNFile reads the games already in path (a missing file is empty). A last game that does
// not parse (an interrupted write) is cut from the file, with a message. Errors: unreadable
// file, a game without a MatchGame tag, or an unreadable game before the last.
func readPGNFile(path string, logw io.Writer) ([]playedGame, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	games, err := board.ReadPGN(bytes.NewReader(b))
	complete := err == nil
	if complete && len(games) > 0 {
		// A game cut after a move still parses: the text must end with the result token.
		complete = bytes.HasSuffix(bytes.TrimRight(b, "\n "), []byte(games[len(games)-1].Tags["Result"]))
	}
	if !complete {
		if err == nil {
			err = errors.New("no result token at the end")
		}
		// Cut the last game and try again.
		cut := bytes.LastIndex(b, []byte("\n[Event "))
		if cut < 0 {
			cut = 0
		} else {
			cut++
		}
		games2, err2 := board.ReadPGN(bytes.NewReader(b[:cut]))
		if err2 != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(logw, "match: %s: cutting an unfinished last game (%d bytes): %v\n", path, len(b)-cut, err)
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, err
		}
		games = games2
	}
	out := make([]playedGame, 0, len(games))
	for i, g := range games {
		n, err := strconv.Atoi(g.Tags[tagGame])
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: game %d has no %s tag: not written by match", path, i+1, tagGame)
		}
		out = append(out, playedGame{idx: n - 1, white: g.Tags["White"], black: g.Tags["Black"], result: g.Tags["Result"],
			fen: g.Start.FEN(), termination: g.Tags["Termination"], reason: g.Tags[tagTermDetails], plies: len(g.Moves)})
	}
	return out, nil
}
