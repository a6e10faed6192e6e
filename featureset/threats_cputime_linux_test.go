//go:build linux

package featureset

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

// TestThreatCPUTimes prints, for the new blocks beside ALL and HalfKAv2_hm, the thread CPU
// time (ns, best of 5) of Active, Diff and DiffGeneric per call and the features changed
// per Diff — the figures of doc/featuresets.md "Threats, pawn pairs and the draft's
// candidate sets". Opt-in: NNUEKIT_CPUTIME=1.
func TestThreatCPUTimes(t *testing.T) {
	if os.Getenv("NNUEKIT_CPUTIME") == "" {
		t.Skip("set NNUEKIT_CPUTIME=1 to measure thread CPU time per call")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pos, mv := benchData(&testing.B{})
	// measure runs f in batches of 1,000 calls until 50 ms of thread CPU time have passed
	// (getrusage is coarse), five times, and returns the best ns per call.
	measure := func(f func(i int)) float64 {
		best := 1e18
		for rep := 0; rep < 5; rep++ {
			t0 := threadCPU()
			n := 0
			for threadCPU()-t0 < 50*time.Millisecond {
				for j := 0; j < 1000; j++ {
					f(n)
					n++
				}
			}
			best = min(best, float64(threadCPU()-t0)/float64(n))
		}
		return best
	}
	fmt.Println("| set | Active ns | Diff ns | generic diff ns | features changed / Diff |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, spec := range []string{"all", "halfkav2_hm", "threats", "threats18", "pawnpairs",
		"threats+pawnpairs+halfkav2_hm", "moves", "hrkp", "toppp"} {
		s := MustParse(spec)
		buf := make([]int, 0, s.MaxActive())
		add := make([]int, 0, 2*s.MaxActive())
		rem := make([]int, 0, 2*s.MaxActive())
		changed, calls := 0, 0
		a := measure(func(i int) { buf = s.Active(&pos[i%len(pos)], board.Color(i&1), buf[:0]) })
		d := measure(func(i int) {
			m := &mv[i%len(mv)]
			add, rem = s.Diff(&m.before, &m.after, &m.dirty, board.Color(i&1), add[:0], rem[:0])
			changed += len(add) + len(rem)
			calls++
		})
		g := measure(func(i int) {
			m := &mv[i%len(mv)]
			add, rem = s.DiffGeneric(&m.before, &m.after, board.Color(i&1), add[:0], rem[:0])
		})
		fmt.Printf("| `%s` | %.0f | %.0f | %.0f | %.2f |\n", spec, a, d, g, float64(changed)/float64(calls))
	}
}
