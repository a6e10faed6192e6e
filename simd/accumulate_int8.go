package simd

// Kernels for int8 weight rows added into an int16 accumulator: Stockfish 18/19 keep the
// threat and pawn-pair rows of the feature transformer in int8 (half the memory of the
// int16 HalfKAv2_hm rows) and widen them to int16 while accumulating (Stockfish 19
// nnue_feature_transformer.h; ../shared/nets/README.md "Accumulator"). Every int8 value is
// sign-extended to int16 and all int16 arithmetic wraps around, so the order of the adds
// and subtracts does not change the result and every level is bit-identical to the Go
// kernels. The same conventions as the int16 kernels (kernels.go) hold: dst may alias src,
// lengths that are not a multiple of 16 are finished in Go, too-short operands panic
// before any assembly runs.
//
// Each exported kernel is a function calling the implementation installed in these
// variables for the current Level (install sets them at init and on SetLevel); callers
// cannot reassign them.
var (
	addI8Fn    func(dst, src []int16, add []int8)
	subI8Fn    func(dst, src []int16, sub []int8)
	addSubI8Fn func(dst, src []int16, add, sub []int8)
	updateI8Fn func(dst, src []int16, weights []int8, add, sub []int)
)

// AddI8 sets dst[i] = src[i] + int16(add[i]) for i < len(dst); len(src) and len(add)
// are at least len(dst), ideally a multiple of 16.
func AddI8(dst, src []int16, add []int8) {
	addI8Fn(dst, src, add)
}

// SubI8 sets dst[i] = src[i] − int16(sub[i]).
func SubI8(dst, src []int16, sub []int8) {
	subI8Fn(dst, src, sub)
}

// AddSubI8 sets dst[i] = src[i] + int16(add[i]) − int16(sub[i]) (one feature in, one
// out, fused).
func AddSubI8(dst, src []int16, add, sub []int8) {
	addSubI8Fn(dst, src, add, sub)
}

// UpdateI8 sets dst[i] = src[i] + Σ_{r in add} weights[r·n + i] − Σ_{r in sub}
// weights[r·n + i] for i < n = len(dst), the int8 rows widened to int16: a whole diff
// (or, with sub empty and src the bias plus the int16 part, a refresh) of the int8
// part of a feature transformer with a feature-major weight matrix. Each row index r
// must satisfy (r+1)·n ≤ len(weights), otherwise it panics before writing; len(src) ≥ n.
// With n = 0 it does nothing.
func UpdateI8(dst, src []int16, weights []int8, add, sub []int) {
	updateI8Fn(dst, src, weights, add, sub)
}

const errUpdateRow = "simd: UpdateI8 row index out of range"

func installI8Generic() {
	addI8Fn = addI8Generic
	subI8Fn = subI8Generic
	addSubI8Fn = addSubI8Generic
	updateI8Fn = updateI8Generic
}

func addI8Generic(dst, src []int16, add []int8) {
	n := len(dst)
	src, add = src[:n], add[:n]
	for i := range dst {
		dst[i] = src[i] + int16(add[i])
	}
}

func subI8Generic(dst, src []int16, sub []int8) {
	n := len(dst)
	src, sub = src[:n], sub[:n]
	for i := range dst {
		dst[i] = src[i] - int16(sub[i])
	}
}

func addSubI8Generic(dst, src []int16, add, sub []int8) {
	n := len(dst)
	src, add, sub = src[:n], add[:n], sub[:n]
	for i := range dst {
		dst[i] = src[i] + int16(add[i]) - int16(sub[i])
	}
}

// checkRowsI8 panics unless every row of add and sub is a whole row of weights (n > 0).
func checkRowsI8(n int, weights []int8, add, sub []int) {
	nrows := len(weights) / n
	for _, rows := range [2][]int{add, sub} {
		for _, r := range rows {
			// Checked explicitly: r·n could wrap around for a hostile r.
			if uint(r) >= uint(nrows) {
				panic(errUpdateRow)
			}
		}
	}
}

func updateI8Generic(dst, src []int16, weights []int8, add, sub []int) {
	n := len(dst)
	src = src[:n]
	if n == 0 {
		return
	}
	checkRowsI8(n, weights, add, sub)
	copy(dst, src)
	for _, r := range add {
		row := weights[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] += int16(w)
		}
	}
	for _, r := range sub {
		row := weights[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] -= int16(w)
		}
	}
}
