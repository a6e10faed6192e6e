// Command stats computes the feature statistics of thesis App. A.5 (Table 15) over a set
// of positions: for every top-level block of a feature set, the average number of active
// features per position and of features added and removed per legal move, over both
// perspectives, with binary semantics (featureset.Stats).
//
// Usage:
//
//	go run ./examples/stats [-set SET] -epd FILE [-json] [-thesis-tool] [-q]
//
// SET defaults to the nine blocks of Table 15, "all+h+v+d1+d2+ph+pv+mb+mc". A progress bar
// goes to stderr (-q silences it).
//
// Output (default): a table with one row per block — name, features, our averages
// (active / added / removed, refresh rate), and the thesis's published Table 15 figures
// for the same block. With -thesis-tool, the line blocks (all/hv, h, v, d1, d2) get two
// more columns: the thesis stats tool's computation reproduced on the same positions
// (active counted without deduplication; changes computed from the side to move's
// perspective but matched against the White perspective's active features — the
// perspective mix-up explained in doc/featuresets.md).
//
// JSON output (-json): one object,
//
//	{"set": "...", "positions": N, "moves": M, "blocks": [{"name": "all", "size": 768,
//	  "active": x, "added": x, "removed": x, "refresh_rate": x,
//	  "white": {"active": x, "added": x, "removed": x}, "black": {…} (one perspective each),
//	  "thesis": {"active": x, "added": x, "removed": x} (when published),
//	  "thesis_tool": {"active": x, "added": x, "removed": x} (with -thesis-tool)}, …]}
//
// Errors go to stderr with exit code 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/cli"
	"github.com/nnuekit/nnuekit/internal/epdfile"
)

type options struct {
	set        string
	epd        string
	json       bool
	thesisTool bool
	quiet      bool
	tty        bool // progress goes to a terminal
}

