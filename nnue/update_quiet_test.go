package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// TestUpdateQuietMatchesDiff: Accumulator.UpdateQuiet reports true exactly for the legal
// one-piece non-king moves (HalfKP, HalfKAv2_hm; nets without and with 8 PSQT buckets) and
// then gives both perspectives' values and PSQT of Set.Diff + UpdateFrom, copy-make (the
// source unchanged) and in place; otherwise it changes nothing.
func TestUpdateQuietMatchesDiff(t *testing.T) {
	nets := []*Network{
		randomThesisNet(t, rand.New(rand.NewPCG(6, 6)), "halfkp", 32, 4, 10), // no PSQT
		randomSFNNv5(t, rand.New(rand.NewPCG(7, 7)), "halfkav2_hm", 64),      // 8 PSQT buckets
		randomThesisNet(t, rand.New(rand.NewPCG(8, 8)), "all", 32, 4, 10),    // no king dependence
	}
	for _, n := range nets {
		ft := n.FeatureTransformer()
		set := ft.Set()
		quiet := 0
		rapid.Check(t, func(rt *rapid.T) {
			pos := board.StartPosition()
			for range rapid.IntRange(0, 30).Draw(rt, "plies") {
				moves := pos.AppendLegalMoves(nil)
				if len(moves) == 0 {
					return
				}
				pos, _ = pos.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(rt, "m")])
			}
			moves := pos.AppendLegalMoves(nil)
			if len(moves) == 0 {
				return
			}
			after, dirty := pos.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(rt, "move")])
			src := ft.NewAccumulator()
			for p := board.White; p <= board.Black; p++ {
				src.Refresh(p, set.Active(&pos, p, nil))
			}
			orig := ft.NewAccumulator()
			orig.CopyFrom(src)
			d := dirty.Pieces[0]
			isQuiet := dirty.N == 1 && d.From != board.NoSquare && d.To != board.NoSquare && d.Piece.Role() != board.King
			got := ft.NewAccumulator()
			got.CopyFrom(orig)
			ok := got.UpdateQuiet(src, &after, &dirty)
			if ok != isQuiet {
				rt.Fatalf("%s %+v: UpdateQuiet %v, want %v", set, dirty, ok, isQuiet)
			}
			if !ok {
				for p := range 2 {
					if !slices.Equal(got.v[p], orig.v[p]) || !slices.Equal(got.psqt[p], orig.psqt[p]) {
						rt.Fatal("UpdateQuiet reported false but wrote")
					}
				}
				return
			}
			quiet++
			want := ft.NewAccumulator()
			for p := board.White; p <= board.Black; p++ {
				added, removed := set.Diff(&pos, &after, &dirty, p, nil, nil)
				want.updateFromGeneral(src, p, added, removed)
			}
			for p := range 2 {
				if !slices.Equal(got.v[p], want.v[p]) || !slices.Equal(got.psqt[p], want.psqt[p]) {
					rt.Fatalf("%s %+v: perspective %d differs from Diff + UpdateFrom", set, dirty, p)
				}
				if !slices.Equal(src.v[p], orig.v[p]) || !slices.Equal(src.psqt[p], orig.psqt[p]) {
					rt.Fatal("copy-make modified the source")
				}
			}
			if !src.UpdateQuiet(src, &after, &dirty) {
				rt.Fatal("in place: false")
			}
			for p := range 2 {
				if !slices.Equal(src.v[p], want.v[p]) || !slices.Equal(src.psqt[p], want.psqt[p]) {
					rt.Fatal("in-place UpdateQuiet differs")
				}
			}
		})
		if quiet == 0 {
			t.Fatalf("%s: no quiet move drawn", set)
		}
	}
}
