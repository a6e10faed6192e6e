package simd

import "fmt"

// Sparse-input affine kernels (Stockfish 16 layers/affine_transform_sparse_input.h): the
// first hidden layer of an SFNNv5/HalfKP-style network reads a ClippedReLU or PairwiseClip(127, 7)
// output of which most 4-byte blocks ("chunks") are zero (84 % of the bytes on the
// Stockfish 15.1 net). With the weights stored chunk-major, a zero chunk contributes
// nothing, so only the non-zero chunks are multiplied: the assembly first lists their
// indices (a 256-entry table turns each 8-chunk zero mask into indices, no branch), then
// broadcasts each listed chunk and multiply-adds it against the chunk's nout·4 weights.
//
// Exactness: every product is summed into int32 with wraparound, in another order than
// Affine's; wrapping addition is associative and commutative, so the result is Affine's
// bit for bit (zero chunks add zero). With group 2 or 3 the AVX2/AVX-512 (non-VNNI)
// kernels add the VPMADDUBSW results of two or three chunks in int16 before widening
// (Stockfish's m256_add_dpbusd_epi32x2; Stockfish 13 adds four): one multiply µop per chunk
// plus one per group instead of two per chunk. That int16 sum is exact only when no lane
// can leave [−32768, 32767], which SparseGroup proves for a given weight matrix; callers
// pass at most its result. VNNI (VPDPBUSD) ignores group.
//
// Each exported kernel is a function calling the implementation installed in these
// variables for the current Level (install sets them at init and on SetLevel); callers
// cannot reassign them.
var (
	affineSparseFn            func(out []int32, in []uint8, wt []int8, bias []int32, group int)
	affineSparseIdxFn         func(out []int32, in []uint8, wt []int8, bias []int32, group int, idx []uint16)
	pairwiseAffineSparseFn    func(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16)
	clippedReLUAffineSparseFn func(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16)
)

// AffineSparse sets out[j] = bias[j] + Σ_c Σ_k in[4c+k]·wt[(c·len(out) + j)·4 + k] in
// int32 for j < len(out): the same result as Affine(out, in, weights, bias) when wt =
// SparseWeights(weights, len(in), len(out)). len(in) is a multiple of 32, every input
// ≤ 127 (the output of a ClippedReLU or PairwiseClip(127, 7)), len(wt) ≥ len(in)·len(out),
// len(bias) ≥ len(out). group (1, 2 or 3; larger counts as 3) must not exceed
// SparseGroup(wt, len(in), len(out)). The assembly handles len(out) = 16 and 32
// (Stockfish 15.1's and 13's first layers); other widths run the Go kernel.
func AffineSparse(out []int32, in []uint8, wt []int8, bias []int32, group int) {
	affineSparseFn(out, in, wt, bias, group)
}

// AffineSparseIdx is AffineSparse with idx as the scratch for the list of non-zero
// chunks, so that no list has to be zeroed on the stack per call (≈ 20 ns for the
// 1 KiB array AffineSparse uses): len(idx) ≥ SparseIdxLen(len(in)), else the internal
// array is used. Same result as AffineSparse; idx's contents on return are unspecified.
func AffineSparseIdx(out []int32, in []uint8, wt []int8, bias []int32, group int, idx []uint16) {
	affineSparseIdxFn(out, in, wt, bias, group, idx)
}

// PairwiseAffineSparse is SFNNv5's feature transform followed by its first layer in one
// call: with h = len(dst)/2 (len(dst) even, len(a), len(b) ≥ len(dst)) it sets
// dst[:h] = PairwiseClip(127, 7) of (a[:h], a[h:2h]) and dst[h:2h] = PairwiseClip(127, 7) of (b[:h], b[h:2h]), then
// out = AffineSparse(out, dst, wt, bias, group) (same preconditions; group ≤
// SparseGroup). The assembly lists the non-zero 4-byte chunks of dst while it writes
// the products (one pass over the 2·len(dst) accumulator values instead of a product
// pass and a listing pass over dst; Stockfish 16 finds the non-zero chunks of the
// transformed features the same way before its sparse layer). idx is the scratch for
// that list: len(idx) ≥ len(dst)/4, else the two passes run as before. Bit-identical
// to PairwiseClip(127, 7) twice + Affine at every level; idx's contents on return are
// unspecified.
func PairwiseAffineSparse(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16) {
	pairwiseAffineSparseFn(out, dst, a, b, wt, bias, group, idx)
}

