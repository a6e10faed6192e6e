//go:build amd64 && !purego

package simd

// Forward returns the stack's output (fc_2's int32, bias included) and fc_0's 16th output
// (the skip connection, before its scaling) for the accumulators a (side to move) and b
// (the other perspective), each of at least Width() int16. dst (≥ Width() bytes) and idx
// (≥ Width()/4 entries) are scratch: dst receives the pairwise product (PairwiseClip(127, 7)) of a and b (fc_0's
// input), idx's contents are unspecified. Shorter operands panic before any arithmetic.
//
// After the operand checks it calls the assembly of the level directly (Generic, or a
// stack marked generic by a test, takes the Go path; at AVX-512 without VNNI fc_0's
// kernel is chosen by sparseAccListed, as AffineSparse chooses it).
func (s *PairwiseStack) Forward(a, b []int16, dst []uint8, idx []uint16) (out, skip int32) {
	m := s.m
	h := m / 2
	_, _, _, _ = a[m-1], b[m-1], dst[m-1], idx[m/4-1]
	if level == Generic || s.generic {
		return s.forwardGeneric(a, b, dst, idx)
	}
	var o [16]int32
	var u [32]uint8
	pd, pi := &dst[0], &idx[0]
	if vnni {
		// The sparse VPDPBUSD kernel: on the golden positions half of fc_0's input chunks
		// are zero, and the listing comes with the products; measured in process, hot
		// forward of 64 positions, best of 15: 159–161 ns against 202–207 for the dense
		// affineVNNI (and 162–171 for the AVX-512 VPMADDUBSW pairs below).
		k := pairwiseMulNNZAVX512(pd, &a[0], &a[h], h, pi, 0)
		k += pairwiseMulNNZAVX512(&dst[h], &b[0], &b[h], h, &idx[k], h/4)
		sparseAccVNNI16(&o[0], s.pb0, pd, s.pwt0, pi, k)
		sqrCReLUPairAVX2(&u[0], &o[0], s.sqrShift, s.sh0)
		return s.b2 + affineReLUDot32VNNI(&u[0], s.pwt1, s.pb1, s.sh1, s.pw2), o[15]
	}
	// idx[k] with k ≤ h/4 < m/4 and dst[h]: in bounds after the checks above.
	var k int
	if wide {
		k = pairwiseMulNNZAVX512(pd, &a[0], &a[h], h, pi, 0)
		k += pairwiseMulNNZAVX512(&dst[h], &b[0], &b[h], h, &idx[k], h/4)
		sparseAccListed(&o[0], s.pb0, pd, s.pwt0, pi, k, 16, s.group)
		sqrCReLUPairAVX2(&u[0], &o[0], s.sqrShift, s.sh0)
		if s.group1 >= 2 {
			return s.b2 + affineReLUDot32PairsAVX512(&u[0], s.pwt1, s.pb1, s.sh1, s.pw2), o[15]
		}
		return s.b2 + affineReLUDot32AVX512(&u[0], s.pwt1, s.pb1, s.sh1, s.pw2), o[15]
	}
	k = pairwiseMulNNZAVX2(pd, &a[0], &a[h], h, pi, 0)
	k += pairwiseMulNNZAVX2(&dst[h], &b[0], &b[h], h, &idx[k], h/4)
	switch {
	case s.group >= 3:
		sparseAccTriplesAVX216(&o[0], s.pb0, pd, s.pwt0, pi, k)
	case s.group == 2:
		sparseAccPairsAVX216(&o[0], s.pb0, pd, s.pwt0, pi, k)
	default:
		sparseAccAVX216(&o[0], s.pb0, pd, s.pwt0, pi, k)
	}
	sqrCReLUPairAVX2(&u[0], &o[0], s.sqrShift, s.sh0)
	if s.group1 >= 2 {
		return s.b2 + affineReLUDot32PairsAVX2(&u[0], s.pwt1, s.pb1, s.sh1, s.pw2), o[15]
	}
	return s.b2 + affineReLUDot32AVX2(&u[0], s.pwt1, s.pb1, s.sh1, s.pw2), o[15]
}
