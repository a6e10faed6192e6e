package simd

func affineGeneric(out []int32, in []uint8, weights []int8, bias []int32) {
	n := len(in)
	bias = bias[:len(out)]
	for j := range out {
		row := weights[j*n : j*n+n]
		row = row[:len(in)] // tells the compiler len(row) == len(in): no bounds checks below
		s := bias[j]
		for i, x := range in {
			s += int32(x) * int32(row[i])
		}
		out[j] = s
	}
}

func screluDotGeneric(acc, w []int16, qa int16) int32 {
	w = w[:len(acc)]
	var s int32
	for i, a := range acc {
		v := min(max(a, 0), qa)
		s += int32(v*w[i]) * int32(v)
	}
	return s
}
