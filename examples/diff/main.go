// Command diff plays a move list or the games of a PGN file and prints, for every move,
// the features it adds and removes for each perspective (featureset.Set.Diff), and
// whether the perspective needs an accumulator refresh instead (RequiresRefresh).
//
// Usage:
//
//	go run ./examples/diff -set SET [-fen FEN] -moves "e2e4 e7e5 …" [-json] [-verify]
//	go run ./examples/diff -set SET -pgn FILE [-json] [-verify]
//
// Moves are UCI ("e2e4", "e7e8q", castling as the king's move "e1g1"); -fen gives the
// start (default: the standard start position). With -pgn every game of the file is
// played from its own start (its FEN tag or the standard position).
//
// Human-readable output (default): per move "ply move (side)" then, per perspective,
// "+index Describe" and "-index Describe" lines (and "refresh" when RequiresRefresh).
//
// JSON output (-json): one object per move and line, written exactly as
//
//	{"game": G, "ply": P, "fen": "<FEN before the move>", "move": "<uci>",
//	 "white": {"added": [...], "removed": [...], "refresh": bool},
//	 "black": {"added": [...], "removed": [...], "refresh": bool}}
//
// with added/removed sorted ascending. -verify checks every diff against the difference
// of the full active sets and fails on a mismatch.
//
// Errors (bad spec, FEN, move or PGN) go to stderr with exit code 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/cli"
)

type options struct {
	set    string
	fen    string
	moves  string
	pgn    string
	json   bool
	verify bool
	log    io.Writer // where -verify reports what it checked (stderr); nil: nowhere
}

const usage = `diff plays a move list or the games of a PGN file and prints, for every move, the features it
adds and removes for each perspective, and whether a perspective needs a refresh instead.

Usage:
  diff -set SET [-fen FEN] -moves "e2e4 e7e5 ..." [-json] [-verify]
  diff -set SET -pgn FILE [-json] [-verify]

Examples:
  go run ./examples/diff -set all+ph+pv -moves "e2e4 e7e5 g1f3" -verify

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.set, "set", "all", `feature-set spec, e.g. "all+ph+pv"`)
	flag.StringVar(&o.fen, "fen", "", "start position for -moves (default: standard start)")
	flag.StringVar(&o.moves, "moves", "", `UCI moves, e.g. "e2e4 e7e5 g1f3"`)
	flag.StringVar(&o.pgn, "pgn", "", "PGN file: play every game")
	flag.BoolVar(&o.json, "json", false, "one JSON object per move")
	flag.BoolVar(&o.verify, "verify", false, "check every diff against the full active sets")
	cli.Parse("diff", usage)
	o.log = os.Stderr
	cli.Run("diff", func(w io.Writer) error { return run(o, w) })
}

type side struct {
	Added   []int `json:"added"`
	Removed []int `json:"removed"`
	Refresh bool  `json:"refresh"`
}

type record struct {
	Game  int    `json:"game"`
	Ply   int    `json:"ply"`
	FEN   string `json:"fen"`
	Move  string `json:"move"`
	White side   `json:"white"`
	Black side   `json:"black"`
}

type game struct {
	start board.Position
	moves []board.Move
}

func run(o options, w io.Writer) error {
	set, err := featureset.Parse(o.set)
	if err != nil {
		return err
	}
	var games []game
	switch {
	case o.pgn != "" && (o.moves != "" || o.fen != ""):
		return errors.New("give -pgn or -moves/-fen, not both")
	case o.pgn != "":
		f, err := os.Open(o.pgn)
		if err != nil {
			return err
		}
		gs, err := board.ReadPGN(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", o.pgn, err)
		}
		for _, g := range gs {
			games = append(games, game{g.Start, g.Moves})
		}
	default:
		fen := o.fen
		if fen == "" {
			fen = board.StartFEN
		}
		pos, err := board.ParseFEN(fen)
		if err != nil {
			return err
		}
		g := game{start: pos}
		p := pos
		for i, s := range strings.Fields(o.moves) {
			m, err := board.ParseUCIMove(&p, s)
			if err != nil {
				return fmt.Errorf("move %d %q: %w", i+1, s, err)
			}
			g.moves = append(g.moves, m)
			p, _ = p.Play(m)
		}
		games = append(games, g)
	}
	if !o.json {
		fmt.Fprintf(w, "set %s (%d features)\n", set, set.Size())
	}
	var a, r, ga, gr []int
	checked := 0
	for gi, g := range games {
		pos := g.start
		if !o.json && len(games) > 1 {
			fmt.Fprintf(w, "\ngame %d: %s\n", gi+1, pos.FEN())
		}
		for ply, m := range g.moves {
			next, d := pos.Play(m)
			rec := record{Game: gi + 1, Ply: ply + 1, FEN: pos.FEN(), Move: m.String()}
			for c := board.White; c <= board.Black; c++ {
				a, r = set.Diff(&pos, &next, &d, c, a[:0], r[:0])
				s := side{Added: slices.Sorted(slices.Values(a)), Removed: slices.Sorted(slices.Values(r)), Refresh: set.RequiresRefresh(&d, c)}
				if s.Added == nil {
					s.Added = []int{}
				}
				if s.Removed == nil {
					s.Removed = []int{}
				}
				if o.verify {
					ga, gr = set.DiffGeneric(&pos, &next, c, ga[:0], gr[:0])
					if !slices.Equal(ga, s.Added) || !slices.Equal(gr, s.Removed) {
						return fmt.Errorf("game %d ply %d %s %v: diff +%v -%v, full sets say +%v -%v", gi+1, ply+1, m, c, s.Added, s.Removed, ga, gr)
					}
					checked++
				}
				if c == board.White {
					rec.White = s
				} else {
					rec.Black = s
				}
			}
			if err := emit(w, set, rec, pos.SideToMove(), o.json); err != nil {
				return err
			}
			pos = next
		}
	}
	if o.verify && o.log != nil {
		fmt.Fprintf(o.log, "diff: -verify: the diffs of %d moves in %d game(s), both perspectives (%d diffs), equal the differences of the full active sets of %s\n",
			checked/2, len(games), checked, set)
	}
	return nil
}

func emit(w io.Writer, set *featureset.Set, rec record, mover board.Color, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "%d. %s (%s)\n", rec.Ply, rec.Move, mover)
	for _, p := range []struct {
		name string
		s    side
	}{{"white", rec.White}, {"black", rec.Black}} {
		fmt.Fprintf(w, "  %s: +%d -%d", p.name, len(p.s.Added), len(p.s.Removed))
		if p.s.Refresh {
			fmt.Fprint(w, " (refresh)")
		}
		fmt.Fprintln(w)
		for _, i := range p.s.Added {
			fmt.Fprintf(w, "    +%-6d %s\n", i, set.Describe(i))
		}
		for _, i := range p.s.Removed {
			fmt.Fprintf(w, "    -%-6d %s\n", i, set.Describe(i))
		}
	}
	return nil
}
