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
	ft := randomFT16(t, rng, spec, width, 0, wr)
	hidden := randomAffine(rng, 2*width, l2, 10000)
	out := randomAffine(rng, l2, 1, 10000)
	n, err := NewNetwork(ft, ThesisArchitecture(hidden, out), "random "+spec)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// randomInt16s returns n values drawn uniformly from [−r, r].
func randomInt16s(rng *rand.Rand, n, r int) []int16 {
	v := make([]int16, n)
	for i := range v {
		v[i] = int16(rng.IntN(2*r+1) - r)
	}
	return v
}

// randomFT16 returns a transformer for spec with random int16 rows and biases (±wr) and
// nb PSQT buckets of random weights in [−10000, 10000] (none for nb = 0).
func randomFT16(t testing.TB, rng *rand.Rand, spec string, width, nb, wr int) *FeatureTransformer {
	t.Helper()
	set := featureset.MustParse(spec)
	w := randomInt16s(rng, set.Size()*width, wr)
	b := randomInt16s(rng, width, wr)
	p := make([]int32, set.Size()*nb)
	for i := range p {
		p[i] = int32(rng.IntN(20001) - 10000)
	}
	ft, err := NewFeatureTransformer(set, width, w, b, nb, p)
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// randomAffine returns an in→out Affine layer with weights over the whole int8 range (the
// padding zero) and biases in [−br, br].
func randomAffine(rng *rand.Rand, in, out, br int) *Affine {
	a := NewAffine(in, out)
	for i := range a.Weights {
		if i%pad32(in) < in {
			a.Weights[i] = int8(rng.IntN(256) - 128)
		}
	}
	for i := range a.Bias {
		a.Bias[i] = int32(rng.IntN(2*br+1) - br)
	}
	return a
}

// affineRef is a's output for the inputs x in plain Go: the reference of the affine kernels.
func affineRef(a *Affine, x []int32) []int32 {
	out := make([]int32, a.Out)
	for j := range out {
		s := a.Bias[j]
		for i := 0; i < a.In; i++ {
			s += x[i] * int32(a.Row(j)[i])
		}
		out[j] = s
	}
	return out
}
