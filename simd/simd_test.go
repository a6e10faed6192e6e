package simd

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// forLevels runs f once per level available on this machine (Generic first), with every
// kernel switched to that level, and restores the previous level afterwards.
func forLevels(t *testing.T, f func(t *testing.T)) {
	for _, l := range Available() {
		prev, err := SetLevel(l)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(l.String(), f)
		if _, err := SetLevel(prev); err != nil {
			t.Fatal(err)
		}
	}
}

// filler produces test values from a drawn seed: uniform, extreme-heavy (the type's
// min/max and ±1 around zero, to provoke wraparound and saturation) or small.
type filler struct {
	r    *rand.Rand
	mode int
}

func drawFiller(t *rapid.T) *filler {
	seed := rapid.Uint64().Draw(t, "seed")
	mode := rapid.IntRange(0, 2).Draw(t, "mode")
	return &filler{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), mode: mode}
}

func (f *filler) int64In(lo, hi int64, extremes ...int64) int64 {
	switch f.mode {
	case 1:
		if f.r.IntN(2) == 0 {
			return extremes[f.r.IntN(len(extremes))]
		}
	case 2:
		lo, hi = max(lo, -300), min(hi, 300)
	}
	return lo + f.r.Int64N(hi-lo+1)
}

func (f *filler) i16() int16 {
	return int16(f.int64In(math.MinInt16, math.MaxInt16, math.MinInt16, math.MaxInt16, -1, 0, 1, 127, 128, -128, 16384))
}

func (f *filler) i32() int32 {
	return int32(f.int64In(math.MinInt32, math.MaxInt32, math.MinInt32, math.MaxInt32, -1, 0, 1, 127<<6, 1<<20, math.MaxInt16+1))
}

func (f *filler) i8() int8 {
	return int8(f.int64In(math.MinInt8, math.MaxInt8, math.MinInt8, math.MaxInt8, -1, 0, 1))
}

// u7 returns an affine input: 0..127 (the kernels' precondition).
func (f *filler) u7() uint8 { return uint8(f.int64In(0, 127, 0, 127, 1, 126)) }

const guard = 40 // elements on each side of a test slice, checked for stray writes

// buffer returns a slice of n elements at a random offset inside a larger buffer (so it
// is usually unaligned), filled by gen; the whole buffer is returned for guard checks.
func buffer[T any](t *rapid.T, name string, n int, gen func() T) (s, whole []T) {
	off := rapid.IntRange(0, guard).Draw(t, name+"_offset")
	whole = make([]T, off+n+guard)
	for i := range whole {
		whole[i] = gen()
	}
	return whole[off : off+n], whole
}

// length draws a slice length: mostly multiples of unit (the documented contract), some
// arbitrary (the wrappers still handle them), some large.
func length(t *rapid.T, name string, unit int) int {
	switch rapid.IntRange(0, 4).Draw(t, name+"_kind") {
	case 0:
		return rapid.IntRange(0, 200).Draw(t, name)
	case 1:
		return unit * rapid.IntRange(64, 160).Draw(t, name)
	}
	return unit * rapid.IntRange(0, 40).Draw(t, name)
}

// widthLength draws an accumulator width for the refresh tests: length's draw in units
// of 16, 16 where that is 0.
func widthLength(t *rapid.T) int {
	if n := length(t, "n", 16); n > 0 {
		return n
	}
	return 16
}

// checkSame compares the kernel's whole destination buffer with the Go twin's.
func checkSame[T comparable](t *rapid.T, what string, got, want []T) {
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: buffer index %d = %v, want %v (level %v)", what, i, got[i], want[i], Level())
		}
	}
}

// accCase sets up an accumulator update with k operand rows; the destination is either a
// separate buffer or the source itself (in-place update).
func accCase(t *rapid.T, k int) (dst, src []int16, ops [][]int16, dstWhole []int16, inPlace bool) {
	f := drawFiller(t)
	n := length(t, "n", 16)
	src, srcWhole := buffer(t, "src", n, f.i16)
	for j := range k {
		o, _ := buffer(t, "op"+string(rune('0'+j)), n, f.i16)
		ops = append(ops, o)
	}
	inPlace = rapid.Bool().Draw(t, "inPlace")
	if inPlace {
		return src, src, ops, srcWhole, true
	}
	dst, dstWhole = buffer(t, "dst", n, f.i16)
	return dst, src, ops, dstWhole, false
}

