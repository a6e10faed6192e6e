package simd

import (
	"fmt"
	"math"
)

// The float32 kernels of a batched training step (package quant/train): small matrix products
// for the dense layers and vector loops for the sparse first layer's rows, the activations and
// their derivative masks. At AVX2 with FMA they are generated assembly (simd/_asm/float32.go);
// otherwise the pure-Go twins below.
//
// Exactness: AddRowsF32, AddToRowsF32, AddF32, ClampF32, SqrClampF32, CReLUMaskF32 and
// SCReLUBackF32 give the Go twin's bits at every level (each lane does the twin's operations
// in the twin's order). MulAddF32 and DotF32 sum in the twin's order too, but the assembly
// rounds each multiply-add once (FMA) where Go rounds the product and the sum separately, so
// an output of a sum of k products with starting value c0 differs from the twin by at most
// 2·γ(k+1)·(|c0| + Σ|a_p·b_p|), γ(n) = n·u/(1 − n·u), u = 2⁻²⁴ (both lie within γ(k+1)·(…) of
// the exact value; Higham, Accuracy and Stability of Numerical Algorithms, §3.1). A given level
// always gives the same bits for the same operands.
//
// Each exported kernel is a function calling the implementation installed in these
// variables for the current Level (install sets them at init and on SetLevel); callers
// cannot reassign them.
var (
	mulAddF32Fn     func(c []float32, ldc int, a []float32, ai, ap int, b []float32, ldb int, m, n, k int)
	dotF32Fn        func(x, y []float32) float32
	addRowsF32Fn    func(dst, bias, w []float32, rows []int32)
	addToRowsF32Fn  func(w []float32, rows []int32, src []float32)
	addF32Fn        func(dst, src []float32)
	clampF32Fn      func(dst, src []float32)
	sqrClampF32Fn   func(dst, src []float32)
	creluMaskF32Fn  func(d, a []float32)
	screluBackF32Fn func(d, a, w []float32, g float32)
)

// MulAddF32 sets C[i·ldc + j] += Σ_{p<k} A[i·ai + p·ap]·B[p·ldb + j] for i < m, j < n, the
// terms added in ascending p (strides in elements, all ≥ 0): with ai = lda, ap = 1 it is
// C += A·B, with ai = 1, ap = lda it is C += Aᵀ·B. It panics (before touching C) when an
// index falls outside a slice or an argument is negative. The assembly takes m in blocks
// of 4 (then single rows) and n in blocks of 16; other columns are done in Go.
func MulAddF32(c []float32, ldc int, a []float32, ai, ap int, b []float32, ldb int, m, n, k int) {
	mulAddF32Fn(c, ldc, a, ai, ap, b, ldb, m, n, k)
}

// DotF32 returns Σ x[i]·y[i] for i < len(x) (len(y) ≥ len(x)) summed in 32 interleaved
// lanes: s[l] = Σ over i ≡ l (mod 32) of the first len(x) &^ 31 elements, combined as
// t[l] = (s[l] + s[8+l]) + (s[16+l] + s[24+l]), ((t0+t1) + (t2+t3)) + ((t4+t5) + (t6+t7)),
// then the remaining elements added in order.
func DotF32(x, y []float32) float32 {
	return dotF32Fn(x, y)
}

// AddRowsF32 sets dst[j] = bias[j] + Σ_r w[rows[r]·n + j] (rows in order) for j < n =
// len(dst): a float accumulator refresh from a feature-major weight matrix. len(bias) ≥ n;
// every row must lie inside w (it panics otherwise, before writing).
func AddRowsF32(dst, bias, w []float32, rows []int32) {
	addRowsF32Fn(dst, bias, w, rows)
}

// AddToRowsF32 sets w[rows[r]·n + j] += src[j] for every r in order and j < n = len(src):
// the sparse first layer's gradient, one row per active feature. Rows must lie inside w.
func AddToRowsF32(w []float32, rows []int32, src []float32) {
	addToRowsF32Fn(w, rows, src)
}

// AddF32 sets dst[i] += src[i] for i < len(dst) (len(src) ≥ len(dst)).
func AddF32(dst, src []float32) {
	addF32Fn(dst, src)
}

// ClampF32 sets dst[i] = clamp(src[i], 0, 1) (ClippedReLU) for i < len(dst); NaN and −0
// pass through.
func ClampF32(dst, src []float32) {
	clampF32Fn(dst, src)
}

// SqrClampF32 sets dst[i] = c·c, c = clamp(src[i], 0, 1) (SCReLU), for i < len(dst).
func SqrClampF32(dst, src []float32) {
	sqrClampF32Fn(dst, src)
}

// CReLUMaskF32 sets d[i] = 0 where a[i] ≤ 0 or a[i] ≥ 1 (ClippedReLU's derivative is 0
// there), for i < len(d); other elements are unchanged.
func CReLUMaskF32(d, a []float32) {
	creluMaskF32Fn(d, a)
}

// SCReLUBackF32 sets d[i] = ((g·w[i])·2)·a[i] where 0 < a[i] < 1 and d[i] = 0 elsewhere
// (SCReLU's derivative 2a times the incoming gradient g·w[i]), for i < len(d).
func SCReLUBackF32(d, a, w []float32, g float32) {
	screluBackF32Fn(d, a, w, g)
}

