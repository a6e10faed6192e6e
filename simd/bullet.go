package simd

import "fmt"

// Kernels of bullet's multi-layer networks (doc/bullet.md): the pairwise clipped product of a
// feature transformer with any clip and shift, and the float32 stages of the hidden layers,
// each float kernel with and without fused multiply-adds. Every level gives the pure-Go
// kernel's bits (bullet_generic.go).

// PairwiseClip sets dst[i] = (clamp(a[i], 0, clip) · clamp(b[i], 0, clip)) >> shift for
// i < len(dst), the product in int32 and the result truncated to uint8 (callers keep
// clip² >> shift ≤ 255: Alexandria clip 362 shift 10, Stockfish 19 clip 255 shift 9, Stockfish
// 15.1 clip 127 shift 7). len(a) and len(b) must be at least len(dst); clip > 0 and
// shift ≤ 30, else it panics.
func PairwiseClip(dst []uint8, a, b []int16, clip int16, shift uint8) {
	if clip <= 0 || shift > 30 {
		panic(fmt.Sprintf("simd: PairwiseClip: clip %d must be positive and shift %d ≤ 30", clip, shift))
	}
	pairwiseClip(dst, a[:len(dst)], b[:len(dst)], clip, shift)
}

// DequantiseF32 sets dst[i] = float32(src[i])·mul + bias[i] for i < len(dst): with fma one
// rounding (FMA32), else the product rounded to float32 and then the add. The conversion
// rounds to nearest even. len(src) and len(bias) must be at least len(dst).
func DequantiseF32(dst []float32, src []int32, mul float32, bias []float32, fma bool) {
	dequantiseF32(dst, src[:len(dst)], mul, bias[:len(dst)], fma)
}

// AffineF32 sets out[k] = bias[k] + Σ_i x[i]·wt[i·len(out) + k] for k < len(out), summed in
// the order of a layer vectorised over its outputs: t = bias[k], then t = x[i]·wt[…] + t for
// i = 0, 1, … (fma: each step one rounding, else the product rounded first). wt is
// input-major [len(x)][len(out)]; len(wt) must be len(x)·len(out) and len(bias) ≥ len(out).
func AffineF32(out, x, wt, bias []float32, fma bool) {
	if len(wt) != len(x)*len(out) {
		panic(fmt.Sprintf("simd: AffineF32: %d weights for %d inputs and %d outputs", len(wt), len(x), len(out)))
	}
	affineF32(out, x, wt, bias[:len(out)], fma)
}

// DotLanesF32 returns Σ x[i]·w[i] summed in lanes lanes: lane l starts at +0 and takes
// x[i]·w[i] + lane for i = l, l+lanes, … in order (fma: one rounding each, else the product
// rounded first), then the lanes are added in halves (lane l += lane l+lanes/2 for l < lanes/2,
// then lanes/4, … down to one; for 16 lanes the tree of _mm512_reduce_add_ps). lanes must be a
// power of two in [2, 64] dividing len(x), and len(w) == len(x), else it panics.
func DotLanesF32(x, w []float32, lanes int, fma bool) float32 {
	if lanes < 2 || lanes > 64 || lanes&(lanes-1) != 0 || len(x)%lanes != 0 || len(w) != len(x) {
		panic(fmt.Sprintf("simd: DotLanesF32: %d lanes over %d and %d values", lanes, len(x), len(w)))
	}
	return dotLanesF32(x, w, lanes, fma)
}

// CReLUDot returns Σ_i clamp(acc[i], 0, qa)·w[i], exactly (int64): the output layer of a
// single-layer CReLU network (bullet's CReLU examples, Stormphrax net013). len(w) must equal
// len(acc) and qa must be positive, else it panics.
func CReLUDot(acc, w []int16, qa int16) int64 {
	if len(w) != len(acc) || qa <= 0 {
		panic(fmt.Sprintf("simd: CReLUDot: %d values, %d weights, qa %d", len(acc), len(w), qa))
	}
	return creluDot(acc, w, qa)
}

// ReLUF32, CReLUF32 and SCReLUF32 set dst[i] from src[i] for i < len(dst): r = src[i] when
// src[i] > 0, else +0 (so −0 and NaN give +0, as x86's VMAXPS(x, 0)); CReLU takes r when
// r < 1, else 1; SCReLU squares that (one rounding). len(src) must be at least len(dst).
func ReLUF32(dst, src []float32) { activationF32(dst, src[:len(dst)], 0) }

// CReLUF32 is min(max(x, 0), 1) with ReLUF32's treatment of −0 and NaN (see ReLUF32).
func CReLUF32(dst, src []float32) { activationF32(dst, src[:len(dst)], 1) }

// SCReLUF32 is min(max(x, 0), 1)² with ReLUF32's treatment of −0 and NaN (see ReLUF32).
func SCReLUF32(dst, src []float32) { activationF32(dst, src[:len(dst)], 2) }

// clipKind names the pairwise product kernels (simd/_asm bullet.go pairwiseClip).
type clipKind uint8

const (
	clipLo clipKind = iota // the product's low 16 bits, shifted right by post
	clipHi                 // its high unsigned 16 bits, clamp(a) shifted left by pre or the result right by post
	clipHs                 // its high signed 16 bits, b clamped from above only (Stockfish 19's transform)
)

// pairwiseClipKind returns the kernel PairwiseClip(clip, shift) runs (clip > 0, shift ≤
// 30, (clip²) >> shift ≤ 255) and its shifts: Hs when shift ≤ 16 and clip << (16 − shift)
// fits int16, else Lo when clip ≤ 255 (the product fits 16 bits), else Hi.
func pairwiseClipKind(clip int16, shift uint8) (k clipKind, pre, post uint64) {
	switch {
	case shift <= 16 && int32(clip)<<(16-shift) <= 32767:
		return clipHs, 16 - uint64(shift), 0
	case clip <= 255:
		return clipLo, 0, uint64(shift)
	case shift >= 16:
		return clipHi, 0, uint64(shift) - 16
	}
	return clipHi, 16 - uint64(shift), 0
}
