package simd

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// fma32Exact rounds a·b + c computed exactly with big.Float to float32.
func fma32Exact(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(0).SetFloat64(float64(a))
	y := new(big.Float).SetPrec(0).SetFloat64(float64(b))
	z := new(big.Float).SetPrec(0).SetFloat64(float64(c))
	p := new(big.Float).SetPrec(200).Mul(x, y)
	p.Add(p, z)
	f, _ := p.Float32()
	if f == 0 {
		// big.Float rounds a zero sum to +0; IEEE gives −0 only when both addends are −0.
		return float32(float64(a)*float64(b) + float64(c))
	}
	return f
}

// TestFMA32 compares FMA32 with an exact big.Float evaluation on random operands, among them
// sums that cancel to near a float32 rounding midpoint (the double-rounding hazard).
func TestFMA32(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bits := func(name string) float32 {
			v := math.Float32frombits(rapid.Uint32().Draw(t, name))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return 1
			}
			return v
		}
		a, b := bits("a"), bits("b")
		var c float32
		if rapid.Bool().Draw(t, "near") {
			// c close to −a·b so the result is small and its rounding delicate.
			c = -float32(float64(a)*float64(b)) * (1 + float32(rapid.IntRange(-4, 4).Draw(t, "d"))/(1<<23))
		} else {
			c = bits("c")
		}
		want := fma32Exact(a, b, c)
		got := FMA32(a, b, c)
		if math.IsInf(float64(want), 0) && math.IsInf(float64(got), 0) && (want > 0) == (got > 0) {
			return
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("FMA32(%g, %g, %g) = %g (%#x), want %g (%#x)", a, b, c, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	})
}

// TestFMA32DoubleRounding is a case where rounding a·b + c to float64 and then to float32
// gives the wrong float32: a·b = 1 + 2⁻¹¹ + 2⁻²⁴ is a float32 midpoint, c = 2⁻⁸⁰ puts the
// exact sum just above it (so it rounds up), but the float64 rounding drops c and the
// midpoint then rounds to even (down).
func TestFMA32DoubleRounding(t *testing.T) {
	a := float32(1 + 1.0/(1<<12))
	c := float32(math.Ldexp(1, -80))
	want := float32(1 + 1.0/(1<<11) + 1.0/(1<<23))
	if naive := float32(float64(a)*float64(a) + float64(c)); naive == want {
		t.Fatalf("the case does not show double rounding: %v", naive)
	}
	if got := FMA32(a, a, c); got != want || fma32Exact(a, a, c) != want {
		t.Fatalf("FMA32 = %v, exact %v, want %v", got, fma32Exact(a, a, c), want)
	}
}
