package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// firstPasses emits a refresh's first pass twice, without and with PSQT sums (the caller
// has jumped to fn+"_psqt" when its PSQT rows pw are not nil): body emits the pass with
// pre as its label prefix and ps the PSQT sum vector (nil without PSQT). The plain pass
// then jumps to fn+"_tiles"; the PSQT pass stores ps to pdst and falls through to it.
func firstPasses(fn string, body func(pre string, ps reg.VecVirtual)) {
	for _, psqt := range []bool{false, true} {
		pre := fn + "_plain"
		var ps reg.VecVirtual
		if psqt {
			pre = fn + "_psqt"
			Label(pre)
			ps = YMM()
			VPXOR(ps, ps, ps)
		}
		body(pre, ps)
		if psqt {
			pd := ld("pdst")
			VMOVDQU(ps, Mem{Base: pd})
		} else {
			JMP(LabelRef(fn + "_tiles"))
		}
	}
}

// addPSQT emits ps += the 8 int32 PSQT weights of row r (at pw + 32·r); t is a scratch
// register.
func addPSQT(ps reg.VecVirtual, pw, r, t reg.GPVirtual) {
	MOVQ(r, t)
	SHLQ(U8(5), t)
	VPADDD(Mem{Base: pw, Index: t, Scale: 1}, ps, ps)
}

// returnMinusOne emits label lbl: the refreshes' exit that returns −1 with nothing
// written (a bad row, or more than 64 rows).
func returnMinusOne(lbl string) {
	Label(lbl)
	VZEROUPPER()
	m1 := GP64()
	MOVQ(I64(-1), m1)
	Store(m1, ReturnIndex(0))
	RET()
}

// prefetchBytes is how much of every row the refreshes' first pass prefetches, as soon as
// the row's offset is known: 512 bytes, 8 cache lines — the whole of a Stockfish 13 row,
// the first tile passes of a wider one. The feature rows of a refresh are read cold (the
// weights are far larger than the caches), and without the prefetch their loads start only
// in the tile loop, after the first pass; with it every row is in flight while the first
// pass lists the next ones. PREFETCHNTA: on the bench's king and refresh loops it paid more
// than PREFETCHT0 (doc/benchmarks.md); prefetching all 2 KB of a
// Stockfish 15.1 row paid no more than its first 512 bytes, and 30 such rows would not fit
// the L1 cache.
const prefetchBytes = 512

// prefetchBase emits pf = w (the weight rows) when a row has at least prefetchBytes bytes
// (n holds the bytes per row), else 0: narrower rows, whose tables are small, are not
// prefetched (a prefetch never faults, but it would fetch lines of the next rows).
func prefetchBase(w, n reg.GPVirtual) reg.GPVirtual {
	pf, z := GP64(), GP64()
	MOVQ(w, pf)
	XORQ(z, z)
	CMPQ(n, U32(prefetchBytes))
	CMOVQCS(z, pf)
	return pf
}

// prefetchRow emits PREFETCHNTA of the first prefetchBytes bytes of the row at byte offset
// off from pf, skipped (label lbl) when pf is 0. A prefetch changes no result.
func prefetchRow(lbl string, pf, off reg.GPVirtual) {
	TESTQ(pf, pf)
	JZ(LabelRef(lbl))
	for o := 0; o < prefetchBytes; o += 64 {
		PREFETCHNTA(Mem{Base: pf, Index: off, Scale: 1, Disp: o})
	}
	Label(lbl)
}

// listBits emits the inner loop of refreshBoards' first pass: for every set bit s of b (non-zero on entry, zero on exit) the row
// row + (s XOR mask) is listed as its byte offset (row · n) at offs[cnt], its first
// prefetchBytes prefetched from pf (prefetchRow) and cnt advanced; with a PSQT vector ps
// (nil without) the row's 8 int32 PSQT weights at pw are added to ps. t is a scratch
// register.
func listBits(lbl string, b, row, mask, n, cnt, t reg.GPVirtual, offs Mem, ps reg.VecVirtual, pw, pf reg.GPVirtual) {
	Label(lbl)
	sq := GP64()
	BSFQ(b, sq)
	XORQ(mask, sq)
	ADDQ(row, sq)
	if ps != nil {
		addPSQT(ps, pw, sq, t)
	}
	IMULQ(n, sq)
	MOVQ(sq, offs.Idx(cnt, 8))
	prefetchRow(lbl+"_pf", pf, sq)
	INCQ(cnt)
	LEAQ(Mem{Base: b, Disp: -1}, t)
	ANDQ(t, b)
	JNZ(LabelRef(lbl))
}

