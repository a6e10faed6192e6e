package train

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Curve is one named loss curve for PlotLoss: Loss[i] belongs to epoch i+1.
type Curve struct {
	Name string
	Loss []float64
}

// HistoryCurves returns the training and validation curves of h (validation omitted when it is
// NaN throughout).
func HistoryCurves(h []EpochStats) []Curve {
	tr := Curve{Name: "training"}
	va := Curve{Name: "validation"}
	hasVal := false
	for _, e := range h {
		tr.Loss = append(tr.Loss, e.TrainLoss)
		va.Loss = append(va.Loss, e.ValLoss)
		hasVal = hasVal || !math.IsNaN(e.ValLoss)
	}
	if hasVal {
		return []Curve{tr, va}
	}
	return []Curve{tr}
}

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff},
	color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
	color.RGBA{R: 0xbc, G: 0xbd, B: 0x22, A: 0xff},
	color.RGBA{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff},
	color.RGBA{A: 0xff},
	color.RGBA{R: 0x80, G: 0x80, B: 0x00, A: 0xff},
}

// PlotLoss draws the curves (loss against epoch, one line each, NaN points skipped) with the
// given title into a PNG (or SVG/PDF, by path's extension) of 16×10 cm at path, using
// gonum.org/v1/plot. It returns an error if no curve has a point or the file cannot be written.
func PlotLoss(path, title string, curves []Curve) error {
	p, err := lossPlot(title, curves)
	if err != nil {
		return err
	}
	if err := p.Save(16*vg.Centimeter, 10*vg.Centimeter, path); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	return nil
}

// WriteLossPlot is PlotLoss writing a PNG to w (for outputs written through a temporary file).
func WriteLossPlot(w io.Writer, title string, curves []Curve) error {
	p, err := lossPlot(title, curves)
	if err != nil {
		return err
	}
	return writePNG(w, p, 16*vg.Centimeter, 10*vg.Centimeter)
}

func writePNG(w io.Writer, p *plot.Plot, width, height vg.Length) error {
	wt, err := p.WriterTo(width, height, "png")
	if err == nil {
		_, err = wt.WriteTo(w)
	}
	if err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	return nil
}

func lossPlot(title string, curves []Curve) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = "loss"
	p.Add(plotter.NewGrid())
	points := 0
	for i, c := range curves {
		var xy plotter.XYs
		for e, l := range c.Loss {
			if !math.IsNaN(l) && !math.IsInf(l, 0) {
				xy = append(xy, plotter.XY{X: float64(e + 1), Y: l})
			}
		}
		if len(xy) == 0 {
			continue
		}
		points += len(xy)
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("train: plot: %w", err)
		}
		l.Color = palette[i%len(palette)]
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(c.Name, l)
	}
	if points == 0 {
		return nil, fmt.Errorf("train: plot: no loss values")
	}
	p.Legend.Top = true
	return p, nil
}

// PQRDiagnostics holds the outputs f(P), f(Q), f(R) of a model over PQR samples (centipawns,
// each from its own side to move), the data of the thesis's Figures 14 and 17.
type PQRDiagnostics struct {
	P, Q, R []float64
}

// PQRDiagnose evaluates the trainer's model on up to n samples of PQR data d (evenly spaced
// over d). Error: d not encoded for LossPQR, or empty.
func (t *Trainer) PQRDiagnose(d *Data, n int) (*PQRDiagnostics, error) {
	if d == nil || d.Loss != LossPQR || d.Len() == 0 {
		return nil, fmt.Errorf("train: PQRDiagnose needs non-empty PQR data")
	}
	n = min(max(n, 1), d.Len())
	g := &PQRDiagnostics{}
	for k := range n {
		i := int(int64(k) * int64(d.Len()) / int64(n))
		g.P = append(g.P, t.EvalSlot(d, i, 0))
		g.Q = append(g.Q, t.EvalSlot(d, i, 1))
		g.R = append(g.R, t.EvalSlot(d, i, 2))
	}
	return g, nil
}

