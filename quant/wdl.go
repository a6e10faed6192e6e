package quant

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// WDLModel maps a score to a win rate in [0, 1] with the logistic WDL model of thesis §5.2.1:
// W(x) = σ((x − A)/B) = 1 / (1 + exp(−(x − A)/B)). A is the score of a 50% win rate, B how fast
// the win rate changes with the score; both are in the score's units (centipawns).
type WDLModel struct {
	A, B float64
}

// ThesisWDL is the model fitted in thesis §5.2.1 (Fig. 9) to 100 million evaluations:
// a = 1.28, b = 297.21.
var ThesisWDL = WDLModel{A: 1.28, B: 297.21}

// Win returns σ((x − A)/B), the expected score in [0, 1] (0 loss, 0.5 draw, 1 win).
func (w WDLModel) Win(x float64) float64 {
	return 1 / (1 + math.Exp(-(x-w.A)/w.B))
}

// ErrorReport summarizes the quantization error in WDL space over a set of positions
// (thesis §4.5.1): for each position, |W(float eval) − W(quantized eval)|.
type ErrorReport struct {
	// Model is the WDL mapping used.
	Model WDLModel
	// Errors holds the per-position WDL errors, in input order.
	Errors []float64
	// N is len(Errors); Mean, Median, P99 and Max summarize them.
	N                      int
	Mean, Median, P99, Max float64
	// Within is the fraction of positions with error ≤ Threshold (thesis: "almost all errors are
	// within 0.03").
	Threshold, Within float64
	// MeanAbsScore and MaxAbsScore are |float eval − quantized eval| in score units (centipawns).
	MeanAbsScore, MaxAbsScore float64
	// Bins is the histogram of Errors: Bins[i] counts errors in [i·BinWidth, (i+1)·BinWidth),
	// the last bin also everything larger.
	BinWidth float64
	Bins     []int
}

// DefaultThreshold is the WDL error bound of thesis §4.5.1, 0.03 (a 3% win-rate difference).
const DefaultThreshold = 0.03

// NewErrorReport compares floatEvals with quantEvals (same length, same positions, both in score
// units from the side to move) under model w, with a histogram of nbins bins of width binWidth.
// It returns an error when the lengths differ or are zero, or the histogram shape is not
// positive.
func NewErrorReport(floatEvals, quantEvals []float64, w WDLModel, binWidth float64, nbins int) (*ErrorReport, error) {
	if len(floatEvals) != len(quantEvals) {
		return nil, fmt.Errorf("quant: NewErrorReport: %d float evals but %d quantized evals", len(floatEvals), len(quantEvals))
	}
	if len(floatEvals) == 0 {
		return nil, fmt.Errorf("quant: NewErrorReport: no positions")
	}
	if !(binWidth > 0) || nbins <= 0 {
		return nil, fmt.Errorf("quant: NewErrorReport: histogram of %d bins of width %v", nbins, binWidth)
	}
	r := &ErrorReport{Model: w, N: len(floatEvals), Threshold: DefaultThreshold, BinWidth: binWidth, Bins: make([]int, nbins)}
	r.Errors = make([]float64, r.N)
	within := 0
	for i := range floatEvals {
		e := math.Abs(w.Win(floatEvals[i]) - w.Win(quantEvals[i]))
		r.Errors[i] = e
		r.Mean += e
		r.Max = math.Max(r.Max, e)
		if e <= r.Threshold {
			within++
		}
		d := math.Abs(floatEvals[i] - quantEvals[i])
		r.MeanAbsScore += d
		r.MaxAbsScore = math.Max(r.MaxAbsScore, d)
		b := int(e / binWidth)
		if b >= nbins || b < 0 {
			b = nbins - 1
		}
		r.Bins[b]++
	}
	r.Mean /= float64(r.N)
	r.MeanAbsScore /= float64(r.N)
	r.Within = float64(within) / float64(r.N)
	sorted := append([]float64(nil), r.Errors...)
	sort.Float64s(sorted)
	r.Median = quantile(sorted, 0.5)
	r.P99 = quantile(sorted, 0.99)
	return r, nil
}

// quantile returns the q-quantile of sorted data (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// WriteMarkdown writes the summary and the histogram as a Markdown table (bin range, count,
// percentage, a bar of '#').
func (r *ErrorReport) WriteMarkdown(out io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "positions: %d; WDL model a=%g, b=%g\n\n", r.N, r.Model.A, r.Model.B)
	fmt.Fprintf(&b, "| statistic | value |\n|---|---|\n")
	fmt.Fprintf(&b, "| mean WDL error | %.6f |\n| median | %.6f |\n| 99th percentile | %.6f |\n| max | %.6f |\n",
		r.Mean, r.Median, r.P99, r.Max)
	fmt.Fprintf(&b, "| within %.2f | %.2f%% |\n| mean \\|Δscore\\| (cp) | %.3f |\n| max \\|Δscore\\| (cp) | %.3f |\n\n",
		r.Threshold, 100*r.Within, r.MeanAbsScore, r.MaxAbsScore)
	fmt.Fprintf(&b, "| WDL error | positions | share | |\n|---|---:|---:|---|\n")
	peak := 1
	for _, c := range r.Bins {
		peak = max(peak, c)
	}
	for i, c := range r.Bins {
		lo, hi := float64(i)*r.BinWidth, float64(i+1)*r.BinWidth
		label := fmt.Sprintf("[%.4f, %.4f)", lo, hi)
		if i == len(r.Bins)-1 {
			label = fmt.Sprintf("≥ %.4f", lo)
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f%% | %s |\n", label, c, 100*float64(c)/float64(r.N),
			strings.Repeat("#", (c*40+peak-1)/peak))
	}
	_, err := io.WriteString(out, b.String())
	return err
}
