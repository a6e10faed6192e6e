//go:build amd64 && !purego

package simd

// sparseSeg is the input length (bytes) the assembly lists non-zero chunks for at a time,
// so the index list fits a fixed stack array (1 KiB).
const sparseSeg = 2048

func installSparseAsm() {
	affineSparseFn = affineSparseAsm
	affineSparseIdxFn = affineSparseIdxAsm
	pairwiseAffineSparseFn = pairwiseAffineSparseAsm
	clippedReLUAffineSparseFn = clippedReLUAffineSparseAsm
}

func clippedReLUAffineSparseAsm(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16) {
	n, nout := len(dst), len(out)
	h := n / 2
	if (nout != 16 && nout != 32) || n == 0 || n%64 != 0 || len(idx) < n/4 || n/4 > 1<<16 {
		clippedReLUAffineSparseGeneric(out, dst, a, b, wt, bias, group, idx)
		return
	}
	a, b = a[:h], b[:h]
	if len(wt)/n < nout {
		panic("simd: ClippedReLUAffineSparse weights shorter than len(out)·len(dst)")
	}
	bias = bias[:nout]
	var k int
	if wide {
		k = clippedReLU16NNZAVX512(&dst[0], &a[0], h, &idx[0], 0)
		k += clippedReLU16NNZAVX512(&dst[h], &b[0], h, &idx[k], h/4)
	} else {
		k = clippedReLU16NNZAVX2(&dst[0], &a[0], h, &idx[0], 0)
		k += clippedReLU16NNZAVX2(&dst[h], &b[0], h, &idx[k], h/4)
	}
	if k == 0 {
		copy(out, bias)
		return
	}
	sparseAccListed(&out[0], &bias[0], &dst[0], &wt[0], &idx[0], k, nout, group)
}

func pairwiseAffineSparseAsm(out []int32, dst []uint8, a, b []int16, wt []int8, bias []int32, group int, idx []uint16) {
	n, nout := len(dst), len(out)
	h := n / 2
	if (nout != 16 && nout != 32) || n == 0 || n%64 != 0 || len(idx) < n/4 || n/4 > 1<<16 {
		pairwiseAffineSparseGeneric(out, dst, a, b, wt, bias, group, idx)
		return
	}
	a, b = a[:n], b[:n]
	if len(wt)/n < nout {
		panic("simd: PairwiseAffineSparse weights shorter than len(out)·len(dst)")
	}
	bias = bias[:nout]
	var k int
	if wide {
		k = pairwiseMulNNZAVX512(&dst[0], &a[0], &a[h], h, &idx[0], 0)
		k += pairwiseMulNNZAVX512(&dst[h], &b[0], &b[h], h, &idx[k], h/4)
	} else {
		k = pairwiseMulNNZAVX2(&dst[0], &a[0], &a[h], h, &idx[0], 0)
		k += pairwiseMulNNZAVX2(&dst[h], &b[0], &b[h], h, &idx[k], h/4)
	}
	if k == 0 {
		copy(out, bias)
		return
	}
	sparseAccListed(&out[0], &bias[0], &dst[0], &wt[0], &idx[0], k, nout, group)
}

func affineSparseAsm(out []int32, in []uint8, wt []int8, bias []int32, group int) {
	var idx [sparseSeg/4 + 8]uint16
	affineSparseIdxAsm(out, in, wt, bias, group, idx[:])
}

func affineSparseIdxAsm(out []int32, in []uint8, wt []int8, bias []int32, group int, idx []uint16) {
	n, nout := len(in), len(out)
	if (nout != 16 && nout != 32) || n == 0 || n%32 != 0 {
		affineSparseGeneric(out, in, wt, bias, group)
		return
	}
	if len(wt)/n < nout {
		panic("simd: AffineSparse weights shorter than len(out)·len(in)")
	}
	if len(idx) < SparseIdxLen(n) {
		var own [sparseSeg/4 + 8]uint16
		idx = own[:]
	}
	// The kernels start from b: the bias for the first segment with non-zero chunks,
	// out after it (no separate copy of the bias).
	b := &bias[:nout][0]
	for off := 0; off < n; off += sparseSeg {
		seg := min(sparseSeg, n-off)
		k := nnzChunks(&in[off], seg, &idx[0])
		if k == 0 {
			continue
		}
		sparseAccListed(&out[0], b, &in[off], &wt[off*nout], &idx[0], k, nout, group)
		b = &out[0]
	}
	if b != &out[0] {
		copy(out, bias[:nout])
	}
}

// sparseAccListed adds to o[0:nout] the products of the k chunks of x listed in p with
// their chunk-major weights w (nout 16 or 32), with the kernel of the level and group.
func sparseAccListed(o, b *int32, x *uint8, w *int8, p *uint16, k, nout, group int) {
	switch {
	case vnni && nout == 16:
		sparseAccVNNI16(o, b, x, w, p, k)
	case vnni:
		sparseAccVNNI32(o, b, x, w, p, k)
	case wide && nout == 16 && group >= 3:
		sparseAccTriplesAVX51216(o, b, x, w, p, k)
	case wide && nout == 16 && group == 2:
		sparseAccPairsAVX51216(o, b, x, w, p, k)
	case wide && nout == 16:
		sparseAccAVX51216(o, b, x, w, p, k)
	case wide && group >= 3:
		sparseAccTriplesAVX51232(o, b, x, w, p, k)
	case wide && group == 2:
		sparseAccPairsAVX51232(o, b, x, w, p, k)
	case wide:
		sparseAccAVX51232(o, b, x, w, p, k)
	case nout == 16 && group >= 3:
		sparseAccTriplesAVX216(o, b, x, w, p, k)
	case nout == 16 && group == 2:
		sparseAccPairsAVX216(o, b, x, w, p, k)
	case nout == 16:
		sparseAccAVX216(o, b, x, w, p, k)
	case group >= 3:
		sparseAccTriplesAVX232(o, b, x, w, p, k)
	case group == 2:
		sparseAccPairsAVX232(o, b, x, w, p, k)
	default:
		sparseAccAVX232(o, b, x, w, p, k)
	}
}
