package simd

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// RefreshPlanes is Refresh (and, with psqtDst, the PSQT sums) for features given as piece
// planes, the form in which HalfKP and HalfKAv2_hm enumerate a position's features
// (featureset.Set.ActivePlanes): for every set bit s of planes[k] the row
//
//	r = base + 64·k + (s XOR mask)
//
// is active, and RefreshPlanes sets dst[i] = bias[i] + Σ_r weights[r·len(dst) + i] and,
// when psqtDst is not empty, psqtDst[b] = Σ_r psqt[r·len(psqtDst) + b] (int16 and int32
// arithmetic wrapping). It returns the number of rows added (the set bits of planes).
// It is the refresh of Stockfish 13's and 15.1's FeatureTransformer::update_accumulator
// with append_active_indices folded in. nnue's own refresh goes through PlaneRefresher,
// which is bound to the rows once and forms the planes from the bitboards in its kernel;
// RefreshPlanes lists the rows in Go and adds them with Refresh's vector kernel (no row is
// checked one by one: the range is checked once).
//
// Bounds are checked once for the whole range of rows the planes can name: mask in
// [0, 64), base ≥ 0, base + 64·len(planes) ≤ len(weights)/len(dst) (and as many PSQT rows
// of len(psqtDst) values); RefreshPlanes panics otherwise, before writing anything, as it
// does when len(bias) < len(dst) or len(dst) is 0. The vector kernel takes len(dst) a
// multiple of 16, 1 to 64 set bits in all and 0 or 8 PSQT buckets; anything else runs
// the Go kernel, with the same result at every level.
func RefreshPlanes(dst, bias, weights []int16, planes []uint64, base, mask int, psqtDst, psqt []int32) int {
	n := len(dst)
	if n == 0 {
		panic("simd: RefreshPlanes with an empty accumulator")
	}
	bias = bias[:n]
	// end = one past the last row the planes can name; the checks multiply in 128 bits
	// rather than divide (a 64-bit division costs tens of cycles, more than the rest).
	end := uint64(base) + 64*uint64(len(planes))
	if uint(mask) >= 64 || base < 0 || end < uint64(base) || !fits(end, n, len(weights)) ||
		len(psqtDst) > 0 && !fits(end, len(psqtDst), len(psqt)) {
		panic(errRefreshPlanes)
	}
	if level >= AVX2 && n%16 == 0 && (len(psqtDst) == 0 || len(psqtDst) == 8) {
		var rows [64]int
		c := 0
		for k, b := range planes {
			if c+bits.OnesCount64(b) > len(rows) {
				return refreshPlanesGeneric(dst, bias, weights, planes, base, mask, psqtDst, psqt)
			}
			for ; b != 0; b &= b - 1 {
				rows[c] = base + 64*k + (bits.TrailingZeros64(b) ^ mask)
				c++
			}
		}
		if c > 0 {
			var pd, pw *int32
			if len(psqtDst) == 8 {
				pd, pw = &psqtDst[0], &psqt[0]
			}
			// Every row is below end, whose rows (and PSQT rows) were checked above.
			refreshListedVec(&dst[0], &bias[0], &weights[0], &rows[0], c, int(end), n, pd, pw)
			return c
		}
	}
	return refreshPlanesGeneric(dst, bias, weights, planes, base, mask, psqtDst, psqt)
}

const errRefreshPlanes = "simd: RefreshPlanes rows out of range"

// fits reports rows·width ≤ size without overflow (width, size ≥ 0).
func fits(rows uint64, width, size int) bool {
	hi, lo := bits.Mul64(rows, uint64(width))
	return hi == 0 && lo <= uint64(size)
}

// refreshPlanesGeneric is RefreshPlanes' pure-Go kernel (the reference of the assembly);
// the caller has checked the bounds. It returns the number of rows.
func refreshPlanesGeneric(dst, bias, weights []int16, planes []uint64, base, mask int, psqtDst, psqt []int32) int {
	copy(dst, bias[:len(dst)])
	clear(psqtDst)
	c := 0
	for k, b := range planes {
		c += bits.OnesCount64(b)
		for ; b != 0; b &= b - 1 {
			addRowGeneric(dst, weights, psqtDst, psqt, base+64*k+(bits.TrailingZeros64(b)^mask))
		}
	}
	return c
}

