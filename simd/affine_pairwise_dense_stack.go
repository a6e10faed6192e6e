package simd

import (
	"fmt"

	"github.com/nnuekit/nnuekit/internal/block"
)

// PairwiseDenseStack is a prepared Stockfish 19 layer stack (Stockfish 19
// nnue_architecture.h; nnue.Spec's pairwise-dense family): the pairwise product
// PairwiseClip(clip, shift) of each perspective's accumulator halves (m int16 each, side to
// move first), fc_0 = Affine(m→nx) whose last two outputs are the skip connection's, the
// activation pair SqrClippedReLU (>> sq0) ‖ ClippedReLU (>> s0) of its nx outputs (2·nx
// bytes), fc_1 = Affine(2·nx→ny), the pair SqrClippedReLU (>> sq1) ‖ ClippedReLU (>> s1)
// of its ny outputs, and fc_2 = Affine(2·nx + 2·ny → 1) over both pairs.
//
// Forward runs it with direct calls of three kernels of the current level:
// pairwiseClipNNZ (the products, the non-zero 4-byte chunks listed from the same
// registers), the sparse fc_0 over the listed chunks (the kernels of AffineSparse; VPDPBUSD
// at VNNI) and dualActTail (both activation pairs, fc_1 and fc_2 in one kernel, fc_1's
// outputs never leaving the registers). The layer-by-layer path makes one call per layer
// and a listing pass over fc_0's input. dualActTail reads its bytes in its own order (per 16
// values, 16 squared then 16 clipped); NewPairwiseDenseStack lays fc_1's and fc_2's weights
// out for it, with zero rows and weights padding ny to 32 or 64. Bit-identical to the layers
// at every level. A PairwiseDenseStack is immutable and safe for concurrent use; the
// scratch passed to Forward is not.
type PairwiseDenseStack struct {
	m, nx            int
	clip             int16
	shift            uint8
	kind             clipKind // the product's kernel, as PairwiseClip chooses it
	pre, post        uint64   // its shifts around the product
	wt0              []int8   // fc_0 chunk-major, SparseWeights(w0, m, nx)
	group            int      // SparseGroup(wt0, m, nx)
	b0               []int32
	wt1              []int8 // fc_1 chunk-major over dualActTail's 2·nx input bytes, nyPad outputs
	b1               []int32
	w2               []int8 // fc_2 in dualActTail's order, 2·nx + 2·nyPad
	b2               int32
	nyPad            int // 32 or 64
	sq0, s0, sq1, s1 uint
	generic          bool // set by tests: run the Go path whatever the level
	pwt0, pwt1, pw2  *int8
	pb0, pb1         *int32
}

// NewPairwiseDenseStack prepares the stack for accumulators of m int16 per perspective (m a
// positive multiple of 64, at most 32,768), the pairwise clip and shift (clip > 0, shift ≤
// 30, (clip²) >> shift ≤ 127 so that fc_0's inputs suit its kernels: Stockfish 19 255 and
// 9), fc_0's weights w0 row-major [nx][m] with nx biases b0 (nx 16 or 32), the shifts of
// its activation pair (sq0 < 64, s0 < 32), fc_1's weights w1 row-major [ny][2·nx] (inputs
// 0 to nx−1 the squared values, nx to 2·nx−1 the clipped ones) with ny biases b1 (1 ≤ ny ≤
// 64), the shifts of its pair (sq1 < 64, s1 < 32), and fc_2's 2·nx + 2·ny weights w2 (fc_0's
// pair, then fc_1's squared and clipped values) and bias b2. The weights are copied. It
// returns an error for any other shape.
//
// The copies share one block that starts on a 4 KiB page, in the order Forward reads them.
func NewPairwiseDenseStack(m int, clip int16, shift uint8, w0 []int8, b0 []int32, sq0, s0 uint, w1 []int8, b1 []int32, sq1, s1 uint, w2 []int8, b2 int32) (*PairwiseDenseStack, error) {
	nx, ny := len(b0), len(b1)
	switch {
	case m <= 0 || m%64 != 0 || m > 1<<15:
		return nil, fmt.Errorf("simd: PairwiseDenseStack width %d, want a positive multiple of 64 up to 32768", m)
	case clip <= 0 || shift > 30 || (int32(clip)*int32(clip))>>shift > 127:
		return nil, fmt.Errorf("simd: PairwiseDenseStack pairwise clip %d shift %d, want products >> shift ≤ 127", clip, shift)
	case (nx != 16 && nx != 32) || len(w0) != nx*m:
		return nil, fmt.Errorf("simd: PairwiseDenseStack fc_0 has %d weights and %d biases, want 16 or 32 outputs of %d inputs", len(w0), nx, m)
	case ny < 1 || ny > 64 || len(w1) != ny*2*nx || len(w2) != 2*nx+2*ny:
		return nil, fmt.Errorf("simd: PairwiseDenseStack fc_1 has %d weights and %d biases, fc_2 %d weights, want 1 to 64 outputs of %d inputs and %d", len(w1), ny, len(w2), 2*nx, 2*nx+2*ny)
	case sq0 > 63 || sq1 > 63 || s0 > 31 || s1 > 31:
		return nil, fmt.Errorf("simd: PairwiseDenseStack shifts %d, %d, %d, %d out of range", sq0, s0, sq1, s1)
	}
	nyPad := 32
	if ny > 32 {
		nyPad = 64
	}
	s := &PairwiseDenseStack{m: m, nx: nx, nyPad: nyPad, clip: clip, shift: shift, b2: b2, sq0: sq0, s0: s0, sq1: sq1, s1: s1}
	s.kind, s.pre, s.post = pairwiseClipKind(clip, shift)
	// fc_1 and fc_2 in dualActTail's byte order, padded with zeros.
	r1 := make([]int8, nyPad*2*nx)
	for j := 0; j < ny; j++ {
		for p := 0; p < 2*nx; p++ {
			r1[j*2*nx+p] = w1[j*2*nx+pairSource(p, nx)]
		}
	}
	r2 := make([]int8, 2*nx+2*nyPad)
	for p := 0; p < 2*nx; p++ {
		r2[p] = w2[pairSource(p, nx)]
	}
	for p := 0; p < 2*nyPad; p++ {
		if i := pairSource(p, nyPad); i%nyPad < ny {
			r2[2*nx+p] = w2[2*nx+i%nyPad+ny*(i/nyPad)]
		}
	}
	blk := block.New(block.Len(nx*m) + block.Len(4*nx) + block.Len(len(r1)) + block.Len(4*nyPad) + block.Len(len(r2)))
	s.wt0, s.b0, s.wt1, s.b1, s.w2 = blk.Int8s(nx*m), blk.Int32s(nx), blk.Int8s(len(r1)), blk.Int32s(nyPad), blk.Int8s(len(r2))
	sparseWeightsInto(s.wt0, w0, m, nx)
	copy(s.b0, b0)
	sparseWeightsInto(s.wt1, r1, 2*nx, nyPad)
	copy(s.b1, b1)
	copy(s.w2, r2)
	s.group = SparseGroup(s.wt0, m, nx)
	s.pwt0, s.pwt1, s.pw2 = &s.wt0[0], &s.wt1[0], &s.w2[0]
	s.pb0, s.pb1 = &s.b0[0], &s.b1[0]
	return s, nil
}