// ClippedReLUAffineSparse is the same for a ClippedReLU transform (HalfKP, Stockfish
// 12/13, thesis nets): with h = len(dst)/2 (len(a), len(b) ≥ h) it sets dst[:h] =
// ClippedReLU16(a[:h]) and dst[h:2h] = ClippedReLU16(b[:h]), then out =
// AffineSparse(out, dst, wt, bias, group), the non-zero chunks listed while dst is
// written (len(idx) ≥ len(dst)/4, else the separate passes). Bit-identical to
// ClippedReLU16 twice + Affine at every level.
func ClippedReLUAffineSparse(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16) {
	clippedReLUAffineSparseFn(out, dst, a, b, wt, bias, group, idx)
}

// SparseIdxLen returns the length of the idx scratch AffineSparseIdx needs for an input of
// nin bytes (nin/4 + 8 chunk indices, capped at the 2048-byte segment the assembly lists
// at a time).
func SparseIdxLen(nin int) int { return min(max(nin, 0), 2048)/4 + 8 }

func installSparseGeneric() {
	affineSparseFn = affineSparseGeneric
	affineSparseIdxFn = func(out []int32, in []uint8, wt []int8, bias []int32, group int, _ []uint16) {
		affineSparseGeneric(out, in, wt, bias, group)
	}
	pairwiseAffineSparseFn = pairwiseAffineSparseGeneric
	clippedReLUAffineSparseFn = clippedReLUAffineSparseGeneric
}

// clippedReLUAffineSparseGeneric is ClippedReLUAffineSparse in Go, with the listing twin
// clippedReLU16NNZGeneric when idx is long enough.
func clippedReLUAffineSparseGeneric(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16) {
	h := len(dst) / 2
	dst = dst[:2*h]
	if len(idx) < 2*h/4 || 2*h/4 > 1<<16 || h%4 != 0 {
		clippedReLU16Generic(dst[:h], a[:h])
		clippedReLU16Generic(dst[h:], b[:h])
		affineSparseGeneric(out, dst, wt, bias, group)
		return
	}
	k := clippedReLU16NNZGeneric(dst[:h], a[:h], idx, 0)
	k += clippedReLU16NNZGeneric(dst[h:], b[:h], idx[k:], h/4)
	affineSparseListGeneric(out, dst, wt, bias, idx[:k])
}

// clippedReLU16NNZGeneric is the Go twin of the clippedReLU16NNZ assembly: dst =
// ClippedReLU16(src) and the non-zero chunks listed as in pairwiseMulNNZGeneric.
func clippedReLU16NNZGeneric(dst []uint8, src []int16, idx []uint16, first int) int {
	clippedReLU16Generic(dst, src[:len(dst)])
	return listNNZ(dst, idx, first)
}

// pairwiseAffineSparseGeneric is PairwiseAffineSparse in Go: the listing twin of the
// assembly (pairwiseMulNNZGeneric) when idx is long enough, else PairwiseClip(127, 7) twice and
// affineSparseGeneric.
func pairwiseAffineSparseGeneric(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16) {
	h := len(dst) / 2
	dst = dst[:2*h]
	if len(idx) < 2*h/4 || 2*h/4 > 1<<16 || h%4 != 0 {
		pairwiseMulGeneric(dst[:h], a[:h], a[h:2*h])
		pairwiseMulGeneric(dst[h:], b[:h], b[h:2*h])
		affineSparseGeneric(out, dst, wt, bias, group)
		return
	}
	k := pairwiseMulNNZGeneric(dst[:h], a[:h], a[h:2*h], idx, 0)
	k += pairwiseMulNNZGeneric(dst[h:], b[:h], b[h:2*h], idx[k:], h/4)
	affineSparseListGeneric(out, dst, wt, bias, idx[:k])
}

