package nnue

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStockfishFileRoundTrip: a HalfKP file loaded with Load and written back by
// WriteStockfish is the same bytes — a random file (no shared data needed) and, when
// ../shared is present, Stockfish 13's nn-62ef826d1a6d.nnue.
func TestStockfishFileRoundTrip(t *testing.T) {
	s := sfShapeHalfKP
	ft, net := sfHashes(&s)
	r := rand.New(rand.NewPCG(3, 4))
	f := &sfFile{Version: s.version, Arch: sfHalfKP, Hash: ft ^ net, Description: "random HalfKP", FTHash: ft, NetHash: net,
		Features: s.inputs, HalfDims: s.half, FTBiases: make([]int16, s.half), FTWeights: make([]int16, s.inputs*s.half)}
	for i := range f.FTBiases {
		f.FTBiases[i] = int16(r.IntN(200) - 50)
	}
	for i := range f.FTWeights {
		f.FTWeights[i] = int16(r.IntN(61) - 30)
	}
	st := sfLayerStack{Hash: net}
	for i, a := range []*sfAffine{&st.FC0, &st.FC1, &st.FC2} {
		in := s.ins()[i]
		*a = sfAffine{In: in, PaddedIn: pad32(in), Out: s.layers[i], Biases: make([]int32, s.layers[i]), Weights: make([]int8, s.layers[i]*pad32(in))}
		for j := range a.Biases {
			a.Biases[j] = int32(r.IntN(20001) - 10000)
		}
		for j := range a.Out {
			for k := range in {
				a.Weights[j*a.PaddedIn+k] = int8(r.IntN(255) - 127)
			}
		}
	}
	f.Stacks = []sfLayerStack{st}
	var want bytes.Buffer
	if _, err := f.WriteTo(&want); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"random": want.Bytes()}
	if data, err := os.ReadFile(filepath.Join("..", "..", "shared", "nets", sfNetHalfKP)); err == nil {
		files[sfNetHalfKP] = data
	} else {
		t.Logf("%s not checked: ../shared absent (%v)", sfNetHalfKP, err)
	}
	for name, data := range files {
		n, err := Load(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sf, err := parseSF(data)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteStockfish(&got, n, sf.Description); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), data) {
			t.Errorf("%s: %d bytes written differ from the %d read", name, got.Len(), len(data))
		}
	}
}

// TestStockfishArchOf: only Stockfish 13's HalfKP declaration is a Stockfish architecture
// (any pawn value); other widths, shifts, output scales and feature sets are refused by name.
func TestStockfishArchOf(t *testing.T) {
	for _, tc := range []struct {
		decl string
		ok   bool
	}{
		{"ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16 pawn=208", true},
		{"ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16 pawn=100", true},
		{"ft=halfkp:i16 width=128 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16", false},
		{"ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=>>4", false},
		{"ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(16)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16", false},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16", false},
	} {
		spec, err := ParseSpec(tc.decl)
		if err != nil {
			t.Fatalf("%s: %v", tc.decl, err)
		}
		a, err := sfArchOf(spec)
		if tc.ok != (err == nil) || (tc.ok && a != sfHalfKP) || (!tc.ok && !strings.Contains(err.Error(), "Stockfish 13 HalfKP")) {
			t.Errorf("%s: %v, %v", tc.decl, a, err)
		}
		if err2 := CheckStockfish(spec); (err2 == nil) != (err == nil) {
			t.Errorf("%s: CheckStockfish %v, sfArchOf %v", tc.decl, err2, err)
		}
	}
	// WriteStockfish refuses a network of another architecture with that error, and
	// writes nothing.
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteStockfish(&buf, def, "x"); err == nil || !strings.Contains(err.Error(), "Stockfish 13 HalfKP") || buf.Len() != 0 {
		t.Errorf("WriteStockfish(default net): %v, %d bytes", err, buf.Len())
	}
}
