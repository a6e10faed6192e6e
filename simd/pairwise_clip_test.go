package simd

import (
	"slices"
	"testing"
)

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
