package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Permutation tables, built once.
var (
	permQ512 Mem // qword order fixing two 512-bit packs: 0 2 4 6 1 3 5 7
	permD256 Mem // dword order fixing two rounds of 256-bit packs: 0 4 1 5 2 6 3 7
	permD512 Mem // dword order fixing two rounds of 512-bit packs: 4·(j%4) + j/4
	tablesOK bool
)

func tables() {
	if tablesOK {
		return
	}
	tablesOK = true
	permQ512 = GLOBL("permQ512", RODATA|NOPTR)
	for j, v := range []uint64{0, 2, 4, 6, 1, 3, 5, 7} {
		DATA(8*j, U64(v))
	}
	permD256 = GLOBL("permD256", RODATA|NOPTR)
	for j, v := range []uint32{0, 4, 1, 5, 2, 6, 3, 7} {
		DATA(4*j, U32(v))
	}
	permD512 = GLOBL("permD512", RODATA|NOPTR)
	for j := 0; j < 16; j++ {
		DATA(4*j, U32(uint32(4*(j%4)+j/4)))
	}
}

// loops emits the usual block structure: while n ≥ unroll·per run body for each u <
// unroll and advance; then while n ≥ per run body(0) and advance. n counts elements.
func loops(fn string, n reg.GPVirtual, per, unroll int, body func(u int), advance func(blocks int)) {
	ks := []int{unroll}
	if unroll > 1 {
		ks = append(ks, 1)
	}
	for _, k := range ks {
		lbl := fmt.Sprintf("%s_loop%d", fn, k)
		SUBQ(U32(per*k), n)
		JB(LabelRef(lbl + "_end"))
		alignLoop()
		Label(lbl)
		for u := 0; u < k; u++ {
			body(u)
		}
		advance(k)
		SUBQ(U32(per*k), n)
		JAE(LabelRef(lbl))
		Label(lbl + "_end")
		ADDQ(U32(per*k), n)
	}
}

// permQ returns the register holding the qword fix-up table for 512-bit packs (nil for
// AVX2, which uses VPERMQ $0xD8).
func permQ(s isa) reg.VecVirtual {
	if !s.wide {
		return nil
	}
	tables()
	idx := ZMM()
	VMOVDQU64(permQ512, idx)
	return idx
}

// packFixQ reorders the bytes of a register produced by packing two registers within
// 128-bit lanes: VPERMQ $0xD8 for 256 bits, the qword table idx for 512 bits.
func packFixQ(r, idx reg.VecVirtual, wide bool) {
	if wide {
		VPERMQ(r, idx, r)
	} else {
		VPERMQ(U8(0xD8), r, r)
	}
}

// allOnes sets every bit of r (VPCMPEQW writes a mask register on 512-bit vectors).
func allOnes(s isa, r reg.VecVirtual) {
	if s.wide {
		VPTERNLOGD(U8(0xFF), r, r, r)
	} else {
		VPCMPEQW(r, r, r)
	}
}

// width returns the register of width w bytes (32 or 64) aliasing r.
func width(r reg.VecVirtual, w int) reg.VecVirtual {
	if w == 32 {
		return half(r)
	}
	return r
}

// clippedReLU16 generates clippedReLU16+ISA(dst *uint8, src *int16, n int), n a multiple
// of 32: dst = clamp(src, 0, 127) via signed-saturating pack (clamp(sat8(x), 0, 127) =
// clamp(x, 0, 127)), VPMAXSB with zero, and a lane fix-up.
func clippedReLU16(s isa) {
	fn := "clippedReLU16" + s.name
	TEXT(fn, NOSPLIT, "func(dst *uint8, src *int16, n int)")
	Pragma("noescape")
	Doc(fn + " sets dst[i] = clamp(src[i], 0, 127) for i < n, n a multiple of 32.")
	dst := ld("dst")
	src := ld("src")
	n := ld("n")
	idx := permQ(s)
	zero := s.vec()
	s.zero(zero)
	block := func(w int, wide bool, dOff, sOff int) {
		vec := YMM
		if wide {
			vec = ZMM
		}
		a, b := vec(), vec()
		s.mov(Mem{Base: src, Disp: sOff}, a)
		s.mov(Mem{Base: src, Disp: sOff + w}, b)
		VPACKSSWB(b, a, a)
		VPMAXSB(width(zero, w), a, a)
		packFixQ(a, idx, wide)
		s.mov(a, Mem{Base: dst, Disp: dOff})
	}
	w := s.bytes
	loops(fn, n, w, 2, func(u int) { block(w, s.wide, u*w, 2*u*w) },
		func(k int) { ADDQ(U32(k*w), dst); ADDQ(U32(2*k*w), src) })
	if s.wide {
		TESTQ(n, n)
		JZ(LabelRef(fn + "_done"))
		block(32, false, 0, 0)
	}
	Label(fn + "_done")
	VZEROUPPER()
	RET()
}

