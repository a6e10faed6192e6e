package dataset

import "github.com/nnuekit/nnuekit/board"

// Stockfish 15.1's middle-game piece values (internal units), which its evaluate() sums into the
// non-pawn material of its scaling (Stockfish 15.1 types.h).
const (
	sf151Knight = 781
	sf151Bishop = 825
	sf151Rook   = 1276
	sf151Queen  = 2538
)

// Stockfish151Scale returns the factor by which Stockfish 15.1's Eval::evaluate scales its NNUE
// network's output in pos (Stockfish 15.1 evaluate.cpp), leaving out the search-dependent
// optimism term:
//
//	(1064 + 106·npm/5120)/1024 · (195 − rule50)/211
//
// where npm is the non-pawn material of both sides (knight 781, bishop 825, rook 1276, queen
// 2538) and rule50 the halfmove clock (clamped to 0…100); the division by 5120 is an integer
// division, as in Stockfish. The factor runs from 0.47 (kings and pawns only, clock 100) to 1.27
// (all the pieces of the start position, clock 0). Search scores from Stockfish 15.1 are
// leaf evaluations scaled this way; see UnscaleStockfish151.
func Stockfish151Scale(pos *board.Position) float64 {
	npm := 0
	for c := board.White; c <= board.Black; c++ {
		npm += sf151Knight*pos.Pieces(c, board.Knight).Count() + sf151Bishop*pos.Pieces(c, board.Bishop).Count() +
			sf151Rook*pos.Pieces(c, board.Rook).Count() + sf151Queen*pos.Pieces(c, board.Queen).Count()
	}
	rule50 := min(max(pos.HalfmoveClock(), 0), 100)
	return float64(1064+106*npm/5120) / 1024 * float64(195-rule50) / 211
}

// UnscaleStockfish151 divides a Stockfish 15.1 score of pos (internal units, side to move) by
// Stockfish151Scale(pos), turning it into the units of the NNUE network's own output. A network
// trained on unscaled scores learns an evaluation shaped like Stockfish 15.1's raw NNUE output
// rather than like its scaled search scores: the fifty-move factor is not visible to a network
// whose features are piece placements, and the material factor varies the scale of the target
// with the game phase. The search's optimism and the scaling at the search's leaves (rather than
// at pos) are not undone. doc/default-network.md measures the effect.
func UnscaleStockfish151(pos *board.Position, score float64) float64 {
	return score / Stockfish151Scale(pos)
}
