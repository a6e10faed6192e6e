package dataset

import (
	"bytes"
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

// BenchmarkBinpackReader reads sfgen.binpack (3,000 samples in one chunk): the checksum and
// sanity pass decode every chunk once before the samples are delivered from a second decode.
func BenchmarkBinpackReader(b *testing.B) {
	data, err := os.ReadFile("testdata/binpack/sfgen.binpack")
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		r := NewBinpackReader(bytes.NewReader(data))
		for r.Next() {
			n++
		}
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
}
