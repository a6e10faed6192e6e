package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// bulletKernels generates the kernels of bullet's multi-layer networks: the pairwise clipped
// product with any clip and shift, and the float32 stages (rescale of an int8 layer's sums,
// a float layer summed over its outputs, a dot product in 16 lanes), each with and without
// fused multiply-adds.
func bulletKernels() {
	tbl := Mem{Symbol: NewStaticSymbol("nnzTable"), Base: reg.StaticBase}
	for _, s := range []isa{avx2, avx512} {
		for _, list := range []bool{false, true} {
			for _, kind := range []string{"Lo", "Hi", "Hs"} {
				pairwiseClip(s, kind, list, tbl)
			}
		}
	}
	creluDot()
	for _, fused := range []bool{false, true} {
		dequantiseF32(fused)
		affineF32(fused)
		dot16F32(fused)
	}
	for _, act := range []string{"ReLU", "CReLU", "SCReLU"} {
		activationF32(act)
	}
}

func fusedName(fused bool) string {
	if fused {
		return "FMA"
	}
	return "Mul"
}

// madd emits acc = a·b + acc: one fused multiply-add (VFMADD231PS), or a rounded product
// and a rounded add (VMULPS, VADDPS) using tmp.
func madd(fused bool, a, b Op, acc, tmp reg.VecVirtual) {
	if fused {
		VFMADD231PS(a, b, acc)
		return
	}
	VMULPS(a, b, tmp)
	VADDPS(tmp, acc, acc)
}

