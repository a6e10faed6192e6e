package elo

import (
	"errors"
	"math"
)

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against H1: Elo = Elo1
// (logistic Elo), with false-positive rate Alpha and false-negative rate Beta. The statistic
// is the generalized log-likelihood ratio (GSPRT) of fishtest's "logistic" model: the
// multinomial distribution of results (trinomial W/D/L or pentanomial pairs) is replaced under
// each hypothesis by its maximum-likelihood estimate subject to the expected score being
// s0 = ExpectedScore(Elo0) or s1 = ExpectedScore(Elo1), and LLR = N·Σ pᵢ·ln(p1ᵢ/p0ᵢ)
// (fishtest stats/LLRcalc.py LLR_logistic and MLE_expected; M. Van den Bergh,
// "Support of the MLE for a multinomial distribution with given expectation",
// support_MLE_multinomial.pdf, Proposition 1.1). The stopping bounds are Wald's:
// ln(β/(1−α)) and ln((1−β)/α) (A. Wald, "Sequential Analysis", 1947).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Decision is the state of an SPRT.
type Decision int

const (
	Continue Decision = iota // neither bound reached
	AcceptH0                 // LLR ≤ lower bound: Elo0 accepted ("fail")
	AcceptH1                 // LLR ≥ upper bound: Elo1 accepted ("pass")
)

// String returns "continue", "H0 accepted" or "H1 accepted".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// ErrSPRT is returned for invalid SPRT parameters.
var ErrSPRT = errors.New("elo: SPRT needs Elo0 < Elo1 and 0 < α, β < 1/2")

// Valid returns ErrSPRT if the parameters are unusable, else nil.
func (t SPRT) Valid() error {
	if !(t.Elo0 < t.Elo1) || !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5) {
		return ErrSPRT
	}
	return nil
}

// Bounds returns Wald's bounds (lower, upper) = (ln(β/(1−α)), ln((1−β)/α)).
func (t SPRT) Bounds() (float64, float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide compares llr with the bounds.
func (t SPRT) Decide(llr float64) Decision {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// LLRTrinomial is the GSPRT log-likelihood ratio of W/D/L (0 for no games).
func (t SPRT) LLRTrinomial(r WDL) float64 {
	return t.llr([]float64{0, 0.5, 1}, []int{r.L, r.D, r.W})
}

// LLRPentanomial is the GSPRT log-likelihood ratio of game pairs (0 for no pairs); the pair
// score is divided by 2, so s0 and s1 are the same per-game expected scores.
func (t SPRT) LLRPentanomial(p Penta) float64 {
	return t.llr([]float64{0, 0.25, 0.5, 0.75, 1}, p[:])
}

// llr follows fishtest LLRcalc.py: zero counts are regularized to 1e-3 so that the empirical
// distribution has full support, then N·Σ p̂ᵢ ln(p1ᵢ/p0ᵢ) with pₖᵢ = p̂ᵢ/(1 + θₖ(aᵢ − sₖ)),
// θₖ the root of Σ p̂ᵢ(aᵢ − sₖ)/(1 + θ(aᵢ − sₖ)) = 0 in (−1/max(aᵢ−sₖ), −1/min(aᵢ−sₖ)).
func (t SPRT) llr(vals []float64, cnt []int) float64 {
	total := 0
	for _, c := range cnt {
		total += c
	}
	if total == 0 {
		return 0
	}
	const eps = 1e-3
	p := make([]float64, len(cnt))
	var n float64
	for i, c := range cnt {
		p[i] = float64(c)
		if c == 0 {
			p[i] = eps
		}
		n += p[i]
	}
	for i := range p {
		p[i] /= n
	}
	s0, s1 := ExpectedScore(t.Elo0), ExpectedScore(t.Elo1)
	th0, th1 := secular(vals, p, s0), secular(vals, p, s1)
	var l float64
	for i := range p {
		q0 := 1 + th0*(vals[i]-s0)
		q1 := 1 + th1*(vals[i]-s1)
		// ln(p1/p0) = ln(p̂/q1) − ln(p̂/q0) = ln(q0/q1)
		l += p[i] * math.Log(q0/q1)
	}
	return n * l
}

// secular solves Σ pᵢ dᵢ/(1 + θ dᵢ) = 0 with dᵢ = aᵢ − s by bisection (the function is
// strictly decreasing in θ on the interval where all 1 + θ dᵢ > 0).
func secular(vals, p []float64, s float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, a := range vals {
		d := a - s
		if d > 0 {
			lo = max(lo, -1/d)
		} else if d < 0 {
			hi = min(hi, -1/d)
		}
	}
	f := func(th float64) float64 {
		var r float64
		for i, a := range vals {
			d := a - s
			r += p[i] * d / (1 + th*d)
		}
		return r
	}
	// Stay strictly inside the interval.
	a, b := lo, hi
	for range 200 {
		m := (a + b) / 2
		if m == a || m == b {
			break
		}
		if f(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}
