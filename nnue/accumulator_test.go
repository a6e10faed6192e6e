package nnue

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"pgregory.net/rapid"
)

func aligned[T any](s []T) bool {
	return uintptr(unsafe.Pointer(unsafe.SliceData(s)))%Alignment == 0
}

func TestBuffersAligned(t *testing.T) {
	n := randomSFNNv5(t, rand.New(rand.NewPCG(1, 1)), "h", 64)
	ft := n.FeatureTransformer()
	a := ft.NewAccumulator()
	if !aligned(a.Values(board.White)) || !aligned(ft.weights) || !aligned(ft.bias) || !aligned(ft.psqt) {
		t.Fatal("accumulator or transformer buffer not 64-byte aligned")
	}
	if !aligned(n.Architecture().Stacks[0][2].(*Affine).Weights) {
		t.Fatal("affine weights not aligned")
	}
	for k := 1; k < 200; k++ {
		if !aligned(alignedInt16(k)) || !aligned(alignedUint8(k)) || !aligned(alignedInt8(k)) || !aligned(alignedInt32(k)) {
			t.Fatalf("aligned allocation of %d not aligned", k)
		}
	}
	// From hugeTableMin bytes on every element type starts on a 2 MiB boundary (huge pages
	// for Stockfish 19's int8 threat rows too).
	for _, p := range []uintptr{
		uintptr(unsafe.Pointer(&alignedInt8(hugeTableMin)[0])),
		uintptr(unsafe.Pointer(&alignedInt16(hugeTableMin / 2)[0])),
		uintptr(unsafe.Pointer(&alignedInt32(hugeTableMin / 4)[0])),
	} {
		if p%hugePageSize != 0 {
			t.Fatalf("table of %d bytes at %#x is not 2 MiB-aligned", hugeTableMin, p)
		}
	}
}

// randomFT8 returns a transformer for spec whose first rows8 features have random int8
// rows and the others random int16 rows, with nb PSQT buckets (Stockfish 19's layout).
func randomFT8(t testing.TB, rng *rand.Rand, spec string, width, rows8, nb int) *FeatureTransformer {
	t.Helper()
	set := featureset.MustParse(spec)
	nf := set.Size()
	w8 := alignedInt8(rows8 * width)
	for i := range w8 {
		w8[i] = int8(rng.IntN(255) - 127)
	}
	w16 := alignedInt16((nf - rows8) * width)
	for i := range w16 {
		w16[i] = int16(rng.IntN(2001) - 1000)
	}
	b := alignedInt16(width)
	for i := range b {
		b[i] = int16(rng.IntN(2001) - 1000)
	}
	var p []int32
	if nb > 0 {
		p = alignedInt32(nf * nb)
		for i := range p {
			p[i] = int32(rng.IntN(20001) - 10000)
		}
	}
	return newFT8(set, width, rows8, w8, set.MaxActive(), w16, set.MaxActive(), b, nb, p)
}

