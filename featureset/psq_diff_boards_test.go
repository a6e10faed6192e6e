package featureset

import (
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// TestDiffSameKing: along random games, DiffSameKing between the start and every later
// position equals DiffGeneric when persp's king is on the same square (ascending lists),
// and reports ok = false, appending nothing, when it is not or the set has no
// piece-square plane walk (the sets whose Active takes the generic path).
func TestDiffSameKing(t *testing.T) {
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 200)...)
	sets := make([]*Set, len(psqSpecs))
	for i, s := range psqSpecs {
		sets[i] = MustParse(s)
	}
	other := MustParse("all+ph")
	rapid.Check(t, func(t *rapid.T) {
		start := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		pos := start
		n := rapid.IntRange(1, 30).Draw(t, "plies")
		var moves []board.Move
		prefix := []int{-7}
		for ply := 0; ply < n; ply++ {
			moves = pos.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				return
			}
			pos, _ = pos.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
			for persp := board.White; persp <= board.Black; persp++ {
				same := start.KingSquare(persp) == pos.KingSquare(persp)
				for _, s := range sets {
					a, r, ok := s.DiffSameKing(&start, &pos, persp, slices.Clone(prefix), slices.Clone(prefix))
					if want := same && s.psq != nil && s.psq.planes; ok != want {
						t.Fatalf("%s %v: ok %v, want %v (same king square %v)", s, persp, ok, want, same)
					}
					if !ok {
						if !slices.Equal(a, prefix) || !slices.Equal(r, prefix) {
							t.Fatalf("%s %v: appended %v %v without ok", s, persp, a, r)
						}
						continue
					}
					wa, wr := s.DiffGeneric(&start, &pos, persp, slices.Clone(prefix), slices.Clone(prefix))
					if !slices.Equal(a, wa) || !slices.Equal(r, wr) {
						t.Fatalf("%s %v %s → %s: DiffSameKing %v %v, DiffGeneric %v %v", s, persp, start.FEN(), pos.FEN(), a, r, wa, wr)
					}
				}
				if _, _, ok := other.DiffSameKing(&start, &pos, persp, nil, nil); ok {
					t.Fatalf("%s: ok without a piece-square path", other)
				}
			}
		}
	})
}
