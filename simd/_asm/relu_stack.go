package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Offsets of the fields of simd's stackKernel (what reluStackAVX2 reads of a ReLUStack
// through one pointer; simd's TestStackKernelLayout checks them).
const (
	skMasks  = 0  // *uint8: the transform's VPSHUFB masks (WithActivity), nil for the natural order
	skB0     = 8  // *int32: fc_0's 32 biases
	skWt0    = 16 // *int8: fc_0's weights, chunk-major, columns in the transform's order
	skGroup  = 24 // int: SparseGroup of those weights (1, 2, ≥ 3)
	skSh0    = 32 // uint: the ClippedReLU shift after fc_0
	skWt1    = 40 // *int8: fc_1's weights, chunk-major
	skB1     = 48 // *int32: fc_1's 32 biases
	skSh1    = 56 // uint: the ClippedReLU shift after fc_1
	skW2     = 64 // *int8: fc_2's 32 weights
	skGroup1 = 72 // int: SparseGroup of fc_1's weights (≥ 2: int16 pairs in the tail)
	skM      = 80 // int: the accumulator width per perspective, a positive multiple of 32
)

// reluStackAVX2 generates reluStackAVX2, simd.ReLUStack.Forward's kernel at AVX2: the
// whole HalfKP stack (Stockfish 13's evaluation after the accumulator, which its compiler
// inlines into one function) in one call rather than four — the transform with its chunk
// list for each perspective, fc_0's sparse kernel and the 32→32→1 tail — each of which
// would pass its arguments through the stack frame and store fc_0's 32 sums between them. The pieces are the same emitters
// (creluBlockAVX2, sparseAccLoops, clipToLocalAVX2, tailBody); the kernel chooses the
// transform's order, fc_0's loop and the tail by the fields of k (one predictable branch
// each), and fc_0's sums stay in registers. Results are those of the four kernels.
func reluStackAVX2(tbl Mem) {
	fn := "reluStackAVX2"
	TEXT(fn, NOSPLIT, "func(k *uint64, a, b *int16, dst *uint8, idx *uint16) int32")
	Pragma("noescape")
	Doc(fn+" returns fc_2's output without its bias for the HalfKP stack k (a *stackKernel) on",
		"the accumulators a (side to move) and b, m = k.m int16 each: dst[0:2m] receives the",
		"ClippedReLU of a then b (in k.masks' order when set) and idx the list of its non-zero",
		"4-byte chunks (m/2 entries of room).")
	kp := ld("k")
	dst := ld("dst")
	idx := ld("idx")

	// The transform of both perspectives, one block loop run over a then b; the chunk list
	// runs on across the halves (the second half's chunks are numbered from m/4).
	zero := YMM()
	VPXOR(zero, zero, zero)
	first := GP64()
	XORQ(first, first)
	nz := newNNZList(tbl, first)
	in := GP64() // dst's start: fc_0's input
	MOVQ(dst, in)
	pa := ld("a")
	half := GP64()
	MOVQ(U32(2), half)
	mk := GP64()
	MOVQ(Mem{Base: kp, Disp: skMasks}, mk)
	TESTQ(mk, mk)
	JZ(LabelRef(fn + "_plainHalf"))
	SUBQ(dst, mk) // masks − dst: the block's mask at [dst + mk]
	for _, shuf := range []bool{true, false} {
		pre := fn + "_plain"
		var bm reg.GPVirtual
		if shuf {
			pre, bm = fn+"_shuf", mk
		}
		Label(pre + "Half")
		n := GP64()
		MOVQ(Mem{Base: kp, Disp: skM}, n)
		alignLoop()
		Label(pre + "Block")
		creluBlockAVX2(pa, dst, bm, zero, nz, idx)
		ADDQ(U32(32), dst)
		ADDQ(U32(64), pa)
		SUBQ(U32(32), n)
		JNZ(LabelRef(pre + "Block"))
		Load(Param("b"), pa)
		DECQ(half)
		JNZ(LabelRef(pre + "Half"))
		JMP(LabelRef(fn + "_fc0"))
	}

	// fc_0 over the listed chunks, its 32 sums kept in four registers.
	Label(fn + "_fc0")
	b0 := GP64()
	MOVQ(Mem{Base: kp, Disp: skB0}, b0)
	acc := [][]reg.VecVirtual{make([]reg.VecVirtual, 4)}
	for v := range acc[0] {
		acc[0][v] = YMM()
		VMOVDQU(Mem{Base: b0, Disp: 32 * v}, acc[0][v])
	}
	ones := onesWords(avx2)
	wt0 := GP64()
	MOVQ(Mem{Base: kp, Disp: skWt0}, wt0)
	cnt := nz.cnt
	group := GP64()
	MOVQ(Mem{Base: kp, Disp: skGroup}, group)
	CMPQ(group, U8(2))
	JB(LabelRef(fn + "_g1"))
	JE(LabelRef(fn + "_g2"))
	for _, g := range []struct{ lbl, kind string }{{"_g3", "Triples"}, {"_g2", "Pairs"}, {"_g1", ""}} {
		Label(fn + g.lbl)
		sparseAccLoops(avx2, g.kind, fn+g.lbl, 32, acc, ones, in, wt0, idx, cnt)
		JMP(LabelRef(fn + "_tail"))
	}

	// fc_0's ClippedReLU into the frame, then fc_1, its ClippedReLU and fc_2.
	Label(fn + "_tail")
	c0, c1 := XMM(), XMM()
	VMOVQ(Mem{Base: kp, Disp: skSh0}, c0)
	VMOVQ(Mem{Base: kp, Disp: skSh1}, c1)
	local := AllocLocal(32)
	off := clipToLocalAVX2([4]reg.VecVirtual(acc[0]), c0, zero, local)
	wt1, b1, w2 := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: kp, Disp: skWt1}, wt1)
	MOVQ(Mem{Base: kp, Disp: skB1}, b1)
	MOVQ(Mem{Base: kp, Disp: skW2}, w2)
	r := GP32()
	CMPQ(Mem{Base: kp, Disp: skGroup1}, U8(2))
	JB(LabelRef(fn + "_single"))
	MOVL(tailBody(avx2, false, true, local, off, zero, ones, wt1, b1, w2, c1).As32(), r)
	JMP(LabelRef(fn + "_done"))
	Label(fn + "_single")
	MOVL(tailBody(avx2, false, false, local, off, zero, ones, wt1, b1, w2, c1).As32(), r)
	Label(fn + "_done")
	VZEROUPPER()
	Store(r, ReturnIndex(0))
	RET()
}

