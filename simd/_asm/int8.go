package main

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Kernels that widen int8 weight rows to int16 (VPMOVSXBW) and add or subtract them into
// an int16 accumulator (Stockfish 19's threat and pawn-pair rows). A vector of w bytes of
// int16 takes w/2 bytes of int8: VPMOVSXBW m128 → ymm (AVX2) or m256 → zmm (AVX-512 BW).

// widen sign-extends the int8 vector at m into the int16 register r (any width).
func widen(m Mem, r reg.VecVirtual) { VPMOVSXBW(m, r) }

// accumulateI8 generates name+ISA: dst[i] = src[i] (+ add[i]) (− sub[i]) over n int16,
// add and sub int8, n a multiple of 16; four (AVX2) or eight (AVX-512) vectors per
// iteration, then single vectors, then (AVX-512) a last 16-element half.
func accumulateI8(s isa, name string, add, sub bool) {
	params := []string{"dst", "src"}
	var i8 []string
	if add {
		i8 = append(i8, "add")
	}
	if sub {
		i8 = append(i8, "sub")
	}
	fn := name + s.name
	TEXT(fn, NOSPLIT, "func(dst, src *int16, "+strings.Join(i8, ", ")+" *int8, n int)")
	Pragma("noescape")
	var f []string
	for _, p := range i8 {
		op := "+"
		if p == "sub" {
			op = "−"
		}
		f = append(f, fmt.Sprintf("%s int16(%s[i])", op, p))
	}
	Doc(fmt.Sprintf("%s sets dst[i] = src[i] %s for i < n, n a multiple of 16 (int8 widened, int16 wrapping).",
		fn, strings.Join(f, " ")))
	ptr := map[string]reg.GPVirtual{}
	for _, p := range append(params, i8...) {
		ptr[p] = ld(p)
	}
	n := ld("n")
	SHLQ(U8(1), n) // bytes of int16

	body := func(w int, vec func() reg.VecVirtual, unroll int) {
		vs := make([]reg.VecVirtual, unroll)
		for u := range vs {
			vs[u] = vec()
			s.mov(Mem{Base: ptr["src"], Disp: u * w}, vs[u])
		}
		for u := range vs {
			for _, p := range i8 {
				t := vec()
				widen(Mem{Base: ptr[p], Disp: u * w / 2}, t)
				if p == "add" {
					VPADDW(t, vs[u], vs[u])
				} else {
					VPSUBW(t, vs[u], vs[u])
				}
			}
			s.mov(vs[u], Mem{Base: ptr["dst"], Disp: u * w})
		}
		for _, p := range params {
			ADDQ(U32(unroll*w), ptr[p])
		}
		for _, p := range i8 {
			ADDQ(U32(unroll*w/2), ptr[p])
		}
	}
	unroll := 4
	if s.wide {
		unroll = 8
	}
	blockLoop := func(lbl string, regs int) {
		step := regs * s.bytes
		SUBQ(U32(step), n)
		JB(LabelRef(lbl + "_end"))
		alignLoop()
		Label(lbl)
		body(s.bytes, s.vec, regs)
		SUBQ(U32(step), n)
		JAE(LabelRef(lbl))
		Label(lbl + "_end")
		ADDQ(U32(step), n)
	}
	blockLoop(fn+"_loopU", unroll)
	blockLoop(fn+"_loop1", 1)
	if s.wide {
		TESTQ(n, n)
		JZ(LabelRef(fn + "_done"))
		body(32, YMM, 1)
	}
	Label(fn + "_done")
	VZEROUPPER()
	RET()
}

// updateI8 generates updateI8+ISA: dst[i] = src[i] + Σ_{r in add} weights[r·n + i] −
// Σ_{r in sub} weights[r·n + i], int8 weights widened, n a multiple of 16. As refresh, the
// accumulator is processed in tiles of up to 8 (AVX2) or 16 (AVX-512) vector registers
// that stay in registers while every row is added and subtracted.
func updateI8(s isa) {
	fn := "updateI8" + s.name
	TEXT(fn, NOSPLIT, "func(dst, src *int16, weights *int8, add *int, nadd int, sub *int, nsub int, n int)")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = src[i] + Σ_k weights[add[k]·n + i] − Σ_k weights[sub[k]·n + i] for i < n",
		"(int8 weights widened to int16, wrapping); n is a multiple of 16 and every row index must be",
		"valid (the caller checks).")
	dst := ld("dst")
	src := ld("src")
	w := ld("weights")
	n := ld("n")
	rowBytes := GP64()
	MOVQ(n, rowBytes) // int8 row length in bytes
	SHLQ(U8(1), n)    // int16 bytes left

	tileLoop(s, fn, tileSteps(s.wide), n, dst, src, w, 2, func(lbl string, acc []reg.VecVirtual, st tileStep, vec func() reg.VecVirtual) {
		tmp := vec()
		for _, kind := range []string{"add", "sub"} {
			rp := GP64()
			cnt := GP64()
			Load(Param(kind), rp)
			Load(Param("n"+kind), cnt)
			rowLoop := lbl + "_" + kind
			rowDone := lbl + "_" + kind + "_done"
			alignLoop()
			Label(rowLoop)
			TESTQ(cnt, cnt)
			JZ(LabelRef(rowDone))
			off := GP64()
			MOVQ(Mem{Base: rp}, off)
			IMULQ(rowBytes, off)
			for r := range acc {
				widen(Mem{Base: w, Index: off, Scale: 1, Disp: r * st.width / 2}, tmp)
				if kind == "add" {
					VPADDW(tmp, acc[r], acc[r])
				} else {
					VPSUBW(tmp, acc[r], acc[r])
				}
			}
			ADDQ(U8(8), rp)
			DECQ(cnt)
			JMP(LabelRef(rowLoop))
			Label(rowDone)
		}
	})
	VZEROUPPER()
	RET()
}
