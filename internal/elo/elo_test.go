package elo

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.9g, want %.9g (±%g)", name, got, want, tol)
	}
}

// Worked examples, checked by hand: 60 wins, 20 draws, 20 losses → s = 0.7,
// Elo = 400·log10(0.7/0.3) = 147.19; σ² = 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.16, SE = 0.04,
// interval s ∈ 0.7 ∓ 0.0784 → [86.23, 218.25].
func TestTrinomial(t *testing.T) {
	e, err := Trinomial(WDL{60, 20, 20})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "score", e.Score, 0.7, 1e-12)
	near(t, "SE", e.ScoreSE, 0.04, 1e-12)
	near(t, "Elo", e.Elo, 147.19071411783776, 1e-9)
	near(t, "Lo", e.Lo, 86.22501520030423, 1e-9)
	near(t, "Hi", e.Hi, 218.2517776410748, 1e-9)
	near(t, "LOS", e.LOS, 0.9999997133484281, 1e-12)
	if e.N != 100 || e.String() != "+147.2 ± 66.0" {
		t.Errorf("N %d, %q", e.N, e.String())
	}
	e, _ = Trinomial(WDL{1200, 1800, 1000})
	near(t, "Elo", e.Elo, 17.386277512436145, 1e-9)
	near(t, "Lo", e.Lo, 9.407267586225577, 1e-9)
	near(t, "Hi", e.Hi, 25.38365700638489, 1e-9)
	// Even score: 0 Elo, symmetric interval.
	e, _ = Trinomial(WDL{10, 30, 10})
	near(t, "even", e.Elo, 0, 1e-12)
	near(t, "symmetry", e.Lo, -e.Hi, 1e-9)
	near(t, "LOS even", e.LOS, 0.5, 1e-12)
	// All wins: infinite Elo, no spread.
	e, _ = Trinomial(WDL{5, 0, 0})
	if !math.IsInf(e.Elo, 1) || e.LOS != 1 {
		t.Errorf("all wins: %+v", e)
	}
	if _, err := Trinomial(WDL{}); !errors.Is(err, ErrNoGames) {
		t.Errorf("empty: %v", err)
	}
}

func TestPentanomial(t *testing.T) {
	e, err := Pentanomial(Penta{2, 10, 26, 14, 8})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "score", e.Score, 0.5666666666666667, 1e-12)
	near(t, "SE", e.ScoreSE, 0.03220305943597653, 1e-12)
	near(t, "Elo", e.Elo, 46.60222762857488, 1e-9)
	near(t, "Lo", e.Lo, 2.4667159609555958, 1e-9)
	near(t, "Hi", e.Hi, 92.29420547889296, 1e-9)
	near(t, "LOS", e.LOS, 0.9807830348816091, 1e-12)
	var p Penta
	p.AddPair(1, 0.5)
	p.AddPair(0, 1)
	p.AddPair(0.5, 0.5)
	p.AddPair(0, 0)
	if p != (Penta{1, 0, 2, 1, 0}) || p.Pairs() != 4 {
		t.Errorf("AddPair: %v", p)
	}
	if _, err := Pentanomial(Penta{}); !errors.Is(err, ErrNoGames) {
		t.Errorf("empty: %v", err)
	}
}

// Pairs whose two games always cancel (a win and a loss) have zero pentanomial variance,
// while the trinomial view of the same games has the maximal one.
func TestPentanomialNarrower(t *testing.T) {
	tri, _ := Trinomial(WDL{70, 0, 30})
	pen, _ := Pentanomial(Penta{0, 0, 30, 0, 20})
	near(t, "same score", tri.Score, pen.Score, 1e-12)
	if !(pen.ScoreSE < tri.ScoreSE) {
		t.Errorf("pentanomial SE %g ≥ trinomial %g", pen.ScoreSE, tri.ScoreSE)
	}
}

func TestExpectedScore(t *testing.T) {
	near(t, "E(0)", ExpectedScore(0), 0.5, 1e-15)
	near(t, "E(400)", ExpectedScore(400), 10.0/11, 1e-15) // 1/(1+10⁻¹)
	near(t, "E(-400)", ExpectedScore(-400), 1.0/11, 1e-15)
	near(t, "FromScore(0.75)", FromScore(0.75), 190.848501887865, 1e-9)
	if !math.IsNaN(FromScore(1.5)) || !math.IsInf(FromScore(0), -1) {
		t.Error("FromScore out of range")
	}
	rapid.Check(t, func(t *rapid.T) {
		e := rapid.Float64Range(-1500, 1500).Draw(t, "elo")
		if got := FromScore(ExpectedScore(e)); math.Abs(got-e) > 1e-6 {
			t.Fatalf("FromScore(ExpectedScore(%g)) = %g", e, got)
		}
	})
}