// RefreshPSQT is Refresh plus the PSQT sums of the same rows, psqtDst[b] = Σ_r
// psqt[r·len(psqtDst) + b] (int32, wrapping): Stockfish 15.1's refresh
// (FeatureTransformer::update_accumulator), which adds a row's 8 PSQT weights with one
// vector add in the loop over the rows. Every row must satisfy (r+1)·len(dst) ≤
// len(weights) and (r+1)·len(psqtDst) ≤ len(psqt); otherwise it panics (at the vector
// levels before writing anything). The vector kernel takes 1 to 64 rows, 8 buckets and
// len(dst) a multiple of 16; anything else runs Refresh and a Go loop, with the same
// result at every level.
func RefreshPSQT(dst, bias, weights []int16, rows []int, psqtDst, psqt []int32) {
	n := len(dst)
	bias = bias[:n]
	nb := len(psqtDst)
	if nb == 8 && level >= AVX2 && n > 0 && n%16 == 0 && len(rows) > 0 && len(rows) <= 64 {
		nvalid := min(len(weights)/n, len(psqt)/8)
		if refreshListedVec(&dst[0], &bias[0], &weights[0], &rows[0], len(rows), nvalid, n, &psqtDst[0], &psqt[0]) < 0 {
			panic(errRefreshRow)
		}
		return
	}
	refreshPSQTGeneric(dst, bias, weights, rows, psqtDst, psqt)
}

// refreshPSQTGeneric is RefreshPSQT's Go path (the reference of its kernel).
func refreshPSQTGeneric(dst, bias, weights []int16, rows []int, psqtDst, psqt []int32) {
	nb := len(psqtDst)
	if nb > 0 {
		for _, r := range rows {
			if uint(r) >= uint(len(psqt)/nb) {
				panic(errRefreshRow)
			}
		}
	}
	Refresh(dst, bias, weights, rows)
	clear(psqtDst)
	for _, r := range rows {
		pr := psqt[r*nb : r*nb+nb]
		pd := psqtDst[:len(pr)]
		for j, w := range pr {
			pd[j] += w
		}
	}
}

// PlaneRefresher is a feature transformer's refresh from piece planes (RefreshPlanes)
// bound once, at load, to its bias, weight rows, PSQT rows and the layout of its piece
// planes, with the planes formed by the kernel from a position's colour and role
// bitboards: a refresh checks only what changes per call (the destination, base and
// mask) and passes few words, and no plane array or index list is built in Go. It is
// Stockfish 13's and 15.1's FeatureTransformer::update_accumulator refresh with
// append_active_indices folded in. Built from Set.ActivePlanes' plane array and
// RefreshPlanes' per-call checks, the Go glue around the kernel cost ≈ 280 instructions
// per perspective (doc/benchmarks.md).
//
// A PlaneRefresher is immutable and safe for concurrent use; it aliases the slices it
// was made from. The zero value refreshes nothing (Refresh panics).
type PlaneRefresher struct {
	// k holds the width and the plane layout for every kernel — plane j < k.np is
	// boards[2+j/2] & boards[j%2], its rows start k.rows[j] after the base — and, when
	// vec, the first elements of bias, weights and psqt for the vector kernels.
	k             planeKernel
	bias, weights []int16
	psqt          []int32
	nb            int  // PSQT buckets (int32 per row)
	rows          uint // rows of weights (and of psqt when nb > 0)
	vec           bool // the vector kernels take the shape: k.n%16 == 0, nb 0 or 8
	// bases = rows − (max k.rows + 64) + 1 is the number of bases for which every row
	// the planes name exists.
	bases uint
}

