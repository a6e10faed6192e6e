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

// alignedSlice returns a zeroed []T of length n whose first element is 64-byte aligned, or,
// from hugeTableMin bytes on, 2 MiB-aligned and advised for huge pages (huge). It
// allocates slack and slices at the aligned offset (the Go heap does not move objects).
func alignedSlice[T int8 | uint8 | int16 | int32](n int) []T {
	size := int(unsafe.Sizeof(T(0)))
	if size*n >= hugeTableMin {
		return huge[T](n)
	}
	buf := make([]T, n+Alignment/size)
	off := int((Alignment - uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%Alignment) % Alignment / uintptr(size))
	return buf[off : off+n : off+n]
}

// alignedInt16 returns a zeroed 64-byte aligned []int16 of length n (alignedSlice).
func alignedInt16(n int) []int16 { return alignedSlice[int16](n) }

// alignedInt32 is alignedInt16 for int32.
func alignedInt32(n int) []int32 { return alignedSlice[int32](n) }

// alignedUint8 is alignedInt16 for uint8.
func alignedUint8(n int) []uint8 { return alignedSlice[uint8](n) }

// alignedInt8 is alignedInt16 for int8: Stockfish 19's 66 MB of int8 threat rows take the
// huge-page path, as its int16 rows do.
func alignedInt8(n int) []int8 { return alignedSlice[int8](n) }

// pad32 rounds n up to a multiple of 32, the input width granularity of the affine kernel.
func pad32(n int) int { return (n + 31) &^ 31 }

// hugePageSize is the x86-64 transparent huge page size, 2 MiB.
const hugePageSize = 2 << 20

// hugeTableMin is the size in bytes from which alignedSlice allocates 2 MiB-aligned and
// asks for transparent huge pages: the feature-transformer weights of every Stockfish net
// (21–47 MB int16 rows; Stockfish 19's 66 MB of int8 threat rows) and of large thesis nets. The slack is at most one huge
// page (≤ 25 % at this minimum, 4 % for the 15.1 net). Stockfish does the same
// (misc.cpp aligned_large_pages_alloc); its refresh was 5–10 % slower without it.
const hugeTableMin = 8 << 20

// huge returns a zeroed []T of length n starting on a 2 MiB boundary of the Go heap,
// advised for huge pages (hugepage_linux.go): its whole 2 MiB pages are dropped after the
// advice, so that the pages the loader then writes are faulted in as huge pages when the
// system's THP mode is "madvise" or "always", even where the heap reuses memory already on
// 4 KiB pages; otherwise nothing changes.
func huge[T int8 | uint8 | int16 | int32](n int) []T {
	size := uintptr(unsafe.Sizeof(T(0)))
	buf := make([]T, n+hugePageSize/int(size))
	off := int((hugePageSize - uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%hugePageSize) % hugePageSize / size)
	out := buf[off : off+n : off+n]
	adviseHugePages(unsafe.Pointer(unsafe.SliceData(out)), size*uintptr(n))
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
