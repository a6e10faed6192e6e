package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// updateRows generates updateRows+ISA: dst[i] = src[i] + Σ_k weights[add[k]·n + i] −
// Σ_k weights[sub[k]·n + i] for i < n, n a multiple of 16 — an incremental accumulator
// update with any number of changed features in one pass (Stockfish 15.1
// nnue_feature_transformer.h update_accumulator: per tile of registers, load the source
// accumulator, add and subtract every changed row, store). Each output vector is loaded
// from src and stored to dst once, whatever the number of rows; with no rows it is a
// copy. The tiles are as large as the register file allows (16 vectors: 512 bytes at
// AVX2, 1 KiB at AVX-512, updateTileSteps) because the per-row loop overhead (load the
// index, multiply, count) is paid once per tile: a 256-wide Stockfish 13 accumulator is
// one tile at either level.
func updateRows(s isa) {
	fn := "updateRows" + s.name
	TEXT(fn, NOSPLIT, "func(dst, src, weights *int16, add *int, nadd int, sub *int, nsub int, n int)")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = src[i] + Σ_k weights[add[k]·n + i] − Σ_k weights[sub[k]·n + i]",
		"for i < n (k < nadd, nsub); n is a multiple of 16 and every row index must be valid",
		"(the caller checks); dst may equal src.")
	dst := ld("dst")
	src := ld("src")
	w := ld("weights")
	add := ld("add")
	nadd := ld("nadd")
	sub := ld("sub")
	nsub := ld("nsub")
	n := ld("n")
	SHLQ(U8(1), n)
	rowBytes := GP64()
	MOVQ(n, rowBytes)

	tileLoop(s, fn, updateTileSteps(s.wide), n, dst, src, w, 1, func(lbl string, acc []reg.VecVirtual, st tileStep, _ func() reg.VecVirtual) {
		rows := func(tag string, list, count reg.GPVirtual, op func(a, b, c Op)) {
			rp := GP64()
			cnt := GP64()
			MOVQ(list, rp)
			MOVQ(count, cnt)
			loop := lbl + "_" + tag
			done := lbl + "_" + tag + "_end"
			TESTQ(cnt, cnt)
			JZ(LabelRef(done))
			Label(loop) // bottom-tested: index, multiply, the tile's ops, count
			off := GP64()
			MOVQ(Mem{Base: rp}, off)
			IMULQ(rowBytes, off)
			for r := range acc {
				op(Mem{Base: w, Index: off, Scale: 1, Disp: r * st.width}, acc[r], acc[r])
			}
			ADDQ(U8(8), rp)
			DECQ(cnt)
			JNZ(LabelRef(loop))
			Label(done)
		}
		rows("add", add, nadd, func(a, b, c Op) { VPADDW(a, b, c) })
		rows("sub", sub, nsub, func(a, b, c Op) { VPSUBW(a, b, c) })
	})
	VZEROUPPER()
	RET()
}

// updateTileSteps is updateRows' tile schedule: 16 registers first (every vector register
// at AVX2), then halving down to one 32-byte register.
func updateTileSteps(wide bool) []tileStep {
	if wide {
		return []tileStep{{16, 64}, {8, 64}, {4, 64}, {2, 64}, {1, 64}, {1, 32}}
	}
	return []tileStep{{16, 32}, {8, 32}, {4, 32}, {2, 32}, {1, 32}}
}
