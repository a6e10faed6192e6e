package nnue

import (
	"fmt"
	"math"

	"github.com/nnuekit/nnuekit/featureset"
)

// FeatureTransformer is the first, incrementally updated layer of a network (thesis §4.2,
// Stockfish feature_transformer.h): for each perspective, acc[j] = Bias[j] + Σ_f W[f][j] over
// the active features f, in int16 with wraparound.
//
// Weights are feature-major: feature f's row of Width values is the contiguous slice
// Weights[f·Width : (f+1)·Width] (the thesis .nn "column-major" layout, Stockfish's layout).
// The optional PSQT part (Stockfish 15.1) adds, per perspective, psqt[b] = Σ_f PSQT[f·B + b]
// in int32 for B = PSQTBuckets buckets; there is no PSQT bias.
//
// A FeatureTransformer is immutable after construction and safe for concurrent use; its
// buffers are 64-byte aligned.
//
// Stockfish 19 keeps the rows of its first features (threats and pawn pairs) in int8 and
// widens them while accumulating: the first Int8Rows() features then have int8 rows
// (WeightsInt8) and the others int16 rows (Weights).
type FeatureTransformer struct {
	set         *featureset.Set
	width       int
	weights     []int16 // rows of features rows8 … Features()−1
	bias        []int16
	psqtBuckets int
	psqt        []int32
	bound       AccumulatorBound
	rows8       int    // features 0 … rows8−1 have int8 rows
	weights8    []int8 // their rows, feature-major
	// acc is how every accumulator of the transformer is refreshed and updated, and
	// the kernels bound to its rows (planAccumulator).
	acc accPlan
	// board: the own-board path of a set without the piece-square path whose summands
	// all have one (featureset.Set.BoardPath: Stockfish 19's threat set), nil otherwise;
	// AccumulatorStack.ResetBoard and Evaluator.EvaluateBoard take it.
	board *featureset.BoardPath
}

// NewFeatureTransformer builds a feature transformer for set with width outputs per
// perspective. weights has set.Size()·width elements (feature-major), bias has width;
// psqt is nil (psqtBuckets 0) or has set.Size()·psqtBuckets elements (feature-major).
// The slices are copied into aligned buffers. width must be a positive multiple of 32.
// It returns an error naming the inconsistent dimension.
func NewFeatureTransformer(set *featureset.Set, width int, weights, bias []int16, psqtBuckets int, psqt []int32) (*FeatureTransformer, error) {
	if set == nil {
		return nil, fmt.Errorf("nnue: nil feature set")
	}
	if err := checkFTDims(set.Size(), width, psqtBuckets); err != nil {
		return nil, err
	}
	nf := set.Size()
	if len(weights) != nf*width {
		return nil, fmt.Errorf("nnue: feature transformer weights: have %d, want %d features × %d", len(weights), nf, width)
	}
	if len(bias) != width {
		return nil, fmt.Errorf("nnue: feature transformer bias: have %d, want %d", len(bias), width)
	}
	if len(psqt) != nf*psqtBuckets {
		return nil, fmt.Errorf("nnue: feature transformer PSQT weights: have %d, want %d features × %d buckets", len(psqt), nf, psqtBuckets)
	}
	w := alignedInt16(len(weights))
	copy(w, weights)
	b := alignedInt16(width)
	copy(b, bias)
	var p []int32
	if psqtBuckets > 0 {
		p = alignedInt32(len(psqt))
		copy(p, psqt)
	}
	return newFT(set, width, w, b, psqtBuckets, p), nil
}

// maxWidth bounds the accumulator width a file may declare (Stockfish's largest nets use
// 3072; the limit only guards against hostile headers).
const maxWidth = 1 << 14

// maxFeatures bounds the feature count (HalfKAv2_hm has 22528).
const maxFeatures = 1 << 22