// shiftCount loads a shift parameter into an XMM register for VPSRAD/VPSRLQ, which use
// the whole low quadword as an unsigned count (counts ≥ the element width fill with the
// sign bit or zero, as Go's shifts do).
func shiftCount() reg.VecVirtual {
	sh := ld("shift")
	x := XMM()
	VMOVQ(sh, x)
	return x
}

// packD32 packs four registers of int32 into one register of int8 with signed
// saturation, then applies max with zero and restores element order.
// idx512 and idx256 hold permD512 and permD256.
func packD32(v [4]reg.VecVirtual, zero, idx512, idx256 reg.VecVirtual, wide bool) {
	VPACKSSDW(v[1], v[0], v[0])
	VPACKSSDW(v[3], v[2], v[2])
	VPACKSSWB(v[2], v[0], v[0])
	if wide {
		VPMAXSB(zero, v[0], v[0])
		VPERMD(v[0], idx512, v[0])
	} else {
		VPMAXSB(half(zero), v[0], v[0])
		VPERMD(v[0], idx256, v[0])
	}
}

// permD loads the dword fix-up tables: (512-bit or nil, 256-bit).
func permD(s isa) (reg.VecVirtual, reg.VecVirtual) {
	tables()
	var i512 reg.VecVirtual
	if s.wide {
		i512 = ZMM()
		VMOVDQU64(permD512, i512)
	}
	i256 := YMM()
	s.mov(permD256, i256)
	return i512, i256
}

// clippedReLU32 generates clippedReLU32+ISA(dst *uint8, src *int32, n int, shift uint),
// n a multiple of 32: dst = clamp(src >> shift, 0, 127). VPSRAD is Go's arithmetic
// shift; the two signed-saturating packs keep clamp exact because 127 < 2^15.
func clippedReLU32(s isa) {
	fn := "clippedReLU32" + s.name
	TEXT(fn, NOSPLIT, "func(dst *uint8, src *int32, n int, shift uint)")
	Pragma("noescape")
	Doc(fn + " sets dst[i] = clamp(src[i] >> shift, 0, 127) for i < n, n a multiple of 32.")
	dst := ld("dst")
	src := ld("src")
	n := ld("n")
	cnt := shiftCount()
	i512, i256 := permD(s)
	zero := s.vec()
	s.zero(zero)
	block := func(w int, wide bool, dOff, sOff int) {
		vec := YMM
		if wide {
			vec = ZMM
		}
		var v [4]reg.VecVirtual
		for k := range v {
			v[k] = vec()
			s.mov(Mem{Base: src, Disp: sOff + k*w}, v[k])
			VPSRAD(cnt, v[k], v[k])
		}
		packD32(v, zero, i512, i256, wide)
		s.mov(v[0], Mem{Base: dst, Disp: dOff})
	}
	w := s.bytes
	loops(fn, n, w, 1, func(u int) { block(w, s.wide, u*w, 4*u*w) },
		func(k int) { ADDQ(U32(k*w), dst); ADDQ(U32(4*k*w), src) })
	if s.wide {
		TESTQ(n, n)
		JZ(LabelRef(fn + "_done"))
		block(32, false, 0, 0)
	}
	Label(fn + "_done")
	VZEROUPPER()
	RET()
}

