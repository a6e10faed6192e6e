package nnue

import "unsafe"

// Alignment is the byte alignment of every accumulator, weight and activation buffer the
// package allocates: 64 bytes, one cache line and one AVX-512 register (Stockfish
// nnue_common.h CacheLineSize). The simd kernels are correct on unaligned input too; the
// alignment only avoids split loads.
const Alignment = 64

// alignedInt16 returns a zeroed []int16 of length n whose first element is 64-byte aligned.
// It allocates slack and slices at the aligned offset (the Go heap does not move objects).
func alignedInt16(n int) []int16 {
	buf := make([]int16, n+Alignment/2)
	off := 0
	for uintptr(unsafe.Pointer(unsafe.SliceData(buf[off:])))%Alignment != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}

// alignedInt32 is alignedInt16 for int32.
func alignedInt32(n int) []int32 {
	buf := make([]int32, n+Alignment/4)
	off := 0
	for uintptr(unsafe.Pointer(unsafe.SliceData(buf[off:])))%Alignment != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}

// alignedUint8 is alignedInt16 for uint8.
func alignedUint8(n int) []uint8 {
	buf := make([]uint8, n+Alignment)
	off := 0
	for uintptr(unsafe.Pointer(unsafe.SliceData(buf[off:])))%Alignment != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}

// alignedInt8 is alignedInt16 for int8.
func alignedInt8(n int) []int8 {
	buf := make([]int8, n+Alignment)
	off := 0
	for uintptr(unsafe.Pointer(unsafe.SliceData(buf[off:])))%Alignment != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}

// pad32 rounds n up to a multiple of 32, the input width granularity of the affine kernel.
func pad32(n int) int { return (n + 31) &^ 31 }
