package elo

import (
	"errors"
	"fmt"
	"math"
)

// Pairing is the tally of games between players A and B (indices into the player list), from
// A's point of view.
type Pairing struct {
	A, B int
	WDL
}

// Ratings is the result of MLRatings.
type Ratings struct {
	Elo []float64 // rating of each player; Elo[anchor] = the anchor's value
	// SE is the standard error of each rating relative to the anchor (0 for the anchor), from
	// the inverse of the observed Fisher information with the anchor held fixed.
	SE         []float64
	Iterations int
}

// ErrNoMLE is returned when the maximum-likelihood ratings do not exist (some group of
// players never scored against, or never lost points to, the others: Zermelo's condition) or
// the players are not all connected by games.
var ErrNoMLE = errors.New("elo: maximum-likelihood ratings do not exist")

// MLRatings computes the maximum-likelihood ratings of n players from the pairings, under the
// logistic model with a draw counted as half a win for each side (the model of Ordo,
// M. Ballicora, https://github.com/michiguel/Ordo, and of the Bradley–Terry model with the
// logistic link: E(a beats b) = ExpectedScore(rₐ − r_b); D. R. Hunter, "MM algorithms for
// generalized Bradley–Terry models", Annals of Statistics 32(1), 2004; existence condition
// from E. Zermelo, Math. Z. 29, 1929, and L. R. Ford, Amer. Math. Monthly 64(8), 1957).
//
// The log-likelihood L(r) = Σ_games s·ln E + (1−s)·ln(1−E) is maximized by Newton's method with
// the anchor player's rating fixed at anchorElo (only differences are determined). At the
// maximum every player's expected total score equals the actual one. Standard errors come
// from the inverse of −∇²L restricted to the other players (Ordo estimates them by
// simulation instead; the two agree for large samples). Errors: ErrNoMLE (wrapped with the
// offending player), or an error for indices out of range or negative counts.
func MLRatings(n int, pairings []Pairing, anchor int, anchorElo float64) (Ratings, error) {
	if n <= 0 || anchor < 0 || anchor >= n {
		return Ratings{}, fmt.Errorf("elo: %d players, anchor %d", n, anchor)
	}
	// Aggregate: games and score of a against b.
	games := make([][]float64, n)
	score := make([][]float64, n)
	for i := range n {
		games[i] = make([]float64, n)
		score[i] = make([]float64, n)
	}
	for _, p := range pairings {
		if p.A < 0 || p.A >= n || p.B < 0 || p.B >= n || p.A == p.B || p.W < 0 || p.D < 0 || p.L < 0 {
			return Ratings{}, fmt.Errorf("elo: bad pairing %+v", p)
		}
		g := float64(p.Games())
		games[p.A][p.B] += g
		games[p.B][p.A] += g
		score[p.A][p.B] += p.Score()
		score[p.B][p.A] += g - p.Score()
	}
	if err := checkExistence(n, games, score); err != nil {
		return Ratings{}, err
	}
	c := math.Ln10 / 400
	r := make([]float64, n)
	loglik := func(r []float64) float64 {
		var l float64
		for a := range n {
			for b := a + 1; b < n; b++ {
				if games[a][b] == 0 {
					continue
				}
				e := ExpectedScore(r[a] - r[b])
				l += score[a][b]*math.Log(e) + score[b][a]*math.Log(1-e)
			}
		}
		return l
	}
	// Free variables: all players but the anchor.
	idx := make([]int, 0, n-1)
	for i := range n {
		if i != anchor {
			idx = append(idx, i)
		}
	}
	m := len(idx)
	info := make([][]float64, m) // −∇²L over the free players
	for i := range info {
		info[i] = make([]float64, m)
	}
	grad := make([]float64, m)
	fill := func(r []float64) {
		pos := make([]int, n)
		for i := range pos {
			pos[i] = -1
		}
		for k, i := range idx {
			pos[i] = k
		}
		for i := range info {
			clear(info[i])
		}
		clear(grad)
		for a := range n {
			for b := range n {
				if a == b || games[a][b] == 0 {
					continue
				}
				e := ExpectedScore(r[a] - r[b])
				w := c * c * games[a][b] * e * (1 - e)
				if ka := pos[a]; ka >= 0 {
					grad[ka] += c * (score[a][b] - games[a][b]*e)
					info[ka][ka] += w
					if kb := pos[b]; kb >= 0 {
						info[ka][kb] -= w
					}
				}
			}
		}
	}
	var it int
	ll := loglik(r)
	for it = 1; it <= 200; it++ {
		fill(r)
		step, err := solve(info, grad)
		if err != nil {
			return Ratings{}, fmt.Errorf("%w: %v", ErrNoMLE, err)
		}
		// Damped Newton: halve the step until the likelihood does not decrease.
		next := make([]float64, n)
		var maxStep float64
		for t := 1.0; t > 1e-6; t /= 2 {
			copy(next, r)
			maxStep = 0
			for k, i := range idx {
				next[i] += t * step[k]
				maxStep = max(maxStep, math.Abs(t*step[k]))
			}
			if l := loglik(next); l >= ll-1e-12 {
				ll = l
				break
			}
		}
		copy(r, next)
		if maxStep < 1e-9 {
			break
		}
	}
	fill(r)
	inv, err := invert(info)
	if err != nil {
		return Ratings{}, fmt.Errorf("%w: %v", ErrNoMLE, err)
	}
	out := Ratings{Elo: make([]float64, n), SE: make([]float64, n), Iterations: it}
	for i := range n {
		out.Elo[i] = r[i] + anchorElo
	}
	for k, i := range idx {
		out.SE[i] = math.Sqrt(inv[k][k])
	}
	return out, nil
}

