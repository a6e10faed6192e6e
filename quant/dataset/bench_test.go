package dataset

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkParseLine parses the three generated games of testdata/games.txt (211 samples).
func BenchmarkParseLine(b *testing.B) {
	data, err := os.ReadFile("testdata/games.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var dst []Sample
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		for i, ln := range lines {
			dst, err = ParseLine(ln, i+1, dst[:0])
			if err != nil {
				b.Fatal(err)
			}
			n += len(dst)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
}
