package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// pairLoops emits updatePair's value loops: ptr holds the eight operand addresses (dst0,
// src0, add0, sub0, dst1, src1, add1, sub1), off the row length in bytes (a multiple of
// 32). As accumulate: every pointer advanced to its end once, one negative byte offset
// indexes all eight operands; an iteration handles four vectors of each perspective
// (eight registers), so a 256-element Stockfish 13 accumulator is four iterations at
// AVX2, two at AVX-512; then single vectors, and the AVX-512 version finishes a last
// 16-element block with 256-bit vectors. It returns.
func pairLoops(s isa, fn string, ptr map[string]reg.GPVirtual, off reg.GPVirtual) {
	rowLoops(s, fn, ptr, off, []string{"0", "1"}, 4)
}

// rowLoops emits the value loops of updatePair (perspectives "0" and "1", unroll 4) and
// addSubPSQT (perspective "0", unroll 8): dst_p = src_p + add_p − sub_p over off bytes
// (a multiple of 32), unroll vectors of each listed perspective per iteration, then
// single vectors, then (AVX-512) a last 256-bit vector; it returns.
func rowLoops(s isa, fn string, ptr map[string]reg.GPVirtual, off reg.GPVirtual, persps []string, unrollU int) {
	for _, q := range persps {
		for _, p := range []string{"dst", "src", "add", "sub"} {
			ADDQ(off, ptr[p+q])
		}
	}
	NEGQ(off)

	body := func(w int, vec func() reg.VecVirtual, mov func(a, b Op), unroll, disp int) {
		at := func(p string, u int) Mem { return Mem{Base: ptr[p], Index: off, Scale: 1, Disp: disp + u*w} }
		for _, q := range persps {
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
	blockLoop(fn+"_loopU", unrollU)
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

// updatePair generates updatePair+ISA: a quiet move's whole accumulator update, both
// perspectives and the PSQT sums, in one call (Stockfish 15.1
// nnue_feature_transformer.h update_accumulator does the same per perspective, its PSQT
// tiles after the value tiles). dst, src, pdst and psrc point at [2][]T arrays (one slice
// per perspective; the data pointer is the first word of a slice header, the next one 24
// bytes on); rows add_p and sub_p of the n-int16-wide weights are added and subtracted
// (pairLoops; FeatureRows.AddSubPair is this kernel with pw nil). With pw non-nil, the PSQT rows — 8 int32 per feature at pw — are applied
// first: pdst[p] = psrc[p] + pw[add_p] − pw[sub_p] with one 256-bit load, add, subtract
// and store per perspective. They come first because their rows are as cold as the
// weight rows: issued before the long value loop, their misses overlap it instead of
// waiting at the end (against the PSQT sums in Go after the kernel, SF15.1's quiet update
// takes ≈ 170 instead of ≈ 215 ns, paired in-process at AVX2; doc/benchmarks.md).
func updatePair(s isa) {
	fn := "updatePair" + s.name
	TEXT(fn, NOSPLIT, "func(dst, src *[2][]int16, w *int16, pdst, psrc *[2][]int32, pw *int32, add0, sub0, add1, sub1, n int)")
	Pragma("noescape")
	Doc(fn+" sets (*dst)[p][i] = (*src)[p][i] + w[add_p·n + i] − w[sub_p·n + i] for i < n and p = 0, 1",
		"(int16, wrapping), n a multiple of 16, and with pw non-nil (*pdst)[p][b] = (*psrc)[p][b] +",
		"pw[8·add_p + b] − pw[8·sub_p + b] for b < 8 (int32, wrapping). The caller checks every",
		"slice length and row index.")
	pw := ld("pw")
	TESTQ(pw, pw)
	JZ(LabelRef(fn + "_rows"))
	{
		pdv, psv := ld("pdst"), ld("psrc")
		for p, names := range [2][2]string{{"add0", "sub0"}, {"add1", "sub1"}} {
			v := YMM()
			t := GP64()
			MOVQ(Mem{Base: psv, Disp: 24 * p}, t)
			VMOVDQU(Mem{Base: t}, v)
			ia, is := ld(names[0]), ld(names[1])
			SHLQ(U8(5), ia)
			SHLQ(U8(5), is)
			VPADDD(Mem{Base: pw, Index: ia, Scale: 1}, v, v)
			VPSUBD(Mem{Base: pw, Index: is, Scale: 1}, v, v)
			MOVQ(Mem{Base: pdv, Disp: 24 * p}, t)
			VMOVDQU(v, Mem{Base: t})
		}
	}
	Label(fn + "_rows")
	off := ld("n")
	SHLQ(U8(1), off)
	ptr := map[string]reg.GPVirtual{}
	dv, sv := ld("dst"), ld("src")
	for p, q := range []string{"0", "1"} {
		ptr["dst"+q], ptr["src"+q] = GP64(), GP64()
		MOVQ(Mem{Base: dv, Disp: 24 * p}, ptr["dst"+q])
		MOVQ(Mem{Base: sv, Disp: 24 * p}, ptr["src"+q])
	}
	w := ld("w")
	for _, r := range []string{"add0", "sub0", "add1", "sub1"} {
		i := ld(r)
		IMULQ(off, i)
		ADDQ(w, i)
		ptr[r] = i
	}
	pairLoops(s, fn, ptr, off)
}

// addSubPSQT generates addSubPSQT+ISA: one perspective's one-in, one-out update with its
// PSQT sums (nnue.Accumulator.UpdateFrom for one feature in and one out, e.g. the other
// perspective of a king move): with padd non-nil first pdst[b] = psrc[b] + padd[b] −
// psub[b] for b < 8 (one 256-bit load, add, subtract, store: the cold PSQT rows' misses
// then overlap the value loop, as in updatePair), then dst[i] = src[i] + add[i] − sub[i]
// for i < n, n a multiple of 16, 8 vectors per iteration (rowLoops).
func addSubPSQT(s isa) {
	fn := "addSubPSQT" + s.name
	TEXT(fn, NOSPLIT, "func(dst, src, add, sub *int16, pdst, psrc, padd, psub *int32, n int)")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = src[i] + add[i] − sub[i] for i < n (int16, wrapping), n a multiple",
		"of 16, and with padd non-nil first pdst[b] = psrc[b] + padd[b] − psub[b] for b < 8",
		"(int32, wrapping).")
	pa := ld("padd")
	TESTQ(pa, pa)
	JZ(LabelRef(fn + "_rows"))
	{
		v := YMM()
		t := ld("psrc")
		VMOVDQU(Mem{Base: t}, v)
		VPADDD(Mem{Base: pa}, v, v)
		ps := ld("psub")
		VPSUBD(Mem{Base: ps}, v, v)
		d := ld("pdst")
		VMOVDQU(v, Mem{Base: d})
	}
	Label(fn + "_rows")
	off := ld("n")
	SHLQ(U8(1), off)
	ptr := map[string]reg.GPVirtual{}
	for _, p := range []string{"dst", "src", "add", "sub"} {
		ptr[p+"0"] = ld(p)
	}
	rowLoops(s, fn, ptr, off, []string{"0"}, 8)
}
