package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The 32→32→1 tail shared by Stockfish 13's HalfKP stack and Stockfish 15.1's SFNNv5 stack
// (fc_1 = Affine(32→32) + bias → ClippedReLU → fc_2 = Affine(32→1) without its bias) as one
// kernel: fc_1's 32 outputs never leave the registers. fc_1's weights are chunk-major
// (simd.SparseWeights layout: the 32 outputs' 4 weights of input chunk c are the 128
// bytes at 128·c), so each of the 8 input chunks is broadcast once and multiplied against
// 4 (AVX2) or 2 (AVX-512) weight vectors: no horizontal sums (affineAVX2 folds each output
// row's lanes), the lanes are the outputs. Exactness as in affine.go: inputs ≤ 127, one
// VPMADDWD(ones) per VPMADDUBSW (or VPDPBUSD), wrapping int32 sums in another order.
//
// Variants: tailU8 reads fc_1's 32 uint8 inputs from memory; tailI32 first applies the
// ClippedReLU (x >> shift0 clamped to [0, 127]) to 32 int32 (fc_0's outputs) and stores
// the 32 bytes to the frame, from where the chunks are broadcast (HalfKP).

// tailKernels emits the tail kernels with a caller in package simd.
func tailKernels() {
	for _, fromI32 := range []bool{false, true} {
		tail(avx2, false, fromI32, false)
		tail(avx512, false, fromI32, false)
		tail(avx512, true, fromI32, false)
		if !fromI32 { // HalfKP's AVX2 tail with pairs is inside reluStackAVX2 (tailBody)
			tail(avx2, false, fromI32, true)
		}
		tail(avx512, false, fromI32, true)
	}
}

// tail emits one tail kernel. With pairs (not VNNI) two chunks' VPMADDUBSW results are
// added in int16 before one VPMADDWD, as the sparse "Pairs" kernels do: exact only for
// weights that simd.SparseGroup(wt, 32, 32) rates ≥ 2; the Go side checks that at load time.
func tail(s isa, vnni bool, fromI32 bool, pairs bool) {
	name := s.name
	if vnni {
		name = "VNNI"
	}
	if pairs {
		name = "Pairs" + name
	}
	fn := "affineReLUDot32" + name
	sig := "func(in *uint8, wt *int8, bias *int32, shift uint, w2 *int8) int32"
	if fromI32 {
		fn = "reluAffineReLUDot32" + name
		sig = "func(x *int32, shift0 uint, wt *int8, bias *int32, shift uint, w2 *int8) int32"
	}
	TEXT(fn, NOSPLIT, sig)
	Pragma("noescape")
	if fromI32 {
		Doc(fn+" returns Σ_j clamp((bias[j] + Σ_i u[i]·W[j][i]) >> shift, 0, 127)·w2[j] for",
			"i, j < 32 with u[i] = clamp(x[i] >> shift0, 0, 127), W chunk-major in wt (1,024",
			"bytes), in wrapping int32.")
	} else {
		Doc(fn+" returns Σ_j clamp((bias[j] + Σ_i in[i]·W[j][i]) >> shift, 0, 127)·w2[j] for",
			"i, j < 32, every in[i] ≤ 127, W chunk-major in wt (1,024 bytes), in wrapping int32.")
	}
	if pairs {
		Doc(fn+" is the same with two chunks' VPMADDUBSW results summed in int16: only for",
			"weights that simd.SparseGroup(wt, 32, 32) rates ≥ 2.")
	}
	wt, bias := ld("wt"), ld("bias")

	// src: where the 32 input bytes are; chunk c is at src + off(c).
	var src Mem
	off := func(c int) int { return 4 * c }
	var zero reg.VecVirtual
	if fromI32 {
		px := ld("x")
		c0 := XMM()
		VMOVQ(ld("shift0"), c0)
		local := AllocLocal(32)
		src = local
		if s.wide {
			zero = ZMM()
			VPXORD(zero, zero, zero)
			// VPMOVSDB saturates to [−128, 127]; after the max with 0 that is the clamp.
			for k := 0; k < 2; k++ {
				v := ZMM()
				VMOVDQU64(Mem{Base: px, Disp: 64 * k}, v)
				VPSRAD(c0, v, v)
				VPMAXSD(zero, v, v)
				VPMOVSDB(v, local.Offset(16*k))
			}
		} else {
			zero = YMM()
			VPXOR(zero, zero, zero)
			var v [4]reg.VecVirtual
			for k := range v {
				v[k] = YMM()
				VMOVDQU(Mem{Base: px, Disp: 32 * k}, v[k])
			}
			off = clipToLocalAVX2(v, c0, zero, local)
		}
	} else {
		src = Mem{Base: ld("in")}
	}

	r := tailBody(s, vnni, pairs, src, off, zero, nil, wt, bias, ld("w2"), shiftCount())
	VZEROUPPER()
	Store(r, ReturnIndex(0))
	RET()
}

