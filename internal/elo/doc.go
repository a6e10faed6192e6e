// Package elo holds the statistics of engine matches: Elo differences from results with 95 %
// confidence intervals (logistic model; trinomial per-game or pentanomial per-pair variance),
// the likelihood of superiority, the generalized SPRT of fishtest's logistic model for A/B
// tests, and maximum-likelihood ratings of all players of a tournament anchored at one player
// (as Ordo computes them). Sources are cited on each function; doc/elo.md explains the choices.
//
// Units: Elo points of the logistic curve, E = 1/(1 + 10^(−Δ/400)); scores are fractions of
// the points available (a win 1, a draw ½).
package elo
