package simd

import (
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// f32s draws n float32 values: uniform in (−2, 2), or heavy in the values where the
// activations and masks switch (±0, 1, just below and above 0 and 1).
func f32s(t *rapid.T, name string, n int) []float32 {
	seed := rapid.Uint64().Draw(t, name+"-seed")
	special := rapid.Bool().Draw(t, name+"-special")
	r := rand.New(rand.NewPCG(seed, 1))
	edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, math.Nextafter32(0, 1), math.Nextafter32(1, 0), math.Nextafter32(1, 2), 0.5}
	v := make([]float32, n)
	for i := range v {
		if special && r.IntN(2) == 0 {
			v[i] = edges[r.IntN(len(edges))]
		} else {
			v[i] = float32(4*r.Float64() - 2)
		}
	}
	return v
}

// offset returns a copy of v starting off elements into a larger buffer (misaligned
// operands), with guard elements after it.
func offset(v []float32, off int) (inner, whole []float32) {
	whole = make([]float32, off+len(v)+9)
	for i := range whole {
		whole[i] = -7
	}
	copy(whole[off:], v)
	return whole[off : off+len(v) : off+len(v)], whole
}

func sameBits(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

// gamma is Higham's γ(n) = n·u/(1 − n·u) for float32 (u = 2⁻²⁴).
func gamma(n int) float64 {
	u := math.Ldexp(1, -24)
	return float64(n) * u / (1 - float64(n)*u)
}

// The element-wise kernels give the Go twin's bits at every level.
func TestFloat32ElementwiseMatchGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(0, 100).Draw(t, "n")
			off := rapid.IntRange(0, 7).Draw(t, "off")
			a, d, w := f32s(t, "a", n), f32s(t, "d", n), f32s(t, "w", n)
			g := float32(rapid.Float64Range(-3, 3).Draw(t, "g"))
			type kernel struct {
				name      string
				got, want func(dst []float32)
			}
			for _, k := range []kernel{
				{"AddF32", func(x []float32) { AddF32(x, a) }, func(x []float32) { addF32Generic(x, a) }},
				{"ClampF32", func(x []float32) { ClampF32(x, a) }, func(x []float32) { clampF32Generic(x, a) }},
				{"SqrClampF32", func(x []float32) { SqrClampF32(x, a) }, func(x []float32) { sqrClampF32Generic(x, a) }},
				{"CReLUMaskF32", func(x []float32) { CReLUMaskF32(x, a) }, func(x []float32) { creluMaskF32Generic(x, a) }},
				{"SCReLUBackF32", func(x []float32) { SCReLUBackF32(x, a, w, g) }, func(x []float32) { screluBackF32Generic(x, a, w, g) }},
			} {
				got, whole := offset(d, off)
				want := append([]float32(nil), d...)
				k.got(got)
				k.want(want)
				if !sameBits(got, want) {
					t.Fatalf("%s n=%d: got %v, want %v", k.name, n, got, want)
				}
				for _, x := range whole[off+n:] {
					if x != -7 {
						t.Fatalf("%s wrote past the end", k.name)
					}
				}
			}
		})
	})
}

// AddRowsF32 and AddToRowsF32 (row lists with repeats) give the Go twin's bits.
func TestFloat32RowsMatchGo(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			n := 8 * rapid.IntRange(0, 20).Draw(t, "n8")
			if rapid.Bool().Draw(t, "odd") {
				n += rapid.IntRange(1, 7).Draw(t, "tail")
			}
			nrows := rapid.IntRange(1, 12).Draw(t, "matrix rows")
			w := f32s(t, "w", n*nrows)
			rows := rapid.SliceOfN(rapid.Int32Range(0, int32(nrows-1)), 0, 40).Draw(t, "rows")
			bias, src := f32s(t, "bias", n), f32s(t, "src", n)
			off := rapid.IntRange(0, 7).Draw(t, "off")
			got, _ := offset(make([]float32, n), off)
			want := make([]float32, n)
			AddRowsF32(got, bias, w, rows)
			addRowsF32Generic(want, bias, w, rows)
			if !sameBits(got, want) {
				t.Fatalf("AddRowsF32: got %v, want %v", got, want)
			}
			gw, _ := offset(w, off)
			ww := append([]float32(nil), w...)
			AddToRowsF32(gw, rows, src)
			addToRowsF32Generic(ww, rows, src)
			if !sameBits(gw, ww) {
				t.Fatalf("AddToRowsF32: got %v, want %v", gw, ww)
			}
		})
	})
}

