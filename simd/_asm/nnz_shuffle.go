package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// clippedReLU16NNZShuf generates clippedReLU16NNZShufAVX2(dst *uint8, src *int16, n int,
// idx *uint16, first int, masks *uint8) int: clippedReLU16NNZAVX2 with the bytes of every
// 32-byte block of dst put in a load-time order: in place of the VPERMQ that restores the
// natural order after VPACKSSWB, one VPSHUFB with the block's 32-byte mask (masks advances
// with dst, addressed relative to it), which can move any byte of a 128-bit lane of the packed register to any
// position of that lane. A HalfKP stack orders each lane's sixteen neurons so that often
// active ones share 4-byte chunks (fewer non-zero chunks for fc_0's sparse kernel; its
// input columns permuted to match, simd.ReLUStack). The chunk listing is unchanged.
func clippedReLU16NNZShuf(tbl Mem) {
	fn := "clippedReLU16NNZShufAVX2"
	TEXT(fn, NOSPLIT, "func(dst *uint8, src *int16, n int, idx *uint16, first int, masks *uint8) int")
	Pragma("noescape")
	Doc(fn+" sets the bytes of dst[0:n] to clamp(src[i], 0, 127), each 32-byte block's bytes in",
		"the order its mask gives (dst[32b+j] = packed[32b + 16·(j/16) + masks[32b+j]], packed being",
		"VPACKSSWB's in-lane order), n a positive multiple of 32, writes first + c for every non-zero",
		"4-byte chunk c of dst[0:n] to idx in increasing order and returns their count.")
	dst, pa, n, idx, first, mk := ld("dst"), ld("src"), ld("n"), ld("idx"), ld("first"), ld("masks")
	SUBQ(dst, mk) // masks − dst: the block's mask at [dst + mk], no pointer of its own to advance
	zero := YMM()
	VPXOR(zero, zero, zero)
	nz := newNNZList(tbl, first)
	loops(fn, n, 32, 1, func(int) {
		a, b := YMM(), YMM()
		VMOVDQU(Mem{Base: pa}, a)
		VMOVDQU(Mem{Base: pa, Disp: 32}, b)
		VPACKSSWB(b, a, a)
		VPMAXSB(zero, a, a)
		VPSHUFB(Mem{Base: dst, Index: mk, Scale: 1}, a, a)
		VMOVDQU(a, Mem{Base: dst})
		y := YMM()
		VPCMPEQD(a, zero, y)
		m := GP64()
		VMOVMSKPS(y, m.As32())
		XORL(U32(0xFF), m.As32())
		nz.add(avx2, m, idx)
	}, func(int) {
		ADDQ(U32(32), dst)
		ADDQ(U32(64), pa)
	})
	VZEROUPPER()
	Store(nz.cnt, ReturnIndex(0))
	RET()
}
