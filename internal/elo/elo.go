package elo

import (
	"errors"
	"fmt"
	"math"
)

// Z95 is the two-sided 95 % quantile of the standard normal distribution, Φ⁻¹(0.975).
const Z95 = 1.959963984540054

// ExpectedScore is the logistic (Elo) expected score of a player rated elo points above the
// opponent: 1 / (1 + 10^(−elo/400)) (Elo, "The Rating of Chessplayers", 1978, with the
// logistic curve of the USCF/FIDE tables; fishtest stats/LLRcalc.py L_).
func ExpectedScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// FromScore is the inverse of ExpectedScore: the Elo difference −400·log10(1/s − 1) that
// predicts the score s (a fraction in [0, 1]); ±Inf at 1 and 0, NaN outside [0, 1].
func FromScore(s float64) float64 {
	switch {
	case s < 0 || s > 1 || math.IsNaN(s):
		return math.NaN()
	case s == 0:
		return math.Inf(-1)
	case s == 1:
		return math.Inf(1)
	}
	return -400*math.Log10(1/s-1) + 0 // + 0 turns −0 into +0
}

// WDL holds game results from one player's point of view: wins, draws, losses.
type WDL struct{ W, D, L int }

// Games is W + D + L.
func (r WDL) Games() int { return r.W + r.D + r.L }

// Score is the points scored, W + D/2.
func (r WDL) Score() float64 { return float64(r.W) + float64(r.D)/2 }

// Add returns the sum of two tallies.
func (r WDL) Add(o WDL) WDL { return WDL{r.W + o.W, r.D + o.D, r.L + o.L} }

// Reverse returns the tally from the opponent's point of view.
func (r WDL) Reverse() WDL { return WDL{r.L, r.D, r.W} }

// Penta counts game pairs (the same opening played with colours reversed) by the pair's score
// from one player's point of view, in fishtest's order: [0] LL (0 points), [1] LD+DL (½),
// [2] LW+DD+WL (1), [3] DW+WD (1½), [4] WW (2) (fishtest stats/LLRcalc.py).
type Penta [5]int

// Pairs is the number of pairs.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// AddPair adds one pair whose two game scores (0, ½ or 1 each) are a and b.
func (p *Penta) AddPair(a, b float64) {
	p[int(math.Round(2*(a+b)))]++
}

// Estimate is an Elo difference with its 95 % confidence interval, from a match score.
type Estimate struct {
	N       int     // games (trinomial) or game pairs (pentanomial)
	Score   float64 // mean score per game, in [0, 1]
	ScoreSE float64 // standard error of Score
	Elo     float64 // FromScore(Score)
	Lo, Hi  float64 // FromScore(Score ∓ Z95·ScoreSE); ±Inf when that leaves (0, 1)
	LOS     float64 // likelihood of superiority, Φ((Score − ½)/ScoreSE); 1, ½ or 0 when ScoreSE = 0
}

// ErrNoGames is returned for empty tallies.
var ErrNoGames = errors.New("elo: no games")

// Trinomial estimates the Elo difference from W/D/L with the trinomial variance: each game is
// an independent draw from {0, ½, 1} with the observed frequencies, so
// σ² = (W(1−s)² + D(½−s)² + L(0−s)²)/N per game and SE(s) = σ/√N (the normal approximation
// cutechess-cli and fishtest use; e.g. fishtest stats/stat_util.py get_elo). Error: ErrNoGames.
func Trinomial(r WDL) (Estimate, error) {
	n := r.Games()
	if n == 0 || r.W < 0 || r.D < 0 || r.L < 0 {
		return Estimate{}, ErrNoGames
	}
	vals := []float64{1, 0.5, 0}
	cnt := []int{r.W, r.D, r.L}
	return estimate(vals, cnt, 1), nil
}

// Pentanomial estimates the Elo difference from game pairs: each pair is one draw from
// {0, ¼, ½, ¾, 1} (the pair's mean score), so the correlation of the two games of an opening
// is accounted for; SE(s) = σ_pair/√pairs (fishtest stats/stat_util.py, pentanomial model of
// M. Van den Bergh, "Comments on normalized Elo", and the TalkChess observation by K. Laskos
// that the trinomial model overestimates the error for paired openings). Error: ErrNoGames.
func Pentanomial(p Penta) (Estimate, error) {
	if p.Pairs() == 0 {
		return Estimate{}, ErrNoGames
	}
	for _, c := range p {
		if c < 0 {
			return Estimate{}, ErrNoGames
		}
	}
	return estimate([]float64{0, 0.25, 0.5, 0.75, 1}, p[:], 1), nil
}

func estimate(vals []float64, cnt []int, _ int) Estimate {
	n := 0
	for _, c := range cnt {
		n += c
	}
	var s float64
	for i, c := range cnt {
		s += float64(c) * vals[i]
	}
	s /= float64(n)
	var v float64
	for i, c := range cnt {
		d := vals[i] - s
		v += float64(c) * d * d
	}
	v /= float64(n)
	se := math.Sqrt(v / float64(n))
	e := Estimate{N: n, Score: s, ScoreSE: se, Elo: FromScore(s)}
	e.Lo = FromScore(clamp01(s - Z95*se))
	e.Hi = FromScore(clamp01(s + Z95*se))
	switch {
	case se > 0:
		e.LOS = 0.5 * math.Erfc(-(s-0.5)/se/math.Sqrt2)
	case s > 0.5:
		e.LOS = 1 // no spread: the limit of Φ
	case s < 0.5:
		e.LOS = 0
	default:
		e.LOS = 0.5
	}
	return e
}

func clamp01(x float64) float64 { return max(0, min(1, x)) }

// String formats the estimate as "+35.2 ± 20.1 (95 %)" using the half-width of the interval
// (the mean of the two sides; the logistic interval is slightly asymmetric).
func (e Estimate) String() string {
	if math.IsInf(e.Lo, 0) || math.IsInf(e.Hi, 0) || math.IsNaN(e.Elo) {
		return fmt.Sprintf("%+.1f [%.1f, %.1f]", e.Elo, e.Lo, e.Hi)
	}
	return fmt.Sprintf("%+.1f ± %.1f", e.Elo, (e.Hi-e.Lo)/2)
}
