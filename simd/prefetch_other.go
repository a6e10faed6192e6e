//go:build !amd64 || purego

package simd

func prefetch(uintptr) {}
