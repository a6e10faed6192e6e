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
