// Command thesiselo compares the Elo of the thesis networks measured with our engine against the
// Elo the thesis published (thesis §6, Tables 10, 12 and 14; the ordo outputs in
// ../shared/thesis-models/exp{2,3,4}-info.txt), as issue 13's experiment asks: a Markdown
// table (ours vs thesis with 95 % intervals, nodes/s of each net in our engine, features
// updated per move), Spearman's ρ over the 13 networks, and a PNG plot of ours against the
// thesis.
//
// Usage:
//
//	go run ./examples/thesiselo -results runA.json -results runB.json [-pgn runA.pgn …] \
//	    [-nps nps.txt] [-stats stats.json] [-anchor hv] [-png elo.png] [-md table.md] [-force] [-json]
//
// Inputs:
//   - -results: summaries written by examples/match -json of gauntlets against the anchor
//     (default "hv", the ALL net); engines are named after the network file without ".nn"
//     (h+v, all+ph, …). Pairings of the same two engines in several files are merged (W/D/L
//     and game-pair counts add up) and their Elo is computed again from the merged counts
//     (internal/elo: pentanomial when there are game pairs, else trinomial). Engines that are
//     not thesis rows (best, default, a Stockfish net, …) go to a second table.
//   - -pgn: the same runs' PGN files; the mean search depth per move of each engine is read
//     from the move comments examples/match writes ("{+0.35/12 0.051s}").
//   - -nps: lines "round name nodes nodes/s" (as /var/tmp scripts running `examples/engine
//     bench 9 <net>` print them); the median over rounds per name is reported.
//   - -stats: the JSON of examples/stats over the nine blocks of thesis Table 15; the
//     features added + removed per move of a network is the sum over its blocks (both
//     perspectives averaged, i.e. per perspective and move).
//
// The Elo of a network is relative to the anchor (positive = stronger than ALL), the sign
// convention of the thesis's tables. Errors (unreadable file, no pairing with the anchor, a
// PNG that cannot be written) go to stderr with exit code 1.
//
// Outputs: the Markdown tables go to stdout, or with -md FILE to FILE; -json prints instead one
// JSON object on stdout,
//
//	{"anchor": "hv", "time_controls": [...], "spearman": ρ or null, "engines": [{"name",
//	  "thesis_elo", "thesis_error" (thesis rows only), "w", "d", "l", "elo", "lo", "hi",
//	  "model", "nps", "mean_depth", "features_per_move" (when known)}]}
//
// (±Inf Elo bounds as null). -md and -png files are written through a temporary file and
// replace an existing file only with -force; both are checked before any input is read.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/internal/cli"
	"github.com/nnuekit/nnuekit/internal/elo"
	"github.com/nnuekit/nnuekit/internal/outfile"
)

// thesisRow is one network of the thesis's tables: its file name (code naming), the row's
// name in the thesis text (PH and PV are swapped between text and code, see
// ../shared/thesis-models/README.md), the Elo relative to ALL and its ± (ordo, 95 %).
type thesisRow struct {
	net, text  string
	elo, error float64
	table      string
}

// thesisRows: Tables 10, 12, 14 of the thesis (exp2/3/4 info.txt), via
// ../shared/thesis-models/README.md.
var thesisRows = []thesisRow{
	{"hv", "ALL", 0, 0, "10, 12, 14"},
	{"h+v", "H ⊕ V", -384.3, 5.1, "10"},
	{"d1+d2", "D1 ⊕ D2", -444.1, 5.1, "10"},
	{"h+v+d1+d2", "H ⊕ V ⊕ D1 ⊕ D2", -183.5, 4.1, "10"},
	{"hv+d1+d2", "ALL ⊕ D1 ⊕ D2", -26.1, 3.8, "10"},
	{"hv+h+v", "ALL ⊕ H ⊕ V", -27.1, 4.1, "10"},
	{"hv+h+v+d1+d2", "ALL ⊕ H ⊕ V ⊕ D1 ⊕ D2", -58.7, 3.7, "10"},
	{"all+ph", "ALL ⊕ PV (text)", -8.4, 5.0, "12"},
	{"all+pv", "ALL ⊕ PH (text)", -38.2, 4.8, "12"},
	{"all+ph+pv", "ALL ⊕ PH ⊕ PV", -37.6, 4.9, "12"},
	{"all+mb", "ALL ⊕ MB", -260.9, 5.4, "14"},
	{"all+mc", "ALL ⊕ MC", -280.9, 5.6, "14"},
}