// Summary returns the Pearson correlation of f(P) and −f(Q) (1 when f(P) = −f(Q) holds), the
// mean |f(P) + f(Q)|, the share of samples with f(R) > f(Q) and the median of f(R) − f(Q) —
// numbers for the two principles of thesis §5.3.
func (g *PQRDiagnostics) Summary() (corrPQ, meanAbsPQ, shareRQ, medianRQ float64) {
	n := float64(len(g.P))
	var sp, sq, spp, sqq, spq float64
	diffs := make([]float64, len(g.P))
	for i := range g.P {
		p, q := g.P[i], -g.Q[i]
		sp += p
		sq += q
		spp += p * p
		sqq += q * q
		spq += p * q
		meanAbsPQ += math.Abs(g.P[i] + g.Q[i])
		diffs[i] = g.R[i] - g.Q[i]
		if diffs[i] > 0 {
			shareRQ++
		}
	}
	cov := spq/n - sp/n*sq/n
	corrPQ = cov / math.Sqrt((spp/n-sp/n*sp/n)*(sqq/n-sq/n*sq/n))
	sort.Float64s(diffs)
	if len(diffs) > 0 {
		medianRQ = diffs[len(diffs)/2]
	}
	return corrPQ, meanAbsPQ / n, shareRQ / n, medianRQ
}

// PlotPQR draws the two diagnostic plots of thesis Figures 14 and 17 as PNGs (16×12 cm):
// scatterPath, f(P) against −f(Q) with the line f(P) = −f(Q); histPath, the histogram of
// f(R) − f(Q) (bins in centipawns, clipped to ±limit; limit 0 means 2000).
func (g *PQRDiagnostics) PlotPQR(scatterPath, histPath, title string, limit float64) error {
	p, h, err := g.pqrPlots(title, limit)
	if err != nil {
		return err
	}
	if err := p.Save(16*vg.Centimeter, 12*vg.Centimeter, scatterPath); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	if err := h.Save(16*vg.Centimeter, 12*vg.Centimeter, histPath); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	return nil
}

// WritePQRPlots is PlotPQR writing the two PNGs to scatter and hist.
func (g *PQRDiagnostics) WritePQRPlots(scatter, hist io.Writer, title string, limit float64) error {
	p, h, err := g.pqrPlots(title, limit)
	if err != nil {
		return err
	}
	if err := writePNG(scatter, p, 16*vg.Centimeter, 12*vg.Centimeter); err != nil {
		return err
	}
	return writePNG(hist, h, 16*vg.Centimeter, 12*vg.Centimeter)
}

func (g *PQRDiagnostics) pqrPlots(title string, limit float64) (scatter, hist *plot.Plot, err error) {
	if len(g.P) == 0 {
		return nil, nil, fmt.Errorf("train: PlotPQR: no samples")
	}
	if limit <= 0 {
		limit = 2000
	}
	clip := func(x float64) float64 { return min(max(x, -limit), limit) }
	p := plot.New()
	p.Title.Text = title + fmt.Sprintf(": f(P) vs −f(Q), N = %d", len(g.P))
	p.X.Label.Text = "f(P) (cp)"
	p.Y.Label.Text = "−f(Q) (cp)"
	p.Add(plotter.NewGrid())
	xy := make(plotter.XYs, len(g.P))
	for i := range g.P {
		xy[i] = plotter.XY{X: clip(g.P[i]), Y: clip(-g.Q[i])}
	}
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, nil, fmt.Errorf("train: plot: %w", err)
	}
	sc.GlyphStyle.Radius = vg.Points(1)
	sc.GlyphStyle.Color = palette[0]
	diag, _ := plotter.NewLine(plotter.XYs{{X: -limit, Y: -limit}, {X: limit, Y: limit}})
	diag.Color = palette[1]
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(sc, diag)

	h := plot.New()
	h.Title.Text = title + fmt.Sprintf(": f(R) − f(Q), N = %d", len(g.P))
	h.X.Label.Text = "f(R) − f(Q) (cp)"
	h.Y.Label.Text = "samples"
	vals := make(plotter.Values, len(g.P))
	for i := range g.P {
		vals[i] = clip(g.R[i] - g.Q[i])
	}
	hs, err := plotter.NewHist(vals, 60)
	if err != nil {
		return nil, nil, fmt.Errorf("train: plot: %w", err)
	}
	hs.FillColor = palette[2]
	zero, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 0, Y: float64(len(g.P)) / 8}})
	zero.Color = palette[1]
	h.Add(hs, zero)
	return p, h, nil
}