func testAcc(t *testing.T, k int, run func(dst, src []int16, ops [][]int16)) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			dst, src, ops, whole, inPlace := accCase(t, k)
			// The Go twin, on copies.
			want := slices.Clone(whole)
			wdst := want[len(whole)-guard-len(dst) : len(whole)-guard]
			wsrc := slices.Clone(src)
			if inPlace {
				wsrc = wdst
			}
			genericDo(k, wdst, wsrc, ops)
			run(dst, src, ops)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

// genericDo applies the pure-Go accumulator kernel for k operands.
func genericDo(k int, dst, src []int16, ops [][]int16) {
	switch k {
	case 2:
		addSubGeneric(dst, src, ops[0], ops[1])
	case 3:
		addSubSubGeneric(dst, src, ops[0], ops[1], ops[2])
	case 4:
		addAddSubSubGeneric(dst, src, ops[0], ops[1], ops[2], ops[3])
	case -1:
		addGeneric(dst, src, ops[0])
	case -2:
		subGeneric(dst, src, ops[0])
	}
}

func TestAddSubMatchesGo(t *testing.T) {
	testAcc(t, 2, func(d, s []int16, o [][]int16) { AddSub(d, s, o[0], o[1]) })
}

func TestAddSubSubMatchesGo(t *testing.T) {
	testAcc(t, 3, func(d, s []int16, o [][]int16) { AddSubSub(d, s, o[0], o[1], o[2]) })
}

func TestAddAddSubSubMatchesGo(t *testing.T) {
	testAcc(t, 4, func(d, s []int16, o [][]int16) { AddAddSubSub(d, s, o[0], o[1], o[2], o[3]) })
}

func TestAddMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			dst, src, ops, whole, inPlace := accCase(t, 1)
			want := slices.Clone(whole)
			wdst := want[len(whole)-guard-len(dst) : len(whole)-guard]
			wsrc := slices.Clone(src)
			if inPlace {
				wsrc = wdst
			}
			addGeneric(wdst, wsrc, ops[0])
			Add(dst, src, ops[0])
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestSubMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			dst, src, ops, whole, inPlace := accCase(t, 1)
			want := slices.Clone(whole)
			wdst := want[len(whole)-guard-len(dst) : len(whole)-guard]
			wsrc := slices.Clone(src)
			if inPlace {
				wsrc = wdst
			}
			subGeneric(wdst, wsrc, ops[0])
			Sub(dst, src, ops[0])
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestRefreshMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := widthLength(t)
			nfeat := rapid.IntRange(1, 48).Draw(t, "features")
			bias, _ := buffer(t, "bias", n, f.i16)
			weights, _ := buffer(t, "weights", nfeat*n, f.i16)
			rows := rapid.SliceOfN(rapid.IntRange(0, nfeat-1), 0, 40).Draw(t, "rows")
			dst, whole := buffer(t, "dst", n, f.i16)
			if rapid.Bool().Draw(t, "dstIsBias") {
				dst, whole = bias, nil
			}
			want := make([]int16, n)
			refreshGeneric(want, slices.Clone(bias), weights, rows)
			var before []int16
			if whole != nil {
				before = slices.Clone(whole)
			}
			Refresh(dst, bias, weights, rows)
			checkSame(t, "dst", dst, want)
			if whole != nil {
				off := len(whole) - guard - n
				copy(before[off:], want)
				checkSame(t, "dst buffer", whole, before)
			}
		})
	})
}

func TestRefreshRejectsBadRow(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		// 1<<60 + 1 wraps r·16 around to 16 (row 1) in 64-bit arithmetic.
		for _, r := range []int{-1, 2, math.MaxInt, int(^uint(0)>>4 + 2)} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("row %d: no panic", r)
					}
				}()
				Refresh(make([]int16, 16), make([]int16, 16), make([]int16, 32), []int{0, r})
			}()
		}
	})
}

