package simd

// The kernels of the feature transformer and the layers. Hot loops call them directly. Slices must have the lengths each documents; a kernel may read and
// write exactly those elements. Unless stated, dst may alias src (in-place update) but
// no other aliasing is allowed. All int16 arithmetic wraps around (two's complement), as in
// the reference engines' accumulators.
//
// Every level gives the pure-Go kernel's result bit for bit, at any alignment. The stated
// length multiples are what the vector code is built for; other lengths still give the Go
// result (the amd64 wrappers finish the remainder in Go) and a too-short operand panics as
// in the Go kernels, before any assembly runs. Buffers from AlignedInt16 and friends are
// fastest. Source: Karhan §2.3 and §4.3 (AVX2 kernels), CPW "SIMD", "Fused Updates".
//
// Each exported kernel is a function calling the implementation installed in these
// variables for the current Level (install sets them at init and on SetLevel); callers
// cannot reassign them.
var (
	addSubFn           func(dst, src, add, sub []int16)
	addSubSubFn        func(dst, src, add, sub1, sub2 []int16)
	addAddSubSubFn     func(dst, src, add1, add2, sub1, sub2 []int16)
	addFn              func(dst, src, add []int16)
	subFn              func(dst, src, sub []int16)
	refreshFn          func(dst, bias, weights []int16, rows []int)
	clippedReLU16Fn    func(dst []uint8, src []int16)
	clippedReLU32Fn    func(dst []uint8, src []int32, shift uint)
	sqrClippedReLU32Fn func(dst []uint8, src []int32, shift uint)
	clippedReLUDot32Fn func(x []int32, w []int8, shift uint) int32
	sqrCReLUPair16Fn   func(dst []uint8, src []int32, sqrShift, shift uint)
	affineFn           func(out []int32, in []uint8, weights []int8, bias []int32)
	screluDotFn        func(acc, w []int16, qa int16) int32
)

// AddSub sets dst[i] = src[i] + add[i] − sub[i] for i < len(dst); every slice has
// len(dst) elements, a multiple of 16 (CPW "Fused Updates": one add, one sub).
func AddSub(dst, src, add, sub []int16) {
	addSubFn(dst, src, add, sub)
}

// AddSubSub sets dst[i] = src[i] + add[i] − sub1[i] − sub2[i] (a capture).
func AddSubSub(dst, src, add, sub1, sub2 []int16) {
	addSubSubFn(dst, src, add, sub1, sub2)
}

// AddAddSubSub sets dst[i] = src[i] + add1[i] + add2[i] − sub1[i] − sub2[i] (castling).
func AddAddSubSub(dst, src, add1, add2, sub1, sub2 []int16) {
	addAddSubSubFn(dst, src, add1, add2, sub1, sub2)
}

// Add sets dst[i] = src[i] + add[i].
func Add(dst, src, add []int16) {
	addFn(dst, src, add)
}

// Sub sets dst[i] = src[i] − sub[i].
func Sub(dst, src, sub []int16) {
	subFn(dst, src, sub)
}

// Refresh sets dst[i] = bias[i] + Σ_r weights[r·len(dst) + i] over r in rows: a full
// accumulator refresh from the feature transformer's feature-major weight matrix.
// len(bias) == len(dst), a multiple of 16; every row index r must satisfy
// (r+1)·len(dst) ≤ len(weights).
func Refresh(dst, bias, weights []int16, rows []int) {
	refreshFn(dst, bias, weights, rows)
}

// ClippedReLU16 sets dst[i] = clamp(src[i], 0, 127) for i < len(dst) (thesis §4.1,
// Stockfish 12/13 feature transformer output). len(src) == len(dst), a multiple of 32.
func ClippedReLU16(dst []uint8, src []int16) {
	clippedReLU16Fn(dst, src)
}

// ClippedReLU32 sets dst[i] = clamp(src[i] >> shift, 0, 127), arithmetic shift
// (Stockfish clipped_relu.h, shift 6 = log2 of the weight scale 64). len(src) == len(dst).
func ClippedReLU32(dst []uint8, src []int32, shift uint) {
	clippedReLU32Fn(dst, src, shift)
}

// SqrClippedReLU32 sets dst[i] = min(127, (src[i]·src[i]) >> shift) computed in int64
// (Stockfish 15.1 sqr_clipped_relu.h uses shift 19 = 2·6 + 7). len(src) == len(dst).
func SqrClippedReLU32(dst []uint8, src []int32, shift uint) {
	sqrClippedReLU32Fn(dst, src, shift)
}

// ClippedReLUDot32 returns Σ_i clamp(x[i] >> shift, 0, 127)·w[i] over i < len(x) in
// wrapping int32 (arithmetic shift): a ClippedReLU followed by an Affine(len(x)→1)
// without its bias, i.e. Affine(out[:1], ClippedReLU32(x), w, bias) − bias[0], the
// output layer of Stockfish's and the thesis' stacks. len(w) ≥ len(x); the vector code
// takes multiples of 8 (one AVX2 kernel serves every vector level).
func ClippedReLUDot32(x []int32, w []int8, shift uint) int32 {
	return clippedReLUDot32Fn(x, w, shift)
}

// SqrCReLUPair16 sets dst[i] = min(127, (src[i]·src[i]) >> sqrShift) (SqrClippedReLU32)
// and dst[16+i] = clamp(src[i] >> shift, 0, 127) (ClippedReLU32) for i < 16: SFNNv5's
// activation pair on one 16-element fc_0 output (Stockfish 15.1 nnue_architecture.h
// concatenates the 15-element halves; a caller that feeds fc_1 weights with zeros at
// inputs 15 and 31 gets the same sums). len(dst) ≥ 32, len(src) ≥ 16; one AVX2 kernel
// (VEX) serves every vector level.
func SqrCReLUPair16(dst []uint8, src []int32, sqrShift, shift uint) {
	sqrCReLUPair16Fn(dst, src, sqrShift, shift)
}

// Affine sets out[j] = bias[j] + Σ_i in[i]·weights[j·len(in) + i] in int32, for
// j < len(out): a dense layer with uint8 inputs, int8 weights stored row-major
// [out][in], int32 biases and outputs. len(in) is a multiple of 32 (pad with zeros);
// every input must be ≤ 127 (the output of a ClippedReLU), which keeps the SIMD kernels
// exact; len(weights) == len(out)·len(in), len(bias) == len(out).
func Affine(out []int32, in []uint8, weights []int8, bias []int32) {
	affineFn(out, in, weights, bias)
}

// SCReLUDot returns Σ_i int32(int16(v·w[i]))·v with v = clamp(acc[i], 0, qa): the
// output-layer dot product of a 768→N→1 SCReLU network computed the "Lizard" way
// (CPW "Lizard SCReLU": v·w in int16, then a multiply-add with v into int32, all sums
// in wrapping int32). Exact as SCReLU Σ v²·w when |v·w| < 2^15, i.e. |w| ≤ 128 for
// qa = 255. len(acc) == len(w), a multiple of 16.
func SCReLUDot(acc, w []int16, qa int16) int32 {
	return screluDotFn(acc, w, qa)
}
