package nnue

import "github.com/nnuekit/nnuekit/simd"

// PairwiseMul is the Stockfish 15.1 feature transformer output (feature_transformer.h,
// SFNNv5): for each perspective part p of width M (side to move first),
// out[p·M/2 + j] = clamp(p[j], 0, 127) · clamp(p[j + M/2], 0, 127) >> 7 for j < M/2.
// Input: KindInt16 (after Perspective), output: KindUint8 of M values (half the input).
// M/2 must be a multiple of 32.
type PairwiseMul struct{}

// InputKind reports the element type read (Layer).
func (PairwiseMul) InputKind() Kind { return KindInt16 }

// OutputKind reports the element type written (Layer).
func (PairwiseMul) OutputKind() Kind { return KindUint8 }

// String describes the layer and its parameters.
func (PairwiseMul) String() string { return "PairwiseMul(>>7)" }

// OutputSize returns n/2.
func (l PairwiseMul) OutputSize(n int) (int, error) {
	if err := checkParts(l.String(), n, 64); err != nil {
		return 0, err
	}
	return n / 2, nil
}

func (PairwiseMul) propagate(in, out *tensor, _ *evalState) {
	m := len(in.acc[0])
	h := m / 2
	simd.PairwiseMul(out.u8[:h], in.acc[0][:h], in.acc[0][h:])
	simd.PairwiseMul(out.u8[h:m], in.acc[1][:h], in.acc[1][h:])
}
