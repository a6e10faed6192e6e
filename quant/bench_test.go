package quant

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

func benchNet(b *testing.B) (*nnue.Network, *FloatThesis) {
	dir := sharedDir(b)
	raw, err := os.ReadFile(filepath.Join(dir, "thesis-models", "hv.nn"))
	if err != nil {
		b.Fatal(err)
	}
	n, err := nnue.Decode(raw)
	if err != nil {
		b.Fatal(err)
	}
	d, err := DequantizeThesis(n, Thesis)
	if err != nil {
		b.Fatal(err)
	}
	return n, d
}

// BenchmarkQuantizeThesisHV quantizes the dequantized hv.nn (768→512×2→32→1, 406k parameters).
func BenchmarkQuantizeThesisHV(b *testing.B) {
	_, d := benchNet(b)
	for b.Loop() {
		if _, _, err := QuantizeThesis(d, Thesis); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDequantizeThesisHV dequantizes hv.nn.
func BenchmarkDequantizeThesisHV(b *testing.B) {
	n, _ := benchNet(b)
	for b.Loop() {
		if _, err := DequantizeThesis(n, Thesis); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFloatEvaluateHV is the float forward pass (refresh of both accumulators included)
// of the dequantized hv.nn on the start position.
func BenchmarkFloatEvaluateHV(b *testing.B) {
	n, d := benchNet(b)
	pos := board.StartPosition()
	set := n.FeatureSet()
	for b.Loop() {
		if _, err := d.EvaluatePosition(set, &pos); err != nil {
			b.Fatal(err)
		}
	}
}