// TestUpdateEveryKind: for a transformer of every accumulator kind (planAccumulator), any
// numbers of added and removed features — none (a copy), one of each (the quiet kernel),
// any lists — in place and copy-make equal a refresh of the resulting multiset, PSQT sums
// included; copy-make leaves the source untouched and the other perspective unwritten.
func TestUpdateEveryKind(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	fts := []struct {
		ft   *FeatureTransformer
		kind accKind
	}{
		{randomThesisNet(t, rng, "h", 32, 4, 10).FeatureTransformer(), accRows16},
		{randomSFNNv5(t, rng, "h+v", 64).FeatureTransformer(), accRows16PSQT8},
		{randomFT16(t, rng, "h+v", 64, 3, 1000), accRows16PSQT},
		{randomFT16(t, rng, "h", 32, 1, 1000), accRows16PSQT},
		{randomFT8(t, rng, "h+v", 64, 100, 8), accMixed},
		{randomFT8(t, rng, "h", 32, 50, 0), accMixed},
	}
	for _, c := range fts {
		ft := c.ft
		if ft.acc.kind != c.kind {
			t.Fatalf("%v, %d int8 rows, %d PSQT buckets: kind %d, want %d", ft.Set(), ft.Int8Rows(), ft.PSQTBuckets(), ft.acc.kind, c.kind)
		}
		rapid.Check(t, func(rt *rapid.T) {
			feat := rapid.IntRange(0, ft.Features()-1)
			base := rapid.SliceOfN(feat, 0, 12).Draw(rt, "base")
			nrm := rapid.IntRange(0, len(base)).Draw(rt, "removed count")
			removed := base[:nrm]
			added := rapid.SliceOfN(feat, 0, 6).Draw(rt, "added")
			persp := board.Color(rapid.IntRange(0, 1).Draw(rt, "persp"))
			src := ft.NewAccumulator()
			src.Refresh(persp, base)
			src.Refresh(persp^1, base[len(base)/2:])
			before := slices.Clone(src.Values(persp))
			want := ft.NewAccumulator()
			want.Refresh(persp, append(slices.Clone(base[nrm:]), added...))

			dst := ft.NewAccumulator()
			other := slices.Clone(dst.Values(persp ^ 1))
			dst.UpdateFrom(src, persp, added, removed)
			if !slices.Equal(dst.Values(persp), want.Values(persp)) || !slices.Equal(dst.PSQT(persp), want.PSQT(persp)) {
				rt.Fatalf("kind %d: copy-make update differs from refresh", ft.acc.kind)
			}
			if !slices.Equal(src.Values(persp), before) {
				rt.Fatal("copy-make modified the source")
			}
			if !slices.Equal(dst.Values(persp^1), other) {
				rt.Fatal("the other perspective was written")
			}
			src.Update(persp, added, removed)
			if !slices.Equal(src.Values(persp), want.Values(persp)) || !slices.Equal(src.PSQT(persp), want.PSQT(persp)) {
				rt.Fatalf("kind %d: in-place update differs from refresh", ft.acc.kind)
			}
		})
	}
}

// TestShippedAccumulatorKinds fails when a shipped network does not get its accumulator
// kind (planAccumulator), its plane refresh or Stockfish 19's split summands, so that a
// change to the transformer cannot silently move a net to another path.
func TestShippedAccumulatorKinds(t *testing.T) {
	want := map[string]accKind{
		"default": accRows16, "thesis hv": accRows16, sfNetHalfKP: accRows16,
		sfNetSFNNv5: accRows16PSQT8, sfNetSF16: accRows16PSQT8, sfNetSF19: accMixed,
		"alexandria-ml-33184b6.net": accRows16, "alexandria-sl-hm-cba722a.net": accRows16,
		"maelstrom-512.bin": accRows16, "stormphrax-net013.nnue": accRows16,
	}
	planes := map[string]bool{sfNetHalfKP: true, sfNetSFNNv5: true, sfNetSF16: true}
	for name := range shippedSpecs {
		k, ok := want[name]
		if !ok {
			t.Errorf("%s: no expected accumulator kind", name)
			continue
		}
		if raceEnabled && name == sfNetSF19 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			pl := shippedNet(t, name).ft.acc
			if pl.kind != k {
				t.Errorf("kind %d, want %d", pl.kind, k)
			}
			if (pl.planes != nil) != planes[name] {
				t.Errorf("plane refresh %v, want %v", pl.planes != nil, planes[name])
			}
			if split := name == sfNetSF19; (pl.split != nil && pl.split.psq16 != nil) != split {
				t.Errorf("split summands %v, want %v", pl.split, split)
			}
		})
	}
}

