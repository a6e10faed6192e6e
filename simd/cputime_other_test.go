//go:build !linux

package simd

func threadCPU() int64 { return -1 }
