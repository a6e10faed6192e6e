package main

import (
	"github.com/nnuekit/nnuekit/internal/outfile"

	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// clampElo keeps infinite interval ends on the plot: an end beyond ±800 is drawn at ±800.
func clampElo(e float64) float64 { return math.Max(-800, math.Min(800, e)) }

// plotOursVsThesis draws our Elo (y, with 95 % error bars) against the thesis's (x) with the
// line y = x, one labelled point per network, into an 18×14 cm PNG at path (gonum.org/v1/plot).
func plotOursVsThesis(path string, ps []point, force bool) error {
	p := plot.New()
	p.Title.Text = "Thesis networks: our engine vs the thesis (Elo relative to ALL)"
	p.X.Label.Text = "thesis Elo (Tables 10, 12, 14; 100 ms/move, ordo)"
	p.Y.Label.Text = "our Elo (examples/engine, 95 % interval)"
	p.Add(plotter.NewGrid())
	lo, hi := 0.0, 0.0
	xy := make(plotter.XYs, len(ps))
	errs := make(plotter.YErrors, len(ps))
	labels := make([]string, len(ps))
	for i, q := range ps {
		y := clampElo(q.ours)
		xy[i] = plotter.XY{X: q.thesis, Y: y}
		errs[i].Low = y - clampElo(q.lo)
		errs[i].High = clampElo(q.hi) - y
		labels[i] = q.name
		lo = math.Min(lo, math.Min(q.thesis, clampElo(q.lo)))
		hi = math.Max(hi, math.Max(q.thesis, clampElo(q.hi)))
	}
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	diag.Color = color.Gray{Y: 0x90}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	p.Legend.Add("y = x", diag)
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	sc.GlyphStyle.Shape = draw.CircleGlyph{}
	sc.GlyphStyle.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	sc.GlyphStyle.Radius = vg.Points(3)
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{xy, errs})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	eb.Color = sc.GlyphStyle.Color
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: labels})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font.Size = vg.Points(8)
		lb.TextStyle[i].XAlign = draw.XLeft
	}
	lb.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(2)}
	p.Add(eb, sc, lb)
	p.X.Min, p.X.Max = lo-40, hi+90 // room for the labels
	p.Y.Min, p.Y.Max = lo-40, hi+40
	p.Legend.Add("network", sc)
	p.Legend.Top = true
	p.Legend.Left = true
	wt, err := p.WriterTo(18*vg.Centimeter, 14*vg.Centimeter, "png")
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	f, err := outfile.Create(path, force)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := wt.WriteTo(f); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return f.Commit()
}
