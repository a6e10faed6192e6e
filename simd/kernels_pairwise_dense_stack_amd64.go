//go:build amd64 && !purego

package simd

// Forward returns the stack's output (fc_2's int32, bias included) and fc_0's last two
// outputs (the skip connection's, before their scaling) for the accumulators a (side to
// move) and b (the other perspective), each of at least Width() int16. dst (≥ Width()
// bytes) and idx (≥ Width()/4 entries) are scratch: dst receives the pairwise product
// (PairwiseClip(clip, shift)) of a and b (fc_0's input), idx's contents are unspecified.
// Shorter operands panic before any arithmetic.
//
// After the operand checks it calls the assembly of the level directly (Generic, or a
// stack marked generic by a test, takes the Go path): pairwiseClipNNZ at AVX2 or AVX-512,
// fc_0's sparse kernel as sparseAccListed chooses it (VPDPBUSD at VNNI), and the VEX
// dualActTail at every level.
func (s *PairwiseDenseStack) Forward(a, b []int16, dst []uint8, idx []uint16) (out, skip0, skip1 int32) {
	m := s.m
	h := m / 2
	_, _, _, _ = a[m-1], b[m-1], dst[m-1], idx[m/4-1]
	if level == Generic || s.generic {
		return s.forwardGeneric(a, b, dst, idx)
	}
	var o [32]int32
	pd, pi := &dst[0], &idx[0]
	c := uint64(s.clip)
	// idx[k] with k ≤ h/4 < m/4 and dst[h]: in bounds after the checks above.
	f := pairwiseClipNNZAsm(s.kind)
	k := f(pd, &a[0], &a[h], h, c, s.pre, s.post, pi, 0)
	k += f(&dst[h], &b[0], &b[h], h, c, s.pre, s.post, &idx[k], h/4)
	sparseAccListed(&o[0], s.pb0, pd, s.pwt0, pi, k, s.nx, s.group)
	var t int32
	switch {
	case s.nx == 32 && s.nyPad == 32:
		t = dualActTail32x32AVX2(&o[0], s.pwt1, s.pb1, s.pw2, s.sq0, s.s0, s.sq1, s.s1)
	case s.nx == 32:
		t = dualActTail32x64AVX2(&o[0], s.pwt1, s.pb1, s.pw2, s.sq0, s.s0, s.sq1, s.s1)
	case s.nyPad == 32:
		t = dualActTail16x32AVX2(&o[0], s.pwt1, s.pb1, s.pw2, s.sq0, s.s0, s.sq1, s.s1)
	default:
		t = dualActTail16x64AVX2(&o[0], s.pwt1, s.pb1, s.pw2, s.sq0, s.s0, s.sq1, s.s1)
	}
	return s.b2 + t, o[s.nx-2], o[s.nx-1]
}

// pairwiseClipNNZAsm returns the listing product kernel of kind k at the current level.
func pairwiseClipNNZAsm(k clipKind) func(dst *uint8, a, b *int16, n int, clip, pre, post uint64, idx *uint16, first int) int {
	switch {
	case wide && k == clipHs:
		return pairwiseClipNNZHsAVX512
	case wide && k == clipHi:
		return pairwiseClipNNZHiAVX512
	case wide:
		return pairwiseClipNNZLoAVX512
	case k == clipHs:
		return pairwiseClipNNZHsAVX2
	case k == clipHi:
		return pairwiseClipNNZHiAVX2
	}
	return pairwiseClipNNZLoAVX2
}
