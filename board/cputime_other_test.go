//go:build !unix

package board

import "time"

// cpuTime is not measured on this platform (0: the CPU metrics are not reported).
func cpuTime() time.Duration { return 0 }