// blocks maps a network name to its top-level blocks as examples/stats names them ("hv" is
// the legacy name of "all").
func blocks(net string) []string {
	var out []string
	for _, b := range strings.Split(net, "+") {
		if b == "hv" {
			b = "all"
		}
		out = append(out, b)
	}
	return out
}

type options struct {
	results, pgns       []string
	nps, stats          string
	anchor, png, mdPath string
	force, json         bool
}

const usage = `thesiselo compares the Elo of the thesis networks measured with examples/match against the
Elo the thesis published (Markdown tables, Spearman's rho, a PNG plot).

Usage:
  thesiselo -results SUMMARY.json [-results ...] [-pgn GAMES.pgn ...] [-nps FILE] [-stats FILE]
            [-anchor NAME] [-png FILE] [-md FILE] [-force] [-json]

Example:
  go run ./examples/thesiselo -results doc/elo-results/runA.json -results doc/elo-results/runB.json -png /tmp/elo.png

Flags:
`

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var o options
	flag.Var((*multiFlag)(&o.results), "results", "examples/match -json summary file to read (repeat)")
	flag.Var((*multiFlag)(&o.pgns), "pgn", "examples/match PGN output, for the mean depth (repeat)")
	flag.StringVar(&o.nps, "nps", "", `bench nodes/s, lines "round name nodes nps"`)
	flag.StringVar(&o.stats, "stats", "", "examples/stats -json output (features per move per block)")
	flag.StringVar(&o.anchor, "anchor", "hv", "the reference engine (0 Elo)")
	flag.StringVar(&o.png, "png", "", "write the ours-vs-thesis plot to this PNG")
	flag.StringVar(&o.mdPath, "md", "", "write the Markdown tables here (default stdout)")
	flag.BoolVar(&o.force, "force", false, "replace existing -md and -png files")
	flag.BoolVar(&o.json, "json", false, "print the results as one JSON object on stdout instead of the tables")
	cli.Parse("thesiselo", usage)
	cli.Run("thesiselo", func(w io.Writer) error { return run(o, w) })
}

// result is the merged record of one engine against the anchor, from the engine's view.
type result struct {
	wdl   elo.WDL
	penta elo.Penta
	est   elo.Estimate
	model string // "pentanomial" or "trinomial"
}

// matchSummary is the part of examples/match's -json output read here.
type matchSummary struct {
	TimeControl string `json:"time_control"`
	Pairings    []struct {
		A, B    string
		W, D, L int
		Penta   [5]int
	} `json:"pairings"`
}

// readResults merges the pairings with the anchor from every summary, keyed by the other
// engine, from that engine's point of view.
func readResults(paths []string, anchor string) (map[string]*result, []string, error) {
	res := map[string]*result{}
	var tcs []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		var s matchSummary
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		if !slices.Contains(tcs, s.TimeControl) {
			tcs = append(tcs, s.TimeControl)
		}
		for _, pr := range s.Pairings {
			var other string
			wdl := elo.WDL{W: pr.W, D: pr.D, L: pr.L}
			penta := elo.Penta(pr.Penta)
			switch anchor {
			case pr.A: // the anchor's view: reverse
				other = pr.B
				wdl = wdl.Reverse()
				penta = elo.Penta{penta[4], penta[3], penta[2], penta[1], penta[0]}
			case pr.B:
				other = pr.A
			default:
				continue
			}
			r := res[other]
			if r == nil {
				r = &result{}
				res[other] = r
			}
			r.wdl = r.wdl.Add(wdl)
			for i := range r.penta {
				r.penta[i] += penta[i]
			}
		}
	}
	if len(res) == 0 {
		return nil, nil, fmt.Errorf("no pairing with the anchor %q in %s", anchor, strings.Join(paths, ", "))
	}
	for name, r := range res {
		var err error
		if r.penta.Pairs() > 0 {
			r.est, err = elo.Pentanomial(r.penta)
			r.model = "pentanomial"
		} else {
			r.est, err = elo.Trinomial(r.wdl)
			r.model = "trinomial"
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return res, tcs, nil
}

// readNPS returns the median nodes/s per name of a "round name nodes nps" file.
func readNPS(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	all := map[string][]float64{}
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 fields (round name nodes nps), got %d", path, ln, len(fs))
		}
		v, err := strconv.ParseFloat(fs[3], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, ln, err)
		}
		name := strings.TrimSuffix(fs[1], ".nn")
		all[name] = append(all[name], v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	med := map[string]float64{}
	for k, v := range all {
		med[k] = median(v)
	}
	return med, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// blockStats is the part of examples/stats -json read here.
type blockStats struct {
	Blocks []struct {
		Name           string
		Added, Removed float64
		RefreshRate    float64 `json:"refresh_rate"`
	}
}

// readStats returns the features added + removed per move and perspective of each block.
func readStats(path string) (map[string]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s blockStats
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]float64{}
	for _, bl := range s.Blocks {
		out[bl.Name] = bl.Added + bl.Removed
	}
	return out, nil
}

