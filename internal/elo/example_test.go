package elo_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/internal/elo"
)

func Example() {
	// 60 wins, 20 draws, 20 losses.
	e, _ := elo.Trinomial(elo.WDL{W: 60, D: 20, L: 20})
	fmt.Printf("%.1f [%.1f, %.1f] LOS %.4f\n", e.Elo, e.Lo, e.Hi, e.LOS)

	// The same kind of result counted by game pairs (LL, LD, WL/DD, WD, WW).
	p, _ := elo.Pentanomial(elo.Penta{2, 10, 26, 14, 8})
	fmt.Println(p)

	// SPRT(0, 5) at α = β = 0.05 after 4,000 games.
	t := elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	llr := t.LLRTrinomial(elo.WDL{W: 1200, D: 1800, L: 1000})
	fmt.Printf("LLR %.2f: %v\n", llr, t.Decide(llr))

	// Ratings of a 3-player tournament, anchored at player 2 = 0.
	r, _ := elo.MLRatings(3, []elo.Pairing{
		{A: 0, B: 1, WDL: elo.WDL{W: 6, L: 2}},
		{A: 1, B: 2, WDL: elo.WDL{W: 4, D: 4}},
	}, 2, 0)
	fmt.Printf("%.1f %.1f %.1f\n", r.Elo[0], r.Elo[1], r.Elo[2])
	// Output:
	// 147.2 [86.2, 218.3] LOS 1.0000
	// +46.6 ± 44.9
	// LLR 4.48: H1 accepted
	// 381.7 190.8 0.0
}
