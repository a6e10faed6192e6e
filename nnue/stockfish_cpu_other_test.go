//go:build !linux

package nnue

import "time"

// sfThreadCPU is unavailable here: the cpu-ns/eval metric reads 0.
func sfThreadCPU() time.Duration { return 0 }
