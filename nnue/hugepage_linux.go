//go:build linux

package nnue

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks the kernel to back the whole 2 MiB pages of [p, p+n) with
// transparent huge pages (madvise(MADV_HUGEPAGE), as Stockfish's aligned_large_pages_alloc
// does for its feature-transformer weights). p is 2 MiB-aligned by the caller and the
// range must hold only zeros (a fresh make, not yet written).
//
// The advice alone acts only on pages faulted in after it, and a large make is often
// served from heap memory the process used before (or cleared by the allocator), already
// backed by 4 KiB pages: the Stockfish 13 net's weights then stayed on 20 MB of small
// pages, one TLB entry per 4 KiB row page a refresh touches (doc/benchmarks.md). So the range is then dropped with madvise(MADV_DONTNEED), which for
// the Go heap's private anonymous memory leaves it reading as zeros, and the loader's
// first writes fault it back in as huge pages. Errors (THP disabled, kernel without THP,
// seccomp) are ignored: the memory then stays on ordinary pages, its contents zero either
// way.
func adviseHugePages(p unsafe.Pointer, n uintptr) {
	n &^= hugePageSize - 1
	if n == 0 {
		return
	}
	b := unsafe.Slice((*byte)(p), n)
	if unix.Madvise(b, unix.MADV_HUGEPAGE) != nil {
		return
	}
	_ = unix.Madvise(b, unix.MADV_DONTNEED)
}
