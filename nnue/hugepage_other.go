//go:build !linux

package nnue

import "unsafe"

// adviseHugePages does nothing outside Linux (no madvise(MADV_HUGEPAGE)).
func adviseHugePages(unsafe.Pointer, uintptr) {}
