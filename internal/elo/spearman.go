package elo

import (
	"errors"
	"math"
	"sort"
)

// Spearman returns Spearman's rank correlation coefficient of x and y: the Pearson correlation
// of their ranks, tied values getting the mean of the ranks they span (C. Spearman, "The proof
// and measurement of association between two things", Amer. J. Psychol. 15, 1904). It is used
// to compare our Elo order of networks with the thesis's. Errors: different lengths, fewer than
// two values, NaN values, or a constant x or y (no ranking).
func Spearman(x, y []float64) (float64, error) {
	if len(x) != len(y) || len(x) < 2 {
		return 0, errors.New("elo: Spearman needs two series of the same length ≥ 2")
	}
	rx, err := ranks(x)
	if err != nil {
		return 0, err
	}
	ry, err := ranks(y)
	if err != nil {
		return 0, err
	}
	return pearson(rx, ry)
}

func ranks(v []float64) ([]float64, error) {
	idx := make([]int, len(v))
	for i := range idx {
		if math.IsNaN(v[i]) {
			return nil, errors.New("elo: Spearman of NaN")
		}
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mean
		}
		i = j + 1
	}
	return r, nil
}

func pearson(a, b []float64) (float64, error) {
	n := float64(len(a))
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= n
	mb /= n
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	if saa == 0 || sbb == 0 {
		return 0, errors.New("elo: Spearman of a constant series")
	}
	return sab / math.Sqrt(saa*sbb), nil
}
