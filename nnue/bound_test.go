package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestSumTopK(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SliceOfN(rapid.Int32Range(-50, 50), 0, 60).Draw(t, "a")
		k := rapid.IntRange(0, 70).Draw(t, "k")
		s := slices.Clone(a)
		slices.Sort(s)
		slices.Reverse(s)
		var want int64
		for _, x := range s[:min(k, len(s))] {
			want += int64(x)
		}
		if got := sumTopK(slices.Clone(a), k); got != want {
			t.Fatalf("sumTopK(%v, %d) = %d, want %d", a, k, got, want)
		}
	})
}

// TestComputeBound compares with a brute-force per-column sort.
func TestComputeBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	nf, m, k := 37, 96, 5
	w := make([]int16, nf*m)
	for i := range w {
		w[i] = int16(rng.IntN(4001) - 2000)
	}
	b := make([]int16, m)
	for i := range b {
		b[i] = int16(rng.IntN(201) - 100)
	}
	got := computeBound(nf, m, k, w, b)
	var want AccumulatorBound
	want.MaxActive, want.Max, want.Min = k, -1<<62, 1<<62
	for j := 0; j < m; j++ {
		var pos, neg, abs []int64
		for f := 0; f < nf; f++ {
			x := int64(w[f*m+j])
			pos = append(pos, max(x, 0))
			neg = append(neg, min(x, 0))
			abs = append(abs, max(x, -x))
		}
		slices.Sort(pos)
		slices.Sort(neg)
		slices.Sort(abs)
		var sp, sn, sa int64
		for i := 0; i < k; i++ {
			sp += pos[nf-1-i]
			sn += neg[i]
			sa += abs[nf-1-i]
		}
		bj := int64(b[j])
		want.Max = max(want.Max, bj+sp)
		want.Min = min(want.Min, bj+sn)
		want.Abs = max(want.Abs, max(bj, -bj)+sa)
	}
	want.CanOverflow = want.Max > 32767 || want.Min < -32768
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}
