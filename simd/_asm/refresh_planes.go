package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// refreshPlanes generates refreshPlanes+ISA: a refresh whose feature rows are given
// as piece planes (simd.RefreshPlanes; Stockfish 13 and 15.1 FeatureTransformer::
// update_accumulator's refresh with append_active_indices folded in): row
// base + 64·k + (s XOR mask) for every set bit s of planes[k]. A first pass walks the
// planes (BSF, then clear the lowest bit), writes the byte offset of every row into a
// 64-entry list on the stack and, with psqt, adds the row's 8 int32 PSQT weights (one
// vector add per row); the tiles of the accumulator then add the listed rows as refresh
// does. It returns the number of rows, or −1 without writing anything when the planes
// hold more than 64 bits (the list's size; the caller then takes the Go path).
//
// The caller checks that every row is valid (base ≥ 0, mask < 64, base + 64·nplanes ≤
// the number of rows, and as many PSQT rows), n is a positive multiple of 16 and nplanes
// positive.
func refreshPlanes(s isa) {
	fn := "refreshPlanes" + s.name
	TEXT(fn, NOSPLIT, "func(dst, bias, weights *int16, planes *uint64, nplanes, base, mask, n int, pdst, pw *int32) int")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = bias[i] + Σ weights[r·n + i] over the rows r = base + 64·k + (s XOR mask)",
		"for every set bit s of planes[k], k < nplanes, and, when pw is not nil, pdst[0:8] to",
		"Σ pw[8·r : 8·r+8] over the same rows; n is a positive multiple of 16, nplanes positive and",
		"every row must be valid (the caller checks). It returns the number of rows, or −1 (nothing",
		"written) for more than 64.")
	offs := AllocLocal(64 * 8)

	planes := ld("planes")
	np := ld("nplanes")
	row := ld("base")
	mask := ld("mask")
	n := ld("n")
	SHLQ(U8(1), n) // bytes per row
	cnt := GP64()
	XORQ(cnt, cnt)
	total := GP64()
	XORQ(total, total)
	pw := ld("pw")
	TESTQ(pw, pw)
	JNZ(LabelRef(fn + "_psqt"))

	// Pass 1: the planes → the row offsets (and, with pw, the PSQT sums), twice: without
	// and with PSQT.
	for _, psqt := range []bool{false, true} {
		pre := fn + "_plain"
		var ps reg.VecVirtual
		if psqt {
			pre = fn + "_psqt"
			Label(pre)
			ps = YMM()
			VPXOR(ps, ps, ps)
		}
		Label(pre + "_plane")
		b := GP64()
		MOVQ(Mem{Base: planes}, b)
		pc := GP64()
		POPCNTQ(b, pc)
		ADDQ(pc, total)
		CMPQ(total, U8(64))
		JA(LabelRef(fn + "_many"))
		TESTQ(b, b)
		JZ(LabelRef(pre + "_nextplane"))
		Label(pre + "_bit")
		sq := GP64()
		BSFQ(b, sq)
		XORQ(mask, sq)
		ADDQ(row, sq)
		if psqt {
			t := GP64()
			MOVQ(sq, t)
			SHLQ(U8(5), t)
			VPADDD(Mem{Base: pw, Index: t, Scale: 1}, ps, ps)
		}
		IMULQ(n, sq)
		MOVQ(sq, offs.Idx(cnt, 8))
		INCQ(cnt)
		lo := GP64()
		LEAQ(Mem{Base: b, Disp: -1}, lo)
		ANDQ(lo, b)
		JNZ(LabelRef(pre + "_bit"))
		Label(pre + "_nextplane")
		ADDQ(U8(64), row)
		ADDQ(U8(8), planes)
		DECQ(np)
		JNZ(LabelRef(pre + "_plane"))
		if psqt {
			pd := ld("pdst")
			VMOVDQU(ps, Mem{Base: pd})
		} else {
			JMP(LabelRef(fn + "_tiles"))
		}
	}
	Label(fn + "_tiles")
	refreshTiles(s, fn, offs, cnt, n)

	Label(fn + "_many")
	VZEROUPPER()
	m1 := GP64()
	MOVQ(I64(-1), m1)
	Store(m1, ReturnIndex(0))
	RET()
}

