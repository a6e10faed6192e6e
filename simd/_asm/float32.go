package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The float32 kernels of quant/train's batched training step (AVX2 + FMA; one set serves
// every vector level). Element-wise kernels (adds, clamps, masks) are exact: each lane does
// the Go twin's operations in the Go twin's order. The products (mulAddF32, dotF32) sum in the
// Go twin's order too, but each multiply-add is one FMA (one rounding) where Go rounds the
// product and the sum separately; simd/float32.go states the resulting bound.

// float32Kernels emits every float32 kernel.
func float32Kernels() {
	mulAddF32(4)
	mulAddF32(1)
	dotF32()
	addRowsF32()
	addToRowsF32()
	addF32()
	clampF32(false)
	clampF32(true)
	creluMaskF32()
	screluBackF32()
}

// bytes4 turns an element count or stride (float32) into bytes in place.
func bytes4(r reg.GPVirtual) { SHLQ(U8(2), r) }

// mulAddF32 emits mulAddR{rows}F32AVX2: C[r·ldc + j] += Σ_{p<k} A[r·ai + p·ap]·B[p·ldb + j] for
// r < rows, j < n (n a multiple of 16), p ascending, one FMA per term. The tile of rows×16
// outputs stays in registers for the whole p loop; B's 16 values of row p are loaded once
// for all rows, A's value is broadcast.
func mulAddF32(rows int) {
	fn := fmt.Sprintf("mulAddR%dF32AVX2", rows)
	TEXT(fn, NOSPLIT, "func(c *float32, ldc int, a *float32, ai, ap int, b *float32, ldb int, n, k int)")
	Pragma("noescape")
	Doc(fn+fmt.Sprintf(" sets C[r·ldc + j] += Σ_{p<k} A[r·ai + p·ap]·B[p·ldb + j] for r < %d and", rows),
		"j < n (a multiple of 16), summing p in ascending order with one FMA per term; strides in",
		"elements.")
	pc, pbCol, n := ld("c"), ld("b"), ld("n")
	ldcB := ld("ldc")
	bytes4(ldcB)
	ldc3 := GP64()
	LEAQ(Mem{Base: ldcB, Index: ldcB, Scale: 2}, ldc3)
	var aiB, ai3 reg.GPVirtual
	if rows > 1 {
		aiB, ai3 = GP64(), GP64()
		Load(Param("ai"), aiB)
		bytes4(aiB)
		LEAQ(Mem{Base: aiB, Index: aiB, Scale: 2}, ai3)
	}
	apB, ldbB := ld("ap"), ld("ldb")
	bytes4(apB)
	bytes4(ldbB)
	rowC := func(r, v int) Mem {
		m := Mem{Base: pc, Disp: 32 * v}
		switch r {
		case 1:
			m.Index, m.Scale = ldcB, 1
		case 2:
			m.Index, m.Scale = ldcB, 2
		case 3:
			m.Index, m.Scale = ldc3, 1
		}
		return m
	}
	acc := make([][2]reg.VecVirtual, rows)
	jl, jend := fn+"_cols", fn+"_done"
	Label(jl)
	CMPQ(n, U8(16))
	JB(LabelRef(jend))
	for r := range rows {
		for v := range 2 {
			acc[r][v] = YMM()
			VMOVUPS(rowC(r, v), acc[r][v])
		}
	}
	pa, pb, kk := ld("a"), GP64(), ld("k")
	MOVQ(pbCol, pb)
	pl, pend := fn+"_p", fn+"_pdone"
	TESTQ(kk, kk)
	JZ(LabelRef(pend))
	alignLoop()
	Label(pl)
	b0, b1 := YMM(), YMM()
	VMOVUPS(Mem{Base: pb}, b0)
	VMOVUPS(Mem{Base: pb, Disp: 32}, b1)
	for r := range rows {
		m := Mem{Base: pa}
		switch r {
		case 1:
			m.Index, m.Scale = aiB, 1
		case 2:
			m.Index, m.Scale = aiB, 2
		case 3:
			m.Index, m.Scale = ai3, 1
		}
		t := YMM()
		VBROADCASTSS(m, t)
		VFMADD231PS(b0, t, acc[r][0])
		VFMADD231PS(b1, t, acc[r][1])
	}
	ADDQ(apB, pa)
	ADDQ(ldbB, pb)
	DECQ(kk)
	JNZ(LabelRef(pl))
	Label(pend)
	for r := range rows {
		for v := range 2 {
			VMOVUPS(acc[r][v], rowC(r, v))
		}
	}
	ADDQ(U8(64), pc)
	ADDQ(U8(64), pbCol)
	SUBQ(U8(16), n)
	JMP(LabelRef(jl))
	Label(jend)
	VZEROUPPER()
	RET()
}

