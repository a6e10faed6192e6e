package simd

import "unsafe"

// Alignment is the byte alignment of the slices returned by AlignedInt16 and friends: one
// cache line, and the width of an AVX-512 register (Karhan §2.3.1 and §4.3.2 align the
// accumulator to 64 bytes for the same reason).
const Alignment = 64

// AlignedInt16 returns a zeroed []int16 of length and capacity n whose first element is
// Alignment-aligned, for accumulators and feature-transformer weights. The kernels are
// correct on any alignment; aligned rows avoid loads that straddle cache lines. The Go
// garbage collector does not move heap objects, so the alignment holds for the slice's
// lifetime. It panics if n < 0, as make does.
func AlignedInt16(n int) []int16 { return aligned[int16](n) }

// AlignedInt8 is AlignedInt16 for int8 (affine weights).
func AlignedInt8(n int) []int8 { return aligned[int8](n) }

// AlignedUint8 is AlignedInt16 for uint8 (activations, affine inputs).
func AlignedUint8(n int) []uint8 { return aligned[uint8](n) }

// AlignedInt32 is AlignedInt16 for int32 (biases, affine outputs).
func AlignedInt32(n int) []int32 { return aligned[int32](n) }

// IsAligned reports whether the first element of s (of any length, including the spare
// capacity of an empty slice) lies on an Alignment boundary. A nil slice is not aligned.
func IsAligned[T any](s []T) bool {
	p := unsafe.SliceData(s)
	return p != nil && uintptr(unsafe.Pointer(p))%Alignment == 0
}

func aligned[T int8 | uint8 | int16 | int32](n int) []T {
	if n < 0 {
		panic("simd: negative length")
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	slack := Alignment / size
	buf := make([]T, n+slack)
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	off := 0
	if r := int(addr % Alignment); r != 0 {
		off = (Alignment - r) / size
	}
	return buf[off : off+n : off+n]
}