// Reference LLRs: fishtest's LLR_logistic algorithm (LLRcalc.py) re-computed in Python with a
// Newton root finder for the secular equation; results in LLRcalc's order (L, D, W) and
// (LL, LD, …, WW) converted to ours.
func TestSPRTLLR(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	near(t, "tri", s.LLRTrinomial(WDL{1200, 1800, 1000}), 4.482141108167157, 1e-6)
	near(t, "tri even", s.LLRTrinomial(WDL{1100, 1800, 1100}), -0.7530323556609528, 1e-6)
	near(t, "tri small", s.LLRTrinomial(WDL{30, 20, 10}), 0.4231694468971448, 1e-6)
	near(t, "penta", s.LLRPentanomial(Penta{50, 400, 900, 450, 60}), 1.795172223134235, 1e-6)
	near(t, "penta neg", s.LLRPentanomial(Penta{60, 450, 900, 400, 50}), -4.004432248612466, 1e-6)
	near(t, "penta zeros", s.LLRPentanomial(Penta{0, 3, 5, 2, 0}), -0.06553929640099851, 1e-6)
	near(t, "other bounds", SPRT{Elo0: -3, Elo1: 1, Alpha: 0.05, Beta: 0.05}.LLRTrinomial(WDL{1200, 1800, 1000}), 4.426434749254436, 1e-6)
	lo, hi := s.Bounds()
	near(t, "lower", lo, -2.9444389791664403, 1e-12)
	near(t, "upper", hi, 2.9444389791664403, 1e-12)
	if s.LLRTrinomial(WDL{}) != 0 {
		t.Error("LLR of nothing")
	}
	// Large samples: the GSPRT agrees with the Brownian approximation (LLR_alt2).
	r := WDL{12000, 18000, 10000}
	es, _ := Trinomial(r)
	v := es.ScoreSE * es.ScoreSE * float64(es.N)
	s0, s1 := ExpectedScore(0), ExpectedScore(5)
	alt2 := float64(r.Games()) * (s1 - s0) * (2*es.Score - s0 - s1) / v / 2
	near(t, "alt2", s.LLRTrinomial(r), alt2, 0.01*math.Abs(alt2))
}