// dotF32 emits dotF32AVX2: lane sums of x·y over n elements (a multiple of 32), four
// accumulators of 8 lanes (element i goes to lane i mod 32), combined as
// (acc0 + acc1) + (acc2 + acc3) and stored to out[0:8].
func dotF32() {
	TEXT("dotF32AVX2", NOSPLIT, "func(x, y *float32, n int, out *float32)")
	Pragma("noescape")
	Doc("dotF32AVX2 stores to out[l] (l < 8) the sums (s[l] + s[8+l]) + (s[16+l] + s[24+l]) where",
		"s[m] = Σ x[i]·y[i] over i ≡ m (mod 32), i < n (a multiple of 32), ascending, one FMA per term.")
	px, py, n := ld("x"), ld("y"), ld("n")
	var acc [4]reg.VecVirtual
	for u := range acc {
		acc[u] = YMM()
		VXORPS(acc[u], acc[u], acc[u])
	}
	loops("dotF32AVX2", n, 32, 1, func(int) {
		for u := range 4 {
			t := YMM()
			VMOVUPS(Mem{Base: px, Disp: 32 * u}, t)
			VFMADD231PS(Mem{Base: py, Disp: 32 * u}, t, acc[u])
		}
	}, func(blocks int) {
		ADDQ(U32(128*blocks), px)
		ADDQ(U32(128*blocks), py)
	})
	VADDPS(acc[1], acc[0], acc[0])
	VADDPS(acc[3], acc[2], acc[2])
	VADDPS(acc[2], acc[0], acc[0])
	VMOVUPS(acc[0], Mem{Base: ld("out")})
	VZEROUPPER()
	RET()
}

// rowTiles runs body over tiles of the n-element row (n a multiple of 8): tiles of 64
// elements (8 YMM) while they fit, then of 8. body gets the tile's width in vectors; off is
// the tile's byte offset, advanced by the helper.
func rowTiles(fn string, n, off reg.GPVirtual, body func(vecs int)) {
	for _, vecs := range []int{8, 1} {
		lbl := fmt.Sprintf("%s_tile%d", fn, vecs)
		Label(lbl)
		CMPQ(n, U32(8*vecs))
		JB(LabelRef(lbl + "_end"))
		body(vecs)
		ADDQ(U32(32*vecs), off)
		SUBQ(U32(8*vecs), n)
		JMP(LabelRef(lbl))
		Label(lbl + "_end")
	}
}

// addRowsF32 emits addRowsF32AVX2: dst = bias + the listed rows of w, one register tile of
// up to 64 elements at a time (loaded from bias, every row added, stored once).
func addRowsF32() {
	TEXT("addRowsF32AVX2", NOSPLIT, "func(dst, bias, w *float32, rows *int32, nrows, n int)")
	Pragma("noescape")
	Doc("addRowsF32AVX2 sets dst[j] = bias[j] + Σ_r w[rows[r]·n + j] (r ascending) for j < n, a",
		"multiple of 8; every rows[r] is a checked, non-negative row index.")
	dst, bias, w, rows := ld("dst"), ld("bias"), ld("w"), ld("rows")
	n := ld("n")
	rowB := GP64()
	MOVQ(n, rowB)
	bytes4(rowB)
	off := GP64()
	XORQ(off, off)
	rowTiles("addRowsF32AVX2", n, off, func(vecs int) {
		acc := make([]reg.VecVirtual, vecs)
		for v := range acc {
			acc[v] = YMM()
			VMOVUPS(Mem{Base: bias, Index: off, Scale: 1, Disp: 32 * v}, acc[v])
		}
		i, nr := GP64(), ld("nrows")
		XORQ(i, i)
		lbl := fmt.Sprintf("addRowsF32AVX2_rows%d", vecs)
		TESTQ(nr, nr)
		JZ(LabelRef(lbl + "_end"))
		Label(lbl)
		p := GP64()
		MOVLQSX(Mem{Base: rows, Index: i, Scale: 4}, p)
		IMULQ(rowB, p)
		ADDQ(w, p)
		for v := range acc {
			VADDPS(Mem{Base: p, Index: off, Scale: 1, Disp: 32 * v}, acc[v], acc[v])
		}
		INCQ(i)
		CMPQ(i, nr)
		JB(LabelRef(lbl))
		Label(lbl + "_end")
		for v := range acc {
			VMOVUPS(acc[v], Mem{Base: dst, Index: off, Scale: 1, Disp: 32 * v})
		}
	})
	VZEROUPPER()
	RET()
}