// planeKernel holds what refreshBoards{AVX2,AVX512} read of a PlaneRefresher, through one
// pointer, at the offsets the generator names (pk* in simd/_asm/refresh_planes.go;
// TestPlaneKernelLayout): six words fewer on the stack per call than passing them.
type planeKernel struct {
	bias, weights *int16
	psqt          *int32 // nil without PSQT rows
	n, np         int
	rows          [MaxBoardPlanes]int
}

// MaxBoardPlanes is the largest number of piece planes a PlaneRefresher forms from the
// bitboards: 2 sides × 6 roles.
const MaxBoardPlanes = 12

// NewPlaneRefresher binds a refresh to width-wide int16 rows: bias (width values),
// weights (feature-major rows of width values) and psqt (feature-major rows of buckets
// int32, nil when buckets is 0); the rows are those of weights, len(weights)/width (a
// partial last row is not one), and no more than psqt holds. planeRows is the layout of
// the piece planes (featureset.Set.PlaneRows): plane k < len(planeRows) holds the pieces
// of role k/2 of the perspective's side (k even) or of the other side (k odd), and its 64
// rows start planeRows[k] rows after the base a refresh is given. It returns an error if
// width is not positive, buckets is negative, bias is shorter than width, or planeRows
// does not have an even number of entries in [2, MaxBoardPlanes], each in [0, rows − 64].
func NewPlaneRefresher(bias, weights []int16, width int, psqt []int32, buckets int, planeRows []int) (*PlaneRefresher, error) {
	if width <= 0 {
		return nil, fmt.Errorf("simd: PlaneRefresher width %d, want > 0", width)
	}
	if buckets < 0 {
		return nil, fmt.Errorf("simd: PlaneRefresher PSQT buckets %d, want ≥ 0", buckets)
	}
	if len(bias) < width {
		return nil, fmt.Errorf("simd: PlaneRefresher bias: have %d, want %d", len(bias), width)
	}
	np := len(planeRows)
	if np%2 != 0 || np == 0 || np > MaxBoardPlanes {
		return nil, fmt.Errorf("simd: PlaneRefresher with %d planes, want an even number in [2, %d]", np, MaxBoardPlanes)
	}
	rows := len(weights) / width
	if buckets > 0 {
		rows = min(rows, len(psqt)/buckets)
	}
	span := 0
	for k, o := range planeRows {
		if o < 0 || o > rows-64 {
			return nil, fmt.Errorf("simd: PlaneRefresher plane %d at row %d, want in [0, %d]", k, o, rows-64)
		}
		span = max(span, o+64)
	}
	r := &PlaneRefresher{
		bias: bias[:width:width], weights: weights[: rows*width : rows*width],
		psqt: psqt[: rows*buckets : rows*buckets], nb: buckets, rows: uint(rows),
		vec:   width%16 == 0 && (buckets == 0 || buckets == 8),
		bases: uint(rows - span + 1),
		k:     planeKernel{n: width, np: np},
	}
	copy(r.k.rows[:], planeRows)
	if r.vec {
		r.k.bias, r.k.weights = &r.bias[0], unsafe.SliceData(r.weights)
		if buckets > 0 {
			r.k.psqt = unsafe.SliceData(r.psqt)
		}
	}
	return r, nil
}

// Width returns the row width (int16 values per accumulator perspective).
func (r *PlaneRefresher) Width() int { return r.k.n }

// Buckets returns the number of PSQT buckets (int32 per row; 0 without PSQT).
func (r *PlaneRefresher) Buckets() int { return r.nb }

// Rows returns the number of rows (features).
func (r *PlaneRefresher) Rows() int { return int(r.rows) }

// Planes returns the number of piece planes (len(planeRows) of NewPlaneRefresher).
func (r *PlaneRefresher) Planes() int { return r.k.np }

