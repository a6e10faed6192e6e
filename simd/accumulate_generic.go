package simd

func addSubGeneric(dst, src, add, sub []int16) {
	n := len(dst)
	src, add, sub = src[:n], add[:n], sub[:n]
	for i := range dst {
		dst[i] = src[i] + add[i] - sub[i]
	}
}

func addSubSubGeneric(dst, src, add, sub1, sub2 []int16) {
	n := len(dst)
	src, add, sub1, sub2 = src[:n], add[:n], sub1[:n], sub2[:n]
	for i := range dst {
		dst[i] = src[i] + add[i] - sub1[i] - sub2[i]
	}
}

func addAddSubSubGeneric(dst, src, add1, add2, sub1, sub2 []int16) {
	n := len(dst)
	src, add1, add2, sub1, sub2 = src[:n], add1[:n], add2[:n], sub1[:n], sub2[:n]
	for i := range dst {
		dst[i] = src[i] + add1[i] + add2[i] - sub1[i] - sub2[i]
	}
}

func addGeneric(dst, src, add []int16) {
	n := len(dst)
	src, add = src[:n], add[:n]
	for i := range dst {
		dst[i] = src[i] + add[i]
	}
}

func subGeneric(dst, src, sub []int16) {
	n := len(dst)
	src, sub = src[:n], sub[:n]
	for i := range dst {
		dst[i] = src[i] - sub[i]
	}
}

func refreshGeneric(dst, bias, weights []int16, rows []int) {
	n := len(dst)
	copy(dst, bias[:n])
	if n == 0 {
		return
	}
	nrows := len(weights) / n
	for _, r := range rows {
		// Checked explicitly: r·n could wrap around for a hostile r and select a wrong row.
		if uint(r) >= uint(nrows) {
			panic(errRefreshRow)
		}
		row := weights[r*n : r*n+n]
		d := dst[:len(row)]
		for i, w := range row {
			d[i] += w
		}
	}
}

const errRefreshRow = "simd: Refresh row index out of range"
