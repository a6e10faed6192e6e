// Command quanterr measures the quantization error of the thesis networks in WDL space
// (thesis §4.5.1) and writes the plots and tables of doc/quant.md.
//
// The float checkpoints of the published networks are not available, so for each network it
// compares the integer evaluation (package nnue) of every position of positions.epd with two
// float models (package quant):
//
//   - the dequantized model (every integer divided by its scale): the error of the integer
//     arithmetic alone (the floor shifts after L2 and the output);
//   - a "trainer's model": the dequantized model with every parameter moved by a uniform random
//     offset of up to ±amount quantization steps (quant.FloatThesis.Jitter). For amount < 0.5 it
//     quantizes to exactly the same file, so it is one of the float models the network could
//     have come from; its error includes the rounding of every weight, as thesis Fig. 8 does.
//
// Usage (from the repository root):
//
//	go run ./examples/quanterr [-shared ../shared] [-nets hv,all+ph+pv] [-amount 0.45] [-seed 7]
//	    [-png FILE.png] [-scatter FILE.png] [-md FILE.md] [-json] [-force]
//
// -nets takes thesis network names (looked up as SHARED/thesis-models/NAME.nn) or paths of
// network files in any format nnue.Load reads; an entry that names an existing file is a path.
// quanterr measures the thesis architecture (one hidden layer, quant.Thesis scales): a network
// of another architecture is refused with the reason.
//
// Without -md the tables go to standard output (with -json, one JSON object instead); with
// -md FILE it replaces the text between the lines "<!-- quanterr:begin -->" and
// "<!-- quanterr:end -->" of FILE. -png and -scatter name the plots to draw; none is drawn
// unless asked for, and an existing plot file is replaced only with -force (doc/quant.md's
// plots are made with -png doc/quant-error.png -scatter doc/quant-error-scatter.png -force).
// Every output is checked before the networks are measured and written through a temporary
// file renamed into place.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/cli"
	"github.com/nnuekit/nnuekit/internal/epdfile"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
)

const (
	logFloor = 0.01 // empty bins are drawn at 0.01% on the log axis
	binWidth = 0.0025
	nbins    = 20 // the last bin holds everything ≥ 0.0475
)

const usage = `quanterr measures the quantization error of thesis-architecture networks in WDL space
(thesis §4.5.1) on the positions of SHARED/data/positions.epd.

Usage:
  quanterr [-shared DIR] [-nets NAME|FILE,...] [-amount A] [-seed S] [-png FILE] [-scatter FILE] [-md FILE] [-json] [-force]

Examples:
  go run ./examples/quanterr -nets hv,all+ph+pv
  go run ./examples/quanterr -nets ../shared/thesis-models/best.nn -json
  go run ./examples/quanterr -md doc/quant.md -png doc/quant-error.png -scatter doc/quant-error-scatter.png -force

Flags:
`

// options are quanterr's flags.
type options struct {
	shared, pngPath, scatterPath, mdPath string
	nets                                 []string
	amount                               float64
	seed                                 uint64
	json, force                          bool
}

func main() {
	var o options
	nets := register(flag.CommandLine, &o)
	cli.Parse("quanterr", usage)
	o.nets = strings.Split(*nets, ",")
	if err := run(o); err != nil {
		cli.Fail("quanterr", err, 1)
	}
}

// register defines quanterr's flags on fs, storing into o; it returns -nets, which the caller
// splits into o.nets after parsing.
func register(fs *flag.FlagSet, o *options) *string {
	fs.StringVar(&o.shared, "shared", "../shared", "the shared data folder (thesis-models/, data/positions.epd)")
	nets := fs.String("nets", "hv,all+ph+pv", "comma-separated thesis network names (SHARED/thesis-models/NAME.nn) or network file paths")
	fs.Float64Var(&o.amount, "amount", 0.45, "jitter of the trainer's model, in quantization steps (< 0.5)")
	fs.Uint64Var(&o.seed, "seed", 7, "jitter seed")
	fs.StringVar(&o.pngPath, "png", "", "histogram plot to write (default: none)")
	fs.StringVar(&o.scatterPath, "scatter", "", "float-vs-quantized scatter plot of the first network to write (default: none)")
	fs.StringVar(&o.mdPath, "md", "", "Markdown file whose quanterr section is replaced (default: tables on stdout)")
	fs.BoolVar(&o.json, "json", false, "print the measurements as one JSON object on stdout instead of the tables")
	fs.BoolVar(&o.force, "force", false, "replace existing -png and -scatter files")
	return nets
}

