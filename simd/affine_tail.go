package simd

// The 32→32→1 tail of Stockfish 13's HalfKP stack and Stockfish 15.1's SFNNv5 stack
// (nnue_architecture.h: fc_1 = AffineTransform<32, 32>, ClippedReLU, fc_2 =
// AffineTransform<32, 1>) as one kernel call: fc_1's 32 outputs stay in vector registers,
// its ClippedReLU packs them to bytes in place and fc_2's dot product follows, where the
// layer-by-layer path makes three calls (Affine, ClippedReLU32 or the dot) with memory
// round trips and slice headers between them. fc_1's weights are read chunk-major
// (SparseWeights(W, 32, 32), made once at load time): each input chunk of 4 bytes is
// broadcast and multiplied against the 32 outputs' weights of that chunk, so no
// horizontal sums are needed. Exactness as Affine: inputs ≤ 127, every VPMADDUBSW pair sum
// widened to int32 at once (or VPDPBUSD), wrapping int32 sums, so the result is the
// layers' bit for bit.
//
// Each exported kernel is a function calling the implementation installed in these
// variables for the current Level (install sets them at init and on SetLevel); callers
// cannot reassign them.
var (
	affineReLUDot32Fn     func(in []uint8, wt []int8, bias []int32, shift uint, w2 []int8) int32
	reluAffineReLUDot32Fn func(x []int32, shift0 uint, wt []int8, bias []int32, shift uint, w2 []int8) int32
)

// AffineReLUDot32 returns Σ_j clamp(o[j] >> shift, 0, 127)·w2[j] over j < 32, in
// wrapping int32, where o[j] = bias[j] + Σ_i in[i]·W[j][i] (i < 32) is Affine(32→32)
// and wt = SparseWeights(W, 32, 32) its chunk-major weights: the ClippedReLU and
// Affine(32→1) after a 32→32 layer, without the last layer's bias (add it). Every
// in[i] must be ≤ 127 (an activation's output). len(in) ≥ 32, len(wt) ≥ 1024,
// len(bias) ≥ 32, len(w2) ≥ 32, else it panics before any arithmetic; shift is an
// arithmetic shift (≥ 32 gives the sign, as Go's >>). Same result as Affine(o, in[:32],
// W, bias); ClippedReLUDot32(o, w2, shift). SFNNv5's fc_1 and fc_2 (Stockfish 15.1).
func AffineReLUDot32(in []uint8, wt []int8, bias []int32, shift uint, w2 []int8) int32 {
	return affineReLUDot32Fn(in, wt, bias, shift, w2)
}

// ReLUAffineReLUDot32 is AffineReLUDot32 on in = ClippedReLU32(x[:32], shift0): the
// ClippedReLU after fc_0, fc_1 (32→32) with its ClippedReLU, and fc_2's dot product
// (HalfKP, Stockfish 12/13). len(x) ≥ 32; the other operands as AffineReLUDot32.
func ReLUAffineReLUDot32(x []int32, shift0 uint, wt []int8, bias []int32, shift uint, w2 []int8) int32 {
	return reluAffineReLUDot32Fn(x, shift0, wt, bias, shift, w2)
}

func installTailGeneric() {
	affineReLUDot32Fn = affineReLUDot32Generic
	reluAffineReLUDot32Fn = reluAffineReLUDot32Generic
}

// affineReLUDot32Generic is AffineReLUDot32 in Go: the sparse twin's chunk-major Affine,
// then ClippedReLUDot32's twin.
func affineReLUDot32Generic(in []uint8, wt []int8, bias []int32, shift uint, w2 []int8) int32 {
	_, _, _, _ = in[31], wt[1023], bias[31], w2[31] // lengths, not capacities
	in, wt, bias, w2 = in[:32], wt[:1024], bias[:32], w2[:32]
	var o [32]int32
	affineSparseGeneric(o[:], in, wt, bias, 1)
	return clippedReLUDot32Generic(o[:], w2, shift)
}

func reluAffineReLUDot32Generic(x []int32, shift0 uint, wt []int8, bias []int32, shift uint, w2 []int8) int32 {
	_ = x[31]
	x = x[:32]
	var u [32]uint8
	clippedReLU32Generic(u[:], x, shift0)
	return affineReLUDot32Generic(u[:], wt, bias, shift, w2)
}
