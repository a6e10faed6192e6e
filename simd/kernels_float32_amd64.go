//go:build amd64 && !purego

package simd

import "github.com/klauspost/cpuid/v2"

// installF32Asm installs the float32 assembly when the CPU has FMA (every AVX2 CPU so far;
// checked anyway, since the kernels use VFMADD231PS).
func installF32Asm() {
	if !cpuid.CPU.Supports(cpuid.FMA3) {
		return
	}
	mulAddF32Fn = mulAddF32Asm
	dotF32Fn = dotF32Asm
	addRowsF32Fn = addRowsF32Asm
	addToRowsF32Fn = addToRowsF32Asm
	addF32Fn = addF32Asm
	clampF32Fn = clampF32Asm
	sqrClampF32Fn = sqrClampF32Asm
	creluMaskF32Fn = creluMaskF32Asm
	screluBackF32Fn = screluBackF32Asm
}

// mulAddKBlock is the number of p terms the assembly sums per call: the rows of B it reads
// for a block of 4 output rows stay in cache for the next block (C is stored and reloaded
// between calls, which changes no bit).
const mulAddKBlock = 128

func mulAddF32Asm(c []float32, ldc int, a []float32, ai, ap int, b []float32, ldb int, m, n, k int) {
	checkMulAdd(len(c), ldc, len(a), ai, ap, len(b), ldb, m, n, k)
	if m == 0 || n == 0 || k == 0 {
		return
	}
	n16 := n &^ 15
	if n16 > 0 {
		for p0 := 0; p0 < k; p0 += mulAddKBlock {
			kb := min(mulAddKBlock, k-p0)
			i := 0
			for ; i+4 <= m; i += 4 {
				mulAddR4F32AVX2(&c[i*ldc], ldc, &a[i*ai+p0*ap], ai, ap, &b[p0*ldb], ldb, n16, kb)
			}
			for ; i < m; i++ {
				mulAddR1F32AVX2(&c[i*ldc], ldc, &a[i*ai+p0*ap], ai, ap, &b[p0*ldb], ldb, n16, kb)
			}
		}
	}
	if n16 < n {
		mulAddF32Go(c, ldc, a, ai, ap, b, ldb, m, n, k, n16)
	}
}

func dotF32Asm(x, y []float32) float32 {
	y = y[:len(x)]
	m := len(x) &^ 31
	if m == 0 {
		return dotF32Generic(x, y)
	}
	var t [8]float32
	dotF32AVX2(&x[0], &y[0], m, &t[0])
	return dotF32Lanes(&t, x[m:], y[m:])
}

func addRowsF32Asm(dst, bias, w []float32, rows []int32) {
	n := len(dst)
	bias = bias[:n]
	if n&7 != 0 || n == 0 {
		addRowsF32Generic(dst, bias, w, rows)
		return
	}
	checkRows("AddRowsF32", len(w), n, rows)
	var pr *int32
	if len(rows) > 0 {
		pr = &rows[0]
	}
	var pw *float32
	if len(w) > 0 {
		pw = &w[0]
	}
	addRowsF32AVX2(&dst[0], &bias[0], pw, pr, len(rows), n)
}

func addToRowsF32Asm(w []float32, rows []int32, src []float32) {
	n := len(src)
	if n&7 != 0 || n == 0 || len(rows) == 0 {
		addToRowsF32Generic(w, rows, src)
		return
	}
	checkRows("AddToRowsF32", len(w), n, rows)
	addToRowsF32AVX2(&w[0], &rows[0], len(rows), &src[0], n)
}

func addF32Asm(dst, src []float32) {
	n := len(dst)
	src = src[:n]
	if m := n &^ 7; m > 0 {
		addF32AVX2(&dst[0], &src[0], m)
		dst, src = dst[m:], src[m:]
	}
	addF32Generic(dst, src)
}

func clampF32Asm(dst, src []float32) {
	n := len(dst)
	src = src[:n]
	if m := n &^ 7; m > 0 {
		clampF32AVX2(&dst[0], &src[0], m)
		dst, src = dst[m:], src[m:]
	}
	clampF32Generic(dst, src)
}

func sqrClampF32Asm(dst, src []float32) {
	n := len(dst)
	src = src[:n]
	if m := n &^ 7; m > 0 {
		sqrClampF32AVX2(&dst[0], &src[0], m)
		dst, src = dst[m:], src[m:]
	}
	sqrClampF32Generic(dst, src)
}

func creluMaskF32Asm(d, a []float32) {
	n := len(d)
	a = a[:n]
	if m := n &^ 7; m > 0 {
		creluMaskF32AVX2(&d[0], &a[0], m)
		d, a = d[m:], a[m:]
	}
	creluMaskF32Generic(d, a)
}

func screluBackF32Asm(d, a, w []float32, g float32) {
	n := len(d)
	a, w = a[:n], w[:n]
	if m := n &^ 7; m > 0 {
		screluBackF32AVX2(&d[0], &a[0], &w[0], g, m)
		d, a, w = d[m:], a[m:], w[m:]
	}
	screluBackF32Generic(d, a, w, g)
}
