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
	// SqrClippedReLU, Pairwise, Concat, Append), zero-padded to a multiple of 32 elements so an
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
// (Perspective, Affine, ClippedReLU, SqrClippedReLU, SCReLU, Pairwise, BulletCReLU, Concat,
// Append, Residual, DiffResidual and the float layers): each is the Layer of one stage operation of a
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
	// tensor (simd.SparseAffine.Forward); KindUint8 of at least sparseMinIn bytes only.
	idx []uint16
}

// evalState is what a forward pass's layers share besides their input and output: the
// side to move and scratch space.
type evalState struct {
	stm  int       // side to move as 0 (White) / 1 (Black)
	part [8]tensor // Concat's per-part output views (kept here so they do not escape)
	sub  []tensor  // the buffers after the running layer's own: a nested layer's body's
	view tensor    // Residual's view of its input without the last element
}

// nested is a layer that runs a sub-stack, its body (Append, Residual, DiffResidual). The
// evaluator gives every body layer its own output buffer, right after the nested layer's
// own and in the body's order, each nested body layer's buffers after its own
// (Network.flat); the nested layer finds them in evalState.sub and runs the body with
// runBody.
type nested interface {
	Layer
	// bodyLayers returns the body's layers.
	bodyLayers() []Layer
	// bodyIn returns the body's input size for an input of n elements.
	bodyIn(n int) int
	// setOffsets records where each body layer's output buffer is in the nested layer's
	// buffers (evalState.sub): bodyOffsets of the body, set by prepareNested.
	setOffsets(offs []int)
}

// bodyOffsets returns the index of each of layers' output buffers in their nested
// layer's buffers, in flatBufs' order (each nested body layer's own buffers after its
// own), and the number of buffers last: len(layers)+1 entries.
func bodyOffsets(layers []Layer) []int {
	offs := make([]int, len(layers)+1)
	k := 0
	for i, l := range layers {
		offs[i] = k
		k += 1 + flatCount(l)
	}
	offs[len(layers)] = k
	return offs
}

// prepareNested sets the body offsets of l and of the nested layers in its body, once,
// when NewNetwork takes l in (as Affine.prepare does), so that a forward pass does not
// recount them.
func prepareNested(l Layer) {
	if c, ok := l.(nested); ok {
		c.setOffsets(bodyOffsets(c.bodyLayers()))
		for _, b := range c.bodyLayers() {
			prepareNested(b)
		}
	}
}

// flatBufs appends the output buffers of l (input size in, output size out; l has been
// checked) to flat: its own, then those of its body if it is nested.
func flatBufs(flat []flatBuf, l Layer, in, out int) []flatBuf {
	flat = append(flat, flatBuf{l.OutputKind(), out})
	if c, ok := l.(nested); ok {
		n := c.bodyIn(in)
		for _, b := range c.bodyLayers() {
			m, _ := b.OutputSize(n)
			flat = flatBufs(flat, b, n, m)
			n = m
		}
	}
	return flat
}

// flatCount returns the number of buffers of l's body (flatBufs), 0 for a layer that is
// not nested.
func flatCount(l Layer) int {
	c, ok := l.(nested)
	if !ok {
		return 0
	}
	k := 0
	for _, b := range c.bodyLayers() {
		k += 1 + flatCount(b)
	}
	return k
}

// runBody runs layers on in with the output buffers bufs, layer i's at bufs[offs[i]] and
// its body's up to bufs[offs[i+1]] (bodyOffsets), and returns the last layer's output.
func runBody(layers []Layer, offs []int, in *tensor, bufs []tensor, st *evalState) *tensor {
	cur := in
	for i, l := range layers {
		o, next := offs[i], offs[i+1]
		out := &bufs[o]
		if next-o > 1 { // a nested layer: its body's buffers
			st.sub = bufs[o+1 : next]
		}
		l.propagate(cur, out, st)
		cur = out
	}
	return cur
}

// checkBody validates a nested layer's body on an input of kind in and n elements: 1 to
// maxBody layers, none nil, a Perspective or a skip connection (Residual, DiffResidual,
// whose view of the input would be shared), the kinds chaining. It returns the output
// sizes and the last layer's kind.
func checkBody(name string, layers []Layer, in Kind, n int) ([]int, Kind, error) {
	if len(layers) == 0 || len(layers) > maxBody {
		return nil, 0, fmt.Errorf("%s: body of %d layers, want 1…%d", name, len(layers), maxBody)
	}
	sizes := make([]int, len(layers))
	kind, size := in, n
	for i, b := range layers {
		switch b.(type) {
		case nil:
			return nil, 0, fmt.Errorf("%s: body layer %d is nil", name, i)
		case Perspective, *Residual, *DiffResidual:
			return nil, 0, fmt.Errorf("%s: body layer %d %v is not allowed in a body", name, i, b)
		}
		if b.InputKind() != kind {
			return nil, 0, fmt.Errorf("%s: body layer %d %v reads %v but receives %v", name, i, b, b.InputKind(), kind)
		}
		m, err := b.OutputSize(size)
		if err != nil {
			return nil, 0, err
		}
		kind, size = b.OutputKind(), m
		sizes[i] = m
	}
	return sizes, kind, nil
}

// maxBody bounds the layers of a nested layer's body.
const maxBody = 8

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
