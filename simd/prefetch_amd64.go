//go:build amd64 && !purego

package simd

func prefetch(addr uintptr) { prefetchT0(addr) }