// Refresh sets one perspective's accumulator from a position's bitboards: boards[0] holds
// the pieces of the perspective's side, boards[1] those of the other side and boards[2+r]
// the pieces of role r (pawn, knight, bishop, rook, queen, king; either side). Plane k <
// Planes() is boards[2 + k/2] AND boards[k mod 2], and its set bit s names row
//
//	base + planeRows[k] + (s XOR mask)
//
// (planeRows as bound by NewPlaneRefresher). Refresh sets dst[i] = bias[i] + Σ_r
// weights[r][i] and psqtDst[b] = Σ_r psqt[r][b] over those rows (int16 and int32 sums
// wrapping; RefreshPlanes with the planes formed in the kernel), bit for bit the same at
// every level, and returns the number of rows.
//
// It returns −1, writing nothing, when the planes hold more than 64 bits in all, which
// the bitboards of one position never do (its planes are disjoint); the caller then
// takes another path. len(dst) must be Width(), len(psqtDst) Buckets(), mask in [0, 64)
// and base in [0, Rows() − max(planeRows) − 64]; Refresh panics otherwise, before writing
// anything. The vector kernels take a width that is a multiple of 16 and 0 or 8 PSQT
// buckets; other shapes run the Go kernel.
func (r *PlaneRefresher) Refresh(dst []int16, psqtDst []int32, boards *[8]uint64, base, mask int) int {
	n := r.k.n
	if len(dst) != n || len(psqtDst) != r.nb || uint(mask) >= 64 || uint(base) >= r.bases {
		panic(r.refreshError(dst, psqtDst)) // panic here: nothing is spilled on the good path
	}
	_ = boards[0] // nil check before the kernel
	if r.vec && level >= AVX2 {
		// Checked above and at NewPlaneRefresher: n > 0 (a multiple of 16), every row the
		// planes can name lies inside weights (and psqt), dst and psqtDst have the bound
		// widths, np is even and positive; r.k holds the same.
		k := (*uint64)(unsafe.Pointer(&r.k))
		if wide {
			return refreshBoardsAVX512(k, unsafe.SliceData(dst), unsafe.SliceData(psqtDst), &boards[0], base, mask)
		}
		return refreshBoardsAVX2(k, unsafe.SliceData(dst), unsafe.SliceData(psqtDst), &boards[0], base, mask)
	}
	return refreshBoardsGeneric(dst, r.bias, r.weights, boards, r.k.rows[:r.k.np], base, mask, psqtDst, r.psqt)
}

// refreshError is the reason Refresh rejects its arguments.
func (r *PlaneRefresher) refreshError(dst []int16, psqtDst []int32) string {
	if len(dst) != r.k.n || len(psqtDst) != r.nb {
		return fmt.Sprintf("simd: PlaneRefresher.Refresh lengths dst %d, psqtDst %d, want %d and %d", len(dst), len(psqtDst), r.k.n, r.nb)
	}
	return errRefreshPlanes
}

// addRowGeneric adds row r of weights (len(dst) values per row) to dst and row r of psqt
// (len(psqtDst) values per row) to psqtDst: one row of the pure-Go planes refreshes.
func addRowGeneric(dst, weights []int16, psqtDst, psqt []int32, r int) {
	n, nb := len(dst), len(psqtDst)
	row := weights[r*n : r*n+n]
	d := dst[:len(row)]
	for i, w := range row {
		d[i] += w
	}
	pr := psqt[r*nb : r*nb+nb]
	pd := psqtDst[:len(pr)]
	for j, w := range pr {
		pd[j] += w
	}
}

// refreshBoardsGeneric is PlaneRefresher.Refresh's pure-Go kernel (the reference of the
// assembly); the caller has checked the bounds. It returns the number of rows, or −1 (nothing
// written) for more than 64.
func refreshBoardsGeneric(dst, bias, weights []int16, boards *[8]uint64, prows []int, base, mask int, psqtDst, psqt []int32) int {
	c := 0
	for k := range prows {
		c += bits.OnesCount64(boards[2+k/2] & boards[k%2])
	}
	if c > 64 {
		return -1
	}
	copy(dst, bias[:len(dst)])
	clear(psqtDst)
	for k, off := range prows {
		for b := boards[2+k/2] & boards[k%2]; b != 0; b &= b - 1 {
			addRowGeneric(dst, weights, psqtDst, psqt, base+off+(bits.TrailingZeros64(b)^mask))
		}
	}
	return c
}