// sqrClippedReLU32 generates sqrClippedReLU32+ISA(dst *uint8, src *int32, n int, shift
// uint): dst = min(127, (src·src) >> shift) with the square in int64 (VPMULDQ), a
// logical 64-bit shift (the square is non-negative) and an unsigned 64-bit min. AVX2: n a
// multiple of 32; AVX-512: n a multiple of 16.
func sqrClippedReLU32(s isa) {
	fn := "sqrClippedReLU32" + s.name
	TEXT(fn, NOSPLIT, "func(dst *uint8, src *int32, n int, shift uint)")
	Pragma("noescape")
	dst := ld("dst")
	src := ld("src")
	n := ld("n")
	cnt := shiftCount()
	c := GP64()
	MOVQ(U32(127), c)
	if s.wide {
		Doc(fn + " sets dst[i] = min(127, (src[i]·src[i]) >> shift) for i < n, n a multiple of 16.")
		c127 := ZMM()
		VPBROADCASTQ(c, c127)
		// 16 elements per step: squares of the even and the odd elements as int64
		// (VPMULDQ), shifted and clamped, recombined into 16 dwords ≤ 127, truncated
		// to bytes with VPMOVDB.
		loops(fn, n, 16, 2, func(u int) {
			v, e, o := ZMM(), ZMM(), ZMM()
			VMOVDQU64(Mem{Base: src, Disp: 64 * u}, v)
			VPMULDQ(v, v, e)
			VPSRLQ(U8(32), v, o)
			VPMULDQ(o, o, o)
			VPSRLQ(cnt, e, e)
			VPSRLQ(cnt, o, o)
			VPMINUQ(c127, e, e)
			VPMINUQ(c127, o, o)
			VPSLLQ(U8(32), o, o)
			VPORD(o, e, e)
			x := XMM()
			VPMOVDB(e, x)
			VMOVDQU64(x, Mem{Base: dst, Disp: 16 * u})
		}, func(k int) { ADDQ(U32(16*k), dst); ADDQ(U32(64*k), src) })
	} else {
		Doc(fn + " sets dst[i] = min(127, (src[i]·src[i]) >> shift) for i < n, n a multiple of 32.")
		_, i256 := permD(s)
		zero := YMM()
		VPXOR(zero, zero, zero)
		c127 := YMM()
		x := XMM()
		VMOVQ(c, x)
		VPBROADCASTQ(x, c127)
		loops(fn, n, 32, 1, func(int) {
			var d [4]reg.VecVirtual
			for k := range d {
				d[k] = sqrClip8(Mem{Base: src, Disp: 32 * k}, cnt, c127)
			}
			packD32(d, zero, nil, i256, false)
			VMOVDQU(d[0], Mem{Base: dst})
		}, func(k int) { ADDQ(U32(32*k), dst); ADDQ(U32(128*k), src) })
	}
	VZEROUPPER()
	RET()
}

// hsum reduces the int32 lanes of v (any width) to one int32 in the low lane of the
// returned XMM register, with wrapping adds.
func hsum(s isa, v reg.VecVirtual, wide bool) reg.VecVirtual {
	y := v
	if wide {
		t := YMM()
		VEXTRACTI64X4(U8(1), v, t)
		y = half(v)
		VPADDD(t, y, y)
	}
	x := XMM()
	if s.wide {
		VEXTRACTI32X4(U8(1), y, x)
	} else {
		VEXTRACTI128(U8(1), y, x)
	}
	lo := y.AsX()
	VPADDD(lo, x, x)
	t := XMM()
	VPSHUFD(U8(0x4E), x, t)
	VPADDD(t, x, x)
	VPSHUFD(U8(0xB1), x, t)
	VPADDD(t, x, x)
	return x
}

