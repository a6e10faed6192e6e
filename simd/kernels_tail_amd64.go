//go:build amd64 && !purego

package simd

// Wrappers of the tail kernels (affine_tail.go): the last element every kernel reads is
// indexed first, so an operand shorter than its fixed length panics before any assembly
// runs (a reslice would only check the capacity).

func installTailAsm() {
	affineReLUDot32Fn = affineReLUDot32Asm
	reluAffineReLUDot32Fn = reluAffineReLUDot32Asm
}

func affineReLUDot32Asm(in []uint8, wt []int8, bias []int32, shift uint, w2 []int8) int32 {
	_, _, _, _ = in[31], wt[1023], bias[31], w2[31] // lengths, not capacities
	switch {
	case vnni:
		return affineReLUDot32VNNI(&in[0], &wt[0], &bias[0], shift, &w2[0])
	case wide:
		return affineReLUDot32AVX512(&in[0], &wt[0], &bias[0], shift, &w2[0])
	}
	return affineReLUDot32AVX2(&in[0], &wt[0], &bias[0], shift, &w2[0])
}

func reluAffineReLUDot32Asm(x []int32, shift0 uint, wt []int8, bias []int32, shift uint, w2 []int8) int32 {
	_, _, _, _ = x[31], wt[1023], bias[31], w2[31]
	switch {
	case vnni:
		return reluAffineReLUDot32VNNI(&x[0], shift0, &wt[0], &bias[0], shift, &w2[0])
	case wide:
		return reluAffineReLUDot32AVX512(&x[0], shift0, &wt[0], &bias[0], shift, &w2[0])
	}
	return reluAffineReLUDot32AVX2(&x[0], shift0, &wt[0], &bias[0], shift, &w2[0])
}
