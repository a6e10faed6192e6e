//go:build !linux

package nnue

// threadCPU is unavailable here: −1 (no cpu-ns/op metric).
func threadCPU() int64 { return -1 }
