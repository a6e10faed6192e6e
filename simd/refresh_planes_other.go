//go:build !amd64 || purego

package simd

// wide is false without assembly (no AVX-512 kernels).
const wide = false

// refreshBoardsAVX2 and refreshBoardsAVX512: no vector kernel here (never called).
func refreshBoardsAVX2(k *uint64, dst *int16, pdst *int32, boards *uint64, base, mask int) int {
	return -1
}

func refreshBoardsAVX512(k *uint64, dst *int16, pdst *int32, boards *uint64, base, mask int) int {
	return -1
}

// refreshListedVec: no vector kernel here (never called: the level is Generic).
func refreshListedVec(dst, bias, weights *int16, rows *int, nrows, nvalid, n int, pdst, pw *int32) int {
	return -1
}