func checkFTDims(nf, width, psqtBuckets int) error {
	if nf <= 0 || nf > maxFeatures {
		return fmt.Errorf("nnue: feature count %d out of range [1, %d]", nf, maxFeatures)
	}
	if width <= 0 || width%32 != 0 || width > maxWidth {
		return fmt.Errorf("nnue: accumulator width %d must be a positive multiple of 32 ≤ %d", width, maxWidth)
	}
	if psqtBuckets < 0 || psqtBuckets > 64 {
		return fmt.Errorf("nnue: PSQT bucket count %d out of range [0, 64]", psqtBuckets)
	}
	return nil
}

// newFT takes ownership of already aligned buffers and computes the overflow bound.
func newFT(set *featureset.Set, width int, w, b []int16, psqtBuckets int, p []int32) *FeatureTransformer {
	ft := &FeatureTransformer{set: set, width: width, weights: w, bias: b, psqtBuckets: psqtBuckets, psqt: p}
	ft.bound = computeBound(set.Size(), width, set.MaxActive(), w, b)
	ft.acc = planAccumulator(ft)
	ft.board = boardPathOf(set)
	return ft
}

// newFT8 is newFT for a transformer whose first rows8 features have the int8 rows w8
// (Stockfish 19) and the others the int16 rows w. The bound adds the int8 rows' bound
// (max8 features at most) to the int16 rows' (max16): a safe over-approximation.
func newFT8(set *featureset.Set, width int, rows8 int, w8 []int8, max8 int, w []int16, max16 int, b []int16, psqtBuckets int, p []int32) *FeatureTransformer {
	ft := &FeatureTransformer{set: set, width: width, weights: w, bias: b, psqtBuckets: psqtBuckets, psqt: p, rows8: rows8, weights8: w8}
	b16 := computeBound(set.Size()-rows8, width, max16, w, b)
	b8 := computeBound8(rows8, width, max8, w8)
	ft.bound = AccumulatorBound{MaxActive: max8 + max16, Abs: b16.Abs + b8.Abs, Max: b16.Max + b8.Max, Min: b16.Min + b8.Min}
	ft.bound.CanOverflow = ft.bound.Max > math.MaxInt16 || ft.bound.Min < math.MinInt16
	ft.acc = planAccumulator(ft)
	ft.board = boardPathOf(set)
	return ft
}

// boardPathOf returns the own-board path of a set without the piece-square path (nil when
// it has that path, which the own-board stack uses instead, or none at all).
func boardPathOf(set *featureset.Set) *featureset.BoardPath {
	if set.PieceSquare() != nil {
		return nil
	}
	p, ok := set.BoardPath()
	if !ok {
		return nil
	}
	return p
}

// Set returns the feature set.
func (ft *FeatureTransformer) Set() *featureset.Set { return ft.set }

// Width returns M, the number of accumulator values per perspective.
func (ft *FeatureTransformer) Width() int { return ft.width }

// Features returns the number of input features (Set().Size()).
func (ft *FeatureTransformer) Features() int { return ft.rows8 + len(ft.weights)/ft.width }

// Weights returns feature f's row of Width int16 weights (quantization scale of the format,
// e.g. 127 for thesis nets), or nil when f < Int8Rows() (see WeightsInt8). The slice
// aliases the network: do not modify it.
func (ft *FeatureTransformer) Weights(f int) []int16 {
	if f < ft.rows8 {
		return nil
	}
	f -= ft.rows8
	return ft.weights[f*ft.width : (f+1)*ft.width : (f+1)*ft.width]
}

// Int8Rows returns the number of leading features whose rows are int8 (Stockfish 19:
// the 59,808 threat and 4,560 pawn-pair features; 0 for every other network).
func (ft *FeatureTransformer) Int8Rows() int { return ft.rows8 }

// WeightsInt8 returns feature f's row of Width int8 weights for f < Int8Rows(), nil
// otherwise. Do not modify.
func (ft *FeatureTransformer) WeightsInt8(f int) []int8 {
	if f < 0 || f >= ft.rows8 {
		return nil
	}
	return ft.weights8[f*ft.width : (f+1)*ft.width : (f+1)*ft.width]
}

// Bias returns the Width int16 biases. Do not modify.
func (ft *FeatureTransformer) Bias() []int16 { return ft.bias }

