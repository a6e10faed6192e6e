package dataset

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// WDLFitMaxScore bounds |score| of the samples used by the WDL fit: the thesis's score-space
// (−10000…10000, §5.2.1); larger values are mate scores.
const WDLFitMaxScore = 10000

// ErrWDLFit is wrapped by the errors of WDLFitter.Fit and FitWDL.
var ErrWDLFit = errors.New("dataset: WDL fit failed")

// WDLFitter accumulates (score, game result) pairs and fits the WDL model of thesis §5.2.1,
// W(score) = σ((score − a)/b), by maximum likelihood (binary cross-entropy with a draw counted as
// half a win, Newton's method). Scores and results are taken from the side to move's point of
// view, the convention of the thesis's data (Fig. 9). Memory is one small counter per distinct
// score, so any number of samples can be added. The zero value is ready to use.
type WDLFitter struct {
	counts map[int32]*[3]int64 // losses, draws, wins per score
	n      int64
}

// Add counts s if its game result is known and |Score| ≤ WDLFitMaxScore; it reports whether s was
// counted.
func (f *WDLFitter) Add(s *Sample) bool {
	r := s.ResultFor()
	if r < 0 || s.Score > WDLFitMaxScore || s.Score < -WDLFitMaxScore {
		return false
	}
	f.AddScore(s.Score, r)
	return true
}

// AddScore counts one pair: score (internal units) and result ∈ {0, 0.5, 1} from the same side's
// point of view (other values are rounded to the nearest of the three).
func (f *WDLFitter) AddScore(score int32, result float64) {
	if f.counts == nil {
		f.counts = map[int32]*[3]int64{}
	}
	c := f.counts[score]
	if c == nil {
		c = new([3]int64)
		f.counts[score] = c
	}
	k := int(math.Round(result * 2))
	k = max(0, min(2, k))
	c[k]++
	f.n++
}

// N returns the number of pairs counted.
func (f *WDLFitter) N() int64 { return f.n }

// Fit returns a (the score of a 50% expected result) and b (the scale; larger is flatter), both in
// the scores' units. Errors (wrapping ErrWDLFit): fewer than 2 distinct scores or results, or a
// fit that does not converge (e.g. results perfectly separated by the score).
func (f *WDLFitter) Fit() (a, b float64, err error) {
	type bin struct {
		x    float64 // score / 1000, for conditioning
		n, t float64 // count and sum of targets
	}
	bins := make([]bin, 0, len(f.counts))
	var seen [3]bool
	keys := make([]int32, 0, len(f.counts))
	for k := range f.counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		c := f.counts[k]
		n := float64(c[0] + c[1] + c[2])
		bins = append(bins, bin{x: float64(k) / 1000, n: n, t: 0.5*float64(c[1]) + float64(c[2])})
		for i := range 3 {
			if c[i] > 0 {
				seen[i] = true
			}
		}
	}
	kinds := 0
	for _, s := range seen {
		if s {
			kinds++
		}
	}
	if len(bins) < 2 || kinds < 2 {
		return 0, 0, fmt.Errorf("%w: need at least 2 distinct scores and 2 distinct results (have %d scores, %d pairs)", ErrWDLFit, len(bins), f.n)
	}
	// p = σ(w0 + w1·x); maximize L = Σ t·log p + (n − t)·log(1 − p), which is concave, by
	// Newton's method with a backtracking line search (a full step is taken only when it does
	// not lower L, else halved): plain Newton steps overshoot into the saturated region on
	// flat curves over a wide score range. The start is the constant model (w1 = 0, p the mean
	// result), where the Hessian is not singular for two distinct scores.
	var sn, st float64
	for _, b := range bins {
		sn += b.n
		st += b.t
	}
	m := min(max(st/sn, 1e-9), 1-1e-9)
	w0, w1 := math.Log(m/(1-m)), 0.0
	ll := func(w0, w1 float64) float64 {
		var l float64
		for _, b := range bins {
			z := w0 + w1*b.x
			l -= b.t*softplus(-z) + (b.n-b.t)*softplus(z)
		}
		return l
	}
	cur := ll(w0, w1)
	for iter := 0; iter < 200; iter++ {
		var g0, g1, h00, h01, h11 float64
		for _, b := range bins {
			p := 1 / (1 + math.Exp(-(w0 + w1*b.x)))
			r := b.n*p - b.t
			v := b.n * p * (1 - p)
			g0 += r
			g1 += r * b.x
			h00 += v
			h01 += v * b.x
			h11 += v * b.x * b.x
		}
		det := h00*h11 - h01*h01
		if det <= 0 || math.IsNaN(det) {
			return 0, 0, fmt.Errorf("%w: singular Hessian after %d Newton steps (results separated by the score?)", ErrWDLFit, iter)
		}
		d0 := (h11*g0 - h01*g1) / det
		d1 := (h00*g1 - h01*g0) / det
		step := 1.0
		n0, n1 := w0-d0, w1-d1
		next := ll(n0, n1)
		for k := 0; k < 60 && !(next >= cur); k++ {
			step /= 2
			n0, n1 = w0-step*d0, w1-step*d1
			next = ll(n0, n1)
		}
		if !(next >= cur) { // no ascent along the Newton direction: at the optimum to rounding
			n0, n1, next = w0, w1, cur
		}
		moved := math.Max(math.Abs(n0-w0), math.Abs(n1-w1)) // the step taken; 0 at the optimum
		w0, w1, cur = n0, n1, next
		if moved < 1e-10 {
			if w1 <= 0 {
				return 0, 0, fmt.Errorf("%w: results do not increase with the score (slope %g)", ErrWDLFit, w1)
			}
			// σ(w0 + w1·s/1000) = σ((s − a)/b)  ⇒  b = 1000/w1, a = −w0·b.
			b = 1000 / w1
			return -w0 * b, b, nil
		}
		if math.Abs(w1) > 1e6 || math.IsNaN(w0) || math.IsNaN(w1) {
			break
		}
	}
	return 0, 0, fmt.Errorf("%w: Newton's method did not converge (results separated by the score?)", ErrWDLFit)
}

// softplus returns log(1 + e^z) without overflow.
func softplus(z float64) float64 { return max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) }

// FitWDL fits σ((score − a)/b) to the game results of samples (thesis §5.2.1, Fig. 9; see
// WDLFitter): samples without a result or with |Score| > WDLFitMaxScore are ignored. a and b are
// in the samples' score units (internal units for datagen's data; the thesis found a = 1.28,
// b = 297.21 on Stockfish's data).
func FitWDL(samples []Sample) (a, b float64, err error) {
	var f WDLFitter
	for i := range samples {
		f.Add(&samples[i])
	}
	return f.Fit()
}
