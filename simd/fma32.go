package simd

import "math"

// FMA32 returns a·b + c rounded once to float32 (round to nearest, ties to even): the
// result of a fused multiply-add instruction on float32 lanes (x86 VFMADD…PS, C's fmaf).
//
// The product a·b is exact in float64 (24 + 24 significant bits); the sum is rounded to
// float64 by round-to-odd (its exact error, from TwoSum, decides the last bit), and the
// float64 → float32 conversion then rounds correctly because float64 has more than
// 24 + 2 significant bits (Boldo and Melquiond, "When double rounding is odd", 2005).
// Infinite and NaN operands give the IEEE result of the same operation.
func FMA32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	// TwoSum: e is the exact error s − (p + c).
	bv := s - p
	e := (p - (s - bv)) + (float64(c) - bv)
	if e != 0 {
		bits := math.Float64bits(s)
		if bits&1 == 0 {
			// Round to odd: move s one unit in the last place towards the exact value.
			if (e > 0) == (s > 0) {
				bits++
			} else {
				bits--
			}
			s = math.Float64frombits(bits)
		}
	}
	return float32(s)
}