// checkExistence verifies that the directed graph "a scored points against b" is strongly
// connected (Ford 1957): then the likelihood has a unique finite maximum.
func checkExistence(n int, games, score [][]float64) error {
	reach := func(forward bool) []bool {
		seen := make([]bool, n)
		stack := []int{0}
		seen[0] = true
		for len(stack) > 0 {
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for b := range n {
				s := score[a][b]
				if !forward {
					s = score[b][a]
				}
				if !seen[b] && games[a][b] > 0 && s > 0 {
					seen[b] = true
					stack = append(stack, b)
				}
			}
		}
		return seen
	}
	f, b := reach(true), reach(false)
	for i := range n {
		if !f[i] || !b[i] {
			return fmt.Errorf("%w: player %d is unconnected, or it or a group with it won or lost every game against the rest", ErrNoMLE, i)
		}
	}
	return nil
}

// solve solves A x = b by Gaussian elimination with partial pivoting (A is small: one row per
// player).
func solve(a [][]float64, b []float64) ([]float64, error) {
	m := len(b)
	aug := make([][]float64, m)
	for i := range m {
		aug[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	x, err := eliminate(aug, 1)
	if err != nil {
		return nil, err
	}
	out := make([]float64, m)
	for i := range m {
		out[i] = x[i][0]
	}
	return out, nil
}

func invert(a [][]float64) ([][]float64, error) {
	m := len(a)
	aug := make([][]float64, m)
	for i := range m {
		aug[i] = make([]float64, 2*m)
		copy(aug[i], a[i])
		aug[i][m+i] = 1
	}
	return eliminate(aug, m)
}

// eliminate reduces the m×(m+k) matrix aug to [I | X] and returns X (m×k).
func eliminate(aug [][]float64, k int) ([][]float64, error) {
	m := len(aug)
	for col := range m {
		p := col
		for i := col + 1; i < m; i++ {
			if math.Abs(aug[i][col]) > math.Abs(aug[p][col]) {
				p = i
			}
		}
		if math.Abs(aug[p][col]) < 1e-300 {
			return nil, errors.New("singular information matrix")
		}
		aug[col], aug[p] = aug[p], aug[col]
		piv := aug[col][col]
		for j := range aug[col] {
			aug[col][j] /= piv
		}
		for i := range m {
			if i == col || aug[i][col] == 0 {
				continue
			}
			f := aug[i][col]
			for j := range aug[i] {
				aug[i][j] -= f * aug[col][j]
			}
		}
	}
	x := make([][]float64, m)
	for i := range m {
		x[i] = aug[i][m : m+k]
	}
	return x, nil
}
