package nnue

import "golang.org/x/sys/unix"

// threadCPU returns the calling thread's CPU time in nanoseconds, or −1. Benchmarks report it
// per operation ("cpu-ns/op"): on a shared, overloaded machine wall time includes time the
// benchmark thread spent descheduled, thread CPU time does not.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return -1
	}
	return ts.Nano()
}
