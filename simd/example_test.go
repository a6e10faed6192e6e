package simd_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/simd"
)

// An accumulator update for a quiet move: add the new feature's row, subtract the old one.
func Example() {
	acc := make([]int16, 16)
	add := make([]int16, 16)
	sub := make([]int16, 16)
	for i := range acc {
		acc[i], add[i], sub[i] = 100, int16(i), 1
	}
	simd.AddSub(acc, acc, add, sub)
	fmt.Println(acc[:4])

	out := make([]uint8, 32)
	in := make([]int16, 32)
	in[0], in[1], in[2] = -5, 60, 300
	simd.ClippedReLU16(out, in)
	fmt.Println(out[:3])
	// Output:
	// [99 100 101 102]
	// [0 60 127]
}

// Accumulators and weight rows are allocated 64-byte aligned; the kernels accept any
// alignment, but aligned 512-bit loads never split a cache line.
func ExampleAlignedInt16() {
	acc := simd.AlignedInt16(1024)
	fmt.Println(len(acc), cap(acc), simd.IsAligned(acc))
	// Output: 1024 1024 true
}

// A dense layer 64→2 with inputs ≤ 127 (the output of a ClippedReLU).
func ExampleAffine_layer() {
	in := simd.AlignedUint8(64)
	w := simd.AlignedInt8(2 * 64)
	in[0], in[63] = 127, 2
	w[0], w[63] = -128, 3 // row 0: 127·(−128) + 2·3
	w[64+63] = 127        // row 1: 2·127
	out := make([]int32, 2)
	simd.Affine(out, in, w, []int32{10, -4})
	fmt.Println(out)
	// Output: [-16240 250]
}

// A quiet move through FeatureRows: the weight matrix is checked once, each update passes
// the two feature indices.
func ExampleFeatureRows() {
	const width = 16
	weights := make([]int16, 4*width) // 4 features
	for f := 0; f < 4; f++ {
		for i := 0; i < width; i++ {
			weights[f*width+i] = int16(10 * f)
		}
	}
	rows, err := simd.NewFeatureRows(weights, width)
	if err != nil {
		panic(err)
	}
	acc := make([]int16, width)
	rows.AddSub(acc, acc, 3, 1) // feature 3 in, feature 1 out
	fmt.Println(rows.Rows(), acc[:4])
	// Output:
	// 4 [20 20 20 20]
}
