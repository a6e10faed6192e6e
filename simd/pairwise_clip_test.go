package simd

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// drawClip draws PairwiseClip's bound and shift: Stockfish 19's (255, 9) often, else any
// bound (also beyond the assembly's 255, and negative) with a shift that keeps every
// product within a byte.
func drawClip(t *rapid.T) (int16, uint) {
	if rapid.Bool().Draw(t, "sf19") {
		return 255, 9
	}
	mx := int16(rapid.IntRange(-3, 400).Draw(t, "max"))
	smin := uint(0)
	if mx > 0 {
		for (int64(mx)*int64(mx))>>smin > 255 {
			smin++
		}
	}
	return mx, smin + uint(rapid.IntRange(0, 20).Draw(t, "extra shift"))
}

// TestPairwiseClipMatchesGo: PairwiseClip at every level equals the Go twin, guard zones
// around the destination untouched, at random lengths and offsets.
func TestPairwiseClipMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 32)
			a, _ := buffer(t, "a", n, f.i16)
			b, _ := buffer(t, "b", n, f.i16)
			if rapid.Bool().Draw(t, "same") {
				b = a
			}
			mx, shift := drawClip(t)
			dst, whole := buffer(t, "dst", n, func() uint8 { return 0xAA })
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			pairwiseClipGeneric(want[off:off+n], a, b, mx, shift)
			PairwiseClip(dst, a, b, mx, shift)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

// TestPairwiseClipValues checks the Go twin on hand-computed values of Stockfish 19's
// transform (clamp to 0..255, product >> 9).
func TestPairwiseClipValues(t *testing.T) {
	a := []int16{-5, 0, 255, 300, 100, 255, 32767, -32768}
	b := []int16{200, 255, 255, 255, 100, 2, 1000, 255}
	want := []uint8{0, 0, 127, 127, 19, 0, 127, 0}
	forLevels(t, func(t *testing.T) {
		got := make([]uint8, len(a))
		PairwiseClip(got, a, b, 255, 9)
		if !slices.Equal(got, want) {
			t.Fatalf("PairwiseClip = %v, want %v", got, want)
		}
	})
}