// pairwiseClip generates pairwiseClip{Lo,Hi}+ISA(dst *uint8, a, b *int16, n int, clip,
// pre, post uint64), n a multiple of 32: x = clamp(a,0,clip) << pre, y = clamp(b,0,clip),
// p = the low (Lo, VPMULLW) or high unsigned (Hi, VPMULHUW) 16 bits of x·y, dst = p >> post.
// The wrapper chooses Lo with pre 0 and post = shift when clip ≤ 255 (the product fits 16
// bits), and Hi otherwise (pre = 16 − shift, post 0 when shift ≤ 16; pre 0, post = shift −
// 16 above), so that p >> post = (clamp(a)·clamp(b)) >> shift exactly; the words are then
// ≤ 255 and the unsigned pack cannot saturate.
//
// Hs (Stockfish 19's transform, feature_transformer.h) takes the high signed 16 bits
// (VPMULHW) of x·min(b, clip), b clamped from above only, and no post shift: the wrapper
// chooses it first, when shift ≤ 16 and clip << pre ≤ 32767 (Stockfish 19's 255 and 9,
// Alexandria's 362 and 10). A negative b makes the product ≤ 0 and its high half ≤ 0,
// which the unsigned pack turns into the 0 that clamp(b, 0, clip) gives; otherwise the
// high half is (clamp(a)·clamp(b)) >> shift. One clamp and one shift fewer per vector.
//
// With list it generates pairwiseClipNNZ{Lo,Hi}+ISA(dst *uint8, a, b *int16, n int, clip,
// pre, post uint64, idx *uint16, first int) int instead: the same products, and from the
// same registers the numbers first + c of the non-zero 4-byte chunks c of dst[0:n] written
// to idx in increasing order (n/4 entries of room), their count returned — the listing of
// pairwiseMulNNZ, for a Stockfish 19 stack's fc_0 (simd.PairwiseDenseStack).
func pairwiseClip(s isa, kind string, list bool, tbl Mem) {
	bits := map[string]string{"Lo": "low", "Hi": "high unsigned", "Hs": "high signed"}[kind]
	formula := "(((clamp(a[i],0,clip) << pre) · clamp(b[i],0,clip)) >> 16·hi) >> post"
	if kind == "Hs" {
		formula = "max(0, ((clamp(a[i],0,clip) << pre) · min(b[i],clip)) >> 16) (post unused)"
	}
	fn := "pairwiseClip" + kind + s.name
	if list {
		fn = "pairwiseClipNNZ" + kind + s.name
		TEXT(fn, NOSPLIT, "func(dst *uint8, a, b *int16, n int, clip, pre, post uint64, idx *uint16, first int) int")
		Pragma("noescape")
		Doc(fn+" sets dst[i] = "+formula,
			"for i < n, n a multiple of 32, with the product's "+bits+" 16 bits,",
			"writes first + c for every non-zero 4-byte chunk c of dst[0:n] to idx in increasing",
			"order (n/4 entries of room) and returns their count.")
	} else {
		TEXT(fn, NOSPLIT, "func(dst *uint8, a, b *int16, n int, clip, pre, post uint64)")
		Pragma("noescape")
		Doc(fn+" sets dst[i] = "+formula,
			"for i < n, n a multiple of 32, with the product's "+bits+" 16 bits.")
	}
	dst := ld("dst")
	pa := ld("a")
	pb := ld("b")
	n := ld("n")
	idx := permQ(s)
	zero, cl := s.vec(), s.vec()
	s.zero(zero)
	g := ld("clip")
	x := XMM()
	VMOVQ(g, x)
	VPBROADCASTW(x, cl)
	preX, postX := XMM(), XMM()
	VMOVQ(ld("pre"), preX)
	VMOVQ(ld("post"), postX)
	var nz nnzList
	var out reg.GPVirtual
	if list {
		out = ld("idx")
		nz = newNNZList(tbl, ld("first"))
	}
	block := func(w int, wide bool, dOff, sOff int) {
		vec := YMM
		if wide {
			vec = ZMM
		}
		z, c := width(zero, w), width(cl, w)
		var r [2]reg.VecVirtual
		for k := range r {
			x, y := vec(), vec()
			s.mov(Mem{Base: pa, Disp: sOff + k*w}, x)
			s.mov(Mem{Base: pb, Disp: sOff + k*w}, y)
			VPMAXSW(z, x, x)
			VPMINSW(c, x, x)
			if kind != "Hs" {
				VPMAXSW(z, y, y)
			}
			VPMINSW(c, y, y)
			VPSLLW(preX, x, x)
			switch kind {
			case "Lo":
				VPMULLW(y, x, x)
			case "Hi":
				VPMULHUW(y, x, x)
			default:
				VPMULHW(y, x, x)
			}
			if kind != "Hs" {
				VPSRLW(postX, x, x)
			}
			r[k] = x
		}
		VPACKUSWB(r[1], r[0], r[0])
		packFixQ(r[0], idx, wide)
		s.mov(r[0], Mem{Base: dst, Disp: dOff})
		if list {
			nz.block(s, r[0], z, w, out)
		}
	}
	w := s.bytes
	loops(fn, n, w, 1, func(u int) { block(w, s.wide, u*w, 2*u*w) },
		func(k int) { ADDQ(U32(k*w), dst); ADDQ(U32(2*k*w), pa); ADDQ(U32(2*k*w), pb) })
	if s.wide {
		TESTQ(n, n)
		JZ(LabelRef(fn + "_done"))
		block(32, false, 0, 0)
	}
	Label(fn + "_done")
	VZEROUPPER()
	if list {
		Store(nz.cnt, ReturnIndex(0))
	}
	RET()
}

// dequantiseF32 generates dequantiseF32{FMA,Mul}(dst *float32, src *int32, bias *float32,
// mul float32, n int), n a multiple of 8: dst = float32(src)·mul + bias, fused or with two
// roundings (VCVTDQ2PS rounds to nearest even, as Go's int32 → float32 conversion).
func dequantiseF32(fused bool) {
	fn := "dequantiseF32" + fusedName(fused)
	TEXT(fn, NOSPLIT, "func(dst *float32, src *int32, bias *float32, mul float32, n int)")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = float32(src[i])·mul + bias[i] for i < n, n a multiple of 8",
		"("+map[bool]string{false: "product rounded, then the add", true: "one fused multiply-add"}[fused]+").")
	dst := ld("dst")
	src := ld("src")
	bias := ld("bias")
	n := ld("n")
	m := ldF32("mul")
	mv := YMM()
	VBROADCASTSS(m, mv)
	loops(fn, n, 8, 1, func(int) {
		x := YMM()
		VCVTDQ2PS(Mem{Base: src}, x)
		if fused {
			VFMADD213PS(Mem{Base: bias}, mv, x)
		} else {
			VMULPS(mv, x, x)
			VADDPS(Mem{Base: bias}, x, x)
		}
		VMOVUPS(x, Mem{Base: dst})
	}, func(k int) { ADDQ(U32(32*k), dst); ADDQ(U32(32*k), src); ADDQ(U32(32*k), bias) })
	VZEROUPPER()
	RET()
}

