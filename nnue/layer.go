package nnue

import "fmt"

// Kind is the element type of the values flowing between layers.
type Kind uint8

const (
	// KindAccumulator is the input of a layer stack: the two int16 accumulators of the
	// feature transformer, one per perspective (White, Black), each of width M.
	KindAccumulator Kind = iota
	// KindInt16 is a vector of int16 values held as one part per perspective (the output of
	// Perspective): logically the concatenation of the parts, side to move first.
	KindInt16
	// KindUint8 is a vector of uint8 activations in [0, 127] (the output of ClippedReLU,
	// SqrClippedReLU, PairwiseMul, Concat), zero-padded to a multiple of 32 elements so an
	// Affine layer can consume it directly.
	KindUint8
	// KindInt32 is a vector of int32 values (the output of Affine, SCReLU, Residual).
	KindInt32
	// KindFloat32 is a vector of float32 values (the float hidden layers of bullet's
	// multi-layer nets: Dequantise, FloatActivation, FloatAffine).
	KindFloat32
)

// String returns "accumulator", "int16", "uint8", "int32" or "float32".
func (k Kind) String() string {
	switch k {
	case KindAccumulator:
		return "accumulator"
	case KindInt16:
		return "int16"
	case KindUint8:
		return "uint8"
	case KindInt32:
		return "int32"
	case KindFloat32:
		return "float32"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Layer is one step of a layer stack, in the spirit of Stockfish's src/nnue/layers/: it reads
// a vector of one Kind and writes a vector of another. The set of layer types is closed
// (Perspective, Affine, ClippedReLU, SqrClippedReLU, SCReLU, PairwiseMul, PairwiseClip,
// BulletCReLU, Concat, Residual, DenseStack): each is the Layer of one stage operation of a
// declared architecture (Spec, spec_ops.go), so every composition can be stored in the
// native format. A Layer is immutable once it is
// part of a Network: its parameter slices must not be modified afterwards, and it may be used
// by any number of goroutines at once.
type Layer interface {
	// InputKind and OutputKind are the element types read and written.
	InputKind() Kind
	OutputKind() Kind
	// OutputSize is the logical number of output elements (before padding) for an input of
	// inSize logical elements (for KindAccumulator: the width M of one accumulator).
	// It returns an error naming the layer when inSize is not acceptable.
	OutputSize(inSize int) (int, error)
	// String describes the layer and its shape, e.g. "Affine(1024→32)".
	String() string

	// propagate computes out from in. Buffers come from the evaluator's scratch space.
	propagate(in, out *tensor, st *evalState)
}

// tensor is the value between two layers.
type tensor struct {
	n   int        // logical length
	acc [2][]int16 // KindAccumulator: by perspective color; KindInt16: parts, stm-first order
	u8  []uint8    // KindUint8: len pad32(n); the tail beyond n stays zero
	i32 []int32    // KindInt32: len n (or longer)
	f32 []float32  // KindFloat32: len n (or longer)
	// idx: scratch for the non-zero chunk list of a sparse-input Affine reading this
	// tensor (simd.AffineSparseIdx); KindUint8 of at least sparseMinIn bytes only.
	idx []uint16
}

// evalState is what a forward pass's layers share besides their input and output: the
// side to move and scratch space.
type evalState struct {
	stm   int           // side to move as 0 (White) / 1 (Black)
	part  [8]tensor     // Concat's per-part output views (kept here so they do not escape)
	dense *denseScratch // DenseStack's intermediate buffers (Evaluator-owned)
	sub   []tensor      // the buffers after the running layer's own: a Residual's body's
	view  tensor        // Residual's view of its input without the last element
}

// checkStack validates a layer list: the first layer reads KindAccumulator of width m, kinds
// chain, and the last layer writes one int32. It returns the logical output sizes.
func checkStack(layers []Layer, m int) ([]int, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("nnue: empty layer stack")
	}
	sizes := make([]int, len(layers))
	kind, size := KindAccumulator, m
	for i, l := range layers {
		if l == nil {
			return nil, fmt.Errorf("nnue: layer %d is nil", i)
		}
		if l.InputKind() != kind {
			return nil, fmt.Errorf("nnue: layer %d %v reads %v but receives %v", i, l, l.InputKind(), kind)
		}
		n, err := l.OutputSize(size)
		if err != nil {
			return nil, fmt.Errorf("nnue: layer %d: %w", i, err)
		}
		kind, size = l.OutputKind(), n
		sizes[i] = n
	}
	if kind != KindInt32 || size != 1 {
		return nil, fmt.Errorf("nnue: layer stack must end with one int32 output, ends with %d×%v", size, kind)
	}
	return sizes, nil
}
