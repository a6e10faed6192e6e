//go:build !amd64 || purego

package simd

// Forward returns the stack's output (fc_2's int32, bias included) for the accumulators
// a (side to move) and b (the other perspective), each of at least Width() int16. dst
// (≥ 2·Width() bytes) and idx (≥ Width()/2 entries) are scratch: dst receives the
// ClippedReLU of a and b (fc_0's input), idx's contents are unspecified. Shorter operands
// panic before any arithmetic.
func (s *ReLUStack) Forward(a, b []int16, dst []uint8, idx []uint16) int32 {
	m := s.k.m
	_, _, _, _ = a[m-1], b[m-1], dst[2*m-1], idx[m/2-1]
	return s.forwardGeneric(a, b, dst, idx)
}

// Forward returns the stack's output (fc_2's int32, bias included) and fc_0's 16th output
// (the skip connection, before its scaling) for the accumulators a (side to move) and b
// (the other perspective), each of at least Width() int16. dst (≥ Width() bytes) and idx
// (≥ Width()/4 entries) are scratch: dst receives the pairwise product (PairwiseClip(127, 7)) of a and b (fc_0's
// input), idx's contents are unspecified. Shorter operands panic before any arithmetic.
func (s *PairwiseStack) Forward(a, b []int16, dst []uint8, idx []uint16) (out, skip int32) {
	m := s.m
	_, _, _, _ = a[m-1], b[m-1], dst[m-1], idx[m/4-1]
	return s.forwardGeneric(a, b, dst, idx)
}

// Forward returns the stack's output (fc_2's int32, bias included) and fc_0's last two
// outputs (the skip connection's, before their scaling) for the accumulators a (side to
// move) and b (the other perspective), each of at least Width() int16. dst (≥ Width()
// bytes) and idx (≥ Width()/4 entries) are scratch: dst receives the pairwise product
// (PairwiseClip(clip, shift)) of a and b (fc_0's input), idx's contents are unspecified.
// Shorter operands panic before any arithmetic.
func (s *PairwiseDenseStack) Forward(a, b []int16, dst []uint8, idx []uint16) (out, skip0, skip1 int32) {
	m := s.m
	_, _, _, _ = a[m-1], b[m-1], dst[m-1], idx[m/4-1]
	return s.forwardGeneric(a, b, dst, idx)
}
