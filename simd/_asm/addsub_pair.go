package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// addSubPair generates addSubPair+ISA: the one-in, one-out update of both perspectives of
// an accumulator in one call (a quiet move changes one feature of each perspective):
// dst0[i] = src0[i] + add0[i] − sub0[i] and dst1[i] = src1[i] + add1[i] − sub1[i] for
// i < n, n a multiple of 16. As accumulate: every pointer advanced to its end once, one
// negative byte offset indexes all nine operands; an iteration handles four vectors of
// each perspective (eight registers), so a 256-element Stockfish 13 accumulator is four
// iterations at AVX2, two at AVX-512; the AVX-512 version finishes a last 16-element block
// with 256-bit vectors.
func addSubPair(s isa) {
	fn := "addSubPair" + s.name
	params := []string{"dst0", "src0", "add0", "sub0", "dst1", "src1", "add1", "sub1"}
	TEXT(fn, NOSPLIT, "func(dst0, src0, add0, sub0, dst1, src1, add1, sub1 *int16, n int)")
	Pragma("noescape")
	Doc(fn+" sets dst0[i] = src0[i] + add0[i] − sub0[i] and dst1[i] = src1[i] + add1[i] − sub1[i]",
		"for i < n, n a multiple of 16 (int16, wrapping).")
	ptr := map[string]reg.GPVirtual{}
	for _, p := range params {
		ptr[p] = ld(p)
	}
	off := ld("n")
	SHLQ(U8(1), off)
	for _, p := range params {
		ADDQ(off, ptr[p])
	}
	NEGQ(off)

	body := func(w int, vec func() reg.VecVirtual, mov func(a, b Op), unroll, disp int) {
		at := func(p string, u int) Mem { return Mem{Base: ptr[p], Index: off, Scale: 1, Disp: disp + u*w} }
		for _, q := range []string{"0", "1"} {
			vs := make([]reg.VecVirtual, unroll)
			for u := range vs {
				vs[u] = vec()
				mov(at("src"+q, u), vs[u])
			}
			for u := range vs {
				VPADDW(at("add"+q, u), vs[u], vs[u])
				VPSUBW(at("sub"+q, u), vs[u], vs[u])
				mov(vs[u], at("dst"+q, u))
			}
		}
	}
	blockLoop := func(lbl string, regs int) {
		step := regs * s.bytes
		ADDQ(U32(step), off)
		JG(LabelRef(lbl + "_end"))
		alignLoop()
		Label(lbl)
		body(s.bytes, s.vec, s.mov, regs, -step)
		ADDQ(U32(step), off)
		JLE(LabelRef(lbl))
		Label(lbl + "_end")
		SUBQ(U32(step), off)
	}
	blockLoop(fn+"_loopU", 4)
	blockLoop(fn+"_loop1", 1)
	if s.wide {
		TESTQ(off, off)
		JZ(LabelRef(fn + "_done"))
		body(32, YMM, s.mov, 1, 0)
	}
	Label(fn + "_done")
	VZEROUPPER()
	RET()
}
