package nnue

import (
	"fmt"
	"math"

	"github.com/nnuekit/nnuekit/board"
)

// sf19PawnA are the coefficients a0..a3 of Stockfish 19's win-rate model p_a(m)
// (uci.cpp win_rate_params, as built into Stockfish 19.0; ../shared/nets/README.md).
// Later development versions refit them.
var sf19PawnA = [4]float64{-142.72052667, 372.35176398, -340.71073572, 415.23490212}

// sfMaterial returns P + 3N + 3B + 5R + 9Q over both colours, the material count
// of Stockfish 19's win-rate model (uci.cpp win_rate_params).
func sfMaterial(pos *board.Position) int {
	c := func(r board.Role) int { return pos.ByRole(r).Count() }
	return c(board.Pawn) + 3*c(board.Knight) + 3*c(board.Bishop) + 5*c(board.Rook) + 9*c(board.Queen)
}

// sfMaterialPawnDivisor returns Stockfish 19's internal units per pawn for pos:
// a = ((a0·m + a1)·m + a2)·m + a3 with m = clamp(material, 17, 78)/58 (uci.cpp
// win_rate_params / to_cp; about 297.6 at material 68, 415.2 at 58).
func sfMaterialPawnDivisor(pos *board.Position) float64 {
	m := float64(min(max(sfMaterial(pos), 17), 78)) / 58.0
	a := sf19PawnA
	return ((a[0]*m+a[1])*m+a[2])*m + a[3]
}

// PawnScale returns the number of n's output units (Evaluate's value) that make one
// pawn in pos, and names the conversion, both from the declared architecture: the
// material-dependent divisor sfMaterialPawnDivisor when Architecture.PawnByMaterial
// is set (Stockfish 19), else Architecture.PawnValue (100 when 0: the unit is the
// centipawn; 208, 361 or 328 for the Stockfish 13, 15.1 and 16 loaders).
func PawnScale(n *Network, pos *board.Position) (unitsPerPawn float64, rule string) {
	if n.arch.PawnByMaterial {
		d := sfMaterialPawnDivisor(pos)
		return d, fmt.Sprintf("material-dependent pawn value %.1f (Stockfish 19 win-rate model, material %d)", d, sfMaterial(pos))
	}
	pv := n.arch.PawnValue
	if pv == 0 || pv == 100 {
		return 100, "the unit is the centipawn"
	}
	return float64(pv), "the declared pawn value"
}

// formatSF19Pawns formats an internal Value as Stockfish 19's eval prints pawns:
// round(100·v/divisor)/100, rounding half away from zero, two decimals, the sign taken
// from v (so a small negative value prints "-0.00"; no "+").
func formatSF19Pawns(v int32, divisor float64) string {
	cp := math.Round(100 * math.Abs(float64(v)) / divisor)
	s := fmt.Sprintf("%.2f", cp/100)
	if v < 0 {
		return "-" + s
	}
	return s
}