// commentRE matches examples/match's move comments, score/depth and time ("{+0.35/12
// 0.051s}"; mate scores are written "+M3/12"); book moves have "{book}".
var commentRE = regexp.MustCompile(`\{([^}]*)\}`)
var depthRE = regexp.MustCompile(`^[-+]?M?[0-9.]+/([0-9]+) ([0-9.]+)s$`)
var tagRE = regexp.MustCompile(`^\[(\w+) "(.*)"\]\s*$`)

// moveStats is what the move comments of one engine say: mean depth and the time per move.
type moveStats struct {
	depth            float64
	moves            int
	p50, p99, maxSec float64
}

// readDepths returns the mean search depth and the time used per move of each engine in the
// PGN files written by examples/match: every move carries one comment, so the comments
// alternate between the sides from the FEN's side to move (book moves are counted for the
// alternation only).
func readDepths(paths []string) (map[string]moveStats, error) {
	sum := map[string]float64{}
	cnt := map[string]int{}
	times := map[string][]float64{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		tags := map[string]string{}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			if m := tagRE.FindStringSubmatch(line); m != nil {
				tags[m[1]] = m[2]
				continue
			}
			if strings.TrimSpace(line) == "" || tags["White"] == "" {
				continue
			}
			side := 0 // 0 White, 1 Black
			if fs := strings.Fields(tags["FEN"]); len(fs) > 1 && fs[1] == "b" {
				side = 1
			}
			names := [2]string{tags["White"], tags["Black"]}
			for _, c := range commentRE.FindAllStringSubmatch(line, -1) {
				if m := depthRE.FindStringSubmatch(c[1]); m != nil {
					d, _ := strconv.Atoi(m[1])
					sec, _ := strconv.ParseFloat(m[2], 64)
					sum[names[side]] += float64(d)
					cnt[names[side]]++
					times[names[side]] = append(times[names[side]], sec)
				}
				side ^= 1
			}
			tags = map[string]string{} // movetext is one line; the next game starts with tags
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	out := map[string]moveStats{}
	for k, s := range sum {
		t := times[k]
		sort.Float64s(t)
		out[k] = moveStats{depth: s / float64(cnt[k]), moves: cnt[k], p50: t[len(t)/2],
			p99: t[min(len(t)-1, len(t)*99/100)], maxSec: t[len(t)-1]}
	}
	return out, nil
}

func run(o options, stdout io.Writer) error {
	if len(o.results) == 0 {
		return errors.New("no -results given (examples/match -json summaries; see -help)")
	}
	if o.json && o.mdPath != "" {
		return errors.New("-json and -md exclude each other")
	}
	inputs := append(append(append([]string{}, o.results...), o.pgns...), o.nps, o.stats)
	for _, out := range []struct {
		path, what string
		is         func([]byte, int64) bool
	}{
		{o.mdPath, "text", func(h []byte, _ int64) bool { return !bytes.ContainsRune(h, 0) }},
		{o.png, "a PNG image", func(h []byte, _ int64) bool { return bytes.HasPrefix(h, []byte("\x89PNG\r\n\x1a\n")) }},
	} {
		if out.path == "" {
			continue
		}
		if err := outfile.Check(out.path, o.force, inputs...); err != nil {
			return err
		}
		if err := outfile.SameFormat(out.path, out.what, out.is); err != nil {
			return err
		}
	}
	res, tcs, err := readResults(o.results, o.anchor)
	if err != nil {
		return err
	}
	var nps, feat map[string]float64
	var depth map[string]moveStats
	if o.nps != "" {
		if nps, err = readNPS(o.nps); err != nil {
			return err
		}
	}
	if o.stats != "" {
		if feat, err = readStats(o.stats); err != nil {
			return err
		}
	}
	if len(o.pgns) > 0 {
		if depth, err = readDepths(o.pgns); err != nil {
			return err
		}
	}
	rep := report{res: res, nps: nps, feat: feat, depth: depth, anchor: o.anchor}
	if o.png != "" {
		if err := plotOursVsThesis(o.png, rep.points(), o.force); err != nil {
			return err
		}
	}
	if o.json {
		return rep.writeJSON(stdout, tcs)
	}
	if o.mdPath == "" {
		rep.write(stdout, tcs)
		return nil
	}
	var b bytes.Buffer
	rep.write(&b, tcs)
	return outfile.WriteFile(o.mdPath, b.Bytes(), o.force, inputs...)
}

// writeJSON writes the report as one JSON object (see the package comment).
func (r report) writeJSON(w io.Writer, tcs []string) error {
	type engine struct {
		Name            string   `json:"name"`
		ThesisElo       *float64 `json:"thesis_elo,omitempty"`
		ThesisError     *float64 `json:"thesis_error,omitempty"`
		W               int      `json:"w"`
		D               int      `json:"d"`
		L               int      `json:"l"`
		Elo             *float64 `json:"elo"`
		Lo              *float64 `json:"lo"`
		Hi              *float64 `json:"hi"`
		Model           string   `json:"model"`
		NPS             *float64 `json:"nps,omitempty"`
		MeanDepth       *float64 `json:"mean_depth,omitempty"`
		FeaturesPerMove *float64 `json:"features_per_move,omitempty"`
	}
	finite := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	var out struct {
		Anchor       string   `json:"anchor"`
		TimeControls []string `json:"time_controls"`
		Spearman     *float64 `json:"spearman"`
		Engines      []engine `json:"engines"`
	}
	out.Anchor, out.TimeControls = r.anchor, tcs
	if rho, _, err := r.spearman(); err == nil {
		out.Spearman = finite(rho)
	}
	names := make([]string, 0, len(r.res))
	for n := range r.res {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		res := r.res[n]
		e := engine{Name: n, W: res.wdl.W, D: res.wdl.D, L: res.wdl.L, Elo: finite(res.est.Elo),
			Lo: finite(res.est.Lo), Hi: finite(res.est.Hi), Model: res.model}
		for _, t := range thesisRows {
			if t.net == n {
				e.ThesisElo, e.ThesisError = finite(t.elo), finite(t.error)
				if f, err := strconv.ParseFloat(r.features(n), 64); err == nil {
					e.FeaturesPerMove = &f
				}
			}
		}
		if v, ok := r.nps[n]; ok {
			e.NPS = &v
		}
		if d, ok := r.depth[n]; ok {
			e.MeanDepth = &d.depth
		}
		out.Engines = append(out.Engines, e)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

type report struct {
	res       map[string]*result
	nps, feat map[string]float64
	depth     map[string]moveStats
	anchor    string
}

func fmtElo(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "−inf"
	}
	return strings.Replace(fmt.Sprintf("%+.0f", e), "-", "−", 1)
}

// interval prints [lo, hi] of the engine's Elo.
func interval(r *result) string {
	return fmt.Sprintf("%s [%s, %s]", fmtElo(r.est.Elo), fmtElo(r.est.Lo), fmtElo(r.est.Hi))
}

func (r report) cell(m map[string]float64, name, format string) string {
	if m == nil {
		return "–"
	}
	v, ok := m[name]
	if !ok {
		return "–"
	}
	return fmt.Sprintf(format, v)
}

func (r report) meanDepth(name string) string {
	if d, ok := r.depth[name]; ok {
		return fmt.Sprintf("%.2f", d.depth)
	}
	return "–"
}

func (r report) features(net string) string {
	if r.feat == nil {
		return "–"
	}
	var s float64
	for _, b := range blocks(net) {
		v, ok := r.feat[b]
		if !ok {
			return "–"
		}
		s += v
	}
	return fmt.Sprintf("%.2f", s)
}

func (r report) write(w io.Writer, tcs []string) {
	fmt.Fprintf(w, "Time control: %s. Elo relative to %s (positive = stronger), 95 %% intervals.\n\n",
		strings.Join(tcs, ", "), r.anchor)
	fmt.Fprintln(w, "| net (file) | thesis row | W–D–L | ours | thesis | nodes/s | mean depth | features ± per move |")
	fmt.Fprintln(w, "|---|---|---|---|---|---:|---:|---:|")
	for _, t := range thesisRows {
		ours, wdl := "anchor", "–"
		if t.net != r.anchor {
			res := r.res[t.net]
			if res == nil {
				ours = "not played"
			} else {
				ours = interval(res)
				wdl = fmt.Sprintf("%d–%d–%d", res.wdl.W, res.wdl.D, res.wdl.L)
			}
		}
		th := "0"
		if t.error > 0 {
			th = strings.Replace(fmt.Sprintf("%+.1f ± %.1f", t.elo, t.error), "-", "−", 1)
		}
		fmt.Fprintf(w, "| `%s.nn` | %s (Table %s) | %s | %s | %s | %s | %s | %s |\n", t.net, t.text, t.table,
			wdl, ours, th, r.cell(r.nps, t.net, "%.0f"), r.meanDepth(t.net), r.features(t.net))
	}
	if rho, n, err := r.spearman(); err == nil {
		fmt.Fprintf(w, "\nSpearman's ρ (ours vs thesis, %d networks including the anchor): **%.3f**\n", n, rho)
	}
	var extra []string
	for name := range r.res {
		if !slices.ContainsFunc(thesisRows, func(t thesisRow) bool { return t.net == name }) {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		fmt.Fprintln(w, "\n| engine | W–D–L | Elo vs "+r.anchor+" | nodes/s | mean depth |")
		fmt.Fprintln(w, "|---|---|---|---:|---:|")
		for _, name := range extra {
			res := r.res[name]
			fmt.Fprintf(w, "| %s | %d–%d–%d | %s | %s | %s |\n", name, res.wdl.W, res.wdl.D, res.wdl.L,
				interval(res), r.cell(r.nps, name, "%.0f"), r.meanDepth(name))
		}
	}
	if len(r.depth) > 0 {
		names := make([]string, 0, len(r.depth))
		for n := range r.depth {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprint(w, "\nTime used per move (from the PGN comments):\n\n")
		fmt.Fprintln(w, "| engine | moves | median s | 99th percentile s | max s |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
		for _, n := range names {
			d := r.depth[n]
			fmt.Fprintf(w, "| %s | %d | %.3f | %.3f | %.3f |\n", n, d.moves, d.p50, d.p99, d.maxSec)
		}
	}
}

// spearman ranks the thesis rows that were played (and the anchor at 0) by both Elos;
// ±Inf ranks at the ends as it should.
func (r report) spearman() (float64, int, error) {
	var x, y []float64
	for _, t := range thesisRows {
		if t.net == r.anchor {
			x, y = append(x, 0), append(y, 0)
			continue
		}
		if res := r.res[t.net]; res != nil {
			x, y = append(x, res.est.Elo), append(y, t.elo)
		}
	}
	rho, err := elo.Spearman(x, y)
	return rho, len(x), err
}

// point is one network on the plot.
type point struct {
	name                 string
	thesis, ours, lo, hi float64
}

func (r report) points() []point {
	var ps []point
	for _, t := range thesisRows {
		if t.net == r.anchor {
			ps = append(ps, point{name: t.net})
			continue
		}
		if res := r.res[t.net]; res != nil {
			ps = append(ps, point{t.net, t.elo, res.est.Elo, res.est.Lo, res.est.Hi})
		}
	}
	return ps
}
