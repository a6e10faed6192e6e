package nnue

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
	"pgregory.net/rapid"
)

// shippedFamilies is the forward every shipped network's stacks must run (forward.go):
// a net listed here that falls back to the generic path has lost its fast path.
var shippedFamilies = map[string]family{
	"default":                      familyGeneric,
	"thesis hv":                    familyCReLUChain,
	sfNetHalfKP:                    familyCReLUChain,
	sfNetSFNNv5:                    familySFNNv5,
	sfNetSF16:                      familySFNNv5,
	sfNetSF19:                      familyPairwiseDense,
	"alexandria-ml-33184b6.net":    familyGeneric,
	"alexandria-sl-hm-cba722a.net": familyGeneric,
	"maelstrom-512.bin":            familyGeneric,
	"stormphrax-net013.nnue":       familyGeneric,
}

// TestShippedForwards: every shipped network's stacks run their family's forward, and
// each thesis net the ClippedReLU chain's.
func TestShippedForwards(t *testing.T) {
	for name := range shippedSpecs {
		want, ok := shippedFamilies[name]
		if !ok {
			t.Errorf("%s: no expected family", name)
			continue
		}
		if raceEnabled && name == sfNetSF19 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			n := shippedNet(t, name)
			for b, f := range n.families {
				if f != want {
					t.Errorf("stack %d runs %v, want %v", b, f, want)
				}
				if (n.forwards[b] == nil) != (want == familyGeneric) {
					t.Errorf("stack %d: forward %T for family %v", b, n.forwards[b], f)
				}
			}
		})
	}
	for _, name := range thesisNetNames(t) {
		if f := thesisNet(t, name).families[0]; f != familyCReLUChain {
			t.Errorf("thesis %s runs %v", name, f)
		}
	}
}

// sameAsReference checks, at every SIMD level, that the family forward of every stack of
// n gives the generic path's Output for each position, both sides to move and every
// bucket.
func sameAsReference(t interface{ Fatalf(string, ...any) }, name string, n *Network, ps []board.Position) {
	for _, l := range simd.Available() {
		func() {
			prev, err := simd.SetLevel(l)
			if err != nil {
				t.Fatalf("%v", err)
			}
			defer simd.SetLevel(prev)
			a, b := n.NewEvaluator(), n.NewEvaluator()
			b.layerByLayer = true
			for i := range ps {
				a.Refresh(&ps[i])
				for _, stm := range []board.Color{board.White, board.Black} {
					for bucket := range n.arch.Stacks {
						got := a.ForwardBucket(a.Accumulator(), stm, bucket)
						want := b.ForwardBucket(a.Accumulator(), stm, bucket)
						if got != want {
							t.Fatalf("%s at %v, %s stm %v bucket %d: %v forward %+v, generic %+v", name, l, ps[i].FEN(), stm, bucket, n.families[bucket], got, want)
						}
					}
				}
			}
		}()
	}
}

// TestFamilyMatchesReference: on the shipped nets of each family (a thesis net,
// Stockfish 13, 15.1, 16 and 19), every family forward gives the generic path's
// output bit for bit at every SIMD level over golden positions.
func TestFamilyMatchesReference(t *testing.T) {
	requireShared(t)
	rows := sfReadCSV(t, "sf15.1-eval.csv")
	var ps []board.Position
	for i := 0; i < len(rows) && len(ps) < 400; i += 7 {
		ps = append(ps, sfParsePos(t, rows[i].fen))
	}
	for _, name := range []string{"thesis hv", sfNetHalfKP, sfNetSFNNv5, sfNetSF16, sfNetSF19} {
		if raceEnabled && (name == sfNetSF16 || name == sfNetSF19) {
			continue
		}
		if name == sfNetSF19 && len(ps) > 100 {
			ps = ps[:100] // 8 buckets × 2 sides × every level on a 98 MB net
		}
		n := shippedNet(t, name)
		if n.families[0] == familyGeneric {
			t.Fatalf("%s runs the generic path", name)
		}
		sameAsReference(t, name, n, ps)
	}
}

