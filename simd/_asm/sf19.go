package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Kernels of Stockfish 19's evaluation: the update of an accumulator from int16 and int8
// rows in one pass (its HalfKAv2_hm rows and its threat and pawn-pair rows). Its feature
// transform runs bullet.go's pairwiseClip kernels.

func sf19Kernels() {
	for _, s := range []isa{avx2, avx512} {
		updateMixed(s)
		prefetchMixed(s)
	}
}

// prefetchMixed generates prefetchMixed+ISA: updateMixed's first part alone (prefetchRows),
// for a caller that knows the rows of a later update before it runs an earlier one
// (Stockfish 19: the second perspective's rows while the first perspective is updated).
func prefetchMixed(s isa) {
	fn := "prefetchMixed" + s.name
	TEXT(fn, NOSPLIT, "func(w16 *int16, add16 *int, nadd16 int, sub16 *int, nsub16 int, w8 *int8, add8 *int, nadd8 int, sub8 *int, nsub8 int, n int, p16, p8 *int32, pb int)")
	Pragma("noescape")
	Doc(fn+" prefetches what updateMixed"+s.name+" prefetches first: the lines of every row's first",
		"tiles (rows of n values at w16 or w8) and its PSQT row (p16 or p8 + index·pb bytes).",
		"Every row index must be valid (the caller checks).")
	prefetchRows(s, fn)
	RET()
}

