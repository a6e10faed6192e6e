package main

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// accumulate generates name+ISA: dst[i] = src[i] + Σ add_k[i] − Σ sub_k[i] over n int16,
// n a multiple of 16. Every pointer is advanced to its end once and one negative byte
// offset, counting up to zero, indexes all operands, so a loop iteration spends two
// instructions (ADDQ, JLE) beyond its loads, adds and stores instead of one ADDQ per
// operand. The main loop handles eight vectors per iteration (a 256-element Stockfish 13
// accumulator is two iterations at AVX2, one at AVX-512); the AVX-512 version finishes a
// last 16-element block with a 256-bit vector.
func accumulate(s isa, name string, nadd, nsub int) {
	var params []string
	params = append(params, "dst", "src")
	addNames, subNames := []string{}, []string{}
	for k := 1; k <= nadd; k++ {
		n := "add"
		if nadd > 1 {
			n = fmt.Sprintf("add%d", k)
		}
		addNames = append(addNames, n)
	}
	for k := 1; k <= nsub; k++ {
		n := "sub"
		if nsub > 1 {
			n = fmt.Sprintf("sub%d", k)
		}
		subNames = append(subNames, n)
	}
	params = append(params, addNames...)
	params = append(params, subNames...)
	fn := name + s.name
	TEXT(fn, NOSPLIT, "func("+strings.Join(params, ", ")+" *int16, n int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets dst[i] = src[i] + %s for i < n, n a multiple of 16 (int16, wrapping).",
		fn, formula(addNames, subNames)))

	ptr := map[string]reg.GPVirtual{}
	for _, p := range params {
		ptr[p] = ld(p)
	}
	off := ld("n")
	SHLQ(U8(1), off) // bytes
	for _, p := range params {
		ADDQ(off, ptr[p]) // one past the end
	}
	NEGQ(off) // −bytes left; operands at [p + off]

	// body handles unroll vectors at [p + off + disp + u·w] (off already advanced past them).
	body := func(w int, vec func() reg.VecVirtual, mov func(a, b Op), unroll, disp int) {
		at := func(p string, u int) Mem { return Mem{Base: ptr[p], Index: off, Scale: 1, Disp: disp + u*w} }
		vs := make([]reg.VecVirtual, unroll)
		for u := range vs {
			vs[u] = vec()
			mov(at("src", u), vs[u])
		}
		for u := range vs {
			for _, a := range addNames {
				VPADDW(at(a, u), vs[u], vs[u])
			}
			for _, b := range subNames {
				VPSUBW(at(b, u), vs[u], vs[u])
			}
			mov(vs[u], at("dst", u))
		}
	}

	// Bottom-tested loops: off is advanced by one block before the block is processed, so
	// the loop runs while off ≤ 0 and the block sits at displacement −step.
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
	blockLoop(fn+"_loopU", 8)
	blockLoop(fn+"_loop1", 1)

	Label(fn + "_half")
	if s.wide {
		TESTQ(off, off)
		JZ(LabelRef(fn + "_done"))
		body(32, YMM, s.mov, 1, 0)
	}
	Label(fn + "_done")
	VZEROUPPER()
	RET()
}

func formula(adds, subs []string) string {
	var b strings.Builder
	for i, a := range adds {
		if i > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(a + "[i]")
	}
	for _, s := range subs {
		b.WriteString(" − " + s + "[i]")
	}
	return strings.TrimPrefix(b.String(), " ")
}

