package simd

import (
	"testing"

	"pgregory.net/rapid"
)

// The tail kernels equal their Go twins and the layers they replace (Go kernels: Affine on
// row-major weights, ClippedReLU32, ClippedReLUDot32) at every level, for any shifts,
// unaligned operands and weights over the whole int8 range.
func TestAffineReLUDot32Matches(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			shift0, shift := drawShift(t), drawShift(t)
			if rapid.Bool().Draw(t, "sf") {
				shift0, shift = 6, 6 // Stockfish's
			}
			x, _ := buffer(t, "x", 32, f.i32)
			in, _ := buffer(t, "in", 32, f.u7)
			w, _ := buffer(t, "w", 32*32, f.i8)
			bias, _ := buffer(t, "bias", 32, f.i32)
			w2, _ := buffer(t, "w2", 32, f.i8)
			wt := SparseWeights(w, 32, 32)
			if rapid.Bool().Draw(t, "unaligned wt") {
				u := make([]int8, len(wt)+1)
				copy(u[1:], wt)
				wt = u[1:]
			}

			// The layers, row-major.
			var o [32]int32
			affineGeneric(o[:], in, w, bias)
			want := clippedReLUDot32Generic(o[:], w2, shift)
			if got := affineReLUDot32Generic(in, wt, bias, shift, w2); got != want {
				t.Fatalf("Go twin %d, layers %d", got, want)
			}
			if got := AffineReLUDot32(in, wt, bias, shift, w2); got != want {
				t.Fatalf("AffineReLUDot32 %d, want %d", got, want)
			}

			var u [32]uint8
			clippedReLU32Generic(u[:], x, shift0)
			affineGeneric(o[:], u[:], w, bias)
			want = clippedReLUDot32Generic(o[:], w2, shift)
			if got := reluAffineReLUDot32Generic(x, shift0, wt, bias, shift, w2); got != want {
				t.Fatalf("Go twin %d, layers %d", got, want)
			}
			if got := ReLUAffineReLUDot32(x, shift0, wt, bias, shift, w2); got != want {
				t.Fatalf("ReLUAffineReLUDot32 %d, want %d", got, want)
			}
		})
	})
}

// Short operands panic before any arithmetic, at every level.
func TestAffineReLUDot32ShortPanics(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		in, x := make([]uint8, 32), make([]int32, 32)
		wt, bias, w2 := make([]int8, 1024), make([]int32, 32), make([]int8, 32)
		for name, f := range map[string]func(){
			"in":    func() { AffineReLUDot32(in[:31], wt, bias, 6, w2) },
			"wt":    func() { AffineReLUDot32(in, wt[:1023], bias, 6, w2) },
			"bias":  func() { AffineReLUDot32(in, wt, bias[:31], 6, w2) },
			"w2":    func() { AffineReLUDot32(in, wt, bias, 6, w2[:31]) },
			"x":     func() { ReLUAffineReLUDot32(x[:31], 6, wt, bias, 6, w2) },
			"x wt":  func() { ReLUAffineReLUDot32(x, 6, wt[:1000], bias, 6, w2) },
			"x w2":  func() { ReLUAffineReLUDot32(x, 6, wt, bias, 6, w2[:0]) },
			"x nil": func() { ReLUAffineReLUDot32(nil, 6, wt, bias, 6, w2) },
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
	})
}