// creluBlockAVX2 emits one 32-byte block of HalfKP's transform at AVX2 (reluStackAVX2)
// with its chunk listing: the 32 int16 at pa clamped to [0, 127] and packed (VPACKSSWB,
// VPMAXSB), put in order, stored at dst, and its non-zero 4-byte chunks listed
// (nnzList.add at idx); zero is a zero vector. With mk nil the order is the natural one
// (VPERMQ $0xD8 undoes the pack's lane interleave); else one VPSHUFB with the block's
// 32-byte mask at dst + mk puts the bytes in a load-time order instead — it can move any
// byte of a 128-bit lane to any position of that lane. A HalfKP stack orders each lane's
// sixteen neurons so that often active ones share 4-byte chunks (fewer non-zero chunks
// for fc_0's sparse loop; its input columns permuted to match, simd.ReLUStack.WithActivity).
func creluBlockAVX2(pa, dst, mk reg.GPVirtual, zero reg.VecVirtual, nz nnzList, idx reg.GPVirtual) {
	a, b := YMM(), YMM()
	VMOVDQU(Mem{Base: pa}, a)
	VMOVDQU(Mem{Base: pa, Disp: 32}, b)
	VPACKSSWB(b, a, a)
	VPMAXSB(zero, a, a)
	if mk == nil {
		VPERMQ(U8(0xD8), a, a)
	} else {
		VPSHUFB(Mem{Base: dst, Index: mk, Scale: 1}, a, a)
	}
	VMOVDQU(a, Mem{Base: dst})
	y := YMM()
	VPCMPEQD(a, zero, y)
	m := GP64()
	VMOVMSKPS(y, m.As32())
	XORL(U32(0xFF), m.As32())
	nz.add(avx2, m, idx)
}