// pairwiseMulNNZGeneric is the Go twin of the pairwiseMulNNZ assembly: dst =
// PairwiseClip(127, 7) of (a, b) (len(dst) a multiple of 4), and first + c for every non-zero 4-byte
// chunk c of dst appended to idx[0:] in increasing order (len(idx) ≥ len(dst)/4); it
// returns their count.
func pairwiseMulNNZGeneric(dst []uint8, a, b []int16, idx []uint16, first int) int {
	pairwiseMulGeneric(dst, a, b)
	return listNNZ(dst, idx, first)
}

// listNNZ writes first + c for every non-zero 4-byte chunk c of dst to idx in increasing
// order and returns their count.
func listNNZ(dst []uint8, idx []uint16, first int) int {
	k := 0
	for c := 0; c+4 <= len(dst); c += 4 {
		if dst[c]|dst[c+1]|dst[c+2]|dst[c+3] != 0 {
			idx[k] = uint16(first + c/4)
			k++
		}
	}
	return k
}

// affineSparseListGeneric is affineSparseGeneric over the listed chunks of in only (each
// index < len(in)/4; every chunk not listed must be zero).
func affineSparseListGeneric(out []int32, in []uint8, wt []int8, bias []int32, idx []uint16) {
	nout := len(out)
	copy(out, bias[:nout])
	n := len(in) &^ 3
	wt = wt[:n*nout]
	for _, c16 := range idx {
		c := 4 * int(c16)
		x := in[c : c+4 : c+4]
		x0, x1, x2, x3 := int32(x[0]), int32(x[1]), int32(x[2]), int32(x[3])
		col := wt[c*nout : c*nout+4*nout]
		for j := range out {
			w := col[4*j : 4*j+4 : 4*j+4]
			out[j] += x0*int32(w[0]) + x1*int32(w[1]) + x2*int32(w[2]) + x3*int32(w[3])
		}
	}
}

// SparseAffine is a prepared affine layer whose uint8 inputs are mostly zero (the first
// hidden layer after a feature transformer: Stockfish 13's fc_0 512→32, 15.1's 1024→16,
// 19's 1024→32, the thesis nets' 2M→32): the row-major weights of Affine, their
// chunk-major copy (SparseWeights) and its SparseGroup, made once. Forward is the one
// place that picks the kernel for the current level. A SparseAffine is immutable and safe
// for concurrent use.
type SparseAffine struct {
	w, wt []int8
	group int
	nin   int
	nout  int
}

// NewSparseAffine prepares the row-major [nout][nin] weights (len nin·nout, nin a multiple
// of 32, nout 16 or 32 for the assembly; kept, not copied) for Forward. It panics on a
// weight slice of another length.
func NewSparseAffine(weights []int8, nin, nout int) *SparseAffine {
	if nin <= 0 || nin%32 != 0 || nout <= 0 || len(weights) != nin*nout {
		panic(fmt.Sprintf("simd: NewSparseAffine: %d weights for %d inputs (a positive multiple of 32) and %d outputs", len(weights), nin, nout))
	}
	wt := SparseWeights(weights, nin, nout)
	return &SparseAffine{w: weights, wt: wt, group: SparseGroup(wt, nin, nout), nin: nin, nout: nout}
}

// Forward sets out = Affine(in) with bias (len(in) == nin, len(out) == nout, len(bias) ≥
// nout; inputs ≤ 127), the bits of Affine at every level. Below AVX512VNNI it runs the
// sparse-input kernel over in's non-zero 4-byte chunks (AffineSparseIdx; idx is its
// scratch, len ≥ SparseIdxLen(nin), else an internal array); at VNNI the dense Affine,
// where one VPDPBUSD per 64 weight bytes leaves listing the chunks no room when half
// (Stockfish 15.1) to three quarters (13) of them are non-zero — measured hot, one
// position: 15.1 fc_0 52 ns dense vs 88 sparse, 13 fc_0 54 vs 54; at AVX2 sparse wins
// (102 vs 155, 130 vs 152).
func (s *SparseAffine) Forward(out []int32, in []uint8, bias []int32, idx []uint16) {
	if len(in) != s.nin || len(out) != s.nout {
		panic(fmt.Sprintf("simd: SparseAffine.Forward: %d inputs and %d outputs, want %d and %d", len(in), len(out), s.nin, s.nout))
	}
	if level < AVX512VNNI {
		affineSparseIdxFn(out, in, s.wt, bias, s.group, idx)
		return
	}
	affineFn(out, in, s.w, bias)
}

