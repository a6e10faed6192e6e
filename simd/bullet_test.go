package simd

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// f32 draws a float32 operand: mostly in [−2, 2] (the range of trained float layers), some
// signed zeros, tiny and large values, and some from random bits (finite only).
func (f *filler) f32() float32 {
	switch f.r.IntN(8) {
	case 0:
		return []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1e-30, -1e30, 3e38}[f.r.IntN(7)]
	case 1:
		for {
			v := math.Float32frombits(f.r.Uint32())
			if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
				return v
			}
		}
	}
	return f.r.Float32()*4 - 2
}

func sameF32Bits(t *rapid.T, what string, got, want []float32) {
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: index %d = %v (%#x), want %v (%#x) (level %v)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]), Level())
		}
	}
}

// TestPairwiseClipMatchesGo: every level gives the Go kernel's bytes for the shared nets'
// (clip, shift) pairs and random ones with clip² >> shift ≤ 255 (both assembly variants:
// low product for clip ≤ 255, high product above), and writes nothing outside dst.
func TestPairwiseClipMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			var clip int16
			var shift uint8
			if rapid.Bool().Draw(t, "named") {
				c := [][2]int{{362, 10}, {255, 9}, {127, 7}, {181, 8}, {32767, 22}}[rapid.IntRange(0, 4).Draw(t, "case")]
				clip, shift = int16(c[0]), uint8(c[1])
			} else {
				clip = int16(rapid.IntRange(1, 32767).Draw(t, "clip"))
				s := 0
				for (int64(clip)*int64(clip))>>s > 255 {
					s++
				}
				shift = uint8(min(s+rapid.IntRange(0, 3).Draw(t, "extra"), 30))
			}
			n := length(t, "n", 32)
			a, _ := buffer(t, "a", n, f.i16)
			b, _ := buffer(t, "b", n, f.i16)
			dst, whole := buffer(t, "dst", n, func() uint8 { return 0xAA })
			want := append([]uint8(nil), whole...)
			off := len(whole) - len(dst) - guard
			pairwiseClipGeneric(want[off:off+n], a, b, clip, shift)
			PairwiseClip(dst, a, b, clip, shift)
			checkSame(t, "PairwiseClip", whole, want)
		})
	})
}

func TestDequantiseF32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 8)
			src, _ := buffer(t, "src", n, f.i32)
			bias, _ := buffer(t, "bias", n, f.f32)
			mul := f.f32()
			fma := rapid.Bool().Draw(t, "fma")
			dst := make([]float32, n)
			want := make([]float32, n)
			dequantiseF32Generic(want, src, mul, bias, fma)
			DequantiseF32(dst, src, mul, bias, fma)
			sameF32Bits(t, "DequantiseF32", dst, want)
		})
	})
}

func TestAffineF32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			in := rapid.IntRange(0, 40).Draw(t, "in")
			nout := rapid.IntRange(0, 40).Draw(t, "nout")
			if rapid.Bool().Draw(t, "multiple of 8") {
				nout &^= 7
			}
			x, _ := buffer(t, "x", in, f.f32)
			wt, _ := buffer(t, "wt", in*nout, f.f32)
			bias, _ := buffer(t, "bias", nout, f.f32)
			fma := rapid.Bool().Draw(t, "fma")
			out, want := make([]float32, nout), make([]float32, nout)
			affineF32Generic(want, x, wt, bias, fma)
			AffineF32(out, x, wt, bias, fma)
			sameF32Bits(t, "AffineF32", out, want)
		})
	})
}

func TestDotLanesF32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			lanes := 1 << rapid.IntRange(1, 6).Draw(t, "log lanes")
			if rapid.Bool().Draw(t, "16") {
				lanes = 16
			}
			n := lanes * rapid.IntRange(0, 12).Draw(t, "blocks")
			x, _ := buffer(t, "x", n, f.f32)
			w, _ := buffer(t, "w", n, f.f32)
			fma := rapid.Bool().Draw(t, "fma")
			got, want := DotLanesF32(x, w, lanes, fma), dotLanesF32Generic(x, w, lanes, fma)
			sameF32Bits(t, "DotLanesF32", []float32{got}, []float32{want})
		})
	})
}