// TestUpdateFromFastPaths checks UpdateFrom's quiet kernels (one feature in and one out)
// and no change at all against updateFromGeneral, with and without PSQT, copy-make and
// in place.
func TestUpdateFromFastPaths(t *testing.T) {
	nets := []*Network{
		randomSFNNv5(t, rand.New(rand.NewPCG(4, 4)), "h+v", 64),         // 8 PSQT buckets
		randomThesisNet(t, rand.New(rand.NewPCG(5, 5)), "h", 32, 4, 10), // no PSQT
	}
	for _, n := range nets {
		ft := n.FeatureTransformer()
		rapid.Check(t, func(rt *rapid.T) {
			feat := rapid.IntRange(0, ft.Features()-1)
			base := rapid.SliceOfN(feat, 0, 12).Draw(rt, "base")
			k := rapid.IntRange(0, 1).Draw(rt, "changes") // 0/0 or 1/1
			added := rapid.SliceOfN(feat, k, k).Draw(rt, "added")
			removed := rapid.SliceOfN(feat, k, k).Draw(rt, "removed")
			persp := board.Color(rapid.IntRange(0, 1).Draw(rt, "persp"))
			src := ft.NewAccumulator()
			src.Refresh(persp, base)
			src.Refresh(persp^1, base[:len(base)/2])
			want, got := ft.NewAccumulator(), ft.NewAccumulator()
			want.updateFromGeneral(src, persp, added, removed)
			got.UpdateFrom(src, persp, added, removed)
			if !slices.Equal(got.Values(persp), want.Values(persp)) || !slices.Equal(got.PSQT(persp), want.PSQT(persp)) {
				rt.Fatal("copy-make fast path differs from the general update")
			}
			if !slices.Equal(got.Values(persp^1), want.Values(persp^1)) {
				rt.Fatal("the other perspective was written")
			}
			in := ft.NewAccumulator()
			in.CopyFrom(src)
			in.Update(persp, added, removed)
			if !slices.Equal(in.Values(persp), want.Values(persp)) || !slices.Equal(in.PSQT(persp), want.PSQT(persp)) {
				rt.Fatal("in-place fast path differs from the general update")
			}
		})
	}
}

func TestAccumulatorRejectsBadIndex(t *testing.T) {
	n := randomThesisNet(t, rand.New(rand.NewPCG(3, 3)), "h", 32, 4, 10)
	a := n.FeatureTransformer().NewAccumulator()
	p := randomSFNNv5(t, rand.New(rand.NewPCG(4, 4)), "h+v", 64).FeatureTransformer().NewAccumulator()
	for _, f := range []func(){
		func() { a.Refresh(board.White, []int{96}) },
		func() { a.Update(board.Black, []int{-1}, nil) },
		func() { a.Update(board.Black, nil, []int{wideIndex}) },
		func() { a.Update(board.White, []int{wideIndex}, []int{0}) }, // UpdateFrom's fast path
		func() { a.Update(board.White, []int{0}, []int{-5}) },
		// UpdateFrom's fast path for 8 PSQT buckets (simd.FeatureRows.AddSubPSQT checks)
		func() { p.Update(board.White, []int{wideIndex}, []int{0}) },
		func() { p.Update(board.Black, []int{0}, []int{-1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("out-of-range feature index accepted")
				}
			}()
			f()
		}()
	}
}

// TestRefreshPanicNamesIndex: Refresh leaves the bound check to the simd kernel and
// re-raises its panic with nnue's message naming the bad index.
func TestRefreshPanicNamesIndex(t *testing.T) {
	n := randomThesisNet(t, rand.New(rand.NewPCG(3, 4)), "h", 32, 4, 10)
	a := n.FeatureTransformer().NewAccumulator()
	nf := n.FeatureTransformer().Features()
	for _, bad := range []int{nf, -1, wideIndex, hugeNegIndex} {
		func() {
			defer func() {
				msg := fmt.Sprint(recover())
				if want := fmt.Sprintf("nnue: feature index %d out of range [0, %d)", bad, nf); msg != want {
					t.Errorf("Refresh with index %d: panic %q, want %q", bad, msg, want)
				}
			}()
			a.Refresh(board.Black, []int{0, 3, bad, 5})
		}()
	}
	// Still usable after a recovered panic: the same values as a fresh accumulator's.
	a.Refresh(board.Black, []int{0, nf - 1})
	want := n.FeatureTransformer().NewAccumulator()
	want.Refresh(board.Black, []int{0, nf - 1})
	if !slices.Equal(a.Values(board.Black), want.Values(board.Black)) {
		t.Error("Refresh after a recovered panic differs from a fresh accumulator's")
	}
}

// Out-of-range indices for the bound-check tests, valid constants on 32- and 64-bit
// targets: wideIndex is 1<<40 on 64-bit (its low 32 bits are 0, so a check that truncated
// to int32 would pass it), hugePosIndex and hugeNegIndex are ±2^62 there.
const (
	wideIndex    = 1 << (bits.UintSize - 24)
	hugePosIndex = 1 << (bits.UintSize - 2)
	hugeNegIndex = -1 << (bits.UintSize - 2)
)