// pairSource returns the declared index of byte p of an activation pair of n values (n a
// multiple of 16) in dualActTail's order: per 16 values, the 16 squared bytes (declared at
// i) then the 16 clipped ones (declared at n + i).
func pairSource(p, n int) int {
	b, q := p/32, p%32
	if q < 16 {
		return 16*b + q
	}
	return n + 16*b + q - 16
}

// Width returns m, the int16 accumulator width per perspective.
func (s *PairwiseDenseStack) Width() int { return s.m }

// forwardGeneric is Forward with the Go twins of the three kernels.
func (s *PairwiseDenseStack) forwardGeneric(a, b []int16, dst []uint8, idx []uint16) (out, skip0, skip1 int32) {
	m, h := s.m, s.m/2
	var o [32]int32
	k := pairwiseClipNNZGeneric(dst[:h], a[:h], a[h:m], s.clip, s.shift, idx, 0)
	k += pairwiseClipNNZGeneric(dst[h:m], b[:h], b[h:m], s.clip, s.shift, idx[k:], h/4)
	affineSparseListGeneric(o[:s.nx], dst[:m], s.wt0, s.b0, idx[:k])
	return s.b2 + dualActTailGeneric(o[:s.nx], s.wt1, s.b1, s.w2, s.sq0, s.s0, s.sq1, s.s1), o[s.nx-2], o[s.nx-1]
}

// pairwiseClipNNZGeneric is the Go twin of the pairwiseClipNNZ assembly: dst =
// PairwiseClip(clip, shift) of (a, b) and the non-zero chunks listed as in
// pairwiseMulNNZGeneric.
func pairwiseClipNNZGeneric(dst []uint8, a, b []int16, clip int16, shift uint8, idx []uint16, first int) int {
	pairwiseClipGeneric(dst, a, b, clip, shift)
	return listNNZ(dst, idx, first)
}

// dualActTailGeneric is the Go twin of the dualActTail assembly for x (nx = len(x) values)
// and len(bias) fc_1 outputs: wt chunk-major over the 2·nx bytes of x's activation pair in
// the kernel's order, w2 over that pair and fc_1's (2·len(bias) bytes), without fc_2's bias.
func dualActTailGeneric(x []int32, wt []int8, bias []int32, w2 []int8, sq0, s0, sq1, s1 uint) int32 {
	nx, ny := len(x), len(bias)
	var u [2*32 + 2*64]uint8
	pairActGeneric(u[:2*nx], x, sq0, s0)
	var y [64]int32
	copy(y[:ny], bias)
	for c := 0; c < 2*nx/4; c++ {
		in := u[4*c : 4*c+4 : 4*c+4]
		for j := 0; j < ny; j++ {
			w := wt[(c*ny+j)*4 : (c*ny+j)*4+4 : (c*ny+j)*4+4]
			y[j] += int32(in[0])*int32(w[0]) + int32(in[1])*int32(w[1]) + int32(in[2])*int32(w[2]) + int32(in[3])*int32(w[3])
		}
	}
	pairActGeneric(u[2*nx:2*nx+2*ny], y[:ny], sq1, s1)
	var out int32
	for i, v := range u[:2*nx+2*ny] {
		out += int32(v) * int32(w2[i])
	}
	return out
}

// pairActGeneric writes the activation pair of src (a multiple of 16 values) to dst in
// dualActTail's order: per 16 values, min(127, v² >> sq) then clamp(v >> s, 0, 127).
func pairActGeneric(dst []uint8, src []int32, sq, s uint) {
	for b := 0; 16*b < len(src); b++ {
		sqrClippedReLU32Generic(dst[32*b:32*b+16], src[16*b:16*b+16], sq)
		clippedReLU32Generic(dst[32*b+16:32*b+32], src[16*b:16*b+16], s)
	}
}
