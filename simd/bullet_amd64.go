//go:build amd64 && !purego

package simd

import "github.com/klauspost/cpuid/v2"

// hasFMA reports FMA3, which the fused float kernels need besides AVX2 (every AVX2 CPU so far
// has it, but the levels do not imply it).
var hasFMA = cpuid.CPU.Supports(cpuid.FMA3)

// floatAsm reports whether the float kernels run in assembly at the current level.
func floatAsm(fma bool) bool { return level >= AVX2 && (!fma || hasFMA) }

func pairwiseClip(dst []uint8, a, b []int16, clip int16, shift uint8) {
	n := len(dst)
	c := int32(clip)
	m := n &^ 31
	if level < AVX2 || m == 0 || (c*c)>>shift > 255 {
		pairwiseClipGeneric(dst, a, b, clip, shift)
		return
	}
	k, pre, post := pairwiseClipKind(clip, shift)
	switch {
	case wide && k == clipHs:
		pairwiseClipHsAVX512(&dst[0], &a[0], &b[0], m, uint64(clip), pre, post)
	case wide && k == clipHi:
		pairwiseClipHiAVX512(&dst[0], &a[0], &b[0], m, uint64(clip), pre, post)
	case wide:
		pairwiseClipLoAVX512(&dst[0], &a[0], &b[0], m, uint64(clip), pre, post)
	case k == clipHs:
		pairwiseClipHsAVX2(&dst[0], &a[0], &b[0], m, uint64(clip), pre, post)
	case k == clipHi:
		pairwiseClipHiAVX2(&dst[0], &a[0], &b[0], m, uint64(clip), pre, post)
	default:
		pairwiseClipLoAVX2(&dst[0], &a[0], &b[0], m, uint64(clip), pre, post)
	}
	if m < n {
		pairwiseClipGeneric(dst[m:], a[m:], b[m:], clip, shift)
	}
}

func dequantiseF32(dst []float32, src []int32, mul float32, bias []float32, fma bool) {
	n := len(dst)
	m := n &^ 7
	if !floatAsm(fma) || m == 0 {
		dequantiseF32Generic(dst, src, mul, bias, fma)
		return
	}
	if fma {
		dequantiseF32FMA(&dst[0], &src[0], &bias[0], mul, m)
	} else {
		dequantiseF32Mul(&dst[0], &src[0], &bias[0], mul, m)
	}
	if m < n {
		dequantiseF32Generic(dst[m:], src[m:], mul, bias[m:], fma)
	}
}

func affineF32(out, x, wt, bias []float32, fma bool) {
	n := len(out)
	if !floatAsm(fma) || n == 0 || n%8 != 0 || len(x) == 0 {
		affineF32Generic(out, x, wt, bias, fma)
		return
	}
	if fma {
		affineF32FMA(&out[0], &x[0], &wt[0], &bias[0], len(x), n)
	} else {
		affineF32Mul(&out[0], &x[0], &wt[0], &bias[0], len(x), n)
	}
}

func dotLanesF32(x, w []float32, lanes int, fma bool) float32 {
	if lanes != 16 || !floatAsm(fma) || len(x) == 0 {
		return dotLanesF32Generic(x, w, lanes, fma)
	}
	if fma {
		return dot16F32FMA(&x[0], &w[0], len(x))
	}
	return dot16F32Mul(&x[0], &w[0], len(x))
}

func creluDot(acc, w []int16, qa int16) int64 {
	n := len(acc)
	m := n &^ 15
	if level < AVX2 || m == 0 {
		return creluDotGeneric(acc, w, qa)
	}
	s := creluDotAVX2(&acc[0], &w[0], m, uint64(qa))
	if m < n {
		s += creluDotGeneric(acc[m:], w[m:], qa)
	}
	return s
}

func activationF32(dst, src []float32, act int) {
	n := len(dst)
	m := n &^ 7
	if level < AVX2 || m == 0 {
		activationF32Generic(dst, src, act)
		return
	}
	switch act {
	case 0:
		activationF32ReLU(&dst[0], &src[0], m)
	case 1:
		activationF32CReLU(&dst[0], &src[0], m)
	default:
		activationF32SCReLU(&dst[0], &src[0], m)
	}
	if m < n {
		activationF32Generic(dst[m:], src[m:], act)
	}
}