// refresh generates refresh+ISA: dst[i] = bias[i] + Σ_k weights[rows[k]·n + i], n a
// multiple of 16. The accumulator is processed in tiles of up to 8 (AVX2) or 16 (AVX-512)
// vector registers that stay in registers while every row is added, so each output vector
// is loaded (from bias) and stored once.
func refresh(s isa) {
	fn := "refresh" + s.name
	TEXT(fn, NOSPLIT, "func(dst, bias, weights *int16, rows *int, nrows int, n int)")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = bias[i] + Σ_k weights[rows[k]·n + i] for i < n, k < nrows;",
		"n is a multiple of 16 and every row index must be valid (the caller checks).")
	dst := ld("dst")
	bias := ld("bias")
	w := ld("weights")
	rows := ld("rows")
	nrows := ld("nrows")
	n := ld("n")
	SHLQ(U8(1), n)
	rowBytes := GP64()
	MOVQ(n, rowBytes)

	tileLoop(s, fn, tileSteps(s.wide), n, dst, bias, w, 1, func(lbl string, acc []reg.VecVirtual, st tileStep, _ func() reg.VecVirtual) {
		rp := GP64()
		cnt := GP64()
		MOVQ(rows, rp)
		MOVQ(nrows, cnt)
		rowLoop := lbl + "_rows"
		rowDone := lbl + "_store"
		alignLoop()
		Label(rowLoop)
		TESTQ(cnt, cnt)
		JZ(LabelRef(rowDone))
		off := GP64()
		MOVQ(Mem{Base: rp}, off)
		IMULQ(rowBytes, off)
		for r := range acc {
			VPADDW(Mem{Base: w, Index: off, Scale: 1, Disp: r * st.width}, acc[r], acc[r])
		}
		ADDQ(U8(8), rp)
		DECQ(cnt)
		JMP(LabelRef(rowLoop))
		Label(rowDone)
	})
	VZEROUPPER()
	RET()
}

// tileLoop emits the tile skeleton every accumulator kernel shares: for each step of steps
// (the largest tile loops, each smaller one runs at most once) while n, the int16 bytes
// left, holds a whole tile, load the tile's st.regs vectors from src, let body add or
// subtract its rows into them (vec makes a scratch register of the tile's width), store
// them to dst and advance dst and src by the tile and w by the tile's bytes ÷ wDiv (2 for
// int8 rows). The caller emits VZEROUPPER and the return after it.
func tileLoop(s isa, fn string, steps []tileStep, n, dst, src, w reg.GPVirtual, wDiv int,
	body func(lbl string, acc []reg.VecVirtual, st tileStep, vec func() reg.VecVirtual)) {
	for i, st := range steps {
		lbl := fmt.Sprintf("%s_tile%dx%d", fn, st.regs, st.width)
		next := fmt.Sprintf("%s_next%dx%d", fn, st.regs, st.width)
		tile := st.regs * st.width
		Label(lbl)
		CMPQ(n, U32(tile))
		JB(LabelRef(next))
		vec := s.vec
		if st.width == 32 {
			vec = YMM
		}
		acc := make([]reg.VecVirtual, st.regs)
		for r := range acc {
			acc[r] = vec()
			s.mov(Mem{Base: src, Disp: r * st.width}, acc[r])
		}
		body(lbl, acc, st, vec)
		for r := range acc {
			s.mov(acc[r], Mem{Base: dst, Disp: r * st.width})
		}
		ADDQ(U32(tile), dst)
		ADDQ(U32(tile), src)
		ADDQ(U32(tile/wDiv), w)
		SUBQ(U32(tile), n)
		if i == 0 {
			JMP(LabelRef(lbl))
		}
		Label(next)
	}
}

// tileStep is one tile size of the accumulator kernels' tail-free loops: regs vector
// registers of width bytes each.
type tileStep struct {
	regs  int
	width int // bytes per register
}

// tileSteps is the tile schedule shared by the int16 and int8-row accumulator kernels:
// the largest tiles first, down to one 32-byte register (AVX-512 levels use ZMM tiles and
// finish with one YMM; AVX2 uses YMM throughout).
func tileSteps(wide bool) []tileStep {
	if wide {
		return []tileStep{{16, 64}, {8, 64}, {4, 64}, {2, 64}, {1, 64}, {1, 32}}
	}
	return []tileStep{{8, 32}, {4, 32}, {2, 32}, {1, 32}}
}