// addToRowsF32 emits addToRowsF32AVX2: w[rows[r]·n + j] += src[j].
func addToRowsF32() {
	TEXT("addToRowsF32AVX2", NOSPLIT, "func(w *float32, rows *int32, nrows int, src *float32, n int)")
	Pragma("noescape")
	Doc("addToRowsF32AVX2 sets w[rows[r]·n + j] += src[j] for every r (ascending) and j < n, a multiple",
		"of 8; every rows[r] is a checked, non-negative row index (repeats add twice).")
	w, rows, src := ld("w"), ld("rows"), ld("src")
	n := ld("n")
	rowB := GP64()
	MOVQ(n, rowB)
	bytes4(rowB)
	off := GP64()
	XORQ(off, off)
	rowTiles("addToRowsF32AVX2", n, off, func(vecs int) {
		s := make([]reg.VecVirtual, vecs)
		for v := range s {
			s[v] = YMM()
			VMOVUPS(Mem{Base: src, Index: off, Scale: 1, Disp: 32 * v}, s[v])
		}
		i, nr := GP64(), ld("nrows")
		XORQ(i, i)
		lbl := fmt.Sprintf("addToRowsF32AVX2_rows%d", vecs)
		TESTQ(nr, nr)
		JZ(LabelRef(lbl + "_end"))
		Label(lbl)
		p := GP64()
		MOVLQSX(Mem{Base: rows, Index: i, Scale: 4}, p)
		IMULQ(rowB, p)
		ADDQ(w, p)
		for v := range s {
			t := YMM()
			VADDPS(Mem{Base: p, Index: off, Scale: 1, Disp: 32 * v}, s[v], t)
			VMOVUPS(t, Mem{Base: p, Index: off, Scale: 1, Disp: 32 * v})
		}
		INCQ(i)
		CMPQ(i, nr)
		JB(LabelRef(lbl))
		Label(lbl + "_end")
	})
	VZEROUPPER()
	RET()
}

// elementwise emits the usual loop over n elements (a multiple of 8), 4 vectors per
// iteration then 1, with the given pointers advanced by 32 bytes per vector.
func elementwise(fn string, n reg.GPVirtual, ptrs []reg.GPVirtual, body func(disp int)) {
	loops(fn, n, 8, 4, func(u int) { body(32 * u) }, func(blocks int) {
		for _, p := range ptrs {
			ADDQ(U32(32*blocks), p)
		}
	})
}

// addF32 emits addF32AVX2: dst[i] += src[i].
func addF32() {
	TEXT("addF32AVX2", NOSPLIT, "func(dst, src *float32, n int)")
	Pragma("noescape")
	Doc("addF32AVX2 sets dst[i] += src[i] for i < n, a multiple of 8.")
	dst, src, n := ld("dst"), ld("src"), ld("n")
	elementwise("addF32AVX2", n, []reg.GPVirtual{dst, src}, func(d int) {
		t := YMM()
		VMOVUPS(Mem{Base: dst, Disp: d}, t)
		VADDPS(Mem{Base: src, Disp: d}, t, t)
		VMOVUPS(t, Mem{Base: dst, Disp: d})
	})
	VZEROUPPER()
	RET()
}

// one broadcasts 1.0 into a new YMM register.
func one() reg.VecVirtual {
	g, r := GP64(), YMM()
	MOVQ(U32(0x3f800000), g)
	x := XMM()
	VMOVQ(g, x)
	VBROADCASTSS(x, r)
	return r
}