// isPNG recognizes a PNG file by its signature.
func isPNG(head []byte, _ int64) bool { return bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")) }

// netPath resolves one -nets entry: an existing file is a path, anything else a thesis name.
func netPath(shared, entry string) string {
	if st, err := os.Stat(entry); err == nil && st.Mode().IsRegular() {
		return entry
	}
	return filepath.Join(shared, "thesis-models", entry+".nn")
}

// validate checks every flag and output before any measurement.
func (o *options) validate() ([]string, error) {
	if !(o.amount >= 0 && o.amount < 0.5) {
		return nil, fmt.Errorf("-amount %v must be in [0, 0.5)", o.amount)
	}
	if o.json && o.mdPath != "" {
		return nil, errors.New("-json and -md exclude each other")
	}
	inputs := []string{filepath.Join(o.shared, "data", "positions.epd")}
	var paths []string
	for _, e := range o.nets {
		if e == "" {
			return nil, errors.New("-nets: empty entry")
		}
		p := netPath(o.shared, e)
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("-nets %s: neither a network file nor a thesis network name (%v)", e, err)
		}
		paths = append(paths, p)
	}
	inputs = append(inputs, paths...)
	for _, out := range []struct{ flag, path string }{{"-png", o.pngPath}, {"-scatter", o.scatterPath}} {
		if out.path == "" {
			continue
		}
		if err := outfile.Check(out.path, o.force, inputs...); err != nil {
			return nil, fmt.Errorf("%s: %w", out.flag, err)
		}
		if err := outfile.SameFormat(out.path, "a PNG image", isPNG); err != nil {
			return nil, fmt.Errorf("%s: %w", out.flag, err)
		}
	}
	if o.pngPath != "" && o.scatterPath != "" {
		a, errA := filepath.Abs(o.pngPath)
		b, errB := filepath.Abs(o.scatterPath)
		if errA == nil && errB == nil && a == b {
			return nil, errors.New("-png and -scatter name the same file")
		}
	}
	if o.mdPath != "" {
		if err := outfile.Check(o.mdPath, true, inputs...); err != nil {
			return nil, fmt.Errorf("-md: %w", err)
		}
		old, err := os.ReadFile(o.mdPath)
		if err != nil {
			return nil, fmt.Errorf("-md: %w", err)
		}
		if _, err := replaced(string(old), ""); err != nil {
			return nil, fmt.Errorf("-md %s: %w", o.mdPath, err)
		}
	}
	return paths, nil
}

type result struct {
	name, path  string
	deq, jit    *quant.ErrorReport
	parts       []partResult // error of jittering one layer only
	fl, in      []float64    // jittered float and integer evals (for the scatter plot)
	clipped     int
	roundTripOK bool
}

type partResult struct {
	layer string
	rep   *quant.ErrorReport
}

