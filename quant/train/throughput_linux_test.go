//go:build linux

package train

import (
	"syscall"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/featureset"
)

// cpuTime returns the process's user + system CPU time.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkThroughput measures optimizer steps of the shapes of doc/trainer.md's speed table
// on batches of 8192 random-game positions with 2 workers and reports samples per CPU-second
// (user + system time of the process, so a loaded machine slows the figure less than wall
// time would).
func BenchmarkThroughput(b *testing.B) {
	set := featureset.MustParse("all")
	d := encode(b, set, LossScore, randomPositions(b, 8192, 13))
	ids := make([]int32, d.Len())
	for i := range ids {
		ids[i] = int32(i)
	}
	for _, s := range []struct {
		name string
		cfg  Config
	}{
		{"thesis256", Config{Arch: ArchThesis, L1: 256, L2: 32}},
		{"thesis512", Config{Arch: ArchThesis, L1: 512, L2: 32}},
		{"cpw256x1", Config{Arch: ArchCPW, L1: 256, Buckets: 1}},
		{"cpw1024x8", Config{Arch: ArchCPW, L1: 1024, Buckets: 8}},
	} {
		b.Run(s.name, func(b *testing.B) {
			cfg := s.cfg
			cfg.BatchSize, cfg.Workers = len(ids), 2
			tr, err := New("all", 768, cfg)
			if err != nil {
				b.Fatal(err)
			}
			tr.trainStep(d, ids, 1e-3) // warm-up: touches every row once
			c0 := cpuTime(b)
			b.ResetTimer()
			for range b.N {
				tr.trainStep(d, ids, 1e-3)
			}
			b.StopTimer()
			b.ReportMetric(float64(len(ids))*float64(b.N)/(cpuTime(b)-c0).Seconds(), "samples/cpu-s")
		})
	}
}
