package simd

import "testing"

// BenchmarkMulAddF32 times the thesis model's forward product for a chunk of 64 positions
// (64×512 · 512×32) at every level.
func BenchmarkMulAddF32(b *testing.B) {
	const m, n, k = 64, 32, 512
	x, w, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	for i := range x {
		x[i] = float32(i%13) / 13
	}
	for i := range w {
		w[i] = float32(i%7) / 7
	}
	for _, l := range Available() {
		prev, _ := SetLevel(l)
		b.Run(l.String(), func(b *testing.B) {
			for b.Loop() {
				MulAddF32(c, n, x, k, 1, w, n, m, n, k)
			}
		})
		SetLevel(prev)
	}
}