// affineF32 generates affineF32{FMA,Mul}(out, x, wt, bias *float32, in, nout int), nout a
// multiple of 8: for each block of 8 outputs, t = bias, then for i = 0 … in−1 in order
// t = x[i]·wt[i·nout + k] + t (fused or two roundings): one running sum per output, the
// order of a layer vectorised over its outputs. wt is input-major [in][nout].
func affineF32(fused bool) {
	fn := "affineF32" + fusedName(fused)
	TEXT(fn, NOSPLIT, "func(out, x, wt, bias *float32, in, nout int)")
	Pragma("noescape")
	Doc(fn+" sets out[k] = bias[k] + Σ_i x[i]·wt[i·nout + k], summed from the bias in input order",
		"for k < nout, nout a multiple of 8 ("+map[bool]string{false: "each product rounded", true: "fused multiply-adds"}[fused]+").")
	out := ld("out")
	px := ld("x")
	wt := ld("wt")
	bias := ld("bias")
	in := ld("in")
	nout := ld("nout")
	stride := GP64()
	MOVQ(nout, stride)
	SHLQ(U8(2), stride)
	k := GP64()
	XORQ(k, k)
	Label(fn + "_block")
	CMPQ(k, nout)
	JAE(LabelRef(fn + "_done"))
	acc, tmp, b := YMM(), YMM(), YMM()
	VMOVUPS(Mem{Base: bias, Index: k, Scale: 4}, acc)
	pw := GP64()
	LEAQ(Mem{Base: wt, Index: k, Scale: 4}, pw)
	i := GP64()
	XORQ(i, i)
	Label(fn + "_in")
	CMPQ(i, in)
	JAE(LabelRef(fn + "_store"))
	VBROADCASTSS(Mem{Base: px, Index: i, Scale: 4}, b)
	madd(fused, Mem{Base: pw}, b, acc, tmp)
	ADDQ(stride, pw)
	INCQ(i)
	JMP(LabelRef(fn + "_in"))
	Label(fn + "_store")
	VMOVUPS(acc, Mem{Base: out, Index: k, Scale: 4})
	ADDQ(U8(8), k)
	JMP(LabelRef(fn + "_block"))
	Label(fn + "_done")
	VZEROUPPER()
	RET()
}

// dot16F32 generates dot16F32{FMA,Mul}(x, w *float32, n int) float32, n a multiple of 16:
// 16 lanes starting at +0, lane l taking x[i]·w[i] + lane for i ≡ l (mod 16) in order, then
// the lanes added in halves: p_l = v_l + v_{l+8}, q_l = p_l + p_{l+4}, (q_0 + q_2) + (q_1 + q_3)
// (the tree of _mm512_reduce_add_ps, computed on two 8-lane registers).
func dot16F32(fused bool) {
	fn := "dot16F32" + fusedName(fused)
	TEXT(fn, NOSPLIT, "func(x, w *float32, n int) float32")
	Pragma("noescape")
	Doc(fn+" returns Σ x[i]·w[i] for i < n, n a multiple of 16, in 16 lanes added in halves",
		"("+map[bool]string{false: "each product rounded", true: "fused multiply-adds"}[fused]+").")
	px := ld("x")
	pw := ld("w")
	n := ld("n")
	a0, a1, t0, t1, x0, x1 := YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	VXORPS(a0, a0, a0)
	VXORPS(a1, a1, a1)
	loops(fn, n, 16, 1, func(int) {
		VMOVUPS(Mem{Base: px}, x0)
		VMOVUPS(Mem{Base: px, Disp: 32}, x1)
		madd(fused, Mem{Base: pw}, x0, a0, t0)
		madd(fused, Mem{Base: pw, Disp: 32}, x1, a1, t1)
	}, func(k int) { ADDQ(U32(64*k), px); ADDQ(U32(64*k), pw) })
	VADDPS(a1, a0, a0) // p_l, l < 8
	hiX := XMM()
	VEXTRACTF128(U8(1), a0, hiX)
	q := a0.AsX()
	VADDPS(hiX, q, q) // q_l = p_l + p_{l+4}, l < 4
	h := XMM()
	VMOVHLPS(q, q, h) // h = q_2, q_3, …
	VADDPS(h, q, q)   // q_0 + q_2, q_1 + q_3
	r := XMM()
	VMOVSHDUP(q, r) // r_0 = q_1 + q_3
	VADDSS(r, q, q)
	VMOVSS(q, argAddr(ReturnIndex(0)))
	VZEROUPPER()
	RET()
}

