package nnue

import (
	"fmt"
	"slices"
)

// stockfishHalfKPDecl is the architecture of a Stockfish 12/13 HalfKP network of accumulator
// width half and hidden widths fc0, fc1 (Stockfish 13 nnue/architectures/halfkp_256x2-32-32.h):
// ClippedReLU of the int16 accumulators, two affine layers each followed by ClippedReLU >> 6,
// one output, Value = output / 16 truncated; pawn value 208.
func stockfishHalfKPDecl(half, fc0, fc1 int) string {
	wsb := StockfishWeightScaleBits
	return fmt.Sprintf("ft=halfkp:i16 width=%d stack=stm>crelu.i16>affine.i8(%d)>crelu.i32(%d)>affine.i8(%d)>crelu.i32(%d)>affine.i8(1) out=/%d pawn=%d",
		half, fc0, wsb, fc1, wsb, StockfishOutputScale, StockfishPawnValueSF13)
}

// StockfishArchOf reports the Stockfish .nnue layout spec declares, ignoring the pawn value
// (a Stockfish file does not store it): StockfishHalfKP for Stockfish 12/13's
// ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16.
// The other Stockfish layouts are not written. Error: spec is not that architecture (the
// message names the one that is).
func StockfishArchOf(spec Spec) (StockfishArch, error) {
	sh := sfShapeHalfKP
	want, err := ParseSpec(stockfishHalfKPDecl(sh.half, sh.layers[0], sh.layers[1]))
	if err != nil {
		return 0, err
	}
	spec.PawnValue, spec.PawnByMaterial = want.PawnValue, want.PawnByMaterial
	if spec.String() != want.String() {
		return 0, fmt.Errorf("nnue: stockfish: %v is not a Stockfish architecture nnuekit writes (Stockfish 13 HalfKP: %v)", spec, want)
	}
	return StockfishHalfKP, nil
}

// NewStockfishFile returns the Stockfish .nnue file of n (write it with WriteTo): n's Spec
// must be a Stockfish architecture (StockfishArchOf; Stockfish 13 HalfKP 256×2-32-32-1), and
// its feature transformer rows, biases and the three affine layers are copied in Stockfish's
// order, which is nnuekit's for these layers (HalfKP feature index, int8 rows padded to 32),
// with description as the header's description. Load(file) then evaluates every position as
// n does. Errors: n has no Spec, it is not a Stockfish architecture, or the description is
// longer than 1 MiB.
func NewStockfishFile(n *Network, description string) (*StockfishFile, error) {
	spec, err := n.Spec()
	if err != nil {
		return nil, fmt.Errorf("nnue: stockfish: %w", err)
	}
	arch, err := StockfishArchOf(spec)
	if err != nil {
		return nil, err
	}
	if len(description) > maxStockfishDescription {
		return nil, fmt.Errorf("nnue: stockfish: description of %d bytes, at most %d", len(description), maxStockfishDescription)
	}
	s := sfShapeHalfKP
	ft, net := sfHashes(&s)
	f := &StockfishFile{Version: s.version, Arch: arch, Hash: ft ^ net, Description: description, FTHash: ft, NetHash: net,
		Features: s.inputs, HalfDims: s.half}
	t := n.FeatureTransformer()
	f.FTBiases = slices.Clone(t.Bias())
	f.FTWeights = make([]int16, 0, s.inputs*s.half)
	for i := range s.inputs {
		f.FTWeights = append(f.FTWeights, t.Weights(i)...)
	}
	var layers []*Affine
	for _, l := range n.Architecture().Stacks[0] {
		if a, ok := l.(*Affine); ok {
			layers = append(layers, a)
		}
	}
	st := StockfishLayerStack{Hash: net}
	for i, dst := range []*StockfishAffine{&st.FC0, &st.FC1, &st.FC2} {
		a := layers[i]
		p := pad32(a.In)
		*dst = StockfishAffine{In: a.In, PaddedIn: p, Out: a.Out, Biases: slices.Clone(a.Bias[:a.Out]), Weights: slices.Clone(a.Weights[:a.Out*p])}
	}
	f.Stacks = []StockfishLayerStack{st}
	return f, nil
}
