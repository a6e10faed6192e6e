//go:build !amd64 || purego

package simd

func pairwiseClip(dst []uint8, a, b []int16, clip int16, shift uint8) {
	pairwiseClipGeneric(dst, a, b, clip, shift)
}

func dequantiseF32(dst []float32, src []int32, mul float32, bias []float32, fma bool) {
	dequantiseF32Generic(dst, src, mul, bias, fma)
}

func affineF32(out, x, wt, bias []float32, fma bool) { affineF32Generic(out, x, wt, bias, fma) }

func dotLanesF32(x, w []float32, lanes int, fma bool) float32 {
	return dotLanesF32Generic(x, w, lanes, fma)
}

func creluDot(acc, w []int16, qa int16) int64 { return creluDotGeneric(acc, w, qa) }

func activationF32(dst, src []float32, act int) { activationF32Generic(dst, src, act) }
