//go:build amd64 && !purego

package simd

import "unsafe"

// Forward returns the stack's output (fc_2's int32, bias included) for the accumulators
// a (side to move) and b (the other perspective), each of at least Width() int16. dst
// (≥ 2·Width() bytes) and idx (≥ Width()/2 entries) are scratch: dst receives the
// ClippedReLU of a and b (fc_0's input; at AVX2 in the order of WithActivity where it
// was set), idx's contents are unspecified. Shorter operands
// panic before any arithmetic.
//
// After the operand checks it calls the assembly of the level directly (Generic, or a
// stack marked generic by a test, takes the Go path; at AVX-512 without VNNI fc_0's
// kernel is chosen by sparseAccListed, as AffineSparse chooses it).
func (s *ReLUStack) Forward(a, b []int16, dst []uint8, idx []uint16) int32 {
	m := s.k.m
	_, _, _, _ = a[m-1], b[m-1], dst[2*m-1], idx[m/2-1]
	if level == Generic || s.generic {
		return s.forwardGeneric(a, b, dst, idx)
	}
	pa, pb, pd, pi := &a[0], &b[0], &dst[0], &idx[0]
	if s.k.pwt1 == nil { // no fc_1 (k's fields lie next to m, read above)
		return s.b2 + s.forward1(pa, pb, dst, idx)
	}
	if !wide {
		// AVX2: the whole stack in one kernel (its fc_0 over the listed non-zero chunks,
		// in WithActivity's order where set; the tail with int16 pairs where group1 ≥ 2).
		return s.b2 + reluStackAVX2((*uint64)(unsafe.Pointer(&s.k)), pa, pb, pd, pi)
	}
	var o [32]int32
	if vnni {
		clippedReLU16AVX512(pd, pa, m)
		clippedReLU16AVX512(&dst[m], pb, m)
		affineVNNI16(&o[0], pd, s.pw0, s.k.pb0, 2*m, 32)
		return s.b2 + reluAffineReLUDot32VNNI(&o[0], s.k.sh0, s.k.pwt1, s.k.pb1, s.k.sh1, s.k.pw2)
	}
	// idx[k] with k ≤ m/4 < m/2 and dst[m]: in bounds after the checks above.
	k := clippedReLU16NNZAVX512(pd, pa, m, pi, 0)
	k += clippedReLU16NNZAVX512(&dst[m], pb, m, &idx[k], m/4)
	sparseAccListed(&o[0], s.k.pb0, pd, s.pwt0, pi, k, 32, s.group)
	if s.k.group1 >= 2 {
		return s.b2 + reluAffineReLUDot32PairsAVX512(&o[0], s.k.sh0, s.k.pwt1, s.k.pb1, s.k.sh1, s.k.pw2)
	}
	return s.b2 + reluAffineReLUDot32AVX512(&o[0], s.k.sh0, s.k.pwt1, s.k.pb1, s.k.sh1, s.k.pw2)
}

// forward1 is Forward's assembly path for the stack without fc_1 (Depth 1), after the
// operand checks: the transform with its chunk list and fc_0's sparse kernel below VNNI,
// the dense sixteen-row kernel at VNNI, then ClippedReLUDot32's kernel on fc_0's 32 sums;
// fc_2's bias is the caller's.
func (s *ReLUStack) forward1(pa, pb *int16, dst []uint8, idx []uint16) int32 {
	m := s.k.m
	var o [32]int32
	switch {
	case vnni:
		clippedReLU16AVX512(&dst[0], pa, m)
		clippedReLU16AVX512(&dst[m], pb, m)
		affineVNNI16(&o[0], &dst[0], s.pw0, s.k.pb0, 2*m, 32)
	default:
		var k int
		if wide {
			k = clippedReLU16NNZAVX512(&dst[0], pa, m, &idx[0], 0)
			k += clippedReLU16NNZAVX512(&dst[m], pb, m, &idx[k], m/4)
		} else {
			k = clippedReLU16NNZAVX2(&dst[0], pa, m, &idx[0], 0)
			k += clippedReLU16NNZAVX2(&dst[m], pb, m, &idx[k], m/4)
		}
		if k == 0 {
			copy(o[:], s.b0)
		} else {
			sparseAccListed(&o[0], s.k.pb0, &dst[0], s.pwt0, &idx[0], k, 32, s.group)
		}
	}
	return clippedReLUDot32AVX2(&o[0], s.k.pw2, 32, s.k.sh0)
}