// PSQTBuckets returns the number of PSQT buckets, 0 when the transformer has no PSQT part.
func (ft *FeatureTransformer) PSQTBuckets() int { return ft.psqtBuckets }

// PSQT returns feature f's PSQTBuckets int32 PSQT weights (nil without PSQT). Do not modify.
func (ft *FeatureTransformer) PSQT(f int) []int32 {
	if ft.psqtBuckets == 0 {
		return nil
	}
	b := ft.psqtBuckets
	return ft.psqt[f*b : (f+1)*b : (f+1)*b]
}

// Bound returns the worst-case accumulator analysis computed at construction.
func (ft *FeatureTransformer) Bound() AccumulatorBound { return ft.bound }

// AccumulatorBound is the worst case of the int16 accumulator over any position with at most
// MaxActive active features per perspective (featureset.Set.MaxActive), assuming any such
// combination of features can occur (a safe over-approximation).
//
// If CanOverflow is true, some position may push an accumulator value out of int16. The
// package then does what the reference engines do (the thesis engine's _mm256_add_epi16,
// Stockfish's vec_add_16): the sum wraps around modulo 2^16, identically in refresh and in
// incremental updates, so evaluations stay deterministic and reproduce the engines bit for bit
// (ClippedReLU turns a wrapped negative value into 0, a wrapped positive one into 127).
type AccumulatorBound struct {
	// MaxActive is the number of active features assumed.
	MaxActive int
	// Abs is max_j (|bias_j| + sum of the MaxActive largest |W[f][j]| over f): the bound the
	// issue asks for, in the transformer's quantized units.
	Abs int64
	// Max and Min are the tighter signed bounds max_j (bias_j + Σ the MaxActive largest
	// positive W[f][j]) and min_j (bias_j + Σ the MaxActive most negative W[f][j]).
	Max, Min int64
	// CanOverflow reports Max > 32767 or Min < -32768.
	CanOverflow bool
}

// String formats the bound for reports.
func (b AccumulatorBound) String() string {
	return fmt.Sprintf("max active %d: |acc| ≤ %d, acc ∈ [%d, %d], int16 overflow possible: %v",
		b.MaxActive, b.Abs, b.Min, b.Max, b.CanOverflow)
}

// computeBound sums, per column j, the k largest positive, k most negative and k largest
// absolute values of W[·][j] in passes over the feature rows in memory order, a block of
// boundCols columns at a time: each column keeps its current k largest of each kind and
// their minimum, and a value above that minimum replaces it. Nearly every value fails that
// one comparison, so the passes cost O(features·width) comparisons (the 15.1 net's 23 M
// weights: ≈ 0.1 s; a quickselect per column over a transposed copy took ≈ 1.1 s of its
// 1.8 s load), and the scratch is 3·boundCols·k int32 whatever the width (24 KiB for
// k = 32), so a load allocates little beyond the network itself. Zero-initialised slots
// give the same sums, as every tracked value is ≥ 0.
func computeBound(nf, m, k int, w, bias []int16) AccumulatorBound {
	k = max(0, min(k, nf))
	res := AccumulatorBound{MaxActive: k, Max: math.MinInt64, Min: math.MaxInt64}
	mins := make([]int32, 3*boundCols) // per column: positive, negative, absolute minimum
	slots := make([]int32, 3*boundCols*k)
	for j0 := 0; j0 < m; j0 += boundCols {
		cols := min(boundCols, m-j0)
		clear(mins)
		clear(slots)
		if k > 0 {
			for f := 0; f < nf; f++ {
				row := w[f*m+j0 : f*m+j0+cols]
				for j, x16 := range row {
					x := int32(x16)
					mm := mins[3*j : 3*j+3 : 3*j+3]
					if p := max(x, 0); p > mm[0] {
						mm[0] = topKPut(slots[3*j*k:(3*j+1)*k], p)
					}
					if n := max(-x, 0); n > mm[1] {
						mm[1] = topKPut(slots[(3*j+1)*k:(3*j+2)*k], n)
					}
					if a := max(x, -x); a > mm[2] {
						mm[2] = topKPut(slots[(3*j+2)*k:(3*j+3)*k], a)
					}
				}
			}
		}
		for j := 0; j < cols; j++ {
			var sum [3]int64
			for t := range sum {
				for _, v := range slots[(3*j+t)*k : (3*j+t+1)*k] {
					sum[t] += int64(v)
				}
			}
			b := int64(bias[j0+j])
			res.Max = max(res.Max, b+sum[0])
			res.Min = min(res.Min, b-sum[1])
			res.Abs = max(res.Abs, abs64(b)+sum[2])
		}
	}
	res.CanOverflow = res.Max > math.MaxInt16 || res.Min < math.MinInt16
	return res
}