// creluDot generates creluDotAVX2(acc, w *int16, n int, qa uint64) int64, n a multiple of 16:
// Σ clamp(acc[i], 0, qa)·w[i]. VPMADDWD forms pair sums in int32 (exact: |2·qa·w| < 2^31
// for qa ≤ 32767), which are sign-extended and summed in int64 lanes, so the total is exact
// for any length. One AVX2 kernel serves every vector level.
func creluDot() {
	fn := "creluDotAVX2"
	TEXT(fn, NOSPLIT, "func(acc, w *int16, n int, qa uint64) int64")
	Pragma("noescape")
	Doc(fn+" returns Σ clamp(acc[i], 0, qa)·w[i] for i < n, n a multiple of 16, exactly (pair sums",
		"in int32, totals in int64).")
	pa := ld("acc")
	pw := ld("w")
	n := ld("n")
	zero, cq, s0, s1 := YMM(), YMM(), YMM(), YMM()
	VPXOR(zero, zero, zero)
	VPXOR(s0, s0, s0)
	VPXOR(s1, s1, s1)
	q := XMM()
	VMOVQ(ld("qa"), q)
	VPBROADCASTW(q, cq)
	loops(fn, n, 16, 1, func(int) {
		x, lo, hi := YMM(), YMM(), YMM()
		VMOVDQU(Mem{Base: pa}, x)
		VPMAXSW(zero, x, x)
		VPMINSW(cq, x, x)
		VPMADDWD(Mem{Base: pw}, x, x)
		VPMOVSXDQ(x.AsX(), lo)
		VEXTRACTI128(U8(1), x, hi.AsX())
		VPMOVSXDQ(hi.AsX(), hi)
		VPADDQ(lo, s0, s0)
		VPADDQ(hi, s1, s1)
	}, func(k int) { ADDQ(U32(32*k), pa); ADDQ(U32(32*k), pw) })
	VPADDQ(s1, s0, s0)
	h := XMM()
	VEXTRACTI128(U8(1), s0, h)
	VPADDQ(h, s0.AsX(), h)
	t := XMM()
	VPUNPCKHQDQ(h, h, t)
	VPADDQ(t, h, h)
	r := GP64()
	VMOVQ(h, r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// activationF32 generates activationF32{ReLU,CReLU,SCReLU}(dst, src *float32, n int), n a
// multiple of 8: r = VMAXPS(x, 0), which is x when x > 0 and +0 otherwise (−0 and NaN give
// +0); CReLU and SCReLU then take VMINPS(r, 1), r when r < 1 and 1 otherwise, and SCReLU
// squares it (one rounding).
func activationF32(act string) {
	fn := "activationF32" + act
	TEXT(fn, NOSPLIT, "func(dst, src *float32, n int)")
	Pragma("noescape")
	Doc(fn+" applies the float "+act+" to src[i] into dst[i] for i < n, n a multiple of 8",
		"(x > 0 ? x : +0, then for CReLU/SCReLU r < 1 ? r : 1, squared for SCReLU).")
	dst := ld("dst")
	src := ld("src")
	n := ld("n")
	zero, one := YMM(), YMM()
	VXORPS(zero, zero, zero)
	if act != "ReLU" {
		g := GP32()
		MOVL(U32(0x3f800000), g) // 1.0
		x := XMM()
		VMOVD(g, x)
		VBROADCASTSS(x, one)
	}
	loops(fn, n, 8, 1, func(int) {
		x := YMM()
		VMOVUPS(Mem{Base: src}, x)
		VMAXPS(zero, x, x) // x > 0 ? x : 0
		if act != "ReLU" {
			VMINPS(one, x, x) // x < 1 ? x : 1
		}
		if act == "SCReLU" {
			VMULPS(x, x, x)
		}
		VMOVUPS(x, Mem{Base: dst})
	}, func(k int) { ADDQ(U32(32*k), dst); ADDQ(U32(32*k), src) })
	VZEROUPPER()
	RET()
}