// refreshTiles emits the second pass of refreshListed: the accumulator
// in tiles of up to 8 (AVX2) or 16 (AVX-512) vector registers, each kept in registers while
// the cnt rows whose byte offsets are listed at offs are added, then stored; it returns
// cnt. n holds the bytes per row. Tiles of 16 YMM registers (one pass over a 512-byte
// Stockfish 13 row) and of 4 were measured slower or no faster (doc/benchmarks.md).
func refreshTiles(s isa, fn string, offs Mem, cnt, n reg.GPVirtual) {
	tiles(s, fn, offs, cnt, n, ld("dst"), ld("bias"), ld("weights"))
}

// tiles is refreshTiles with dst, bias and weights in registers.
func tiles(s isa, fn string, offs Mem, cnt, n, dst, bias, w reg.GPVirtual) {
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
// its byte offset on the stack — returning −1 with nothing written at the first bad one —,
// prefetches the row (prefetchRow) and, when pw is not nil, adds the row's 8 int32 PSQT weights (one vector add per row,
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
	pf := prefetchBase(ld("weights"), n)
	cnt := GP64()
	XORQ(cnt, cnt)
	TESTQ(nrows, nrows)
	JZ(LabelRef(fn + "_tiles"))
	pw := ld("pw")
	TESTQ(pw, pw)
	JNZ(LabelRef(fn + "_psqt"))
	firstPasses(fn, func(pre string, ps reg.VecVirtual) {
		Label(pre + "_row")
		r := GP64()
		MOVQ(Mem{Base: rows, Index: cnt, Scale: 8}, r)
		CMPQ(r, nvalid)
		JAE(LabelRef(fn + "_bad"))
		if ps != nil {
			addPSQT(ps, pw, r, GP64())
		}
		IMULQ(n, r)
		MOVQ(r, offs.Idx(cnt, 8))
		prefetchRow(pre+"_pf", pf, r)
		INCQ(cnt)
		CMPQ(cnt, nrows)
		JB(LabelRef(pre + "_row"))
	})
	Label(fn + "_tiles")
	refreshTiles(s, fn, offs, cnt, n)
	returnMinusOne(fn + "_bad")
}

// Offsets of the fields of simd's planeKernel (the bound arguments of refreshBoards,
// read through one pointer; simd's TestPlaneKernelLayout checks them).
const (
	pkBias    = 0  // *int16
	pkWeights = 8  // *int16
	pkPSQT    = 16 // *int32: the PSQT rows, nil without PSQT
	pkN       = 24 // int: the row width (int16)
	pkPlanes  = 32 // int: the number of planes (even, positive)
	pkRows    = 40 // [12]int: the first row of each plane, relative to the base
)