// boundCols is how many columns computeBound tracks per pass over the rows.
const boundCols = 64

// topKPut replaces the smallest value of s by v (larger than it) and returns the new
// smallest value of s.
func topKPut(s []int32, v int32) int32 {
	mi := 0
	for i, x := range s {
		if x < s[mi] {
			mi = i
		}
	}
	s[mi] = v
	mn := s[0]
	for _, x := range s[1:] {
		mn = min(mn, x)
	}
	return mn
}

// sumTopK returns the sum of the k largest values of a (reordering a), by quickselect.
func sumTopK(a []int32, k int) int64 {
	if k <= 0 {
		return 0
	}
	if k < len(a) {
		lo, hi := 0, len(a)-1
		for lo < hi {
			// partition a[lo..hi] descending around the median of three
			p := med3(a[lo], a[(lo+hi)/2], a[hi])
			i, j := lo, hi
			for i <= j {
				for a[i] > p {
					i++
				}
				for a[j] < p {
					j--
				}
				if i <= j {
					a[i], a[j] = a[j], a[i]
					i++
					j--
				}
			}
			switch {
			case k-1 <= j:
				hi = j
			case k-1 >= i:
				lo = i
			default:
				lo = hi
			}
		}
	}
	var s int64
	for _, x := range a[:min(k, len(a))] {
		s += int64(x)
	}
	return s
}

func med3(a, b, c int32) int32 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// psqtUpdate8 sets dst = src + Σ_{f ∈ added} tab[f] − Σ_{f ∈ removed} tab[f] for 8 PSQT
// buckets (every SFNNv5 net; tab the PSQT table), with the sums in registers for the
// whole feature lists; dst may be src.
func psqtUpdate8(tab []int32, dst, src *[8]int32, added, removed []int) {
	s0, s1, s2, s3, s4, s5, s6, s7 := src[0], src[1], src[2], src[3], src[4], src[5], src[6], src[7]
	for _, f := range added {
		r := (*[8]int32)(tab[f*8 : f*8+8])
		s0 += r[0]
		s1 += r[1]
		s2 += r[2]
		s3 += r[3]
		s4 += r[4]
		s5 += r[5]
		s6 += r[6]
		s7 += r[7]
	}
	for _, f := range removed {
		r := (*[8]int32)(tab[f*8 : f*8+8])
		s0 -= r[0]
		s1 -= r[1]
		s2 -= r[2]
		s3 -= r[3]
		s4 -= r[4]
		s5 -= r[5]
		s6 -= r[6]
		s7 -= r[7]
	}
	dst[0], dst[1], dst[2], dst[3], dst[4], dst[5], dst[6], dst[7] = s0, s1, s2, s3, s4, s5, s6, s7
}

// psqtUpdate sets dst = src + Σ_{f ∈ added} tab[f] − Σ_{f ∈ removed} tab[f] for
// len(dst) PSQT buckets (tab the PSQT table, feature-major); dst may be src.
func psqtUpdate(tab, dst, src []int32, added, removed []int) {
	copy(dst, src)
	nb := len(dst)
	for _, f := range added {
		for b, x := range tab[f*nb : (f+1)*nb] {
			dst[b] += x
		}
	}
	for _, f := range removed {
		for b, x := range tab[f*nb : (f+1)*nb] {
			dst[b] -= x
		}
	}
}
