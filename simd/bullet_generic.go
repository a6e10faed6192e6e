package simd

func pairwiseClipGeneric(dst []uint8, a, b []int16, clip int16, shift uint8) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		x := int32(min(max(a[i], 0), clip))
		y := int32(min(max(b[i], 0), clip))
		dst[i] = uint8((x * y) >> shift)
	}
}

func dequantiseF32Generic(dst []float32, src []int32, mul float32, bias []float32, fma bool) {
	src, bias = src[:len(dst)], bias[:len(dst)]
	if fma {
		for i, s := range src {
			dst[i] = FMA32(float32(s), mul, bias[i])
		}
		return
	}
	for i, s := range src {
		dst[i] = float32(float32(s)*mul) + bias[i]
	}
}

func affineF32Generic(out, x, wt, bias []float32, fma bool) {
	n := len(out)
	bias = bias[:n]
	for k := range out {
		t := bias[k]
		for i, v := range x {
			w := wt[i*n+k]
			if fma {
				t = FMA32(v, w, t)
			} else {
				t = float32(v*w) + t
			}
		}
		out[k] = t
	}
}

func dotLanesF32Generic(x, w []float32, lanes int, fma bool) float32 {
	var buf [64]float32
	v := buf[:lanes]
	w = w[:len(x)]
	for i, a := range x {
		l := i & (lanes - 1)
		if fma {
			v[l] = FMA32(a, w[i], v[l])
		} else {
			v[l] = float32(a*w[i]) + v[l]
		}
	}
	for half := lanes / 2; half >= 1; half /= 2 {
		for l := range half {
			v[l] += v[l+half]
		}
	}
	return v[0]
}

func creluDotGeneric(acc, w []int16, qa int16) int64 {
	w = w[:len(acc)]
	var s int64
	for i, v := range acc {
		s += int64(min(max(v, 0), qa)) * int64(w[i])
	}
	return s
}

// activationF32Generic applies act (0 ReLU, 1 CReLU, 2 SCReLU) as VMAXPS(x, 0), VMINPS(r, 1)
// and VMULPS compute it.
func activationF32Generic(dst, src []float32, act int) {
	src = src[:len(dst)]
	for i, v := range src {
		r := float32(0)
		if v > 0 {
			r = v
		}
		if act > 0 && !(r < 1) {
			r = 1
		}
		if act == 2 {
			r *= r
		}
		dst[i] = r
	}
}
