package simd

func clippedReLU16Generic(dst []uint8, src []int16) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = uint8(min(max(v, 0), 127))
	}
}

func clippedReLU32Generic(dst []uint8, src []int32, shift uint) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = uint8(min(max(v>>shift, 0), 127))
	}
}

func sqrClippedReLU32Generic(dst []uint8, src []int32, shift uint) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = uint8(min((int64(v)*int64(v))>>shift, 127))
	}
}

func pairwiseMulGeneric(dst []uint8, a, b []int16) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		x := int32(min(max(a[i], 0), 127))
		y := int32(min(max(b[i], 0), 127))
		dst[i] = uint8((x * y) >> 7)
	}
}

func sqrCReLUPair16Generic(dst []uint8, src []int32, sqrShift, shift uint) {
	dst, src = dst[:32], src[:16]
	sqrClippedReLU32Generic(dst[:16], src, sqrShift)
	clippedReLU32Generic(dst[16:], src, shift)
}

func clippedReLUDot32Generic(x []int32, w []int8, shift uint) int32 {
	w = w[:len(x)]
	var s int32
	for i, v := range x {
		s += min(max(v>>shift, 0), 127) * int32(w[i])
	}
	return s
}
