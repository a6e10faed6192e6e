//go:build linux

package featureset

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCPUTimes prints, per set, the thread CPU time (ns) of Active, Diff and DiffGeneric per
// call (best of 5), the figures of doc/benchmarks.md; unlike wall-clock benchmarks they are
// not inflated by other processes. Opt-in: NNUEKIT_CPUTIME=1.
func TestCPUTimes(t *testing.T) {
	if os.Getenv("NNUEKIT_CPUTIME") == "" {
		t.Skip("set NNUEKIT_CPUTIME=1 to measure thread CPU time per call")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b := &testing.B{}
	pos, mv := benchData(b)
	measure := func(n int, f func(i int)) float64 {
		best := 1e18
		for rep := 0; rep < 5; rep++ {
			t0 := threadCPU()
			for i := 0; i < n; i++ {
				f(i)
			}
			if d := float64(threadCPU()-t0) / float64(n); d < best {
				best = d
			}
		}
		return best
	}
	for _, spec := range benchSpecs {
		s := MustParse(spec)
		buf := make([]int, 0, s.MaxActive())
		add := make([]int, 0, 2*s.MaxActive())
		rem := make([]int, 0, 2*s.MaxActive())
		n := 200000
		if spec == "mb" || spec == "mc" {
			n = 20000
		}
		a := measure(n, func(i int) { buf = s.Active(&pos[i%len(pos)], board.Color(i&1), buf[:0]) })
		d := measure(n, func(i int) {
			m := &mv[i%len(mv)]
			add, rem = s.Diff(&m.before, &m.after, &m.dirty, board.Color(i&1), add[:0], rem[:0])
		})
		g := measure(n, func(i int) {
			m := &mv[i%len(mv)]
			add, rem = s.DiffGeneric(&m.before, &m.after, board.Color(i&1), add[:0], rem[:0])
		})
		fmt.Printf("| `%s` | %.0f | %.0f | %.0f |\n", spec, a, d, g)
	}
}
