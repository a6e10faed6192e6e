package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/internal/uci"
)

// opening is a start of a game: a position and book moves played from it (empty for EPD
// openings; a PGN opening's main line).
type opening struct {
	start board.Position
	moves []board.Move
	name  string // where it came from, for messages ("file.epd:12")
}

// loadOpenings reads an EPD file (one position a line; blank and '#' lines skipped) or, for
// names ending in .pgn, a PGN file (each game's start position and main line).
func loadOpenings(path string) ([]opening, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ops []opening
	if strings.HasSuffix(strings.ToLower(path), ".pgn") {
		games, err := board.ReadPGN(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for i, g := range games {
			ops = append(ops, opening{start: g.Start, moves: g.Moves, name: fmt.Sprintf("%s:game %d", baseName(path), i+1)})
		}
	} else {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 64<<10)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || line[0] == '#' {
				continue
			}
			p, _, err := board.ParseEPD(line)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			ops = append(ops, opening{start: p, name: fmt.Sprintf("%s:%d", baseName(path), n)})
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	// Every opening must leave a game to play.
	for _, o := range ops {
		p := o.start
		for _, m := range o.moves {
			p, _ = p.Play(m)
		}
		if p.Status() != board.Ongoing {
			return nil, fmt.Errorf("%s: the opening ends the game (%v)", o.name, p.Status())
		}
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s: no openings", path)
	}
	return ops, nil
}

// buildConfig holds the filters of -build-openings (doc/elo.md "The opening set").
type buildConfig struct {
	in, out          string
	force            bool // -force: replace an existing out
	engine           string
	depth            int
	maxCP            int
	minMove, maxMove int // fullmove number range
	minPieces        int
	maxHalfmove      int
}

// buildOpenings selects balanced early-game positions from cfg.in: side to move not in
// check, a legal move available, fullmove number in [minMove, maxMove], at least minPieces
// pieces, halfmove clock ≤ maxHalfmove, and |Stockfish score| ≤ maxCP centipawns at a fixed
// depth (one thread, 16 MiB hash, ucinewgame before each). It writes EPD lines with the
// standard opcodes hmvc, fmvn, ce (centipawns, side to move), acd (depth) and id (source
// line). The output goes through a temporary file renamed into place (internal/outfile): an
// existing cfg.out is refused unless cfg.force, and never the input. Interrupting it (ctx)
// keeps the positions kept so far, with a message. Errors: -out missing or refused, the
// input unreadable, the engine failing.
func buildOpenings(ctx context.Context, cfg buildConfig, logw io.Writer) error {
	if cfg.out == "" {
		return errors.New("-build-openings needs -out FILE.epd (the committed set is examples/match/openings/balanced.epd; replacing it needs -force)")
	}
	if err := outfile.Check(cfg.out, cfg.force, cfg.in); err != nil {
		return err
	}
	f, err := os.Open(cfg.in)
	if err != nil {
		return err
	}
	defer f.Close()
	type cand struct {
		p    board.Position
		line int
	}
	var cands []cand
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		p, _, err := board.ParseEPD(line)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", cfg.in, n, err)
		}
		fm := p.FullmoveNumber()
		if p.InCheck() || p.Status() != board.Ongoing || fm < cfg.minMove || fm > cfg.maxMove ||
			p.PieceCount() < cfg.minPieces || p.HalfmoveClock() > cfg.maxHalfmove {
			continue
		}
		cands = append(cands, cand{p, n})
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintf(logw, "build-openings: %d candidates in %s\n", len(cands), cfg.in)
	e, err := uci.Start(uci.Spec{Cmd: cfg.engine, Options: []uci.Option{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "16"}}})
	if err != nil {
		return err
	}
	defer e.Close()
	out, err := outfile.Create(cfg.out, cfg.force, cfg.in)
	if err != nil {
		return err
	}
	defer out.Close()
	w := bufio.NewWriter(out) // its first write error is kept and returned by Flush
	commit := func() error {
		if err := w.Flush(); err != nil {
			return fmt.Errorf("writing %s: %w", cfg.out, err)
		}
		return out.Commit()
	}
	fmt.Fprintf(w, "# Balanced opening set built by: go run ./examples/match -build-openings -from %s -depth %d -maxcp %d -minmove %d -maxmove %d -minpieces %d -maxhalfmove %d\n",
		cfg.in, cfg.depth, cfg.maxCP, cfg.minMove, cfg.maxMove, cfg.minPieces, cfg.maxHalfmove)
	fmt.Fprintf(w, "# engine: %s (%s); ce = its score in centipawns from the side to move's view at depth acd\n", cfg.engine, e.IDName)
	kept := 0
	for i, c := range cands {
		if ctx.Err() != nil {
			if err := commit(); err != nil {
				return err
			}
			return fmt.Errorf("interrupted after %d of %d candidates: %d kept in %s", i, len(cands), kept, cfg.out)
		}
		if err := e.NewGame(30 * time.Second); err != nil {
			return err
		}
		r, err := e.Go(uci.PositionCommand(c.p.FEN(), nil), uci.Limits{Depth: cfg.depth}, time.Now().Add(5*time.Minute))
		if err != nil {
			return err
		}
		if !r.Info.HasScore || r.Info.Score.IsMate {
			continue
		}
		cp := r.Info.Score.CP
		if cp > cfg.maxCP || cp < -cfg.maxCP {
			continue
		}
		fen := strings.Fields(c.p.FEN())
		fmt.Fprintf(w, "%s hmvc %d; fmvn %d; ce %d; acd %d; id \"%s:%d\";\n", strings.Join(fen[:4], " "),
			c.p.HalfmoveClock(), c.p.FullmoveNumber(), cp, cfg.depth, baseName(cfg.in), c.line)
		kept++
		if (i+1)%50 == 0 {
			fmt.Fprintf(logw, "build-openings: %d/%d searched, %d kept\n", i+1, len(cands), kept)
		}
	}
	if err := commit(); err != nil {
		return err
	}
	fmt.Fprintf(logw, "build-openings: %d of %d candidates kept in %s\n", kept, len(cands), cfg.out)
	return nil
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
