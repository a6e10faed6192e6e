package simd

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// PairwiseDenseStack.Forward equals the layers it replaces, in their declared order (Go
// kernels: PairwiseClip(clip, shift) ×2, Affine(m→nx), SqrClippedReLU32 ‖ ClippedReLU32
// of fc_0's outputs, Affine(2·nx→ny), SqrClippedReLU32 ‖ ClippedReLU32 of fc_1's,
// Affine(2·nx+2·ny→1); fc_0's last two outputs as the skip) at every level and on the
// stack's Go path: Stockfish 19's clip and the others PairwiseClip's kernels choose
// differently (127 and 362: low and high product bits), both fc_0 widths, fc_1 widths 1
// to 64 (padded to 32 or 64), any shifts and share of zero products; dst holds the
// pairwise products afterwards.
func TestPairwiseDenseStackMatchesLayers(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			m := 64 * rapid.IntRange(1, 16).Draw(t, "m64")
			h := m / 2
			clip := rapid.SampledFrom([]int16{255, 127, 362}).Draw(t, "clip")
			shift := map[int16]uint8{127: 7, 255: 9, 362: 10}[clip]
			nx := rapid.SampledFrom([]int{32, 16}).Draw(t, "nx")
			ny := rapid.SampledFrom([]int{32, 1, 15, 33, 64}).Draw(t, "ny")
			zeroPct := rapid.IntRange(0, 100).Draw(t, "zero%")
			a, b := drawAccumulator(t, f, "a", m, zeroPct), drawAccumulator(t, f, "b", m, zeroPct)
			w0, _ := buffer(t, "w0", nx*m, f.i8)
			b0, _ := buffer(t, "b0", nx, f.i32)
			w1, _ := buffer(t, "w1", ny*2*nx, f.i8)
			b1, _ := buffer(t, "b1", ny, f.i32)
			w2, _ := buffer(t, "w2", 2*nx+2*ny, f.i8)
			b2 := f.i32()
			sq0, s0 := uint(rapid.IntRange(0, 63).Draw(t, "sq0")), uint(rapid.IntRange(0, 31).Draw(t, "s0"))
			sq1, s1 := uint(rapid.IntRange(0, 63).Draw(t, "sq1")), uint(rapid.IntRange(0, 31).Draw(t, "s1"))
			if rapid.Bool().Draw(t, "sf19") {
				sq0, s0, sq1, s1 = 19, 6, 19, 6
			}
			s, err := NewPairwiseDenseStack(m, clip, shift, w0, b0, sq0, s0, w1, b1, sq1, s1, w2, b2)
			if err != nil {
				t.Fatal(err)
			}
			s.generic = rapid.Bool().Draw(t, "go path")

			wantDst := make([]uint8, m)
			pairwiseClipGeneric(wantDst[:h], a[:h], a[h:], clip, shift)
			pairwiseClipGeneric(wantDst[h:], b[:h], b[h:], clip, shift)
			o0 := make([]int32, nx)
			affineGeneric(o0, wantDst, w0, b0)
			u := make([]uint8, 2*nx+2*ny+32) // Affine reads a multiple of 32 bytes
			sqrClippedReLU32Generic(u[:nx], o0, sq0)
			clippedReLU32Generic(u[nx:2*nx], o0, s0)
			o1 := make([]int32, ny)
			affineGeneric(o1, u[:2*nx], w1, b1)
			sqrClippedReLU32Generic(u[2*nx:2*nx+ny], o1, sq1)
			clippedReLU32Generic(u[2*nx+ny:2*nx+2*ny], o1, s1)
			var want int32
			for i, w := range w2 {
				want += int32(u[i]) * int32(w)
			}
			want += b2

			dst, _ := buffer(t, "dst", m, func() uint8 { return 0xAA })
			idx := make([]uint16, m/4)
			got, k0, k1 := s.Forward(a, b, dst, idx)
			if got != want || k0 != o0[nx-2] || k1 != o0[nx-1] {
				t.Fatalf("Forward %d, %d, %d; layers %d, %d, %d (group %d)", got, k0, k1, want, o0[nx-2], o0[nx-1], s.group)
			}
			if !slices.Equal(dst, wantDst) {
				t.Fatalf("dst is not the pairwise product of a and b")
			}
		})
	})
}

// Bad shapes are errors; short operands panic before any arithmetic.
func TestPairwiseDenseStackRejects(t *testing.T) {
	m := 128
	w0, b0 := make([]int8, 32*m), make([]int32, 32)
	w1, b1, w2 := make([]int8, 32*64), make([]int32, 32), make([]int8, 128)
	for _, c := range []struct {
		name string
		f    func() (*PairwiseDenseStack, error)
	}{
		{"m 0", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(0, 255, 9, nil, b0, 19, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"m 96", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(96, 255, 9, make([]int8, 32*96), b0, 19, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"clip 0", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 0, 9, w0, b0, 19, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"products over 127", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 8, w0, b0, 19, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"shift 31", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 31, w0, b0, 19, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"w0", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0[1:], b0, 19, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"fc_0 of 8", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0[:8*m], b0[:8], 19, 6, w1[:32*16], b1, 19, 6, w2[:80], 0)
		}},
		{"w1", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0, b0, 19, 6, w1[1:], b1, 19, 6, w2, 0)
		}},
		{"fc_1 of 0", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0, b0, 19, 6, nil, nil, 19, 6, w2[:64], 0)
		}},
		{"fc_1 of 65", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0, b0, 19, 6, make([]int8, 65*64), make([]int32, 65), 19, 6, make([]int8, 194), 0)
		}},
		{"w2", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0, b0, 19, 6, w1, b1, 19, 6, w2[:127], 0)
		}},
		{"sqr shift", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0, b0, 64, 6, w1, b1, 19, 6, w2, 0)
		}},
		{"shift", func() (*PairwiseDenseStack, error) {
			return NewPairwiseDenseStack(m, 255, 9, w0, b0, 19, 6, w1, b1, 19, 32, w2, 0)
		}},
	} {
		if s, err := c.f(); err == nil || s != nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	s, err := NewPairwiseDenseStack(m, 255, 9, w0, b0, 19, 6, w1, b1, 19, 6, w2, 0)
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
