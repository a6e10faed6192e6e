//go:build amd64 && !purego

package simd

// sparseSeg is the input length (bytes) the assembly lists non-zero chunks for at a time,
// so the index list fits a fixed stack array (1 KiB).
const sparseSeg = 2048

func installSparseAsm() {
	AffineSparse = affineSparseAsm
	AffineSparseIdx = affineSparseIdxAsm
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
	copy(out, bias[:nout])
	if len(idx) < SparseIdxLen(n) {
		var own [sparseSeg/4 + 8]uint16
		idx = own[:]
	}
	for off := 0; off < n; off += sparseSeg {
		seg := min(sparseSeg, n-off)
		k := nnzChunks(&in[off], seg, &idx[0])
		if k == 0 {
			continue
		}
		o, x, w, p := &out[0], &in[off], &wt[off*nout], &idx[0]
		switch {
		case vnni && nout == 16:
			sparseAccVNNI16(o, x, w, p, k)
		case vnni:
			sparseAccVNNI32(o, x, w, p, k)
		case wide && nout == 16 && group >= 3:
			sparseAccTriplesAVX51216(o, x, w, p, k)
		case wide && nout == 16 && group == 2:
			sparseAccPairsAVX51216(o, x, w, p, k)
		case wide && nout == 16:
			sparseAccAVX51216(o, x, w, p, k)
		case wide && group >= 3:
			sparseAccTriplesAVX51232(o, x, w, p, k)
		case wide && group == 2:
			sparseAccPairsAVX51232(o, x, w, p, k)
		case wide:
			sparseAccAVX51232(o, x, w, p, k)
		case nout == 16 && group >= 3:
			sparseAccTriplesAVX216(o, x, w, p, k)
		case nout == 16 && group == 2:
			sparseAccPairsAVX216(o, x, w, p, k)
		case nout == 16:
			sparseAccAVX216(o, x, w, p, k)
		case group >= 3:
			sparseAccTriplesAVX232(o, x, w, p, k)
		case group == 2:
			sparseAccPairsAVX232(o, x, w, p, k)
		default:
			sparseAccAVX232(o, x, w, p, k)
		}
	}
}
