//go:build unix

package board

import (
	"syscall"
	"time"
)

// cpuTime returns the user+system CPU time of this process so far (benchmarks report
// nodes per CPU second, which a loaded machine disturbs less than wall time).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