func run(o options) error {
	paths, err := o.validate()
	if err != nil {
		return err
	}
	ps, err := readPositions(filepath.Join(o.shared, "data", "positions.epd"))
	if err != nil {
		return err
	}
	var results []*result
	for i, path := range paths {
		r, err := measure(path, o.nets[i], ps, o.amount, o.seed)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	var b bytes.Buffer
	switch {
	case o.json:
		writeJSON(&b, results, o.amount, o.seed, len(ps))
	default:
		writeTables(&b, results, o.amount, o.seed, len(ps))
	}
	if o.mdPath == "" {
		os.Stdout.Write(b.Bytes())
	} else if err := replaceSection(o.mdPath, b.String()); err != nil {
		return err
	}
	if o.pngPath != "" {
		if err := plotHistogram(o.pngPath, results, o.force); err != nil {
			return err
		}
	}
	if o.scatterPath != "" && len(results) > 0 {
		if err := plotScatter(o.scatterPath, results[0], o.force); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes the measurements as one JSON object: {"positions", "amount", "seed",
// "networks": [{"name", "path", "requantizes", "clipped", "dequantized": E, "jittered": E,
// "layers": [{"layer", "error": E}]}]} with E = {"mean", "median", "p99", "max", "within",
// "threshold", "mean_abs_cp", "max_abs_cp"} (WDL errors; score differences in centipawns).
func writeJSON(b *bytes.Buffer, rs []*result, amount float64, seed uint64, npos int) {
	type errJSON struct {
		Mean      float64 `json:"mean"`
		Median    float64 `json:"median"`
		P99       float64 `json:"p99"`
		Max       float64 `json:"max"`
		Within    float64 `json:"within"`
		Threshold float64 `json:"threshold"`
		MeanAbsCP float64 `json:"mean_abs_cp"`
		MaxAbsCP  float64 `json:"max_abs_cp"`
	}
	conv := func(e *quant.ErrorReport) errJSON {
		return errJSON{e.Mean, e.Median, e.P99, e.Max, e.Within, e.Threshold, e.MeanAbsScore, e.MaxAbsScore}
	}
	type layerJSON struct {
		Layer string  `json:"layer"`
		Error errJSON `json:"error"`
	}
	type netJSON struct {
		Name        string      `json:"name"`
		Path        string      `json:"path"`
		Requantizes bool        `json:"requantizes"`
		Clipped     int         `json:"clipped"`
		Dequantized errJSON     `json:"dequantized"`
		Jittered    errJSON     `json:"jittered"`
		Layers      []layerJSON `json:"layers"`
	}
	out := struct {
		Positions int       `json:"positions"`
		Amount    float64   `json:"amount"`
		Seed      uint64    `json:"seed"`
		Networks  []netJSON `json:"networks"`
	}{Positions: npos, Amount: amount, Seed: seed}
	for _, r := range rs {
		n := netJSON{Name: r.name, Path: r.path, Requantizes: r.roundTripOK, Clipped: r.clipped, Dequantized: conv(r.deq), Jittered: conv(r.jit)}
		for _, p := range r.parts {
			n.Layers = append(n.Layers, layerJSON{p.layer, conv(p.rep)})
		}
		out.Networks = append(out.Networks, n)
	}
	j, _ := json.Marshal(out)
	b.Write(j)
	b.WriteByte('\n')
}

func readPositions(path string) ([]board.Position, error) {
	return epdfile.ReadAll(path)
}

func evalFloat(m *quant.FloatThesis, set *featureset.Set, ps []board.Position) ([]float64, error) {
	out := make([]float64, len(ps))
	for i := range ps {
		v, err := m.EvaluatePosition(set, &ps[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// measure loads the network at path (any format nnue.Load reads; it must have the thesis
// architecture) and measures it; name labels it in the tables.
func measure(path, name string, ps []board.Position, amount float64, seed uint64) (*result, error) {
	n, err := nnue.LoadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := quant.DequantizeThesis(n, quant.Thesis)
	if err != nil {
		return nil, fmt.Errorf("%s: quanterr measures thesis-architecture networks: %w", path, err)
	}
	var raw bytes.Buffer
	if err := nnue.WriteThesis(&raw, n); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	j := d.Jitter(quant.Thesis, amount, seed)
	r := &result{name: name, path: path}
	// The jittered model must quantize back to the very same file.
	nj, rep, err := quant.QuantizeThesis(j, quant.Thesis)
	if err != nil {
		return nil, err
	}
	r.clipped = rep.TotalClipped()
	var buf bytes.Buffer
	if err := nnue.WriteThesis(&buf, nj); err != nil {
		return nil, err
	}
	r.roundTripOK = bytes.Equal(buf.Bytes(), raw.Bytes())

	set := n.FeatureSet()
	e := n.NewEvaluator()
	r.in = make([]float64, len(ps))
	for i := range ps {
		r.in[i] = float64(e.Evaluate(&ps[i]))
	}
	fd, err := evalFloat(d, set, ps)
	if err != nil {
		return nil, err
	}
	if r.deq, err = quant.NewErrorReport(fd, r.in, quant.ThesisWDL, binWidth, nbins); err != nil {
		return nil, err
	}
	if r.fl, err = evalFloat(j, set, ps); err != nil {
		return nil, err
	}
	if r.jit, err = quant.NewErrorReport(r.fl, r.in, quant.ThesisWDL, binWidth, nbins); err != nil {
		return nil, err
	}
	// Jitter one layer at a time: which rounding costs most?
	for _, layer := range []string{"feature transformer (W1, b1)", "hidden (W2, b2)", "output (W3, b3)"} {
		m := d.Clone()
		switch layer[0] {
		case 'f':
			m.W1, m.B1 = j.W1, j.B1
		case 'h':
			m.W2, m.B2 = j.W2, j.B2
		case 'o':
			m.W3, m.B3 = j.W3, j.B3
		}
		f, err := evalFloat(m, set, ps)
		if err != nil {
			return nil, err
		}
		rep, err := quant.NewErrorReport(f, r.in, quant.ThesisWDL, binWidth, nbins)
		if err != nil {
			return nil, err
		}
		r.parts = append(r.parts, partResult{layer, rep})
	}
	return r, nil
}

func writeTables(b *bytes.Buffer, rs []*result, amount float64, seed uint64, npos int) {
	fmt.Fprintf(b, "Generated by `go run ./examples/quanterr -md doc/quant.md …` (%d positions of `positions.epd`, "+
		"WDL model a=%g, b=%g, jitter ±%g step, seed %d).\n\n", npos, quant.ThesisWDL.A, quant.ThesisWDL.B, amount, seed)
	fmt.Fprintf(b, "| network | model | mean WDL error | 99th pct | max | within 0.03 | mean \\|Δ\\| cp | max \\|Δ\\| cp | re-quantizes to the file |\n")
	fmt.Fprintf(b, "|---|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rs {
		ok := "yes"
		if !r.roundTripOK || r.clipped != 0 {
			ok = fmt.Sprintf("NO (%d clipped)", r.clipped)
		}
		for _, x := range []struct {
			label string
			e     *quant.ErrorReport
			rt    string
		}{{"dequantized", r.deq, "yes (test)"}, {"trainer's (jittered)", r.jit, ok}} {
			fmt.Fprintf(b, "| `%s` | %s | %.5f | %.5f | %.5f | %.2f%% | %.2f | %.1f | %s |\n",
				r.name, x.label, x.e.Mean, x.e.P99, x.e.Max, 100*x.e.Within, x.e.MeanAbsScore, x.e.MaxAbsScore, x.rt)
		}
	}
	fmt.Fprintf(b, "\nError of jittering one layer only (the rest dequantized):\n\n")
	fmt.Fprintf(b, "| network | layer jittered | mean WDL error | within 0.03 | mean \\|Δ\\| cp |\n|---|---|---:|---:|---:|\n")
	for _, r := range rs {
		for _, p := range r.parts {
			fmt.Fprintf(b, "| `%s` | %s | %.5f | %.2f%% | %.2f |\n", r.name, p.layer, p.rep.Mean, 100*p.rep.Within, p.rep.MeanAbsScore)
		}
	}
	for _, r := range rs {
		fmt.Fprintf(b, "\nHistogram of |W(float) − W(quantized)|, `%s`, trainer's (jittered) model:\n\n", r.name)
		r.jit.WriteMarkdown(b)
	}
}

const (
	beginMark = "<!-- quanterr:begin -->"
	endMark   = "<!-- quanterr:end -->"
)

// replaced returns s with the text between beginMark and endMark replaced by body.
func replaced(s, body string) (string, error) {
	i, j := strings.Index(s, beginMark), strings.Index(s, endMark)
	if i < 0 || j < i {
		return "", fmt.Errorf("no %q … %q section", beginMark, endMark)
	}
	return s[:i+len(beginMark)] + "\n" + body + "\n" + s[j:], nil
}

// replaceSection replaces the quanterr section of the Markdown file at path (through a temporary
// file: an error leaves the file as it was).
func replaceSection(path, body string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s, err := replaced(string(old), body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return outfile.WriteFile(path, []byte(s), true)
}

// savePlot renders p as a PNG of the given size to path through a temporary file.
func savePlot(p *plot.Plot, w, h vg.Length, path string, force bool) error {
	wt, err := p.WriterTo(w, h, "png")
	if err != nil {
		return err
	}
	f, err := outfile.Create(path, force)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := wt.WriteTo(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Commit()
}

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
}

// plotHistogram draws, per network, the share of positions per WDL-error bin of the trainer's
// model as a step line on a log axis, the dequantized model of the first network dashed, and
// the 0.03 bound.
func plotHistogram(path string, rs []*result, force bool) error {
	p := plot.New()
	p.Title.Text = "Quantization error in WDL space (thesis §4.5.1)"
	p.X.Label.Text = "|W(float eval) − W(quantized eval)|,  W(x) = σ((x − 1.28)/297.21)"
	p.Y.Label.Text = "positions (%, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	top := 0.0
	addSteps := func(rep *quant.ErrorReport, label string, c color.Color, dashed bool) error {
		pts := make(plotter.XYs, 0, 2*len(rep.Bins))
		for i, n := range rep.Bins {
			y := math.Max(100*float64(n)/float64(rep.N), logFloor)
			top = math.Max(top, y)
			pts = append(pts, plotter.XY{X: float64(i) * rep.BinWidth, Y: y}, plotter.XY{X: float64(i+1) * rep.BinWidth, Y: y})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color = c
		l.Width = vg.Points(1.5)
		if dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(label, l)
		return nil
	}
	for i, r := range rs {
		if err := addSteps(r.jit, fmt.Sprintf("%s, trainer's model (%.1f%% ≤ 0.03)", r.name, 100*r.jit.Within), palette[i%len(palette)], false); err != nil {
			return err
		}
	}
	if len(rs) > 0 {
		if err := addSteps(rs[0].deq, rs[0].name+", dequantized (integer arithmetic only)", color.Gray{Y: 0x60}, true); err != nil {
			return err
		}
	}
	bound, err := plotter.NewLine(plotter.XYs{{X: quant.DefaultThreshold, Y: logFloor}, {X: quant.DefaultThreshold, Y: top * 1.5}})
	if err != nil {
		return err
	}
	bound.Color = color.Black
	bound.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(bound)
	p.Legend.Add("0.03 (thesis: almost all errors within)", bound)
	p.Legend.Top = true
	p.X.Max = float64(nbins) * binWidth
	p.Y.Min, p.Y.Max = logFloor, 300
	return savePlot(p, 18*vg.Centimeter, 11*vg.Centimeter, path, force)
}

// plotScatter draws the trainer's-model float eval against the quantized eval (thesis Fig. 8).
func plotScatter(path string, r *result, force bool) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: float vs quantized evaluation (%d positions)", r.name, len(r.in))
	p.X.Label.Text = "float model (cp, side to move)"
	p.Y.Label.Text = "quantized network (cp, side to move)"
	p.Add(plotter.NewGrid())
	const lim = 2000.0
	pts := make(plotter.XYs, 0, len(r.in))
	for i := range r.in {
		if math.Abs(r.fl[i]) <= lim && math.Abs(r.in[i]) <= lim {
			pts = append(pts, plotter.XY{X: r.fl[i], Y: r.in[i]})
		}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	s.GlyphStyle.Radius = vg.Points(1)
	s.GlyphStyle.Color = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x60}
	p.Add(s)
	diag, err := plotter.NewLine(plotter.XYs{{X: -lim, Y: -lim}, {X: lim, Y: lim}})
	if err != nil {
		return err
	}
	diag.Color = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	p.Add(diag)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -lim, lim, -lim, lim
	return savePlot(p, 12*vg.Centimeter, 12*vg.Centimeter, path, force)
}