func installF32Generic() {
	mulAddF32Fn = mulAddF32Generic
	dotF32Fn = dotF32Generic
	addRowsF32Fn = addRowsF32Generic
	addToRowsF32Fn = addToRowsF32Generic
	addF32Fn = addF32Generic
	clampF32Fn = clampF32Generic
	sqrClampF32Fn = sqrClampF32Generic
	creluMaskF32Fn = creluMaskF32Generic
	screluBackF32Fn = screluBackF32Generic
}

// checkMulAdd panics unless every index MulAddF32 touches lies inside its slice.
func checkMulAdd(lc, ldc, la, ai, ap, lb, ldb, m, n, k int) {
	if m < 0 || n < 0 || k < 0 || ldc < 0 || ai < 0 || ap < 0 || ldb < 0 {
		panic(fmt.Sprintf("simd: MulAddF32: negative argument (m %d, n %d, k %d, strides %d %d %d %d)", m, n, k, ldc, ai, ap, ldb))
	}
	if m == 0 || n == 0 {
		return
	}
	// last index = (count−1)·stride + extra, computed without overflow
	last := func(count, stride, extra int) int {
		if count > 1 && stride > 0 && count-1 > (math.MaxInt-extra)/stride {
			return math.MaxInt
		}
		return (count-1)*stride + extra
	}
	if last(m, ldc, n-1) >= lc {
		panic(fmt.Sprintf("simd: MulAddF32: C has %d elements, needs %d×%d at stride %d", lc, m, n, ldc))
	}
	if k == 0 {
		return
	}
	if la0 := last(m, ai, 0); la0 == math.MaxInt || last(k, ap, la0) >= la {
		panic(fmt.Sprintf("simd: MulAddF32: A has %d elements, needs %d×%d at strides %d, %d", la, m, k, ai, ap))
	}
	if last(k, ldb, n-1) >= lb {
		panic(fmt.Sprintf("simd: MulAddF32: B has %d elements, needs %d×%d at stride %d", lb, k, n, ldb))
	}
}

func mulAddF32Generic(c []float32, ldc int, a []float32, ai, ap int, b []float32, ldb int, m, n, k int) {
	checkMulAdd(len(c), ldc, len(a), ai, ap, len(b), ldb, m, n, k)
	mulAddF32Go(c, ldc, a, ai, ap, b, ldb, m, n, k, 0)
}

// mulAddF32Go is the Go loop for the columns j0 ≤ j < n (operands checked).
func mulAddF32Go(c []float32, ldc int, a []float32, ai, ap int, b []float32, ldb int, m, n, k, j0 int) {
	for i := range m {
		ci := c[i*ldc+j0 : i*ldc+n]
		for p := range k {
			av := a[i*ai+p*ap]
			bp := b[p*ldb+j0 : p*ldb+n]
			bp = bp[:len(ci)]
			for j := range ci {
				ci[j] += av * bp[j]
			}
		}
	}
}

func dotF32Generic(x, y []float32) float32 {
	y = y[:len(x)]
	var s [32]float32
	m := len(x) &^ 31
	for i := 0; i < m; i += 32 {
		xs, ys := x[i:i+32], y[i:i+32]
		for l := range s {
			s[l] += xs[l] * ys[l]
		}
	}
	return dotF32Finish(&s, x[m:], y[m:])
}

// dotF32Finish combines DotF32's 32 lane sums and adds the remaining elements.
func dotF32Finish(s *[32]float32, x, y []float32) float32 {
	var t [8]float32
	for l := range t {
		t[l] = (s[l] + s[8+l]) + (s[16+l] + s[24+l])
	}
	return dotF32Lanes(&t, x, y)
}

// dotF32Lanes combines eight lane sums and adds the remaining elements.
func dotF32Lanes(t *[8]float32, x, y []float32) float32 {
	r := ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]))
	y = y[:len(x)]
	for i := range x {
		r += x[i] * y[i]
	}
	return r
}

// checkRows panics unless every row index selects a whole row of n elements inside w.
func checkRows(kernel string, lw, n int, rows []int32) {
	if n == 0 {
		return
	}
	limit := lw / n
	for _, r := range rows {
		if r < 0 || int(r) >= limit {
			panic(fmt.Sprintf("simd: %s: row %d outside a %d-row matrix", kernel, r, limit))
		}
	}
}

func addRowsF32Generic(dst, bias, w []float32, rows []int32) {
	n := len(dst)
	checkRows("AddRowsF32", len(w), n, rows)
	copy(dst, bias[:n])
	for _, r := range rows {
		addF32Generic(dst, w[int(r)*n:int(r)*n+n])
	}
}

func addToRowsF32Generic(w []float32, rows []int32, src []float32) {
	n := len(src)
	checkRows("AddToRowsF32", len(w), n, rows)
	for _, r := range rows {
		addF32Generic(w[int(r)*n:int(r)*n+n], src)
	}
}

func addF32Generic(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

func clamp01(x float32) float32 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

func clampF32Generic(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] = clamp01(src[i])
	}
}

func sqrClampF32Generic(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		c := clamp01(src[i])
		dst[i] = c * c
	}
}

func creluMaskF32Generic(d, a []float32) {
	a = a[:len(d)]
	for i := range d {
		if a[i] <= 0 || a[i] >= 1 {
			d[i] = 0
		}
	}
}

func screluBackF32Generic(d, a, w []float32, g float32) {
	a, w = a[:len(d)], w[:len(d)]
	for i := range d {
		if x := a[i]; x <= 0 || x >= 1 {
			d[i] = 0
		} else {
			d[i] = float32(float32(g*w[i])*2) * x
		}
	}
}