// SparseWeights returns the chunk-major copy of a row-major [nout][nin] weight matrix
// (Affine's layout) that AffineSparse reads: wt[(c·nout + j)·4 + k] = weights[j·nin + 4c + k]
// for chunk c < nin/4. nin is a multiple of 4 and len(weights) ≥ nout·nin, otherwise it
// panics. The result is 64-byte aligned.
func SparseWeights(weights []int8, nin, nout int) []int8 {
	if nin%4 != 0 || nin < 0 || nout < 0 || len(weights) < nin*nout {
		panic("simd: SparseWeights: bad dimensions")
	}
	wt := AlignedInt8(nin * nout)
	sparseWeightsInto(wt, weights, nin, nout)
	return wt
}

// sparseWeightsInto is SparseWeights writing into wt (nin·nout bytes, checked by the
// caller), for the prepared stacks that carve wt out of one block (block.Block).
func sparseWeightsInto(wt, weights []int8, nin, nout int) {
	for j := 0; j < nout; j++ {
		row := weights[j*nin : j*nin+nin]
		for c := 0; c < nin/4; c++ {
			copy(wt[(c*nout+j)*4:(c*nout+j)*4+4], row[4*c:4*c+4])
		}
	}
}

// SparseGroup returns how many chunks' VPMADDUBSW results (1, 2 or 3) may be added in
// int16 exactly for wt (SparseWeights layout, nin inputs, nout outputs) and inputs in
// [0, 127]: the largest g such that, for every output j and 16-bit lane h (bytes 2h, 2h+1
// of a chunk), 127 times the sum of the g largest positive weight-pair sums stays ≤ 32767
// and 127 times the sum of the g most negative ones ≥ −32768. It is the load-time test that
// lets a network use the cheaper sequence (Stockfish 13 instead keeps a list of the
// weights that can saturate, affine_transform.h canSaturate16).
func SparseGroup(wt []int8, nin, nout int) int {
	nc := nin / 4
	if len(wt) < nc*nout*4 {
		return 1
	}
	g := 3
	for j := 0; j < nout; j++ {
		for h := 0; h < 2; h++ {
			var p, n [3]int32 // three largest positive, three most negative pair sums (n ≤ 0)
			for c := 0; c < nc; c++ {
				w := wt[(c*nout+j)*4+2*h:]
				a, b := int32(w[0]), int32(w[1])
				pv := max(a, 0) + max(b, 0)
				nv := min(a, 0) + min(b, 0)
				switch {
				case pv > p[0]:
					p[0], p[1], p[2] = pv, p[0], p[1]
				case pv > p[1]:
					p[1], p[2] = pv, p[1]
				case pv > p[2]:
					p[2] = pv
				}
				switch {
				case nv < n[0]:
					n[0], n[1], n[2] = nv, n[0], n[1]
				case nv < n[1]:
					n[1], n[2] = nv, n[1]
				case nv < n[2]:
					n[2] = nv
				}
			}
			for g > 1 {
				var sp, sn int32
				for k := 0; k < g; k++ {
					sp += p[k]
					sn += n[k]
				}
				if 127*sp <= 32767 && 127*sn >= -32768 {
					break
				}
				g--
			}
		}
	}
	return g
}

func affineSparseGeneric(out []int32, in []uint8, wt []int8, bias []int32, _ int) {
	nout := len(out)
	copy(out, bias[:nout])
	n := len(in) &^ 3
	wt = wt[:n*nout]
	for c := 0; c < n; c += 4 {
		x := in[c : c+4 : c+4]
		x0, x1, x2, x3 := int32(x[0]), int32(x[1]), int32(x[2]), int32(x[3])
		if x0|x1|x2|x3 == 0 {
			continue
		}
		col := wt[c*nout : c*nout+4*nout]
		for j := range out {
			w := col[4*j : 4*j+4 : 4*j+4]
			out[j] += x0*int32(w[0]) + x1*int32(w[1]) + x2*int32(w[2]) + x3*int32(w[3])
		}
	}
}
