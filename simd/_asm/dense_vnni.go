package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// affineVNNI16 generates affineVNNI16(out *int32, in *uint8, weights *int8, bias *int32,
// nin, nout int): Affine for row-major weights with nin a positive multiple of 64 and nout
// a positive multiple of 16, at VNNI. Rows are taken sixteen at a time (sixteen VPDPBUSD
// chains per input vector, 32 ZMM registers leave room for them), and the sixteen
// accumulators are reduced together by a transpose tree (dword unpacks, qword unpacks,
// two rounds of VSHUFI64X2, each followed by an add: 45 instructions for 16 rows, where
// affineVNNI's folds and reduce4 take about twice as many for the same rows); the last
// vector holds the 16 row sums in order, plus the bias, stored at once. Exact as
// affineVNNI: VPDPBUSD sums into int32 without saturation, wrapping additions reordered.
func affineVNNI16() {
	fn := "affineVNNI16"
	TEXT(fn, NOSPLIT, affineSig)
	Pragma("noescape")
	Doc(fn+" sets out[j] = bias[j] + Σ_i in[i]·weights[j·nin + i] for j < nout; nin is a",
		"positive multiple of 64, nout of 16, and every input ≤ 127.")
	a := affineParams()
	Label(fn + "_group")
	// Row pointers: p[k] at row 4k of the group; rows 4k+1..4k+3 by index nin, 2nin, 3nin.
	var p [4]reg.GPVirtual
	for k := range p {
		p[k] = GP64()
		if k == 0 {
			MOVQ(a.w, p[k])
		} else {
			LEAQ(Mem{Base: p[k-1], Index: a.nin, Scale: 4}, p[k])
		}
	}
	row := func(r int) Mem {
		b := p[r/4]
		switch r % 4 {
		case 0:
			return Mem{Base: b}
		case 1:
			return Mem{Base: b, Index: a.nin, Scale: 1}
		case 2:
			return Mem{Base: b, Index: a.nin, Scale: 2}
		}
		return Mem{Base: b, Index: a.n3, Scale: 1}
	}
	var acc [16]reg.VecVirtual
	for r := range acc {
		acc[r] = ZMM()
		VPXORD(acc[r], acc[r], acc[r])
	}
	q, c := GP64(), GP64()
	MOVQ(a.in, q)
	MOVQ(a.nin, c)
	alignLoop()
	Label(fn + "_cols")
	x := ZMM()
	VMOVDQU64(Mem{Base: q}, x)
	for r := range acc {
		VPDPBUSD(row(r), x, acc[r])
	}
	for k := range p {
		ADDQ(U8(64), p[k])
	}
	ADDQ(U8(64), q)
	SUBQ(U8(64), c)
	JNZ(LabelRef(fn + "_cols"))

	// Transpose tree: 16 vectors of 16 partial sums → one vector of 16 row sums.
	var s1 [8]reg.VecVirtual
	for k := range s1 {
		t, u := ZMM(), ZMM()
		VPUNPCKLDQ(acc[2*k+1], acc[2*k], t)
		VPUNPCKHDQ(acc[2*k+1], acc[2*k], u)
		VPADDD(u, t, t)
		s1[k] = t
	}
	var s2 [4]reg.VecVirtual
	for k := range s2 {
		t, u := ZMM(), ZMM()
		VPUNPCKLQDQ(s1[2*k+1], s1[2*k], t)
		VPUNPCKHQDQ(s1[2*k+1], s1[2*k], u)
		VPADDD(u, t, t)
		s2[k] = t // per 128-bit lane: rows 4k..4k+3
	}
	var s3 [2]reg.VecVirtual
	for k := range s3 {
		t, u := ZMM(), ZMM()
		VSHUFI64X2(U8(0x88), s2[2*k+1], s2[2*k], t) // lanes 0, 2 of each
		VSHUFI64X2(U8(0xDD), s2[2*k+1], s2[2*k], u) // lanes 1, 3 of each
		VPADDD(u, t, t)
		s3[k] = t // lanes: rows 8k..8k+3 (two halves), rows 8k+4..8k+7 (two halves)
	}
	t, u := ZMM(), ZMM()
	VSHUFI64X2(U8(0x88), s3[1], s3[0], t)
	VSHUFI64X2(U8(0xDD), s3[1], s3[0], u)
	VPADDD(u, t, t)
	VPADDD(Mem{Base: a.bias}, t, t)
	VMOVDQU64(t, Mem{Base: a.out})

	// Next group: weights 16 rows on (p[0] stands at the end of row 0).
	LEAQ(Mem{Base: p[3], Index: a.n3, Scale: 1}, a.w)
	ADDQ(U8(64), a.out)
	ADDQ(U8(64), a.bias)
	SUBQ(U8(16), a.nout)
	JNZ(LabelRef(fn + "_group"))
	VZEROUPPER()
	RET()
}