// screluDot generates screluDot+ISA(acc, w *int16, n int, qa int16) int32, n a multiple
// of 16: Σ int32(int16(v·w))·v, v = clamp(acc, 0, qa) — VPMULLW gives the wrapped int16
// product and VPMADDWD the exact int32 pair sums (its only overflow, all four operands
// −32768, wraps to −2^31 exactly as Go's int32 arithmetic does).
func screluDot(s isa) {
	fn := "screluDot" + s.name
	TEXT(fn, NOSPLIT, "func(acc, w *int16, n int, qa int16) int32")
	Pragma("noescape")
	Doc(fn+" returns Σ_i int32(int16(v·w[i]))·v, v = clamp(acc[i], 0, qa), for i < n,",
		"n a multiple of 16 (wrapping int32 sums).")
	pacc := ld("acc")
	pw := ld("w")
	n := ld("n")
	q := GP32()
	Load(Param("qa"), q)
	xq := XMM()
	VMOVQ(q.As64(), xq)
	qv, z := s.vec(), s.vec()
	VPBROADCASTW(xq, qv)
	s.zero(z)
	sums := [2]reg.VecVirtual{s.vec(), s.vec()}
	s.zero(sums[0])
	s.zero(sums[1])
	elems := s.bytes / 2
	step := func(w int, wide bool, u int, sum reg.VecVirtual, qv, z reg.VecVirtual) {
		vec := YMM
		if wide {
			vec = ZMM
		}
		v, t := vec(), vec()
		s.mov(Mem{Base: pacc, Disp: u * w}, v)
		VPMAXSW(z, v, v)
		VPMINSW(qv, v, v)
		VPMULLW(Mem{Base: pw, Disp: u * w}, v, t)
		VPMADDWD(v, t, t)
		VPADDD(t, sum, sum)
	}
	loops(fn, n, elems, 2, func(u int) { step(s.bytes, s.wide, u, sums[u], qv, z) },
		func(k int) { ADDQ(U32(k*s.bytes), pacc); ADDQ(U32(k*s.bytes), pw) })
	if s.wide {
		TESTQ(n, n)
		JZ(LabelRef(fn + "_sum"))
		// 16 elements left: a 256-bit step into the low half of sums[1] (its upper half
		// is preserved by adding into the full register).
		v, t := YMM(), YMM()
		s.mov(Mem{Base: pacc}, v)
		VPMAXSW(half(z), v, v)
		VPMINSW(half(qv), v, v)
		VPMULLW(Mem{Base: pw}, v, t)
		VPMADDWD(v, t, t)
		tz := ZMM()
		VMOVDQU64(t, half(tz)) // zero-extends into tz
		VPADDD(tz, sums[1], sums[1])
	}
	Label(fn + "_sum")
	VPADDD(sums[1], sums[0], sums[0])
	x := hsum(s, sums[0], s.wide)
	r := GP32()
	VMOVD(x, r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// sqrCReLUPair generates sqrCReLUPairAVX2(dst *uint8, src *int32, sqrShift, shift uint):
// SFNNv5's activation pair on one 16-element fc_0 output, dst[0:16] = min(127,
// (src·src) >> sqrShift) (sqrClippedReLU32's int64 squares) and dst[16:32] = clamp(src >>
// shift, 0, 127) (clippedReLU32's packs), one 32-byte store. VEX only, so every AVX level
// runs it.
func sqrCReLUPair() {
	fn := "sqrCReLUPairAVX2"
	TEXT(fn, NOSPLIT, "func(dst *uint8, src *int32, sqrShift, shift uint)")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = min(127, (src[i]·src[i]) >> sqrShift) and dst[16+i] =",
		"clamp(src[i] >> shift, 0, 127) for i < 16.")
	dst, src := ld("dst"), ld("src")
	sq := XMM()
	VMOVQ(ld("sqrShift"), sq)
	cnt := shiftCount()
	i256, zero, c127 := pairConsts()
	var v [2]reg.VecVirtual
	for k := range v {
		v[k] = YMM()
		VMOVDQU(Mem{Base: src, Disp: 32 * k}, v[k])
	}
	VMOVDQU(sqrCReLUPairRegs(v, sq, cnt, c127, zero, i256), Mem{Base: dst})
	VZEROUPPER()
	RET()
}

// pairConsts loads the constants of sqrCReLUPairRegs: permD256, a zero YMM and 127 in
// every int64 lane of a YMM.
func pairConsts() (i256, zero, c127 reg.VecVirtual) {
	_, i256 = permD(avx2)
	zero = YMM()
	VPXOR(zero, zero, zero)
	c := GP64()
	MOVQ(U32(127), c)
	c127 = YMM()
	x := XMM()
	VMOVQ(c, x)
	VPBROADCASTQ(x, c127)
	return i256, zero, c127
}

// sqrCReLUPairRegs emits the activation pair on the 16 int32 of v (two YMM, kept) and
// returns a YMM holding min(127, (v·v) >> sq) in bytes 0–15 and clamp(v >> cnt, 0, 127)
// in bytes 16–31, in element order (sq and cnt XMM shift counts, c127 = 127 in every
// int64 lane, zero a zero YMM, i256 permD256).
func sqrCReLUPairRegs(v [2]reg.VecVirtual, sq, cnt, c127, zero, i256 reg.VecVirtual) reg.VecVirtual {
	var d [4]reg.VecVirtual
	for k := range v {
		d[k] = sqrClip8Reg(v[k], sq, c127)
		r := YMM()
		VPSRAD(cnt, v[k], r)
		d[2+k] = r
	}
	packD32(d, zero, nil, i256, false)
	return d[0]
}

// clippedReLUDot32 generates clippedReLUDot32AVX2(x *int32, w *int8, n int, shift uint)
// int32, n a positive multiple of 8: Σ clamp(x[i] >> shift, 0, 127)·w[i] with wrapping
// int32 sums — a network's last ClippedReLU and its Affine(n→1) without the uint8 round
// trip (VPSRAD, VPMAXSD 0, VPMINSD 127, VPMOVSXBD of 8 weights, VPMULLD, VPADDD). VEX
// only, so every AVX level runs it.
func clippedReLUDot32() {
	fn := "clippedReLUDot32AVX2"
	TEXT(fn, NOSPLIT, "func(x *int32, w *int8, n int, shift uint) int32")
	Pragma("noescape")
	Doc(fn+" returns Σ clamp(x[i] >> shift, 0, 127)·w[i] over i < n, n a positive multiple",
		"of 8, in wrapping int32.")
	px, pw, n := ld("x"), ld("w"), ld("n")
	cnt := shiftCount()
	zero, c127, acc := YMM(), YMM(), YMM()
	VPXOR(zero, zero, zero)
	VPXOR(acc, acc, acc)
	c := GP32()
	MOVL(U32(127), c)
	t := XMM()
	VMOVD(c, t)
	VPBROADCASTD(t, c127)
	loops(fn, n, 8, 1, func(int) {
		v, wv := YMM(), YMM()
		VMOVDQU(Mem{Base: px}, v)
		VPSRAD(cnt, v, v)
		VPMAXSD(zero, v, v)
		VPMINSD(c127, v, v)
		VPMOVSXBD(Mem{Base: pw}, wv)
		VPMULLD(wv, v, v)
		VPADDD(v, acc, acc)
	}, func(k int) { ADDQ(U32(32*k), px); ADDQ(U32(8*k), pw) })
	s := hsum(avx2, acc, false)
	r := GP32()
	VMOVD(s, r)
	VZEROUPPER()
	Store(r, ReturnIndex(0))
	RET()
}

// sqrClip8 loads eight int32 from src and returns min(127, (x·x) >> cnt) of each, in the
// low half of each 64-bit lane pair's int32 slots (VPMULDQ squares as int64, shifted by the
// XMM count cnt, clamped against c127 = 127 in every int64 lane; AVX2, no unsigned 64-bit
// minimum before AVX-512).
func sqrClip8(src Mem, cnt, c127 reg.VecVirtual) reg.VecVirtual {
	v := YMM()
	VMOVDQU(src, v)
	return sqrClip8Reg(v, cnt, c127)
}

// sqrClip8Reg is sqrClip8 on the eight int32 already in v (kept).
func sqrClip8Reg(v, cnt, c127 reg.VecVirtual) reg.VecVirtual {
	e, o, m := YMM(), YMM(), YMM()
	VPMULDQ(v, v, e) // squares of elements 0, 2, 4, 6 as int64
	VPSRLQ(U8(32), v, o)
	VPMULDQ(o, o, o) // squares of elements 1, 3, 5, 7
	VPSRLQ(cnt, e, e)
	VPSRLQ(cnt, o, o)
	VPCMPGTQ(c127, e, m)
	VPBLENDVB(m, c127, e, e)
	VPCMPGTQ(c127, o, m)
	VPBLENDVB(m, c127, o, o)
	VPSLLQ(U8(32), o, o)
	VPOR(o, e, e)
	return e
}

// pairProduct loads one vector (made by vec) of int16 from pa+off and from pb+off and returns
// (clamp(a, 0, 127)·clamp(b, 0, 127)) >> 7 in its int16 lanes; z and c hold 0 and 127 at
// the vector's width. Shared by pairwiseMul and pairwiseMulNNZ.
func pairProduct(s isa, vec func() reg.VecVirtual, pa, pb reg.GPVirtual, off int, z, c reg.Register) reg.VecVirtual {
	x, y := vec(), vec()
	s.mov(Mem{Base: pa, Disp: off}, x)
	s.mov(Mem{Base: pb, Disp: off}, y)
	VPMAXSW(z, x, x)
	VPMINSW(c, x, x)
	VPMAXSW(z, y, y)
	VPMINSW(c, y, y)
	VPMULLW(y, x, x)
	VPSRLW(U8(7), x, x)
	return x
}