// activation runs one int→uint8 activation kernel against its twin with guard checks.
func activation[S any](t *testing.T, unit int, gen func(f *filler) S,
	kernel func() func(dst []uint8, src []S), twin func(dst []uint8, src []S)) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", unit)
			src, _ := buffer(t, "src", n, func() S { return gen(f) })
			dst, whole := buffer(t, "dst", n, func() uint8 { return 0xAA })
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			twin(want[off:off+n], src)
			kernel()(dst, src)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestClippedReLU16MatchesGo(t *testing.T) {
	activation(t, 32, (*filler).i16,
		func() func([]uint8, []int16) { return ClippedReLU16 }, clippedReLU16Generic)
}

func drawShift(t *rapid.T) uint {
	return rapid.SampledFrom(testShifts).Draw(t, "shift")
}

// testShifts are the shift counts the kernels' tests draw: both sides of every lane
// width. With NNUEKIT_BOCHS=1 (the tests run in the Bochs emulator, .ci/avx512-emu) 64 is
// left out: Bochs's VPSRLQ by a count of exactly 64 leaves its operand unchanged where the
// CPU clears it (Bochs cpu/simd_int.h, xmm_psrlq tests shift_64 > 64 where its siblings
// test > 15 and > 31), so a correct kernel would fail there.
var testShifts = func() []uint {
	s := []uint{0, 1, 6, 7, 13, 19, 31, 32, 33, 40, 63, 64, 65, 1 << 31, math.MaxUint}
	if os.Getenv("NNUEKIT_BOCHS") == "1" {
		s = slices.DeleteFunc(s, func(v uint) bool { return v == 64 })
	}
	return s
}()

func TestClippedReLU32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			shift := drawShift(t)
			f := drawFiller(t)
			n := length(t, "n", 32)
			src, _ := buffer(t, "src", n, f.i32)
			dst, whole := buffer(t, "dst", n, func() uint8 { return 0xAA })
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			clippedReLU32Generic(want[off:off+n], src, shift)
			ClippedReLU32(dst, src, shift)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestSqrClippedReLU32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			shift := drawShift(t)
			f := drawFiller(t)
			n := length(t, "n", 32)
			src, _ := buffer(t, "src", n, f.i32)
			dst, whole := buffer(t, "dst", n, func() uint8 { return 0xAA })
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			sqrClippedReLU32Generic(want[off:off+n], src, shift)
			SqrClippedReLU32(dst, src, shift)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

// ClippedReLUDot32 equals the Go twin and ClippedReLU32 + Affine(→1) (Go kernels) at every
// level, for any length and shift.
func TestClippedReLUDot32MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			shift := drawShift(t)
			f := drawFiller(t)
			n := length(t, "n", 8)
			x, _ := buffer(t, "x", n, f.i32)
			w, _ := buffer(t, "w", n, f.i8)
			want := clippedReLUDot32Generic(x, w, shift)
			if got := ClippedReLUDot32(x, w, shift); got != want {
				t.Fatalf("got %d, want %d", got, want)
			}
			p := (n + 31) &^ 31
			u, wp := make([]uint8, p), make([]int8, p)
			clippedReLU32Generic(u[:n], x, shift)
			copy(wp, w)
			var o [1]int32
			affineGeneric(o[:], u, wp, []int32{0})
			if o[0] != want {
				t.Fatalf("Affine(ClippedReLU32) %d, want %d", o[0], want)
			}
		})
	})
}

// SqrCReLUPair16 equals the Go twin at every level: 32 bytes written, nothing around them.
func TestSqrCReLUPair16MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			sqrShift, shift := drawShift(t), drawShift(t)
			if rapid.Bool().Draw(t, "sf") {
				sqrShift, shift = 19, 6 // Stockfish 15.1's
			}
			f := drawFiller(t)
			src, _ := buffer(t, "src", 16, f.i32)
			dst, whole := buffer(t, "dst", 32, func() uint8 { return 0xAA })
			want := slices.Clone(whole)
			off := len(whole) - guard - 32
			sqrCReLUPair16Generic(want[off:off+32], src, sqrShift, shift)
			SqrCReLUPair16(dst, src, sqrShift, shift)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestPairwiseClip127MatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 32)
			a, _ := buffer(t, "a", n, f.i16)
			b, _ := buffer(t, "b", n, f.i16)
			if rapid.Bool().Draw(t, "same") {
				b = a
			}
			dst, whole := buffer(t, "dst", n, func() uint8 { return 0xAA })
			want := slices.Clone(whole)
			off := len(whole) - guard - n
			pairwiseMulGeneric(want[off:off+n], a, b)
			PairwiseClip(dst, a, b, 127, 7)
			checkSame(t, "dst buffer", whole, want)
		})
	})
}

func TestAffineMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			nin := 32 * rapid.IntRange(1, 40).Draw(t, "nin32")
			if rapid.IntRange(0, 9).Draw(t, "odd") == 0 {
				nin = rapid.IntRange(0, 100).Draw(t, "nin")
			}
			nout := rapid.SampledFrom([]int{0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 64}).Draw(t, "nout")
			in, _ := buffer(t, "in", nin, f.u7)
			weights, _ := buffer(t, "weights", nout*nin, f.i8)
			bias, _ := buffer(t, "bias", nout, f.i32)
			out, whole := buffer(t, "out", nout, func() int32 { return -0x55555556 })
			want := slices.Clone(whole)
			off := len(whole) - guard - nout
			affineGeneric(want[off:off+nout], in, weights, bias)
			Affine(out, in, weights, bias)
			checkSame(t, "out buffer", whole, want)
		})
	})
}

func TestSCReLUDotMatchesGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			n := length(t, "n", 16)
			acc, _ := buffer(t, "acc", n, f.i16)
			w, _ := buffer(t, "w", n, f.i16)
			qa := int16(255)
			if rapid.Bool().Draw(t, "anyQA") {
				qa = rapid.Int16().Draw(t, "qa")
			}
			want := screluDotGeneric(acc, w, qa)
			if got := SCReLUDot(acc, w, qa); got != want {
				t.Fatalf("SCReLUDot(n=%d, qa=%d) = %d, want %d (level %v)", n, qa, got, want, Level())
			}
		})
	})
}

// Hand-checked values, at every level.
func TestKernelsByHand(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		n := 48
		acc, add, sub := make([]int16, n), make([]int16, n), make([]int16, n)
		acc[0], add[0], sub[0] = 32767, 1, 0 // wraps to −32768
		acc[1], add[1], sub[1] = -32768, 0, 1
		acc[47], add[47], sub[47] = 100, 20, 30
		AddSub(acc, acc, add, sub)
		if acc[0] != -32768 || acc[1] != 32767 || acc[47] != 90 {
			t.Errorf("AddSub: got %d %d %d, want -32768 32767 90", acc[0], acc[1], acc[47])
		}

		src := make([]int16, 64)
		src[0], src[1], src[2], src[33], src[63] = -1, 127, 128, 5, -32768
		out := make([]uint8, 64)
		ClippedReLU16(out, src)
		if out[0] != 0 || out[1] != 127 || out[2] != 127 || out[33] != 5 || out[63] != 0 {
			t.Errorf("ClippedReLU16: got %v", out)
		}

		s32 := make([]int32, 40)
		s32[0], s32[1], s32[2], s32[39] = 64*100, 64*200, -64, 64*3+63
		ClippedReLU32(out[:40], s32, 6)
		if out[0] != 100 || out[1] != 127 || out[2] != 0 || out[39] != 3 {
			t.Errorf("ClippedReLU32: got %v", out[:40])
		}
		// (1000·1000) >> 19 = 1; (−3000)² >> 19 = 17; 100000² >> 19 saturates.
		s32[0], s32[1], s32[2] = 1000, -3000, 100000
		SqrClippedReLU32(out[:40], s32, 19)
		if out[0] != 1 || out[1] != 17 || out[2] != 127 {
			t.Errorf("SqrClippedReLU32: got %v", out[:3])
		}

		a, b := make([]int16, 32), make([]int16, 32)
		a[0], b[0] = 127, 127 // 16129 >> 7 = 126
		a[1], b[1] = 300, 64  // 127·64 >> 7 = 63
		a[2], b[2] = -5, 100  // 0
		PairwiseClip(out[:32], a, b, 127, 7)
		if out[0] != 126 || out[1] != 63 || out[2] != 0 {
			t.Errorf("PairwiseClip(127, 7): got %v", out[:3])
		}

		in := make([]uint8, 64)
		w := make([]int8, 2*64)
		in[0], in[63] = 127, 2
		w[0], w[63] = -128, 3 // row 0: 127·(−128) + 2·3 = −16250
		w[64+63] = 127        // row 1: 2·127 = 254
		o := make([]int32, 2)
		Affine(o, in, w, []int32{10, -4})
		if o[0] != -16240 || o[1] != 250 {
			t.Errorf("Affine: got %v, want [-16240 250]", o)
		}

		v, ws := make([]int16, 16), make([]int16, 16)
		v[0], ws[0] = 300, 2 // clamp 255: 255·2·255 = 130050
		v[1], ws[1] = -7, 99 // 0
		v[15], ws[15] = 10, -3
		if got := SCReLUDot(v, ws, 255); got != 130050-300 {
			t.Errorf("SCReLUDot: got %d, want %d", got, 130050-300)
		}

		dst := make([]int16, 32)
		bias := make([]int16, 32)
		wt := make([]int16, 3*32)
		bias[5], wt[5], wt[32+5], wt[64+5] = 1, 10, 100, 1000
		Refresh(dst, bias, wt, []int{0, 2, 2})
		if dst[5] != 2011 {
			t.Errorf("Refresh: got %d, want 2011", dst[5])
		}
	})
}

