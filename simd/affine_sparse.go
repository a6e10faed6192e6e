package simd

// Sparse-input affine kernels (Stockfish 16 layers/affine_transform_sparse_input.h): the
// first hidden layer of an SFNNv5/HalfKP-style network reads a ClippedReLU or PairwiseMul
// output of which most 4-byte blocks ("chunks") are zero (84 % of the bytes on the
// Stockfish 15.1 net). With the weights stored chunk-major, a zero chunk contributes
// nothing, so only the non-zero chunks are multiplied: the assembly first lists their
// indices (a 256-entry table turns each 8-chunk zero mask into indices, no branch), then
// broadcasts each listed chunk and multiply-adds it against the chunk's nout·4 weights.
//
// Exactness: every product is summed into int32 with wraparound, in another order than
// Affine's; wrapping addition is associative and commutative, so the result is Affine's
// bit for bit (zero chunks add zero). With pairs the AVX2/AVX-512 (non-VNNI) kernels add
// the VPMADDUBSW results of two chunks in int16 before widening (Stockfish's
// m256_add_dpbusd_epi32x2): one multiply µop fewer per two chunks. That int16 sum is exact
// only when no lane can leave [−32768, 32767], which SparsePairsExact proves for a given
// weight matrix; callers pass pairs = true only then. VNNI (VPDPBUSD) ignores pairs.
var (
	// AffineSparse sets out[j] = bias[j] + Σ_c Σ_k in[4c+k]·wt[(c·len(out) + j)·4 + k] in
	// int32 for j < len(out): the same result as Affine(out, in, weights, bias) when wt =
	// SparseWeights(weights, len(in), len(out)). len(in) is a multiple of 32, every input
	// ≤ 127 (the output of a ClippedReLU or PairwiseMul), len(wt) ≥ len(in)·len(out),
	// len(bias) ≥ len(out). pairs = true is allowed only when SparsePairsExact(wt,
	// len(in), len(out)) is true. The assembly handles len(out) = 16 and 32 (Stockfish
	// 15.1's and 13's first layers); other widths run the Go kernel.
	AffineSparse func(out []int32, in []uint8, wt []int8, bias []int32, pairs bool)
)

func installSparseGeneric() { AffineSparse = affineSparseGeneric }

// SparseWeights returns the chunk-major copy of a row-major [nout][nin] weight matrix
// (Affine's layout) that AffineSparse reads: wt[(c·nout + j)·4 + k] = weights[j·nin + 4c + k]
// for chunk c < nin/4. nin is a multiple of 4 and len(weights) ≥ nout·nin, otherwise it
// panics. The result is 64-byte aligned.
func SparseWeights(weights []int8, nin, nout int) []int8 {
	if nin%4 != 0 || nin < 0 || nout < 0 || len(weights) < nin*nout {
		panic("simd: SparseWeights: bad dimensions")
	}
	wt := AlignedInt8(nin * nout)
	for j := 0; j < nout; j++ {
		row := weights[j*nin : j*nin+nin]
		for c := 0; c < nin/4; c++ {
			copy(wt[(c*nout+j)*4:(c*nout+j)*4+4], row[4*c:4*c+4])
		}
	}
	return wt
}

// SparsePairsExact reports whether adding the VPMADDUBSW results of any two different
// chunks in int16 is exact for wt (SparseWeights layout, nin inputs, nout outputs) and
// inputs in [0, 127]: for every output j and 16-bit lane h (bytes 2h, 2h+1 of a chunk) the
// two largest positive weight-pair sums times 127 stay ≤ 32767 and the two most negative
// ones ≥ −32768. It is the load-time test that lets a network use pairs (Stockfish 13
// instead keeps a list of the weights that can saturate, affine_transform.h canSaturate16).
func SparsePairsExact(wt []int8, nin, nout int) bool {
	nc := nin / 4
	if len(wt) < nc*nout*4 {
		return false
	}
	for j := 0; j < nout; j++ {
		for h := 0; h < 2; h++ {
			var p1, p2, n1, n2 int32 // two largest positive, two most negative pair sums
			for c := 0; c < nc; c++ {
				w := wt[(c*nout+j)*4+2*h:]
				a, b := int32(w[0]), int32(w[1])
				p := max(a, 0) + max(b, 0)
				n := min(a, 0) + min(b, 0)
				if p > p1 {
					p1, p2 = p, p1
				} else if p > p2 {
					p2 = p
				}
				if n < n1 {
					n1, n2 = n, n1
				} else if n < n2 {
					n2 = n
				}
			}
			if 127*(p1+p2) > 32767 || 127*(n1+n2) < -32768 {
				return false
			}
		}
	}
	return true
}

func affineSparseGeneric(out []int32, in []uint8, wt []int8, bias []int32, _ bool) {
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