// updateMixed generates updateMixed+ISA: the update of one perspective of a feature
// transformer whose rows are partly int16 (Stockfish 19's HalfKAv2_hm rows) and partly
// int8 (its threat and pawn-pair rows), kept as two parts and their sum, in one pass over
// the accumulator (dst holds three vectors of n int16: the sum, the int16 part, the int8
// part):
//
//	dst8[i]  = src8[i]  + Σ_{r in add8} w8[r·n + i]   − Σ_{r in sub8} w8[r·n + i]
//	dst16[i] = src16[i] + Σ_{r in add16} w16[r·n + i] − Σ_{r in sub16} w16[r·n + i]
//	dst[i]   = dst16[i] + dst8[i]
//
// (int8 widened with VPMOVSXBW, int16 wrapping), n a multiple of 16. Before the pass it
// prefetches the lines of every row that the first mixedAhead tiles read and the row's PSQT row (of
// pb bytes at p16 or p8; the caller sums the PSQT rows after the call, when they have
// arrived), so that all those misses overlap. As refresh and updateI8, the accumulator is processed in tiles of up to 8 (AVX2) or 16 (AVX-512)
// vector registers that stay in registers: the int8 part's rows are added to src8's tile
// and the result stored, then src16's tile and the int16 rows are added (giving the sum,
// stored), and the stored int8 part subtracted again (giving the int16 part, exact in
// wrapping arithmetic). The two weight pointers advance by the tile's int16 and int8
// bytes; dst16 and dst8 are addressed as dst + 2n and dst + 4n bytes.
func updateMixed(s isa) {
	fn := "updateMixed" + s.name
	TEXT(fn, NOSPLIT, "func(dst, src16, src8 *int16, w16 *int16, add16 *int, nadd16 int, sub16 *int, nsub16 int, w8 *int8, add8 *int, nadd8 int, sub8 *int, nsub8 int, n int, p16, p8 *int32, pb int, pdst, psrc16, psrc8 *int32)")
	Pragma("noescape")
	Doc(fn+" sets dst[2n+i] = src8[i] + Σ_k w8[add8[k]·n + i] − Σ_k w8[sub8[k]·n + i],",
		"dst[n+i] = src16[i] + Σ_k w16[add16[k]·n + i] − Σ_k w16[sub16[k]·n + i] and",
		"dst[i] = dst[n+i] + dst[2n+i] for i < n (int8 weights widened to int16, wrapping); n is a",
		"multiple of 16 and every row index must be valid (the caller checks). First it prefetches",
		"the lines of every row's first tiles and its PSQT row (p16 or p8 + index·pb bytes). With pdst",
		"non-nil (8 PSQT buckets, pb = 32) it also sets pdst[16+j] = psrc8[j] ± the int8 rows' PSQT rows,",
		"pdst[8+j] = psrc16[j] ± the int16 rows' and pdst[j] their sum, for j < 8.")
	prefetchRows(s, fn)
	dst := ld("dst")
	src16 := ld("src16")
	src8 := ld("src8")
	w16 := ld("w16")
	w8 := ld("w8")
	n := ld("n")
	rb8 := GP64()
	MOVQ(n, rb8) // int8 row bytes
	rb16 := GP64()
	MOVQ(n, rb16)
	SHLQ(U8(1), rb16) // int16 row bytes: dst + rb16 is the int16 part, dst + 2·rb16 the int8 part
	SHLQ(U8(1), n)    // int16 bytes left
	steps := tileSteps(s.wide)
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
			s.mov(Mem{Base: src8, Disp: r * st.width}, acc[r])
		}
		tmp := vec()
		rows := func(kind string) {
			rp, cnt := GP64(), GP64()
			Load(Param(kind), rp)
			Load(Param("n"+kind), cnt)
			rowLoop := lbl + "_" + kind
			rowDone := rowLoop + "_done"
			alignLoop()
			Label(rowLoop)
			TESTQ(cnt, cnt)
			JZ(LabelRef(rowDone))
			off := GP64()
			MOVQ(Mem{Base: rp}, off)
			wide8 := kind == "add8" || kind == "sub8"
			rowTile := tile // bytes of this row the tile reads
			if wide8 {
				IMULQ(rb8, off)
				rowTile = tile / 2
			} else {
				IMULQ(rb16, off)
			}
			// The rows are cold (Stockfish 19's 66 MB of int8 rows and 45 MB of int16
			// rows): the lines of this row that the tile `ahead` tiles on reads are
			// requested now (the first `ahead` tiles by prefetchRows), so that their misses
			// overlap this and the next tile's work; none past the row's end, where they
			// would fetch another row's lines for nothing.
			base := w16
			if wide8 {
				base = w8
			}
			skip := rowLoop + "_noprefetch"
			CMPQ(n, U32((mixedAhead+1)*tile)) // no prefetches past the row's end
			JB(LabelRef(skip))
			for k := 0; k < rowTile; k += 64 {
				PREFETCHT0(Mem{Base: base, Index: off, Scale: 1, Disp: mixedAhead*rowTile + k})
			}
			Label(skip)
			for r := range acc {
				m := Mem{Base: w16, Index: off, Scale: 1, Disp: r * st.width}
				if wide8 {
					widen(Mem{Base: w8, Index: off, Scale: 1, Disp: r * st.width / 2}, tmp)
				}
				add := kind == "add16" || kind == "add8"
				switch {
				case wide8 && add:
					VPADDW(tmp, acc[r], acc[r])
				case wide8:
					VPSUBW(tmp, acc[r], acc[r])
				case add:
					VPADDW(m, acc[r], acc[r])
				default:
					VPSUBW(m, acc[r], acc[r])
				}
			}
			ADDQ(U8(8), rp)
			DECQ(cnt)
			JMP(LabelRef(rowLoop))
			Label(rowDone)
		}
		part8 := func(r int) Mem { return Mem{Base: dst, Index: rb16, Scale: 2, Disp: r * st.width} }
		rows("add8")
		rows("sub8")
		for r := range acc {
			s.mov(acc[r], part8(r))
			VPADDW(Mem{Base: src16, Disp: r * st.width}, acc[r], acc[r])
		}
		rows("add16")
		rows("sub16")
		for r := range acc {
			s.mov(acc[r], Mem{Base: dst, Disp: r * st.width})
			VPSUBW(part8(r), acc[r], acc[r])
			s.mov(acc[r], Mem{Base: dst, Index: rb16, Scale: 1, Disp: r * st.width})
		}
		ADDQ(U32(tile), dst)
		ADDQ(U32(tile), src16)
		ADDQ(U32(tile), src8)
		ADDQ(U32(tile), w16)
		ADDQ(U32(tile/2), w8)
		SUBQ(U32(tile), n)
		if i == 0 {
			JMP(LabelRef(lbl))
		}
		Label(next)
	}
	psqtSums("updateMixed" + s.name)
	VZEROUPPER()
	RET()
}

