package simd

// PairwiseClip is Stockfish 19's feature transform (nnue_feature_transformer.h transform,
// FtMaxVal 255, >> 9): dst[i] = (clamp(a[i], 0, max)·clamp(b[i], 0, max)) >> shift for
// i < len(dst), computed in int32 and truncated to uint8; len(a), len(b) ≥ len(dst), and
// the caller guarantees max² >> shift ≤ 255 (every result fits a byte). The assembly
// (AVX2; AVX-512 with 512-bit vectors, also at VNNI) runs for 0 ≤ max ≤ 255 and
// shift ≤ 63 on the longest prefix of whole 32-byte blocks: the product of two values
// ≤ 255 is below 2^16, so VPMULLW's low word is the product and VPSRLW shifts it exactly.
// Other operands, the tail and the generic level run the Go twin. Bit-identical at every
// level.
var PairwiseClip func(dst []uint8, a, b []int16, max int16, shift uint)

func pairwiseClipGeneric(dst []uint8, a, b []int16, mx int16, shift uint) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		x := int32(min(max(a[i], 0), mx))
		y := int32(min(max(b[i], 0), mx))
		dst[i] = uint8((x * y) >> shift)
	}
}
