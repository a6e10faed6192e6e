package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/nnuekit/nnuekit/featureset"
)

// thesisSpecs are the feature sets of the 13 thesis networks.
var thesisSpecs = []string{"hv", "h+v", "d1+d2", "h+v+d1+d2", "hv+d1+d2", "hv+h+v", "hv+h+v+d1+d2",
	"all+ph", "all+pv", "all+ph+pv", "all+mb", "all+mc"}

// randomThesisNet builds a thesis-shaped network with random weights: FT weights in
// [-wr, wr], hidden/output weights over the full int8 range.
func randomThesisNet(t testing.TB, rng *rand.Rand, spec string, width, l2 int, wr int) *Network {
	t.Helper()
	set := featureset.MustParse(spec)
	w := make([]int16, set.Size()*width)
	for i := range w {
		w[i] = int16(rng.IntN(2*wr+1) - wr)
	}
	b := make([]int16, width)
	for i := range b {
		b[i] = int16(rng.IntN(2*wr+1) - wr)
	}
	ft, err := NewFeatureTransformer(set, width, w, b, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	hidden := NewAffine(2*width, l2)
	out := NewAffine(l2, 1)
	for _, a := range []*Affine{hidden, out} {
		for i := range a.Weights {
			if i%pad32(a.In) < a.In {
				a.Weights[i] = int8(rng.IntN(256) - 128)
			}
		}
		for i := range a.Bias {
			a.Bias[i] = int32(rng.IntN(20001) - 10000)
		}
	}
	n, err := NewNetwork(ft, ThesisArchitecture(hidden, out), "random "+spec)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
