package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/simd"
	"pgregory.net/rapid"
)

// TestRefreshPlanesMatchesRefresh: the bitboard refresh (refreshPlanes: Set.ActivePlanes +
// simd.RefreshPlanes) gives Refresh(Set.Active)'s values and PSQT sums bit for bit at
// every SIMD level, for HalfKP without PSQT, HalfKAv2_hm with 8 and with 3 PSQT buckets
// (the Go PSQT path), on random positions, with extreme weights (int16 wraparound); it
// counts Active's features, and declines (nothing written) for a set without planes.
func TestRefreshPlanesMatchesRefresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	mk := func(spec string, width, buckets int, wr int) *FeatureTransformer {
		set := featureset.MustParse(spec)
		w := randomInt16s(rng, set.Size()*width, wr)
		b := randomInt16s(rng, width, wr)
		var ps []int32
		if buckets > 0 {
			ps = make([]int32, set.Size()*buckets)
			for i := range ps {
				ps[i] = rng.Int32() - 1<<30
			}
		}
		ft, err := NewFeatureTransformer(set, width, w, b, buckets, ps)
		if err != nil {
			t.Fatal(err)
		}
		return ft
	}
	fts := []*FeatureTransformer{
		mk("halfkp", 64, 0, 32767),
		mk("halfkav2_hm", 96, 8, 32767),
		mk("halfkav2_hm", 32, 3, 300),
		mk("h", 32, 8, 300),
	}
	positions := append(randomPositions(150, 8), board.StartPosition())
	for _, l := range simd.Available() {
		prev, _ := simd.SetLevel(l)
		t.Run(l.String(), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				ft := fts[rapid.IntRange(0, len(fts)-1).Draw(rt, "ft")]
				pos := &positions[rapid.IntRange(0, len(positions)-1).Draw(rt, "pos")]
				persp := board.Color(rapid.IntRange(0, 1).Draw(rt, "persp"))
				want, got := ft.NewAccumulator(), ft.NewAccumulator()
				active := ft.set.Active(pos, persp, nil)
				want.Refresh(persp, active)
				n, ok := got.refreshPlanes(pos, persp)
				if ok != (ft.set.PieceSquare() != nil && ft.set.PieceSquare().Kind() >= featureset.PSQHalfKP) || ok && n != len(active) {
					rt.Fatalf("%v: refreshPlanes %d %v, %d active", ft.set, n, ok, len(active))
				}
				if !ok {
					if slices.ContainsFunc(got.Values(persp), func(v int16) bool { return v != 0 }) {
						rt.Fatal("declined but wrote")
					}
					return
				}
				if !slices.Equal(got.Values(persp), want.Values(persp)) || !slices.Equal(got.PSQT(persp), want.PSQT(persp)) {
					rt.Fatalf("%v %v %s: refreshPlanes differs from Refresh", ft.set, persp, pos.FEN())
				}
				if slices.ContainsFunc(got.Values(persp^1), func(v int16) bool { return v != 0 }) {
					rt.Fatal("the other perspective was written")
				}
			})
		})
		simd.SetLevel(prev)
	}
}