// refreshTiles emits the second pass of refreshPlanes and refreshListed: the accumulator
// in tiles of up to 8 (AVX2) or 16 (AVX-512) vector registers, each kept in registers while
// the cnt rows whose byte offsets are listed at offs are added, then stored; it returns
// cnt. n holds the bytes per row. Tiles of 16 YMM registers (one pass over a 512-byte
// Stockfish 13 row) and of 4 were measured slower or no faster (doc/benchmarks.md, issue
// 14 round 5).
func refreshTiles(s isa, fn string, offs Mem, cnt, n reg.GPVirtual) {
	dst := ld("dst")
	bias := ld("bias")
	w := ld("weights")
	tileLoop(s, fn, tileSteps(s.wide), n, dst, bias, w, 1, func(lbl string, acc []reg.VecVirtual, st tileStep, _ func() reg.VecVirtual) {
		k := GP64()
		XORQ(k, k)
		TESTQ(cnt, cnt)
		JZ(LabelRef(lbl + "_store"))
		alignLoop()
		Label(lbl + "_rows")
		off := GP64()
		MOVQ(offs.Idx(k, 8), off)
		for r := range acc {
			VPADDW(Mem{Base: w, Index: off, Scale: 1, Disp: r * st.width}, acc[r], acc[r])
		}
		INCQ(k)
		CMPQ(k, cnt)
		JB(LabelRef(lbl + "_rows"))
		Label(lbl + "_store")
	})
	VZEROUPPER()
	Store(cnt, ReturnIndex(0))
	RET()

}

// refreshListed generates refreshListed+ISA, simd.Refresh's (and RefreshPSQT's) kernel for
// up to 64 rows: the first pass checks every row index against nvalid (unsigned) and lists
// its byte offset on the stack — returning −1 with nothing written at the first bad one —
// and, when pw is not nil, adds the row's 8 int32 PSQT weights (one vector add per row,
// stored to pdst after the pass); the tiles of refreshTiles then add the listed rows. The
// row check in assembly replaces the wrapper's Go loop over the rows, and the offsets are
// computed once per row instead of once per row and tile.
func refreshListed(s isa) {
	fn := "refreshListed" + s.name
	TEXT(fn, NOSPLIT, "func(dst, bias, weights *int16, rows *int, nrows, nvalid, n int, pdst, pw *int32) int")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = bias[i] + Σ_k weights[rows[k]·n + i] for i < n, k < nrows ≤ 64, and,",
		"when pw is not nil, pdst[0:8] to Σ_k pw[8·rows[k] : 8·rows[k]+8]; it returns nrows. n is a",
		"positive multiple of 16. It returns −1, writing nothing, when a row index is not below",
		"nvalid (unsigned).")
	offs := AllocLocal(64 * 8)
	rows := ld("rows")
	nrows := ld("nrows")
	nvalid := ld("nvalid")
	n := ld("n")
	SHLQ(U8(1), n)
	cnt := GP64()
	XORQ(cnt, cnt)
	TESTQ(nrows, nrows)
	JZ(LabelRef(fn + "_tiles"))
	pw := ld("pw")
	TESTQ(pw, pw)
	JNZ(LabelRef(fn + "_psqt"))
	for _, psqt := range []bool{false, true} {
		pre := fn + "_plain"
		var ps reg.VecVirtual
		if psqt {
			pre = fn + "_psqt"
			Label(pre)
			ps = YMM()
			VPXOR(ps, ps, ps)
		}
		Label(pre + "_row")
		r := GP64()
		MOVQ(Mem{Base: rows, Index: cnt, Scale: 8}, r)
		CMPQ(r, nvalid)
		JAE(LabelRef(fn + "_bad"))
		if psqt {
			t := GP64()
			MOVQ(r, t)
			SHLQ(U8(5), t)
			VPADDD(Mem{Base: pw, Index: t, Scale: 1}, ps, ps)
		}
		IMULQ(n, r)
		MOVQ(r, offs.Idx(cnt, 8))
		INCQ(cnt)
		CMPQ(cnt, nrows)
		JB(LabelRef(pre + "_row"))
		if psqt {
			pd := ld("pdst")
			VMOVDQU(ps, Mem{Base: pd})
		} else {
			JMP(LabelRef(fn + "_tiles"))
		}
	}
	Label(fn + "_tiles")
	refreshTiles(s, fn, offs, cnt, n)

	Label(fn + "_bad")
	VZEROUPPER()
	m1 := GP64()
	MOVQ(I64(-1), m1)
	Store(m1, ReturnIndex(0))
	RET()
}

// refreshPlanesKernels emits refreshPlanes and refreshListed for AVX2 and AVX-512.
func refreshPlanesKernels() {
	for _, s := range []isa{avx2, avx512} {
		refreshPlanes(s)
		refreshListed(s)
	}
}