func TestFloat32RowsRejectBadRow(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		for _, rows := range [][]int32{{4}, {-1}, {0, 1, 9}} {
			dst, w := make([]float32, 8), make([]float32, 32)
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("AddRowsF32 rows %v: no panic", rows)
					}
				}()
				AddRowsF32(dst, dst, w, rows)
			}()
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("AddToRowsF32 rows %v: no panic", rows)
					}
				}()
				AddToRowsF32(w, rows, dst)
			}()
		}
	})
}

// MulAddF32 (both A·B and Aᵀ·B strides) and DotF32 stay within the stated bound of the Go
// twin: 2·γ(k+1)·(|c0| + Σ|a·b|) per output, plus 2·(k+1)·2⁻¹⁴⁹ for the roundings that
// land among the subnormals, where the error is absolute (half the smallest subnormal per
// rounding), not relative.
func TestFloat32ProductsWithinBound(t *testing.T) {
	// f32Bound is the bound of two results of n roundings each over terms of magnitude mag.
	f32Bound := func(n int, mag float64) float64 { return 2*gamma(n)*mag + 2*float64(n)*0x1p-149 }
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			m := rapid.IntRange(0, 9).Draw(t, "m")
			n := rapid.IntRange(0, 70).Draw(t, "n")
			k := rapid.IntRange(0, 300).Draw(t, "k")
			trans := rapid.Bool().Draw(t, "transposed A")
			ldc := n + rapid.IntRange(0, 5).Draw(t, "ldc pad")
			ldb := n + rapid.IntRange(0, 5).Draw(t, "ldb pad")
			ai, ap := k, 1
			if trans {
				ai, ap = 1, m
			}
			a := f32s(t, "a", m*k)
			b := f32s(t, "b", k*ldb)
			c := f32s(t, "c", max(m*ldc, 1))
			got, whole := offset(c, rapid.IntRange(0, 7).Draw(t, "off"))
			want := append([]float32(nil), c...)
			MulAddF32(got, ldc, a, ai, ap, b, ldb, m, n, k)
			mulAddF32Generic(want, ldc, a, ai, ap, b, ldb, m, n, k)
			for i := range m {
				for j := range ldc {
					x := i*ldc + j
					if j >= n {
						if !sameBits(got[x:x+1], c[x:x+1]) {
							t.Fatalf("C[%d][%d] (padding) changed", i, j)
						}
						continue
					}
					mag := math.Abs(float64(c[x]))
					for p := range k {
						mag += math.Abs(float64(a[i*ai+p*ap]) * float64(b[p*ldb+j]))
					}
					if d, bound := math.Abs(float64(got[x])-float64(want[x])), f32Bound(k+1, mag); d > bound {
						t.Fatalf("C[%d][%d]: %v vs Go %v (bound %g)", i, j, got[x], want[x], bound)
					}
				}
			}
			for _, v := range whole[len(whole)-9:] {
				if v != -7 {
					t.Fatal("MulAddF32 wrote past C")
				}
			}
			x, y := f32s(t, "x", n+k), f32s(t, "y", n+k)
			mag := 0.0
			for i := range x {
				mag += math.Abs(float64(x[i]) * float64(y[i]))
			}
			if g, w := DotF32(x, y), dotF32Generic(x, y); math.Abs(float64(g)-float64(w)) > f32Bound(len(x)+3, mag) {
				t.Fatalf("DotF32 %v vs Go %v", g, w)
			}
		})
	})
}

func TestMulAddF32RejectsShortOperands(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		for _, tc := range []struct{ lc, la, lb, m, n, k int }{
			{15, 16, 16, 4, 4, 4}, {16, 15, 16, 4, 4, 4}, {16, 16, 15, 4, 4, 4}, {16, 16, 16, -1, 4, 4},
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%+v: no panic", tc)
					}
				}()
				MulAddF32(make([]float32, tc.lc), tc.n, make([]float32, tc.la), tc.k, 1, make([]float32, tc.lb), tc.n, tc.m, tc.n, tc.k)
			}()
		}
	})
}

// The products are exact on small integers (every product and partial sum representable),
// at every level: the same values as a plain triple loop.
func TestMulAddF32Integers(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		const m, n, k = 6, 40, 17
		a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
		for i := range a {
			a[i] = float32(i%7 - 3)
		}
		for i := range b {
			b[i] = float32(i%5 - 2)
		}
		MulAddF32(c, n, a, k, 1, b, n, m, n, k)
		for i := range m {
			for j := range n {
				s := 0
				for p := range k {
					s += (((i*k + p) % 7) - 3) * (((p*n + j) % 5) - 2)
				}
				if c[i*n+j] != float32(s) {
					t.Fatalf("C[%d][%d] = %v, want %d", i, j, c[i*n+j], s)
				}
			}
		}
	})
}
