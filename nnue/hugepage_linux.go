//go:build linux

package nnue

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks the kernel to back [p, p+n) with transparent huge pages
// (madvise(MADV_HUGEPAGE), as Stockfish's aligned_large_pages_alloc does for its
// feature-transformer weights). p is 2 MiB-aligned by the caller. Errors (THP disabled,
// kernel without THP, seccomp) are ignored: the memory then stays on ordinary pages.
func adviseHugePages(p unsafe.Pointer, n uintptr) {
	n &^= hugePageSize - 1
	if n == 0 {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(p), n), unix.MADV_HUGEPAGE)
}
