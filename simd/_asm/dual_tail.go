package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// dualActTail emits dualActTail<nx>x<ny>AVX2(x *int32, wt *int8, bias *int32, w2 *int8,
// sq0, s0, sq1, s1 uint) int32 (nx 16 or 32, ny 32 or 64): the layers of a Stockfish 19 stack after fc_0 as
// one kernel, nothing leaving the registers but u0 (stored to the frame, from where fc_1
// broadcasts its chunks and fc_2 reloads it):
//
//	u0 = the activation pair of x[0:nx]: per 16 outputs, min(127, x² >> sq0) (16 bytes)
//	     then clamp(x >> s0, 0, 127) (16 bytes) — sqrCReLUPairRegs, 2·nx bytes
//	y  = bias + W1·u0, ny outputs, W1 chunk-major over u0's 2·nx bytes (simd.SparseWeights
//	     layout, one broadcast and ny/8 VPMADDUBSW + VPMADDWD(ones) per chunk)
//	u1 = the activation pair of y (sq1, s1), 2·ny bytes
//	out = Σ w2[i]·(u0 ‖ u1)[i] over 2·nx + 2·ny bytes, without fc_2's bias
//
// Every input byte is ≤ 127, so each VPMADDUBSW pair sum is exact; the int32 sums wrap.
// The byte order of u0 and u1 is the pair order above; simd.PairwiseDenseStack lays fc_1's
// and fc_2's weights out for it. VEX only, so every vector level runs it.
func dualActTail(nx, ny int) {
	fn := fmt.Sprintf("dualActTail%dx%dAVX2", nx, ny)
	TEXT(fn, NOSPLIT, "func(x *int32, wt *int8, bias *int32, w2 *int8, sq0, s0, sq1, s1 uint) int32")
	Pragma("noescape")
	Doc(fn+" returns Σ_i w2[i]·(u0 ‖ u1)[i] with u0 the activation pair (squared >> sq0,",
		fmt.Sprintf("clipped >> s0; per 16 values 16 squared bytes then 16 clipped) of x[0:%d], y = bias +", nx),
		fmt.Sprintf("W·u0 for %d outputs (W chunk-major in wt) and u1 the activation pair (sq1, s1) of y, in", ny),
		"wrapping int32.")
	px, wt, bias, pw2 := ld("x"), ld("wt"), ld("bias"), ld("w2")
	var cnt [4]reg.VecVirtual
	for k, name := range []string{"sq0", "s0", "sq1", "s1"} {
		cnt[k] = XMM()
		VMOVQ(ld(name), cnt[k])
	}
	i256, zero, c127 := pairConsts()
	local := AllocLocal(2 * nx)

	// u0, stored to the frame for fc_1's broadcasts and fc_2.
	for b := 0; b < nx/16; b++ {
		var v [2]reg.VecVirtual
		for k := range v {
			v[k] = YMM()
			VMOVDQU(Mem{Base: px, Disp: 64*b + 32*k}, v[k])
		}
		VMOVDQU(sqrCReLUPairRegs(v, cnt[0], cnt[1], c127, zero, i256), local.Offset(32*b))
	}

	// fc_1: ny outputs in ny/8 vectors.
	ones := onesWords(avx2)
	acc := make([]reg.VecVirtual, ny/8)
	for v := range acc {
		acc[v] = YMM()
		VMOVDQU(Mem{Base: bias, Disp: 32 * v}, acc[v])
	}
	for ch := 0; ch < 2*nx/4; ch++ {
		xb := YMM()
		VPBROADCASTD(local.Offset(4*ch), xb)
		for v := range acc {
			p := YMM()
			VPMADDUBSW(Mem{Base: wt, Disp: 4*ny*ch + 32*v}, xb, p)
			VPMADDWD(ones, p, p)
			VPADDD(p, acc[v], acc[v])
		}
	}

	// fc_2 over u0 (from the frame) and u1 (each 32 bytes as it is made).
	sum := YMM()
	VPXOR(sum, sum, sum)
	dot := func(k int, r reg.VecVirtual) {
		p := YMM()
		VPMADDUBSW(Mem{Base: pw2, Disp: 32 * k}, r, p)
		VPMADDWD(ones, p, p)
		VPADDD(p, sum, sum)
	}
	for b := 0; b < nx/16; b++ {
		r := YMM()
		VMOVDQU(local.Offset(32*b), r)
		dot(b, r)
	}
	// With 64 outputs the eight vectors leave too few registers for the activation: they
	// go to the frame and come back two at a time.
	var ys Mem
	if len(acc) > 4 {
		ys = AllocLocal(32 * len(acc))
		for v := range acc {
			VMOVDQU(acc[v], ys.Offset(32*v))
		}
	}
	for v := 0; v < len(acc); v += 2 {
		pair := [2]reg.VecVirtual{acc[v], acc[v+1]}
		if len(acc) > 4 {
			for k := range pair {
				pair[k] = YMM()
				VMOVDQU(ys.Offset(32*(v+k)), pair[k])
			}
		}
		dot(nx/16+v/2, sqrCReLUPairRegs(pair, cnt[2], cnt[3], c127, zero, i256))
	}
	h := hsum(avx2, sum, false)
	out := GP32()
	VMOVD(h, out)
	VZEROUPPER()
	Store(out, ReturnIndex(0))
	RET()
}
