//go:build linux

package nnue

import (
	"syscall"
	"time"
	"unsafe"
)

// sfThreadCPU returns the CPU time consumed by the calling OS thread
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)); benchmarks lock their goroutine to the thread
// so that time spent waiting for a CPU on a loaded machine is not counted.
func sfThreadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