// clampF32 emits clampF32AVX2 (dst = min(max(src, 0), 1), ClippedReLU) or sqrClampF32AVX2 (its
// square, SCReLU). VMAXPS/VMINPS return their second Intel source (the first Go operand) when
// a comparison is false both ways (zeros of either sign, NaN), so src passes through unchanged
// in those cases, as in the Go twin (x < 0 ? 0 : x > 1 ? 1 : x).
func clampF32(square bool) {
	fn := "clampF32AVX2"
	if square {
		fn = "sqrClampF32AVX2"
	}
	TEXT(fn, NOSPLIT, "func(dst, src *float32, n int)")
	Pragma("noescape")
	if square {
		Doc(fn + " sets dst[i] = c·c with c = clamp(src[i], 0, 1) for i < n, a multiple of 8 (SCReLU).")
	} else {
		Doc(fn + " sets dst[i] = clamp(src[i], 0, 1) for i < n, a multiple of 8 (ClippedReLU).")
	}
	dst, src, n := ld("dst"), ld("src"), ld("n")
	zero, o := YMM(), one()
	VXORPS(zero, zero, zero)
	elementwise(fn, n, []reg.GPVirtual{dst, src}, func(d int) {
		t := YMM()
		VMOVUPS(Mem{Base: src, Disp: d}, t)
		VMAXPS(t, zero, t)
		VMINPS(t, o, t)
		if square {
			VMULPS(t, t, t)
		}
		VMOVUPS(t, Mem{Base: dst, Disp: d})
	})
	VZEROUPPER()
	RET()
}

// Comparison predicates of VCMPPS (ordered, non-signalling).
const (
	cmpLEOQ = 0x12
	cmpGEOQ = 0x1D
)

// outside returns a mask register of the lanes of a with a ≤ 0 or a ≥ 1 (ordered: NaN lanes
// are not outside, as in the Go twins' a <= 0 || a >= 1).
func outside(a, zero, o reg.VecVirtual) reg.VecVirtual {
	m1, m2 := YMM(), YMM()
	VCMPPS(U8(cmpLEOQ), zero, a, m1)
	VCMPPS(U8(cmpGEOQ), o, a, m2)
	VORPS(m1, m2, m1)
	return m1
}

// creluMaskF32 emits creluMaskF32AVX2: d[i] = 0 where a[i] ≤ 0 or a[i] ≥ 1 (ClippedReLU's
// derivative), otherwise unchanged.
func creluMaskF32() {
	TEXT("creluMaskF32AVX2", NOSPLIT, "func(d, a *float32, n int)")
	Pragma("noescape")
	Doc("creluMaskF32AVX2 sets d[i] = 0 where a[i] ≤ 0 or a[i] ≥ 1, for i < n, a multiple of 8.")
	d, a, n := ld("d"), ld("a"), ld("n")
	zero, o := YMM(), one()
	VXORPS(zero, zero, zero)
	elementwise("creluMaskF32AVX2", n, []reg.GPVirtual{d, a}, func(disp int) {
		t := YMM()
		VMOVUPS(Mem{Base: a, Disp: disp}, t)
		m := outside(t, zero, o)
		VANDNPS(Mem{Base: d, Disp: disp}, m, m)
		VMOVUPS(m, Mem{Base: d, Disp: disp})
	})
	VZEROUPPER()
	RET()
}

// screluBackF32 emits screluBackF32AVX2: d[i] = ((g·w[i])·2)·a[i] where 0 < a[i] < 1, else 0
// (SCReLU's derivative 2a times the incoming gradient g·w).
func screluBackF32() {
	TEXT("screluBackF32AVX2", NOSPLIT, "func(d, a, w *float32, grad float32, n int)")
	Pragma("noescape")
	Doc("screluBackF32AVX2 sets d[i] = ((grad·w[i])·2)·a[i] where 0 < a[i] < 1 and 0 elsewhere (a[i] ≤ 0",
		"or ≥ 1), for i < n, a multiple of 8.")
	d, a, w, n := ld("d"), ld("a"), ld("w"), ld("n")
	gv, gx := YMM(), ldF32("grad")
	VBROADCASTSS(gx, gv)
	zero, o := YMM(), one()
	VXORPS(zero, zero, zero)
	elementwise("screluBackF32AVX2", n, []reg.GPVirtual{d, a, w}, func(disp int) {
		t, x := YMM(), YMM()
		VMOVUPS(Mem{Base: a, Disp: disp}, x)
		VMULPS(Mem{Base: w, Disp: disp}, gv, t)
		VADDPS(t, t, t)
		VMULPS(x, t, t)
		m := outside(x, zero, o)
		VANDNPS(t, m, m)
		VMOVUPS(m, Mem{Base: d, Disp: disp})
	})
	VZEROUPPER()
	RET()
}
