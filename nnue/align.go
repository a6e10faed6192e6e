package nnue

import (
	"unsafe"

	"github.com/nnuekit/nnuekit/internal/block"
	"github.com/nnuekit/nnuekit/simd"
)

// Alignment is the byte alignment of every accumulator, weight and activation buffer the
// package allocates: 64 bytes, one cache line and one AVX-512 register (Stockfish
// nnue_common.h CacheLineSize). The simd kernels are correct on unaligned input too; the
// alignment only avoids split loads.
const Alignment = 64

// alignedInt16 returns a zeroed []int16 of length n whose first element is 64-byte aligned.
// It allocates slack and slices at the aligned offset (the Go heap does not move objects).
func alignedInt16(n int) []int16 {
	if 2*n >= hugeTableMin {
		return hugeInt16(n)
	}
	buf := make([]int16, n+Alignment/2)
	off := 0
	for uintptr(unsafe.Pointer(unsafe.SliceData(buf[off:])))%Alignment != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}

// alignedInt32 is alignedInt16 for int32.
func alignedInt32(n int) []int32 {
	if 4*n >= hugeTableMin {
		return hugeInt32(n)
	}
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

// hugePageSize is the x86-64 transparent huge page size, 2 MiB.
const hugePageSize = 2 << 20

// hugeTableMin is the size in bytes from which alignedInt16/alignedInt32 allocate
// 2 MiB-aligned and ask for transparent huge pages: the feature-transformer weights of
// every Stockfish net (21–47 MB) and of large thesis nets. The slack is at most one huge
// page (≤ 25 % at this minimum, 4 % for the 15.1 net). Stockfish does the same
// (misc.cpp aligned_large_pages_alloc); its refresh was 5–10 % slower without it.
const hugeTableMin = 8 << 20

// hugeInt16 returns a zeroed []int16 of length n starting on a 2 MiB boundary of the Go
// heap, advised for huge pages (hugepage_linux.go): its whole 2 MiB pages are dropped
// after the advice, so that the pages the loader then writes are faulted in as huge pages
// when the system's THP mode is "madvise" or "always", even where the heap reuses memory
// already on 4 KiB pages; otherwise nothing changes.
func hugeInt16(n int) []int16 {
	buf := make([]int16, n+hugePageSize/2)
	off := int((hugePageSize - uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%hugePageSize) % hugePageSize / 2)
	out := buf[off : off+n : off+n]
	adviseHugePages(unsafe.Pointer(unsafe.SliceData(out)), uintptr(2*n))
	return out
}

// hugeInt32 is hugeInt16 for int32.
func hugeInt32(n int) []int32 {
	buf := make([]int32, n+hugePageSize/4)
	off := int((hugePageSize - uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%hugePageSize) % hugePageSize / 4)
	out := buf[off : off+n : off+n]
	adviseHugePages(unsafe.Pointer(unsafe.SliceData(out)), uintptr(4*n))
	return out
}

// An Evaluator's layer output buffers come from one block.Block starting on a 4 KiB page,
// in the order they are taken, so that the buffers a forward pass writes lie on as few
// pages as their size allows (a page walk per distinct page after each TLB flush,
// doc/benchmarks.md).

// scratchLen is the room blockTensor's buffers for kind k and n elements take in a block.
func scratchLen(k Kind, n int) int {
	switch k {
	case KindUint8:
		l := block.Len(pad32(n))
		if pad32(n) >= sparseMinIn {
			l += block.Len(2 * simd.SparseIdxLen(pad32(n)))
		}
		return l
	case KindInt32, KindFloat32:
		return block.Len(4 * max(n, 1))
	}
	return 0
}

// blockTensor returns the output buffer of a layer with output kind k and n elements,
// taken from b: uint8 outputs padded to 32 (pad32) with, from sparseMinIn on, the chunk
// list of the sparse kernel that reads them; int32 outputs at least one long.
func blockTensor(b *block.Block, k Kind, n int) tensor {
	t := tensor{n: n}
	switch k {
	case KindUint8:
		t.u8 = b.Uint8s(pad32(n))
		if pad32(n) >= sparseMinIn {
			t.idx = b.Uint16s(simd.SparseIdxLen(pad32(n)))
		}
	case KindInt32:
		t.i32 = b.Int32s(max(n, 1))
	case KindFloat32:
		t.f32 = b.Float32s(max(n, 1))
	}
	return t
}