// TestDotLanesF32Order: the lanes are added in halves, not in sequence. With 16 lanes holding
// 1e8, 1, 1, … (float32 spacing 8 at 1e8): p_0 = 1e8 + 1 → 1e8, q_0 = 1e8 + 2 → 1e8,
// q_0 + q_2 = 1e8 + 4 → 1e8 (tie to even), q_1 + q_3 = 8, total 1e8 + 8; a running sum loses
// every 1 and gives 1e8.
func TestDotLanesF32Order(t *testing.T) {
	x := make([]float32, 16)
	w := make([]float32, 16)
	for i := range x {
		x[i], w[i] = 1, 1
	}
	x[0] = 1e8
	forLevels(t, func(t *testing.T) {
		for _, fma := range []bool{false, true} {
			if got := DotLanesF32(x, w, 16, fma); got != 1e8+8 {
				t.Errorf("fma %v: %v, want %v", fma, got, float32(1e8+8))
			}
		}
	})
}

func TestBulletKernelContracts(t *testing.T) {
	for name, f := range map[string]func(){
		"clip 0":   func() { PairwiseClip(make([]uint8, 4), make([]int16, 4), make([]int16, 4), 0, 1) },
		"shift 31": func() { PairwiseClip(make([]uint8, 4), make([]int16, 4), make([]int16, 4), 1, 31) },
		"short a":  func() { PairwiseClip(make([]uint8, 4), make([]int16, 3), make([]int16, 4), 1, 1) },
		"weights": func() {
			AffineF32(make([]float32, 8), make([]float32, 2), make([]float32, 15), make([]float32, 8), true)
		},
		"lanes 3":     func() { DotLanesF32(make([]float32, 6), make([]float32, 6), 3, true) },
		"lanes short": func() { DotLanesF32(make([]float32, 16), make([]float32, 8), 16, true) },
		"bias short":  func() { DequantiseF32(make([]float32, 8), make([]int32, 8), 1, make([]float32, 7), true) },
		"crelu w":     func() { CReLUDot(make([]int16, 16), make([]int16, 15), 255) },
		"crelu qa":    func() { CReLUDot(make([]int16, 16), make([]int16, 16), 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestCReLUDotMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 16)
			acc, _ := buffer(t, "acc", n, f.i16)
			w, _ := buffer(t, "w", n, f.i16)
			qa := int16(rapid.IntRange(1, 32767).Draw(t, "qa"))
			if got, want := CReLUDot(acc, w, qa), creluDotGeneric(acc, w, qa); got != want {
				t.Fatalf("CReLUDot = %d, want %d (level %v)", got, want, Level())
			}
		})
	})
	// The extreme: every value at qa = 32767 and every weight −32768 over 4096 values.
	acc := make([]int16, 4096)
	w := make([]int16, 4096)
	for i := range acc {
		acc[i], w[i] = 32767, -32768
	}
	forLevels(t, func(t *testing.T) {
		if got, want := CReLUDot(acc, w, 32767), int64(4096)*32767*-32768; got != want {
			t.Errorf("%d, want %d", got, want)
		}
	})
}

func TestActivationF32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 8)
			src, _ := buffer(t, "src", n, func() float32 {
				if f.r.IntN(16) == 0 {
					return float32(math.NaN())
				}
				return f.f32()
			})
			act := rapid.IntRange(0, 2).Draw(t, "act")
			dst, want := make([]float32, n), make([]float32, n)
			activationF32Generic(want, src, act)
			[]func([]float32, []float32){ReLUF32, CReLUF32, SCReLUF32}[act](dst, src)
			sameF32Bits(t, "activation", dst, want)
		})
	})
	// −0 and NaN give +0; 0.5 gives 0.5, 0.25 squared; 3 gives 3, 1, 1.
	src := []float32{float32(math.Copysign(0, -1)), float32(math.NaN()), 0.5, 3, -2, 0, 0, 0}
	forLevels(t, func(t *testing.T) {
		for act, want := range [][]float32{{0, 0, 0.5, 3, 0, 0, 0, 0}, {0, 0, 0.5, 1, 0, 0, 0, 0}, {0, 0, 0.25, 1, 0, 0, 0, 0}} {
			dst := make([]float32, 8)
			[]func([]float32, []float32){ReLUF32, CReLUF32, SCReLUF32}[act](dst, src)
			for i := range dst {
				if math.Float32bits(dst[i]) != math.Float32bits(want[i]) {
					t.Errorf("act %d index %d: %v (%#x), want %v", act, i, dst[i], math.Float32bits(dst[i]), want[i])
				}
			}
		}
	})
}