// clipToLocalAVX2 emits HalfKP's ClippedReLU of fc_0's 32 int32 outputs v (clobbered):
// clamp(v >> c0, 0, 127) (c0 an XMM shift count, zero a zero vector), packed into the 32
// bytes at local. The packs leave chunk c at dword c/2 (c even) or 4 + c/2 (c odd); the
// returned offset function gives that place, so that the tail's broadcasts read each
// chunk there instead of restoring the order (packD32's VPERMD).
func clipToLocalAVX2(v [4]reg.VecVirtual, c0, zero reg.VecVirtual, local Mem) func(int) int {
	for k := range v {
		VPSRAD(c0, v[k], v[k])
	}
	VPACKSSDW(v[1], v[0], v[0])
	VPACKSSDW(v[3], v[2], v[2])
	VPACKSSWB(v[2], v[0], v[0])
	VPMAXSB(zero, v[0], v[0])
	VMOVDQU(v[0], local)
	return func(c int) int { return 4 * (c/2 + 4*(c%2)) }
}

// tailBody emits the tail after its input: fc_1 over the 32 bytes whose chunk c is at
// src + off(c) (weights wt chunk-major, 32 int32 biases at bias), its ClippedReLU (>> the
// XMM count cnt), fc_2 with the 32 weights at pw2, and returns a register holding the
// int32 sum. zero (a zero vector) and ones (onesWords) are made here when nil.
func tailBody(s isa, vnni, pairs bool, src Mem, off func(int) int, zero, ones reg.VecVirtual, wt, bias, pw2 reg.GPVirtual, cnt reg.VecVirtual) reg.GPVirtual {
	nv := 128 / s.bytes // vectors per chunk (4 or 2)
	sets := 1
	if vnni {
		sets = 2 // even and odd chunks: two independent VPDPBUSD chains per vector
	}
	acc := make([][]reg.VecVirtual, sets)
	for u := range acc {
		acc[u] = make([]reg.VecVirtual, nv)
		for v := range acc[u] {
			acc[u][v] = s.vec()
			if u == 0 {
				s.mov(Mem{Base: bias, Disp: v * s.bytes}, acc[u][v])
			} else {
				s.zero(acc[u][v])
			}
		}
	}
	if !vnni && ones == nil {
		ones = onesWords(s)
	}
	for c := 0; pairs && c < 8; c += 2 {
		x0, x1 := s.vec(), s.vec()
		VPBROADCASTD(src.Offset(off(c)), x0)
		VPBROADCASTD(src.Offset(off(c+1)), x1)
		for v := 0; v < nv; v++ {
			t0, t1 := s.vec(), s.vec()
			VPMADDUBSW(Mem{Base: wt, Disp: 128*c + v*s.bytes}, x0, t0)
			VPMADDUBSW(Mem{Base: wt, Disp: 128*(c+1) + v*s.bytes}, x1, t1)
			VPADDW(t1, t0, t0)
			VPMADDWD(ones, t0, t0)
			VPADDD(t0, acc[0][v], acc[0][v])
		}
	}
	for c := 0; !pairs && c < 8; c++ {
		xb := s.vec()
		VPBROADCASTD(src.Offset(off(c)), xb)
		a := acc[c%sets]
		for v := 0; v < nv; v++ {
			w := Mem{Base: wt, Disp: 128*c + v*s.bytes}
			if vnni {
				VPDPBUSD(w, xb, a[v])
				continue
			}
			t := s.vec()
			VPMADDUBSW(w, xb, t)
			VPMADDWD(ones, t, t)
			VPADDD(t, a[v], a[v])
		}
	}
	for v := 0; v < nv; v++ {
		for u := 1; u < sets; u++ {
			VPADDD(acc[u][v], acc[0][v], acc[0][v])
		}
	}

	// fc_1's ClippedReLU into 32 bytes in output order.
	var act reg.VecVirtual
	if s.wide {
		if zero == nil {
			zero = ZMM()
			VPXORD(zero, zero, zero)
		}
		var x [2]reg.VecVirtual
		for v := 0; v < 2; v++ {
			VPSRAD(cnt, acc[0][v], acc[0][v])
			VPMAXSD(zero, acc[0][v], acc[0][v])
			x[v] = XMM()
			VPMOVSDB(acc[0][v], x[v])
		}
		act = YMM()
		VINSERTI32X4(U8(1), x[1], x[0].AsY(), act)
	} else {
		if zero == nil {
			zero = YMM()
			VPXOR(zero, zero, zero)
		}
		var v [4]reg.VecVirtual
		for k := range v {
			VPSRAD(cnt, acc[0][k], acc[0][k])
			v[k] = acc[0][k]
		}
		_, i256 := permD(s)
		packD32(v, zero, nil, i256, false)
		act = v[0]
	}

	// fc_2: 32 products summed into int32 (|sum| ≤ 32·127·128, no wrap).
	sum := YMM()
	if vnni {
		VPXORD(sum, sum, sum)
		VPDPBUSD(Mem{Base: pw2}, act, sum)
	} else {
		VPMADDUBSW(Mem{Base: pw2}, act, sum)
		VPMADDWD(half(ones), sum, sum)
	}
	h := hsum(s, sum, false)
	r := GP32()
	VMOVD(h, r)
	return r
}
