package train

import (
	"fmt"
	"image/color"
	"math"

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
			return fmt.Errorf("train: plot: %w", err)
		}
		l.Color = palette[i%len(palette)]
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(c.Name, l)
	}
	if points == 0 {
		return fmt.Errorf("train: plot: no loss values")
	}
	p.Legend.Top = true
	if err := p.Save(16*vg.Centimeter, 10*vg.Centimeter, path); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	return nil
}