// refreshBoards generates refreshBoards+ISA, simd.PlaneRefresher.Refresh's kernel: a
// refresh whose rows are given as piece planes (Stockfish 13 and 15.1
// FeatureTransformer::update_accumulator's refresh with append_active_indices folded in),
// the planes formed here from the position's colour and role bitboards (boards[0] the perspective's pieces, boards[1] the other side's,
// boards[2+r] the pieces of role r), so that no plane array is built in Go. What is bound
// at load (bias, weights, PSQT rows, width, the plane layout) is read through k, a
// *planeKernel; per call only dst, pdst, boards, base and mask are passed. Plane k <
// nplanes (even: the planes come in pairs, one role's pieces of each side) is boards[2 +
// k/2] AND boards[k mod 2]; its set bit s names row base + rows[k] + (s XOR mask). A
// first pass walks the planes (POPCNT to skip an empty one and to check the 64-entry
// list before walking, BSF, then clear the lowest bit), lists every row's byte offset on
// the stack, prefetches the row (prefetchRow) and, with PSQT rows, adds the row's 8 int32
// PSQT weights (one vector add per row); the tiles then add the listed rows. It returns
// the number of rows, or −1 without writing anything when the planes hold more than 64 bits (never for
// one position's bitboards, where the planes are disjoint).
//
// The caller checks that every row is valid (base + rows[k] + 64 ≤ the number of rows
// for every plane, and as many PSQT rows), mask < 64; k holds a positive width that is a
// multiple of 16 and a positive, even number of planes (NewPlaneRefresher).
func refreshBoards(s isa) {
	fn := "refreshBoards" + s.name
	TEXT(fn, NOSPLIT, "func(k *uint64, dst *int16, pdst *int32, boards *uint64, base, mask int) int")
	Pragma("noescape")
	Doc(fn+" sets dst[i] = bias[i] + Σ weights[r·n + i] over the rows r = base + rows[j] + (s XOR mask)",
		"for every set bit s of boards[2 + j/2] AND boards[j mod 2], j < nplanes, and, when the PSQT",
		"rows pw are not nil, pdst[0:8] to Σ pw[8·r : 8·r+8] over the same rows; bias, weights, pw,",
		"n, nplanes and rows are read from k, a *planeKernel. Every row must be valid (the caller",
		"checks). It returns the number of rows, or −1 (nothing written) for more than 64.")
	offs := AllocLocal(64 * 8)

	kp := ld("k")
	boards := ld("boards")
	rows := GP64()
	LEAQ(Mem{Base: kp, Disp: pkRows}, rows)
	np := GP64()
	MOVQ(Mem{Base: kp, Disp: pkPlanes}, np)
	base := ld("base")
	mask := ld("mask")
	n := GP64()
	MOVQ(Mem{Base: kp, Disp: pkN}, n)
	SHLQ(U8(1), n) // bytes per row
	w0 := GP64()
	MOVQ(Mem{Base: kp, Disp: pkWeights}, w0)
	pf := prefetchBase(w0, n)
	cnt := GP64()
	XORQ(cnt, cnt)
	k := GP64() // the plane index of the pair's first plane (2·role)
	XORQ(k, k)
	pw := GP64()
	MOVQ(Mem{Base: kp, Disp: pkPSQT}, pw)
	TESTQ(pw, pw)
	JNZ(LabelRef(fn + "_psqt"))

	// Pass 1: the planes → the row offsets (and, with pw, the PSQT sums).
	firstPasses(fn, func(pre string, ps reg.VecVirtual) {
		Label(pre + "_role")
		for side := 0; side < 2; side++ {
			lp := fmt.Sprintf("%s_side%d", pre, side)
			b := GP64()
			MOVQ(Mem{Base: boards, Index: k, Scale: 4, Disp: 16}, b) // boards[2 + k/2]
			ANDQ(Mem{Base: boards, Disp: 8 * side}, b)
			t := GP64()
			POPCNTQ(b, t)
			JZ(LabelRef(lp + "_next"))
			LEAQ(Mem{Base: cnt, Index: t, Scale: 1}, t)
			CMPQ(t, U8(64))
			JA(LabelRef(fn + "_many"))
			row := GP64()
			MOVQ(Mem{Base: rows, Index: k, Scale: 8, Disp: 8 * side}, row)
			ADDQ(base, row)
			listBits(lp+"_bit", b, row, mask, n, cnt, t, offs, ps, pw, pf)
			Label(lp + "_next")
		}
		ADDQ(U8(2), k)
		CMPQ(k, np)
		JB(LabelRef(pre + "_role"))
	})
	Label(fn + "_tiles")
	kt := ld("k")
	bias := GP64()
	MOVQ(Mem{Base: kt, Disp: pkBias}, bias)
	w := GP64()
	MOVQ(Mem{Base: kt, Disp: pkWeights}, w)
	tiles(s, fn, offs, cnt, n, ld("dst"), bias, w)
	returnMinusOne(fn + "_many")
}

// refreshPlanesKernels emits refreshBoards and refreshListed for AVX2 and AVX-512.
// (simd.RefreshPlanes lists its rows in Go and runs refreshListed: a kernel of its own
// walking a plane array was a near-copy of refreshBoards and no longer on nnue's path.)
func refreshPlanesKernels() {
	for _, s := range []isa{avx2, avx512} {
		refreshBoards(s)
		refreshListed(s)
	}
}