// TestFamilyRandomNets: random small networks of each family — ClippedReLU chains with
// one and two hidden layers, SFNNv5 stacks, pairwise-dense stacks, with any shifts, either perspective order and
// several buckets — run their family's forward, which gives the generic path's output at
// every level; shapes outside a family's limits or stages run the generic path.
func TestFamilyRandomNets(t *testing.T) {
	ps := testPositions(t)
	if len(ps) > 40 {
		ps = ps[:40]
	}
	rapid.Check(t, func(rt *rapid.T) {
		persp := rapid.SampledFrom([]string{"stm", "white"}).Draw(rt, "perspective")
		kind := rapid.IntRange(0, 3).Draw(rt, "family")
		sh := func(name string, hi int) int { return rapid.IntRange(0, hi).Draw(rt, name) }
		var stack string
		var m int
		want := familyCReLUChain
		switch kind {
		case 0, 1:
			m = 32 * rapid.IntRange(3, 33).Draw(rt, "m/32")
			h := rapid.SampledFrom([]int{32, 32, 32, 16}).Draw(rt, "hidden") // 16: no family
			stack = fmt.Sprintf("%s>crelu.i16>affine.i8(%d)>crelu.i32(%d)", persp, h, sh("s0", 31))
			if kind == 1 {
				stack += fmt.Sprintf(">affine.i8(32)>crelu.i32(%d)", sh("s1", 31))
			}
			stack += ">affine.i8(1)"
			if m < 128 || m > 1024 || h != 32 {
				want = familyGeneric
			}
		case 3:
			m = 64 * rapid.IntRange(3, 33).Draw(rt, "m/64")
			mx := rapid.SampledFrom([]int{127, 255, 362}).Draw(rt, "max")
			x := rapid.SampledFrom([]int{16, 32, 32, 8}).Draw(rt, "x") // 8: no family
			y := rapid.IntRange(1, 64).Draw(rt, "y")
			stack = fmt.Sprintf("%s>pairwise(%d,%d)>affine.i8(%d)>skipdiff(concat(sqrcrelu(%d),crelu.i32(%d)),append(affine.i8(%d),concat(sqrcrelu(%d),crelu.i32(%d))),affine.i8(1),%d,%d)",
				persp, mx, map[int]int{127: 7, 255: 9, 362: 10}[mx], x, sh("sq0", 63), sh("s0", 31), y, sh("sq1", 63), sh("s1", 31),
				rapid.IntRange(-20000, 20000).Draw(rt, "mul"), rapid.IntRange(1, 20000).Draw(rt, "div"))
			want = familyPairwiseDense
			if m < 256 || m > 2048 || x == 8 {
				want = familyGeneric
			}
		default:
			m = 64 * rapid.IntRange(3, 33).Draw(rt, "m/64")
			stack = fmt.Sprintf("%s>pairwise(127,7)>affine.i8(16)>skip(concat(sqrcrelu(%d),crelu.i32(%d)),affine.i8(32),crelu.i32(%d),affine.i8(1),%d,%d)",
				persp, sh("sq", 63), sh("s0", 31), sh("s1", 31), rapid.IntRange(-20000, 20000).Draw(rt, "mul"), rapid.IntRange(1, 20000).Draw(rt, "div"))
			want = familySFNNv5
			if m < 256 || m > 2048 {
				want = familyGeneric
			}
		}
		spec := fmt.Sprintf("ft=hv:i16 width=%d stack=%s", m, stack)
		if rapid.Bool().Draw(rt, "buckets") {
			spec += " buckets=pieces(4,2,8)"
		}
		s, err := ParseSpec(spec)
		if err != nil {
			rt.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		n := randomNetwork(rt, s, rng, rapid.SampledFrom([]int{20, 60, 127}).Draw(rt, "bound"))
		for b, f := range n.families {
			if f != want {
				rt.Fatalf("%s: stack %d runs %v, want %v", spec, b, f, want)
			}
		}
		if want == familyGeneric {
			return
		}
		sameAsReference(rt, spec, n, ps)
	})
}
