package simd

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// PairwiseStack.Forward equals the layers it replaces (Go kernels: PairwiseClip(127, 7) ×2, Affine,
// SqrClippedReLU32 and ClippedReLU32 of fc_0's first 15 outputs, Affine(30→32) on
// row-major padded weights, ClippedReLUDot32 + bias; fc_0's 16th output as the skip) at
// every level and on the stack's Go path, for every SparseGroup and any share of zero
// products; dst holds the pairwise products afterwards.
func TestPairwiseStackMatchesLayers(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			m := 64 * rapid.IntRange(1, 16).Draw(t, "m64")
			h := m / 2
			wmax := rapid.SampledFrom([]int{20, 40, 60, 127}).Draw(t, "wmax")
			zeroPct := rapid.IntRange(0, 100).Draw(t, "zero%")
			a, b := drawAccumulator(t, f, "a", m, zeroPct), drawAccumulator(t, f, "b", m, zeroPct)
			w0 := make([]int8, 16*m)
			for i := range w0 {
				w0[i] = int8(max(min(int(f.i8()), wmax), -wmax))
			}
			b0, _ := buffer(t, "b0", 16, f.i32)
			w1max := rapid.SampledFrom([]int{40, 127}).Draw(t, "w1max") // 40: int16 pairs in the tail
			w1, _ := buffer(t, "w1", 32*32, func() int8 { return int8(max(min(int(f.i8()), w1max), -w1max)) })
			b1, _ := buffer(t, "b1", 32, f.i32)
			w2, _ := buffer(t, "w2", 32, f.i8)
			b2 := f.i32()
			sq := uint(rapid.IntRange(0, 63).Draw(t, "sqrShift"))
			sh0 := uint(rapid.IntRange(0, 31).Draw(t, "sh0"))
			sh1 := uint(rapid.IntRange(0, 31).Draw(t, "sh1"))
			if rapid.Bool().Draw(t, "sf") {
				sq, sh0, sh1 = 19, 6, 6 // Stockfish 15.1's
			}
			s, err := NewPairwiseStack(m, w0, b0, sq, sh0, w1, b1, sh1, w2, b2)
			if err != nil {
				t.Fatal(err)
			}
			if w1max == 40 && s.group1 < 2 {
				t.Fatalf("fc_1 weights ≤ 40: group %d", s.group1)
			}
			s.generic = rapid.Bool().Draw(t, "go path")

			wantDst := make([]uint8, m)
			pairwiseMulGeneric(wantDst[:h], a[:h], a[h:])
			pairwiseMulGeneric(wantDst[h:], b[:h], b[h:])
			var o0 [16]int32
			var c [32]uint8
			var o1 [32]int32
			affineGeneric(o0[:], wantDst, w0, b0)
			sqrClippedReLU32Generic(c[:15], o0[:15], sq)
			clippedReLU32Generic(c[15:30], o0[:15], sh0)
			affineGeneric(o1[:], c[:], w1, b1)
			want := b2 + clippedReLUDot32Generic(o1[:], w2, sh1)

			dst, _ := buffer(t, "dst", m, func() uint8 { return 0xAA })
			idx := make([]uint16, m/4)
			got, skip := s.Forward(a, b, dst, idx)
			if got != want || skip != o0[15] {
				t.Fatalf("Forward %d, %d; layers %d, %d (group %d)", got, skip, want, o0[15], s.group)
			}
			if !slices.Equal(dst, wantDst) {
				t.Fatalf("dst is not the pairwise product (PairwiseClip(127, 7)) of a and b")
			}
		})
	})
}

// Short operands panic before any arithmetic; bad shapes are errors.
func TestPairwiseStackRejects(t *testing.T) {
	m := 128
	w0, b0 := make([]int8, 16*m), make([]int32, 16)
	w1, b1, w2 := make([]int8, 1024), make([]int32, 32), make([]int8, 32)
	for _, c := range []struct {
		name string
		f    func() (*PairwiseStack, error)
	}{
		{"m 0", func() (*PairwiseStack, error) { return NewPairwiseStack(0, nil, b0, 19, 6, w1, b1, 6, w2, 0) }},
		{"m 96", func() (*PairwiseStack, error) {
			return NewPairwiseStack(96, make([]int8, 16*96), b0, 19, 6, w1, b1, 6, w2, 0)
		}},
		{"w0", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0[1:], b0, 19, 6, w1, b1, 6, w2, 0) }},
		{"b0", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0, b0[1:], 19, 6, w1, b1, 6, w2, 0) }},
		{"w1", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0, b0, 19, 6, w1[1:], b1, 6, w2, 0) }},
		{"b1", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0, b0, 19, 6, w1, b1[:0], 6, w2, 0) }},
		{"w2", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0, b0, 19, 6, w1, b1, 6, w2[:31], 0) }},
		{"sqr shift", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0, b0, 64, 6, w1, b1, 6, w2, 0) }},
		{"shift", func() (*PairwiseStack, error) { return NewPairwiseStack(m, w0, b0, 19, 6, w1, b1, 32, w2, 0) }},
	} {
		if s, err := c.f(); err == nil || s != nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	s, err := NewPairwiseStack(m, w0, b0, 19, 6, w1, b1, 6, w2, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, dst, idx := make([]int16, m), make([]uint8, m), make([]uint16, m/4)
	forLevels(t, func(t *testing.T) {
		for name, f := range map[string]func(){
			"a":   func() { s.Forward(a[:m-1], a, dst, idx) },
			"b":   func() { s.Forward(a, nil, dst, idx) },
			"dst": func() { s.Forward(a, a, dst[:m-1], idx) },
			"idx": func() { s.Forward(a, a, dst, idx[:m/4-1]) },
		} {
			mustPanic(t, name, f)
		}
	})
}
