package simd

import "golang.org/x/sys/unix"

// threadCPU returns the calling thread's CPU time in nanoseconds, or −1. The benchmarks
// report it per operation ("cpu-ns/op") next to wall time: on a shared, overloaded machine
// wall time includes time the benchmark thread spent descheduled, CPU time does not.
func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return -1
	}
	return ts.Nano()
}
