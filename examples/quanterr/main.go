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
//	    [-png doc/quant-error.png] [-scatter doc/quant-error-scatter.png] [-md doc/quant.md]
//
// With -md FILE it replaces the text between the lines "<!-- quanterr:begin -->" and
// "<!-- quanterr:end -->" of FILE; without it the tables go to standard output. -png "" and
// -scatter "" skip the plots.
package main

import (
	"bytes"
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
	"github.com/nnuekit/nnuekit/internal/epdfile"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
)

const (
	logFloor = 0.01 // empty bins are drawn at 0.01% on the log axis
	binWidth = 0.0025
	nbins    = 20 // the last bin holds everything ≥ 0.0475
)

func main() {
	shared := flag.String("shared", "../shared", "the shared data folder (thesis-models/, data/)")
	nets := flag.String("nets", "hv,all+ph+pv", "comma-separated thesis networks (file names without .nn)")
	amount := flag.Float64("amount", 0.45, "jitter of the trainer's model, in quantization steps (< 0.5)")
	seed := flag.Uint64("seed", 7, "jitter seed")
	png := flag.String("png", "doc/quant-error.png", "histogram plot to write (empty: none)")
	scatter := flag.String("scatter", "doc/quant-error-scatter.png", "float-vs-quantized scatter plot of the first network (empty: none)")
	md := flag.String("md", "", "Markdown file whose quanterr section is replaced (empty: print to stdout)")
	flag.Parse()
	if err := run(*shared, strings.Split(*nets, ","), *amount, *seed, *png, *scatter, *md); err != nil {
		fmt.Fprintln(os.Stderr, "quanterr:", err)
		os.Exit(1)
	}
}

type result struct {
	name        string
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

func run(shared string, nets []string, amount float64, seed uint64, pngPath, scatterPath, mdPath string) error {
	if !(amount >= 0 && amount < 0.5) {
		return fmt.Errorf("-amount %v must be in [0, 0.5)", amount)
	}
	ps, err := readPositions(filepath.Join(shared, "data", "positions.epd"))
	if err != nil {
		return err
	}
	var results []*result
	for _, name := range nets {
		r, err := measure(shared, name, ps, amount, seed)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	var b bytes.Buffer
	writeTables(&b, results, amount, seed, len(ps))
	if mdPath == "" {
		os.Stdout.Write(b.Bytes())
	} else if err := replaceSection(mdPath, b.String()); err != nil {
		return err
	}
	if pngPath != "" {
		if err := plotHistogram(pngPath, results); err != nil {
			return err
		}
	}
	if scatterPath != "" && len(results) > 0 {
		if err := plotScatter(scatterPath, results[0]); err != nil {
			return err
		}
	}
	return nil
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

func measure(shared, name string, ps []board.Position, amount float64, seed uint64) (*result, error) {
	raw, err := os.ReadFile(filepath.Join(shared, "thesis-models", name+".nn"))
	if err != nil {
		return nil, err
	}
	n, err := nnue.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d, err := quant.DequantizeThesis(n, quant.Thesis)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	j := d.Jitter(quant.Thesis, amount, seed)
	r := &result{name: name}
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
	r.roundTripOK = bytes.Equal(buf.Bytes(), raw)

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
	fmt.Fprintf(b, "Generated by `go run ./examples/quanterr -md doc/quant.md` (%d positions of `positions.epd`, "+
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

func replaceSection(path, body string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, beginMark), strings.Index(s, endMark)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q … %q section", path, beginMark, endMark)
	}
	s = s[:i+len(beginMark)] + "\n" + body + "\n" + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
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
func plotHistogram(path string, rs []*result) error {
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
	return p.Save(18*vg.Centimeter, 11*vg.Centimeter, path)
}

// plotScatter draws the trainer's-model float eval against the quantized eval (thesis Fig. 8).
func plotScatter(path string, r *result) error {
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
	return p.Save(12*vg.Centimeter, 12*vg.Centimeter, path)
}
