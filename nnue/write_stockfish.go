package nnue

import (
	"fmt"
	"io"
	"slices"
)

// stockfishHalfKPDecl is the architecture of a Stockfish 12/13 HalfKP network of accumulator
// width half and hidden widths fc0, fc1 (Stockfish 13 nnue/architectures/halfkp_256x2-32-32.h):
// ClippedReLU of the int16 accumulators, two affine layers each followed by ClippedReLU >> 6,
// one output, Value = output / 16 truncated; pawn value 208.
func stockfishHalfKPDecl(half, fc0, fc1 int) string {
	wsb := sfWeightScaleBits
	return fmt.Sprintf("ft=halfkp:i16 width=%d stack=stm>crelu.i16>affine.i8(%d)>crelu.i32(%d)>affine.i8(%d)>crelu.i32(%d)>affine.i8(1) out=/%d pawn=%d",
		half, fc0, wsb, fc1, wsb, sfOutputScale, sfPawnValueSF13)
}

// WriteStockfish writes n as a Stockfish .nnue file to w, with description (at most 1 MiB)
// in its header; Load reads it back as a network that evaluates every position as n does.
// n's architecture must be one that Stockfish's format stores and nnuekit writes
// (CheckStockfish: Stockfish 12/13's HalfKP 256×2-32-32-1). The feature transformer rows,
// biases and the three affine layers are written in Stockfish's order (Stockfish 13
// nnue/evaluate_nnue.cpp write_parameters; the layers' layouts are nnuekit's: HalfKP
// feature index, int8 rows padded to 32). Errors: n has no Spec, it is not that
// architecture, the description is too long, or w's error.
func WriteStockfish(w io.Writer, n *Network, description string) error {
	f, err := newSFFile(n, description)
	if err != nil {
		return err
	}
	_, err = f.WriteTo(w)
	return err
}

// CheckStockfish reports whether WriteStockfish stores networks of spec, ignoring the pawn
// value (the format does not store it): nil for Stockfish 12/13's
// ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16,
// else an error naming what differs (a trainer checks its configuration before training).
func CheckStockfish(spec Spec) error {
	_, err := sfArchOf(spec)
	return err
}

// sfArchOf reports the Stockfish .nnue layout spec declares, ignoring the pawn value
// (a Stockfish file does not store it): sfHalfKP for Stockfish 12/13's
// ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16.
// The other Stockfish layouts are not written. Error: spec is not that architecture (the
// message names the one that is).
func sfArchOf(spec Spec) (sfArch, error) {
	sh := sfShapeHalfKP
	want, err := ParseSpec(stockfishHalfKPDecl(sh.half, sh.layers[0], sh.layers[1]))
	if err != nil {
		return 0, err
	}
	spec.PawnValue, spec.PawnByMaterial = want.PawnValue, want.PawnByMaterial
	if spec.String() != want.String() {
		return 0, fmt.Errorf("nnue: stockfish: %v is not a Stockfish architecture nnuekit writes (Stockfish 13 HalfKP: %v)", spec, want)
	}
	return sfHalfKP, nil
}

// newSFFile returns the Stockfish .nnue file of n (write it with WriteTo): n's Spec
// must be a Stockfish architecture (sfArchOf; Stockfish 13 HalfKP 256×2-32-32-1), and
// its feature transformer rows, biases and the three affine layers are copied in Stockfish's
// order, which is nnuekit's for these layers (HalfKP feature index, int8 rows padded to 32),
// with description as the header's description. Load(file) then evaluates every position as
// n does. Errors: n has no Spec, it is not a Stockfish architecture, or the description is
// longer than 1 MiB.
func newSFFile(n *Network, description string) (*sfFile, error) {
	spec, err := n.Spec()
	if err != nil {
		return nil, fmt.Errorf("nnue: stockfish: %w", err)
	}
	arch, err := sfArchOf(spec)
	if err != nil {
		return nil, err
	}
	if len(description) > maxStockfishDescription {
		return nil, fmt.Errorf("nnue: stockfish: description of %d bytes, at most %d", len(description), maxStockfishDescription)
	}
	s := sfShapeHalfKP
	ft, net := sfHashes(&s)
	f := &sfFile{Version: s.version, Arch: arch, Hash: ft ^ net, Description: description, FTHash: ft, NetHash: net,
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
	st := sfLayerStack{Hash: net}
	for i, dst := range []*sfAffine{&st.FC0, &st.FC1, &st.FC2} {
		a := layers[i]
		p := pad32(a.In)
		*dst = sfAffine{In: a.In, PaddedIn: p, Out: a.Out, Biases: slices.Clone(a.Bias[:a.Out]), Weights: slices.Clone(a.Weights[:a.Out*p])}
	}
	f.Stacks = []sfLayerStack{st}
	return f, nil
}
