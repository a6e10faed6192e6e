// Command perft counts the leaf nodes of the legal move tree of positions (CPW: "Perft"),
// with nnuekit's move generator (board.Position.Perft: GenerateLegal + Play, bulk
// counting at the last ply). It is the standard check of a move generator against the
// counts of the Chess Programming Wiki page "Perft Results" or of another engine (the
// output of -divide has the shape of Stockfish's "go perft").
//
// Usage:
//
//	go run ./examples/perft [-fen FEN | -epd FILE] [-depth N] [-divide] [-json]
//
// Without -fen and -epd the start position is used. -epd reads one FEN or EPD position per
// line (blank lines and lines starting with '#' are skipped). -depth is 1 … 20 (default 5).
// -divide prints, for each legal move of the root, the number of leaves below it
// ("e2e4: 9771", in the generator's order), then the total.
//
// Human-readable output (default), per position:
//
//	fen <FEN>
//	[<move>: <nodes> …]            (with -divide)
//	depth <D> nodes <N> time <T> nps <X>
//
// JSON output (-json): one object per position and line, exactly
//
//	{"fen": "<FEN>", "depth": D, "nodes": N, "nps": X}
//
// (nps: nodes per second of wall time, an integer), plus a "divide" object {move: nodes}
// with -divide. The output is flushed after every position and every divide line, so an
// interrupted run keeps what it printed.
//
// Errors: a malformed or illegal FEN/EPD position, a bad -depth or conflicting flags print
// a message naming the problem to stderr and exit with code 2; an unreadable file exits
// with code 1.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/epdfile"
)

type options struct {
	fen    string
	epd    string
	depth  int
	divide bool
	json   bool
}

// inputError marks bad input (exit code 2).
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func badInput(format string, args ...any) error {
	return &inputError{fmt.Errorf(format, args...)}
}

// exitCode maps an error of run to the process exit code: 0, 2 for bad input, 1 otherwise.
func exitCode(err error) int {
	var ie *inputError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ie):
		return 2
	}
	return 1
}

const usage = `perft counts the leaf nodes of the legal move tree of positions with nnuekit's move generator.

Usage:
  perft [-fen FEN | -epd FILE] [-depth N] [-divide] [-json]

Examples:
  go run ./examples/perft -depth 5
  go run ./examples/perft -fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" -depth 4 -divide

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.fen, "fen", "", "position in FEN (default: the start position unless -epd)")
	flag.StringVar(&o.epd, "epd", "", "file with one FEN/EPD position per line")
	flag.IntVar(&o.depth, "depth", 5, "perft depth, 1 … 20")
	flag.BoolVar(&o.divide, "divide", false, "print the leaf count below every root move")
	flag.BoolVar(&o.json, "json", false, `one JSON object per position: {"fen","depth","nodes","nps"}`)
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	err := error(nil)
	if flag.NArg() > 0 {
		err = badInput("unexpected arguments %q", flag.Args())
	} else {
		err = run(o, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "perft:", err)
		os.Exit(exitCode(err))
	}
}

// record is the JSON contract.
type record struct {
	FEN    string            `json:"fen"`
	Depth  int               `json:"depth"`
	Nodes  uint64            `json:"nodes"`
	NPS    uint64            `json:"nps"`
	Divide map[string]uint64 `json:"divide,omitempty"`
}

func run(o options, out io.Writer) error {
	if o.depth < 1 || o.depth > 20 {
		return badInput("-depth %d: want 1 … 20", o.depth)
	}
	if o.fen != "" && o.epd != "" {
		return badInput("give -fen or -epd, not both")
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	if o.epd == "" {
		fen := o.fen
		if fen == "" {
			fen = board.StartFEN
		}
		pos, err := board.ParseFEN(fen)
		if err != nil {
			return badInput("%w", err)
		}
		return perft(o, &pos, w)
	}
	err := epdfile.Each(o.epd, func(pos *board.Position) error { return perft(o, pos, w) })
	if bad := (*board.EPDError)(nil); errors.As(err, &bad) {
		return badInput("%w", err) // a bad line is bad input: exit code 2
	}
	return err
}

// perft counts one position and writes its result (flushing as it goes).
func perft(o options, pos *board.Position, w *bufio.Writer) error {
	r := record{FEN: pos.FEN(), Depth: o.depth}
	if !o.json {
		fmt.Fprintf(w, "fen %s\n", r.FEN)
	}
	start := time.Now()
	if o.divide {
		r.Divide = map[string]uint64{}
		var l board.MoveList
		pos.GenerateLegal(&l)
		for _, m := range l.Slice() {
			c, _ := pos.Play(m)
			n := c.Perft(o.depth - 1)
			r.Nodes += n
			r.Divide[m.String()] = n
			if !o.json {
				fmt.Fprintf(w, "%s: %d\n", m, n)
				if err := w.Flush(); err != nil {
					return err
				}
			}
		}
	} else {
		r.Nodes = pos.Perft(o.depth)
	}
	el := time.Since(start)
	r.NPS = uint64(float64(r.Nodes) / max(el.Seconds(), 1e-9))
	if o.json {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", b)
	} else {
		fmt.Fprintf(w, "depth %d nodes %d time %s nps %d\n\n", r.Depth, r.Nodes, el.Round(time.Microsecond), r.NPS)
	}
	return w.Flush()
}
