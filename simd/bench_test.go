package simd

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// loop runs op b.N times (b.Loop) and reports the thread CPU time per op as cpu-ns/op.
func loop(b *testing.B, op func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	for b.Loop() {
		op()
	}
	if end := threadCPU(); start >= 0 && end >= 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}

// The benchmarks run the kernels at the current level: compare
//
//	NNUEKIT_SIMD=generic go test -run '^$' -bench . ./simd
//
// with the default run (benchstat; see doc/benchmarks.md). b.SetBytes counts every byte a
// kernel loads or stores, so MB/s can be compared with the L1 bandwidth.

var benchWidths = []int{256, 512, 1024, 2048}

func randInt16(n int, lo, hi int) []int16 {
	s := AlignedInt16(n)
	r := rand.New(rand.NewPCG(uint64(n), 1))
	for i := range s {
		s[i] = int16(lo + r.IntN(hi-lo+1))
	}
	return s
}

func benchAcc(b *testing.B, k int, run func(dst, src []int16, ops [][]int16)) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dst, src := AlignedInt16(n), randInt16(n, -2000, 2000)
			ops := make([][]int16, k)
			for j := range ops {
				ops[j] = randInt16(n, -100, 100)
			}
			b.SetBytes(int64(2 * n * (k + 2)))
			loop(b, func() { run(dst, src, ops) })
		})
	}
}

// BenchmarkAddSub is one dst = src + add − sub of N int16 (a quiet move, one perspective).
func BenchmarkAddSub(b *testing.B) {
	benchAcc(b, 2, func(d, s []int16, o [][]int16) { AddSub(d, s, o[0], o[1]) })
}

func BenchmarkAddSubSub(b *testing.B) {
	benchAcc(b, 3, func(d, s []int16, o [][]int16) { AddSubSub(d, s, o[0], o[1], o[2]) })
}

func BenchmarkAddAddSubSub(b *testing.B) {
	benchAcc(b, 4, func(d, s []int16, o [][]int16) { AddAddSubSub(d, s, o[0], o[1], o[2], o[3]) })
}

func BenchmarkAdd(b *testing.B) {
	benchAcc(b, 1, func(d, s []int16, o [][]int16) { Add(d, s, o[0]) })
}

func BenchmarkSub(b *testing.B) {
	benchAcc(b, 1, func(d, s []int16, o [][]int16) { Sub(d, s, o[0]) })
}

// BenchmarkRefresh is a full refresh from 32 active features (a middlegame position) out
// of 768 rows.
func BenchmarkRefresh(b *testing.B) {
	const active, features = 32, 768
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dst, bias := AlignedInt16(n), randInt16(n, -100, 100)
			weights := randInt16(features*n, -100, 100)
			r := rand.New(rand.NewPCG(7, 7))
			rows := make([]int, active)
			for i := range rows {
				rows[i] = r.IntN(features)
			}
			b.SetBytes(int64(2 * n * (active + 2)))
			loop(b, func() { Refresh(dst, bias, weights, rows) })
		})
	}
}

func BenchmarkClippedReLU16(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src, dst := randInt16(n, -300, 300), AlignedUint8(n)
			b.SetBytes(int64(3 * n))
			loop(b, func() { ClippedReLU16(dst, src) })
		})
	}
}

func randInt32(n int, lo, hi int) []int32 {
	s := AlignedInt32(n)
	r := rand.New(rand.NewPCG(uint64(n), 2))
	for i := range s {
		s[i] = int32(lo + r.IntN(hi-lo+1))
	}
	return s
}

func BenchmarkClippedReLU32(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src, dst := randInt32(n, -20000, 20000), AlignedUint8(n)
			b.SetBytes(int64(5 * n))
			loop(b, func() { ClippedReLU32(dst, src, 6) })
		})
	}
}

func BenchmarkSqrClippedReLU32(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src, dst := randInt32(n, -20000, 20000), AlignedUint8(n)
			b.SetBytes(int64(5 * n))
			loop(b, func() { SqrClippedReLU32(dst, src, 19) })
		})
	}
}

func BenchmarkPairwiseClip127(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x, y, dst := randInt16(n, -300, 300), randInt16(n, -300, 300), AlignedUint8(n)
			b.SetBytes(int64(5 * n))
			loop(b, func() { PairwiseClip(dst, x, y, 127, 7) })
		})
	}
}

func BenchmarkSCReLUDot(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			acc, w := randInt16(n, -100, 400), randInt16(n, -126, 126)
			b.SetBytes(int64(4 * n))
			var s int32
			loop(b, func() { s += SCReLUDot(acc, w, 255) })
			benchSink = s
		})
	}
}

var benchSink int32

// BenchmarkAffine is one dense layer in×out with inputs ≤ 127 (sub-benchmark "1024x32" =
// 1024 inputs, 32 outputs, as in a 1024→32 hidden layer).
func BenchmarkAffine(b *testing.B) {
	shapes := [][2]int{{256, 32}, {512, 32}, {1024, 32}, {2048, 32}, {1024, 16}, {32, 32}, {32, 1}, {1024, 1}}
	for _, sh := range shapes {
		nin, nout := sh[0], sh[1]
		b.Run(fmt.Sprintf("%dx%d", nin, nout), func(b *testing.B) {
			r := rand.New(rand.NewPCG(uint64(nin), uint64(nout)))
			in, w := AlignedUint8(nin), AlignedInt8(nin*nout)
			bias, out := randInt32(nout, -5000, 5000), AlignedInt32(nout)
			for i := range in {
				in[i] = uint8(r.IntN(128))
			}
			for i := range w {
				w[i] = int8(r.IntN(256) - 128)
			}
			b.SetBytes(int64(nin*nout + nin + 8*nout))
			loop(b, func() { Affine(out, in, w, bias) })
		})
	}
}
