// Command features prints the active features of positions for a feature set, per
// perspective.
//
// Usage:
//
//	go run ./examples/features -set SET (-fen FEN | -epd FILE) [-json]
//	go run ./examples/features -list
//	go run ./examples/features -set SET -dead
//
// SET is a feature-set spec as featureset.Parse accepts ("all", "all+ph+pv", "hv+d1+d2",
// "ka", "ksq*(all+h)", "all@rotate", …); -list prints the block names; -dead lists the
// set's dead features (featureset.Set.DeadFeatures: index, description, rule).
//
// Human-readable output (default): for each position, the set, then for White and Black
// the number of active features and one line per feature, "index Describe(index)".
//
// JSON output (-json): one object per position and line, written exactly as
//
//	{"set": "<spec>", "size": N, "white": [sorted indices], "black": [sorted indices]}
//
// with a "fen" field added (first) for -epd input. This shape is a contract: it stays stable.
//
// Errors (bad spec, malformed FEN or EPD line, unreadable file) go to stderr with exit code 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/cli"
	"github.com/nnuekit/nnuekit/internal/epdfile"
)

type options struct {
	set  string
	fen  string
	epd  string
	json bool
	list bool
	dead bool
}

const usage = `features prints the active features of positions for a feature set, per perspective.

Usage:
  features -set SET (-fen FEN | -epd FILE) [-json]
  features -list
  features -set SET -dead

Examples:
  go run ./examples/features -set all+ph+pv -fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
  go run ./examples/features -set hv -epd ../shared/data/positions.epd -json

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.set, "set", "all", `feature-set spec, e.g. "all+ph+pv"`)
	flag.StringVar(&o.fen, "fen", "", "position in FEN (default: the start position unless -epd)")
	flag.StringVar(&o.epd, "epd", "", "file with one FEN/EPD position per line")
	flag.BoolVar(&o.json, "json", false, `one JSON object per position: {"set","size","white","black"} (+"fen" with -epd)`)
	flag.BoolVar(&o.list, "list", false, "list the block names and exit")
	flag.BoolVar(&o.dead, "dead", false, "list the set's dead features (never active in a legal position) and exit")
	cli.Parse("features", usage)
	cli.Run("features", func(w io.Writer) error { return run(o, w) })
}

// record is the JSON contract.
type record struct {
	FEN   string `json:"fen,omitempty"`
	Set   string `json:"set"`
	Size  int    `json:"size"`
	White []int  `json:"white"`
	Black []int  `json:"black"`
}

func run(o options, w io.Writer) error {
	if o.list {
		for _, b := range featureset.BlockNames() {
			fmt.Fprintf(w, "%-9s %s\n", b[0], b[1])
		}
		return nil
	}
	set, err := featureset.Parse(o.set)
	if err != nil {
		return err
	}
	if o.dead {
		// counted, then streamed: ka*(ph+pv) has 21 million dead features (issue 16)
		fmt.Fprintf(w, "set %s: %d of %d features dead by rule\n", set, set.DeadCount(), set.Size())
		for f := range set.Dead() {
			if _, err := fmt.Fprintf(w, "  %6d %-40s %s\n", f.Index, set.Describe(f.Index), f.Reason); err != nil {
				return err
			}
		}
		return nil
	}
	if o.fen != "" && o.epd != "" {
		return errors.New("give -fen or -epd, not both")
	}
	show := func(pos *board.Position, withFEN bool) error {
		r := record{Set: set.String(), Size: set.Size(),
			White: set.Active(pos, board.White, make([]int, 0, set.MaxActive())),
			Black: set.Active(pos, board.Black, make([]int, 0, set.MaxActive()))}
		if withFEN {
			r.FEN = pos.FEN()
		}
		if o.json {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "%s\n", b)
			return err
		}
		fmt.Fprintf(w, "fen %s\nset %s (%d features)\n", pos.FEN(), r.Set, r.Size)
		for _, side := range []struct {
			name string
			idx  []int
		}{{"white", r.White}, {"black", r.Black}} {
			fmt.Fprintf(w, "%s: %d active\n", side.name, len(side.idx))
			for _, i := range side.idx {
				fmt.Fprintf(w, "  %6d %s\n", i, set.Describe(i))
			}
		}
		_, err := fmt.Fprintln(w)
		return err
	}
	if o.epd == "" {
		fen := o.fen
		if fen == "" {
			fen = board.StartFEN
		}
		pos, err := board.ParseFEN(fen)
		if err != nil {
			return err
		}
		return show(&pos, false)
	}
	return epdfile.Each(o.epd, func(pos *board.Position) error { return show(pos, true) })
}