func TestSPRTDecisions(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if err := s.Valid(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []SPRT{{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, {Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05}, {Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.6}} {
		if !errors.Is(bad.Valid(), ErrSPRT) {
			t.Errorf("%+v accepted", bad)
		}
	}
	if d := s.Decide(3); d != AcceptH1 || d.String() != "H1 accepted" {
		t.Errorf("Decide(3) = %v", d)
	}
	if s.Decide(-3) != AcceptH0 || s.Decide(0) != Continue {
		t.Error("Decide")
	}
	// Synthetic sequential runs: a +30 Elo engine passes, a −20 Elo engine fails, each well
	// before 20,000 games, on every seed.
	run := func(trueElo float64, seed uint64) (Decision, int) {
		rng := rand.New(rand.NewPCG(seed, 7))
		pw := ExpectedScore(trueElo)
		var wdl WDL
		const drawRate = 0.4
		for g := 1; g <= 20000; g++ {
			u := rng.Float64()
			switch {
			case u < drawRate:
				wdl.D++
			case u < drawRate+(1-drawRate)*pw:
				// win probability chosen so the expected score is pw: D/2 + W = pw.
				wdl.W++
			default:
				wdl.L++
			}
			if d := s.Decide(s.LLRTrinomial(wdl)); d != Continue {
				return d, g
			}
		}
		return Continue, 20000
	}
	for seed := range uint64(5) {
		if d, n := run(30, seed); d != AcceptH1 {
			t.Errorf("seed %d: +30 Elo: %v after %d games", seed, d, n)
		}
		if d, n := run(-20, seed); d != AcceptH0 {
			t.Errorf("seed %d: −20 Elo: %v after %d games", seed, d, n)
		}
	}
}

func TestMLRatingsChain(t *testing.T) {
	// A–B and B–C only, each 75 % (6 wins, 2 losses): a tree, so the ML ratings are the pairwise
	// Elo differences added up: B = C + 190.85, A = C + 381.70.
	ps := []Pairing{{A: 0, B: 1, WDL: WDL{6, 0, 2}}, {A: 1, B: 2, WDL: WDL{4, 4, 0}}}
	r, err := MLRatings(3, ps, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "A", r.Elo[0], 381.69700377573, 1e-6)
	near(t, "B", r.Elo[1], 190.848501887865, 1e-6)
	near(t, "C", r.Elo[2], 0, 0)
	// SE of B relative to C: 1/sqrt(N·c²·s(1−s)) with c = ln10/400 for the one pairing.
	c := math.Ln10 / 400
	near(t, "SE B", r.SE[1], 1/math.Sqrt(8*c*c*0.75*0.25), 1e-6)
	// Anchored at A = 1000 instead.
	r2, _ := MLRatings(3, ps, 0, 1000)
	near(t, "C from A", r2.Elo[2], 1000-381.69700377573, 1e-6)
}

func TestMLRatingsCycleAndBalance(t *testing.T) {
	// A beats B, B beats C, C beats A, all 3–1: everybody 0.
	ps := []Pairing{{0, 1, WDL{3, 0, 1}}, {1, 2, WDL{3, 0, 1}}, {2, 0, WDL{3, 0, 1}}}
	r, err := MLRatings(3, ps, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range r.Elo {
		near(t, "cycle", e, 0, 1e-6)
		_ = i
	}
	// A round robin of 4: at the maximum each player's expected score equals the actual one.
	ps = []Pairing{{0, 1, WDL{10, 5, 5}}, {0, 2, WDL{12, 6, 2}}, {0, 3, WDL{15, 3, 2}},
		{1, 2, WDL{8, 6, 6}}, {1, 3, WDL{11, 4, 5}}, {2, 3, WDL{7, 8, 5}}}
	r, err = MLRatings(4, ps, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	exp := make([]float64, 4)
	act := make([]float64, 4)
	for _, p := range ps {
		e := ExpectedScore(r.Elo[p.A]-r.Elo[p.B]) * float64(p.Games())
		exp[p.A] += e
		exp[p.B] += float64(p.Games()) - e
		act[p.A] += p.Score()
		act[p.B] += float64(p.Games()) - p.Score()
	}
	for i := range 4 {
		near(t, "expected = actual", exp[i], act[i], 1e-6)
	}
	if !(r.Elo[0] > r.Elo[1] && r.Elo[1] > r.Elo[2] && r.Elo[2] > r.Elo[3]) || r.SE[3] != 0 || r.SE[0] <= 0 {
		t.Errorf("ratings %+v", r)
	}
}

func TestMLRatingsErrors(t *testing.T) {
	// A won every game: no finite maximum.
	if _, err := MLRatings(2, []Pairing{{0, 1, WDL{5, 0, 0}}}, 1, 0); !errors.Is(err, ErrNoMLE) {
		t.Errorf("perfect score: %v", err)
	}
	// Player 2 never played.
	if _, err := MLRatings(3, []Pairing{{0, 1, WDL{3, 2, 1}}}, 0, 0); !errors.Is(err, ErrNoMLE) {
		t.Errorf("unconnected: %v", err)
	}
	if _, err := MLRatings(2, []Pairing{{0, 5, WDL{1, 0, 0}}}, 0, 0); err == nil {
		t.Error("bad index accepted")
	}
	if _, err := MLRatings(2, nil, 3, 0); err == nil {
		t.Error("bad anchor accepted")
	}
}

func TestSpearman(t *testing.T) {
	// No ties: ρ = 1 − 6Σd²/(n(n²−1)); ranks (1,2,3,4,5) vs (2,1,4,3,5): Σd² = 4 → 0.8.
	r, err := Spearman([]float64{10, 20, 30, 40, 50}, []float64{-5, -9, 7, 3, 100})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "rho", r, 0.8, 1e-12)
	r, _ = Spearman([]float64{1, 2, 3}, []float64{30, 20, 10})
	near(t, "reversed", r, -1, 1e-12)
	// Ties get mean ranks: x ranks (1.5, 1.5, 3), y ranks (1, 2, 3) → Pearson = 0.8660.
	r, _ = Spearman([]float64{5, 5, 9}, []float64{1, 2, 3})
	near(t, "ties", r, math.Sqrt(3)/2, 1e-12)
	for _, bad := range [][2][]float64{{{1}, {1}}, {{1, 2}, {1}}, {{1, 1}, {1, 2}}, {{1, math.NaN()}, {1, 2}}} {
		if _, err := Spearman(bad[0], bad[1]); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
