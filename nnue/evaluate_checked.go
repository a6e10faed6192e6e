package nnue

import (
	"errors"
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// ErrUnencodable is wrapped by the error EvaluateChecked returns for a position the
// network's input cannot represent.
var ErrUnencodable = errors.New("nnue: position cannot be encoded by the feature set")

// EvaluateChecked is Evaluate with a documented error path instead of a meaningless
// number. It returns an error wrapping ErrUnencodable, and no value, when pos:
//
//   - does not have exactly one king of each color: king-relative feature sets (KP,
//     KING-ALL, HalfKP, HalfKAv2_hm, king buckets) index by the own king's square and
//     have no feature for "no king" or "two kings"; for the other sets such positions
//     are outside anything a network was trained on (every reachable position has both
//     kings), so they are refused for every network;
//   - makes a perspective's active-feature count exceed the set's MaxActive bound
//     (more pieces than a legal position holds).
//
// Otherwise it returns the same value as Evaluate (network output units, see
// Architecture.PawnValue). It does not run the full board.Validate: a position with, say,
// the side not to move in check is still encodable; call Validate first to refuse those.
// Safe for concurrent use.
func (n *Network) EvaluateChecked(pos *board.Position) (int32, error) {
	for c := board.White; c <= board.Black; c++ {
		if k := pos.Pieces(c, board.King).Count(); k != 1 {
			return 0, fmt.Errorf("%w: %s has %d kings (%s)", ErrUnencodable, c, k, n.ft.set)
		}
	}
	set := n.ft.set
	var buf [512]int
	for c := board.White; c <= board.Black; c++ {
		if a := set.Active(pos, c, buf[:0]); len(a) > set.MaxActive() {
			return 0, fmt.Errorf("%w: %d active features for %s, the set allows %d (%s)",
				ErrUnencodable, len(a), c, set.MaxActive(), set)
		}
	}
	return n.Evaluate(pos), nil
}