// psqtSums emits updateMixed's last part: with pdst non-nil, the PSQT sums of 8 buckets
// (one YMM of int32 per row, its lines prefetched by prefetchRows): the int8 part from
// psrc8 and the int8 rows' PSQT rows (p8), the int16 part from psrc16 and p16, and their
// sum, stored at pdst + 64, + 32 and + 0 bytes.
func psqtSums(fn string) {
	done := fn + "_psqt_done"
	pdst := ld("pdst")
	TESTQ(pdst, pdst)
	JZ(LabelRef(done))
	pb := ld("pb")
	part := func(src, tab string, kinds [2]string) reg.VecVirtual {
		y := YMM()
		VMOVDQU(Mem{Base: ld(src)}, y)
		pt := ld(tab)
		for _, kind := range kinds {
			rp, cnt := ld(kind), ld("n"+kind)
			loop := fn + "_psqt_" + kind
			end := loop + "_done"
			Label(loop)
			TESTQ(cnt, cnt)
			JZ(LabelRef(end))
			off := GP64()
			MOVQ(Mem{Base: rp}, off)
			IMULQ(pb, off)
			if kind[:3] == "add" {
				VPADDD(Mem{Base: pt, Index: off, Scale: 1}, y, y)
			} else {
				VPSUBD(Mem{Base: pt, Index: off, Scale: 1}, y, y)
			}
			ADDQ(U8(8), rp)
			DECQ(cnt)
			JMP(LabelRef(loop))
			Label(end)
		}
		return y
	}
	y8 := part("psrc8", "p8", [2]string{"add8", "sub8"})
	VMOVDQU(y8, Mem{Base: pdst, Disp: 64})
	y16 := part("psrc16", "p16", [2]string{"add16", "sub16"})
	VMOVDQU(y16, Mem{Base: pdst, Disp: 32})
	VPADDD(y8, y16, y16)
	VMOVDQU(y16, Mem{Base: pdst})
	Label(done)
}

// mixedAhead is how many tiles ahead of the one it adds updateMixed prefetches a row's
// lines: one tile's work (tens of cycles) is far shorter than a miss to memory (on the loaded
// test machine 1, 2 and 4 were within the noise of the Stockfish 19 quiet cell).
const mixedAhead = 2

// prefetchRows emits updateMixed's first part (labels prefixed with fn): for every row of add16, sub16, add8 and
// sub8, PREFETCHT0 of the lines of the row the first two tiles read (the loop prefetches
// two tiles ahead from there) and of its PSQT row
// (prefetches are hints: a pb of 0 or a nil table is harmless).
func prefetchRows(s isa, fn string) {
	first := tileSteps(s.wide)[0]
	tile := first.regs * first.width * mixedAhead // int16 bytes of the tiles the loop does not prefetch
	for _, kind := range []string{"add16", "sub16", "add8", "sub8"} {
		wide8 := kind == "add8" || kind == "sub8"
		w, p, rowTile := "w16", "p16", tile
		if wide8 {
			w, p, rowTile = "w8", "p8", tile/2
		}
		rp, cnt, wb, pb, pt := ld(kind), ld("n"+kind), ld(w), ld("pb"), ld(p)
		rb := ld("n") // row bytes
		if !wide8 {
			SHLQ(U8(1), rb)
		}
		loop := fn + "_prefetch_" + kind
		done := loop + "_done"
		Label(loop)
		TESTQ(cnt, cnt)
		JZ(LabelRef(done))
		off, poff := GP64(), GP64()
		MOVQ(Mem{Base: rp}, off)
		MOVQ(off, poff)
		IMULQ(pb, poff)
		PREFETCHT0(Mem{Base: pt, Index: poff, Scale: 1})
		IMULQ(rb, off)
		for k := 0; k < rowTile; k += 64 {
			PREFETCHT0(Mem{Base: wb, Index: off, Scale: 1, Disp: k})
		}
		ADDQ(U8(8), rp)
		DECQ(cnt)
		JMP(LabelRef(loop))
		Label(done)
	}
}