func TestEnvCapsLevel(t *testing.T) {
	s := os.Getenv(EnvVar)
	if s == "" {
		if Level() != Best() {
			t.Errorf("Level() = %v without %s, want Best() = %v", Level(), EnvVar, Best())
		}
		return
	}
	l, err := ParseISA(s)
	if err != nil {
		t.Skipf("%s=%q is not a level", EnvVar, s)
	}
	if want := min(l, Best()); Level() != want {
		t.Errorf("Level() = %v with %s=%s, want %v", Level(), EnvVar, s, want)
	}
}

func TestSetLevelRejectsUnsupported(t *testing.T) {
	if Best() == AVX512VNNI {
		t.Skip("every level is supported here")
	}
	if _, err := SetLevel(Best() + 1); err == nil {
		t.Errorf("SetLevel(%v) succeeded above Best() = %v", Best()+1, Best())
	}
}

func TestAligned(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 100, 1024, 100000} {
		if s := AlignedInt16(n); len(s) != n || cap(s) != n || !IsAligned(s[:cap(s)]) && n > 0 {
			t.Errorf("AlignedInt16(%d): len %d cap %d aligned %v", n, len(s), cap(s), IsAligned(s))
		}
		if s := AlignedInt8(n); len(s) != n || n > 0 && !IsAligned(s) {
			t.Errorf("AlignedInt8(%d) not aligned", n)
		}
		if s := AlignedUint8(n); len(s) != n || n > 0 && !IsAligned(s) {
			t.Errorf("AlignedUint8(%d) not aligned", n)
		}
		if s := AlignedInt32(n); len(s) != n || n > 0 && !IsAligned(s) {
			t.Errorf("AlignedInt32(%d) not aligned", n)
		}
	}
	if IsAligned([]int16(nil)) {
		t.Error("nil slice reported aligned")
	}
}

func TestParseISA(t *testing.T) {
	for _, l := range []ISA{Generic, AVX2, AVX512, AVX512VNNI} {
		got, err := ParseISA(l.String())
		if err != nil || got != l {
			t.Errorf("ParseISA(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := ParseISA("sse9"); err == nil {
		t.Error("ParseISA(sse9) accepted")
	}
}

// Prefetch is a hint: any address, mapped or not, returns without a fault.
func TestPrefetchAnyAddress(t *testing.T) {
	x := make([]byte, 64)
	for _, a := range []uintptr{0, 1, ^uintptr(0), uintptr(unsafe.Pointer(&x[0]))} {
		Prefetch(a)
	}
}

// drawAccumulator draws m accumulator values: zeroPct % of them in [−299, 0] (clipped to
// zero by the transforms, so that a share of the products or clipped values is zero), the
// rest over int16's range with its extremes.
func drawAccumulator(t *rapid.T, f *filler, name string, m, zeroPct int) []int16 {
	s, _ := buffer(t, name, m, func() int16 {
		if f.r.IntN(100) < zeroPct {
			return int16(-f.r.IntN(300))
		}
		return f.i16()
	})
	return s
}