const usage = `stats computes the feature statistics of thesis App. A.5 (Table 15) over a set of positions:
per top-level block of a feature set, active features per position and features added and
removed per legal move.

Usage:
  stats [-set SET] -epd FILE [-json] [-thesis-tool] [-q]

Examples:
  go run ./examples/stats -epd ../shared/data/positions.epd
  go run ./examples/stats -set all+ph+pv -epd ../shared/data/positions.epd -json

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.set, "set", "all+h+v+d1+d2+ph+pv+mb+mc", "feature-set spec; one table row per top-level block")
	flag.StringVar(&o.epd, "epd", "", "file with one FEN/EPD position per line (required)")
	flag.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
	flag.BoolVar(&o.thesisTool, "thesis-tool", false, "also reproduce the thesis stats tool's (mixed-perspective) counting for the line blocks")
	flag.BoolVar(&o.quiet, "q", false, "no progress bar")
	cli.Parse("stats", usage)
	o.tty = isTerminal(os.Stderr)
	var progress io.Writer = os.Stderr
	if o.quiet {
		progress = nil
	}
	cli.Run("stats", func(w io.Writer) error { return run(o, w, progress) })
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// thesisTable15 are the published figures (thesis App. A.5, Table 15; 100 million
// positions): active per position, added per move, removed per move.
var thesisTable15 = map[string][3]float64{
	"all": {14.68, 0.98, 0.60}, "h": {14.68, 0.60, 0.43}, "v": {14.68, 0.61, 0.43},
	"d1": {14.68, 0.77, 0.52}, "d2": {14.68, 0.77, 0.52}, "ph": {8.23, 0.92, 0.57},
	"pv": {8.30, 0.83, 0.53}, "mb": {48.93, 5.68, 4.35}, "mc": {12.00, 2.34, 1.48},
}

type triple struct {
	Active  float64 `json:"active"`
	Added   float64 `json:"added"`
	Removed float64 `json:"removed"`
}

type row struct {
	Name        string  `json:"name"`
	Size        int     `json:"size"`
	Active      float64 `json:"active"`
	Added       float64 `json:"added"`
	Removed     float64 `json:"removed"`
	RefreshRate float64 `json:"refresh_rate"`
	White       triple  `json:"white"`
	Black       triple  `json:"black"`
	Thesis      *triple `json:"thesis,omitempty"`
	ThesisTool  *triple `json:"thesis_tool,omitempty"`
}

type report struct {
	Set       string `json:"set"`
	Positions int64  `json:"positions"`
	Moves     int64  `json:"moves"`
	Blocks    []row  `json:"blocks"`
}

func readEPD(path string) ([]board.Position, error) {
	return epdfile.ReadAll(path)
}

func run(o options, w io.Writer, progress io.Writer) error {
	set, err := featureset.Parse(o.set)
	if err != nil {
		return err
	}
	if o.epd == "" {
		return errors.New("-epd FILE is required")
	}
	positions, err := readEPD(o.epd)
	if err != nil {
		return err
	}
	st := featureset.NewStats(set)
	var tools []*thesisTool
	if o.thesisTool {
		for _, b := range set.Blocks() {
			tools = append(tools, newThesisTool(b))
		}
	}
	bar := newBar(progress, len(positions), o.tty)
	for i := range positions {
		st.Add(&positions[i])
		for _, t := range tools {
			if t != nil {
				t.add(&positions[i])
			}
		}
		bar.set(i + 1)
	}
	bar.done()
	rep := report{Set: set.String(), Positions: st.Positions, Moves: st.Moves}
	wt, bt := st.TablePerspective(board.White), st.TablePerspective(board.Black)
	for k, r := range st.Table() {
		x := row{Name: r.Name, Size: r.Size, Active: r.Active, Added: r.Added, Removed: r.Removed, RefreshRate: r.RefreshRate,
			White: triple{wt[k].Active, wt[k].Added, wt[k].Removed}, Black: triple{bt[k].Active, bt[k].Added, bt[k].Removed}}
		name := r.Name
		if name == "hv" {
			name = "all"
		}
		if t, ok := thesisTable15[name]; ok {
			x.Thesis = &triple{t[0], t[1], t[2]}
		}
		if k < len(tools) && tools[k] != nil {
			x.ThesisTool = tools[k].result()
		}
		rep.Blocks = append(rep.Blocks, x)
	}
	if o.json {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	fmt.Fprintf(w, "set %s: %d positions, %d legal moves (binary semantics, both perspectives)\n\n", rep.Set, rep.Positions, rep.Moves)
	fmt.Fprintf(w, "%-10s %8s | %8s %8s %8s %8s | %8s %8s %8s", "block", "features", "active", "added", "removed", "refresh", "thesis:A", "thesis:+", "thesis:-")
	if o.thesisTool {
		fmt.Fprintf(w, " | %8s %8s %8s", "tool:A", "tool:+", "tool:-")
	}
	fmt.Fprintln(w)
	for _, x := range rep.Blocks {
		fmt.Fprintf(w, "%-10s %8d | %8.2f %8.2f %8.2f %7.1f%% |", x.Name, x.Size, x.Active, x.Added, x.Removed, 100*x.RefreshRate)
		if x.Thesis != nil {
			fmt.Fprintf(w, " %8.2f %8.2f %8.2f", x.Thesis.Active, x.Thesis.Added, x.Thesis.Removed)
		} else {
			fmt.Fprintf(w, " %8s %8s %8s", "-", "-", "-")
		}
		if o.thesisTool {
			if x.ThesisTool != nil {
				fmt.Fprintf(w, " | %8.2f %8.2f %8.2f", x.ThesisTool.Active, x.ThesisTool.Added, x.ThesisTool.Removed)
			} else {
				fmt.Fprintf(w, " | %8s %8s %8s", "-", "-", "-")
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}

// bar is the progress on stderr: on a terminal a bar redrawn in place at most 100 times,
// otherwise one line per 10%, so a log file gets no carriage returns.
type bar struct {
	w        io.Writer
	tty      bool
	n, shown int
}

func newBar(w io.Writer, n int, tty bool) *bar { return &bar{w: w, n: n, tty: tty, shown: -1} }

func (b *bar) set(i int) {
	if b.w == nil || b.n == 0 {
		return
	}
	pct := i * 100 / b.n
	if !b.tty {
		pct -= pct % 10
	}
	if pct == b.shown {
		return
	}
	b.shown = pct
	if !b.tty {
		fmt.Fprintf(b.w, "stats: %3d%% %d/%d positions\n", pct, i, b.n)
		return
	}
	fill := pct * 30 / 100
	fmt.Fprintf(b.w, "\rstats [%s%s] %3d%% %d/%d positions", strings.Repeat("#", fill), strings.Repeat(".", 30-fill), pct, i, b.n)
}

func (b *bar) done() {
	if b.w != nil && b.n > 0 && b.tty {
		fmt.Fprintln(b.w)
	}
}
