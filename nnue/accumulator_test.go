package nnue

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/nnuekit/nnuekit/board"
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
}

// TestUpdateFusedVariants: any numbers of added/removed features (exercising the 2+2, 1+2,
// 1+1, add-only and sub-only kernels), in place and copy-make, equal a refresh of the
// resulting multiset; copy-make leaves the source untouched.
func TestUpdateFusedVariants(t *testing.T) {
	n := randomSFNNv5(t, rand.New(rand.NewPCG(2, 2)), "h+v", 64) // with PSQT
	ft := n.FeatureTransformer()
	rapid.Check(t, func(rt *rapid.T) {
		feat := rapid.IntRange(0, ft.Features()-1)
		base := rapid.SliceOfN(feat, 0, 12).Draw(rt, "base")
		nrm := rapid.IntRange(0, len(base)).Draw(rt, "removed count")
		removed := base[:nrm]
		added := rapid.SliceOfN(feat, 0, 6).Draw(rt, "added")
		persp := board.Color(rapid.IntRange(0, 1).Draw(rt, "persp"))
		src := ft.NewAccumulator()
		src.Refresh(persp, base)
		before := slices.Clone(src.Values(persp))
		want := ft.NewAccumulator()
		want.Refresh(persp, append(slices.Clone(base[nrm:]), added...))

		dst := ft.NewAccumulator()
		dst.UpdateFrom(src, persp, added, removed)
		if !slices.Equal(dst.Values(persp), want.Values(persp)) || !slices.Equal(dst.PSQT(persp), want.PSQT(persp)) {
			rt.Fatal("copy-make update differs from refresh")
		}
		if !slices.Equal(src.Values(persp), before) {
			rt.Fatal("copy-make modified the source")
		}
		src.Update(persp, added, removed)
		if !slices.Equal(src.Values(persp), want.Values(persp)) || !slices.Equal(src.PSQT(persp), want.PSQT(persp)) {
			rt.Fatal("in-place update differs from refresh")
		}
	})
}

// TestUpdateFromFastPaths checks UpdateFrom's fast paths (one feature in and one out; no
// change) against the general loop, with and without PSQT, copy-make and in place.
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
