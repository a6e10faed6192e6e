package nnue

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// A stack with nested layers two deep — DiffResidual(Concat, Append(Affine, ClippedReLU,
// Append(Affine, ClippedReLU)), Affine) — evaluates to what straightforward code
// computes, so every nested layer finds its body's buffers where flatBufs put them.
func TestNestedLayersMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	const m = 32
	ft := randomFT16(t, rng, "all", m, 0, 60)
	fc0, fc1, fc2, fc3 := randomAffine(rng, 2*m, 6, 2000), randomAffine(rng, 12, 5, 2000), randomAffine(rng, 5, 3, 2000), randomAffine(rng, 20, 1, 2000)
	stack := []Layer{
		Perspective{}, ClippedReLU{Input: KindInt16}, fc0,
		&DiffResidual{Mul: 3, Div: 7, Body: []Layer{
			&Concat{Parts: []Layer{SqrClippedReLU{Shift: 12}, ClippedReLU{Input: KindInt32, Shift: 5}}},
			&Append{Body: []Layer{fc1, ClippedReLU{Input: KindInt32, Shift: 6},
				&Append{Body: []Layer{fc2, ClippedReLU{Input: KindInt32, Shift: 6}}}}},
			fc3,
		}},
	}
	n, err := NewNetwork(ft, Architecture{Stacks: [][]Layer{stack}}, "nested")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := n.Spec()
	if err != nil {
		t.Fatal(err)
	}
	const want = "stack=stm>crelu.i16>affine.i8(6)>skipdiff(concat(sqrcrelu(12),crelu.i32(5)),append(affine.i8(5),crelu.i32(6),append(affine.i8(3),crelu.i32(6))),affine.i8(1),3,7)"
	if !strings.Contains(spec.String(), want) {
		t.Fatalf("spec %s, want it to contain %s", spec, want)
	}
	crelu := func(x []int32, s uint) []int32 {
		o := make([]int32, len(x))
		for i, v := range x {
			o[i] = min(max(v>>s, 0), 127)
		}
		return o
	}
	e := n.NewEvaluator()
	pos := board.StartPosition()
	for ply := 0; ply < 40; ply++ {
		got := e.Evaluate(&pos)
		acc := e.Accumulator()
		stm := int(pos.SideToMove() & 1)
		in := make([]int32, 0, 2*m)
		for _, p := range []int{stm, 1 - stm} {
			for _, v := range acc.v[p] {
				in = append(in, int32(min(max(v, 0), 127)))
			}
		}
		x := affineRef(fc0, in)
		c0 := make([]int32, 0, 12)
		for _, v := range x {
			c0 = append(c0, int32(min(int64(v)*int64(v)>>12, 127)))
		}
		c0 = append(c0, crelu(x, 5)...)
		y := crelu(affineRef(fc1, c0), 6)
		z := crelu(affineRef(fc2, y), 6)
		both := append(append(append([]int32{}, c0...), y...), z...)
		out := affineRef(fc3, both)[0]
		want := int32((int64(out) + int64(x[4]) - int64(x[5])) * 3 / 7)
		if got != want {
			t.Fatalf("ply %d (%s): got %d, want %d", ply, pos.FEN(), got, want)
		}
		moves := pos.LegalMoves()
		if len(moves) == 0 {
			break
		}
		pos, _ = pos.Play(moves[rng.IntN(len(moves))])
	}
}

// NewNetwork refuses nested layers with bad bodies with an error naming the problem.
func TestNestedLayerErrors(t *testing.T) {
	set := featureset.MustParse("all")
	ft, err := NewFeatureTransformer(set, 32, make([]int16, set.Size()*32), make([]int16, 32), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	head := []Layer{Perspective{}, ClippedReLU{Input: KindInt16}, NewAffine(64, 4)}
	for _, c := range []struct {
		tail []Layer
		want string
	}{
		{[]Layer{&DiffResidual{Mul: 1, Div: 1}}, "body of 0 layers"},
		{[]Layer{&DiffResidual{Mul: 1, Div: 0, Body: []Layer{ClippedReLU{Input: KindInt32}, NewAffine(4, 1)}}}, "zero divisor"},
		{[]Layer{&DiffResidual{Mul: 1, Div: 1, Body: []Layer{nil}}}, "body layer 0 is nil"},
		{[]Layer{&DiffResidual{Mul: 1, Div: 1, Body: []Layer{&Residual{Mul: 1, Div: 1, Body: []Layer{ClippedReLU{Input: KindInt32}, NewAffine(3, 1)}}}}}, "not allowed in a body"},
		{[]Layer{&Residual{Mul: 1, Div: 1, Body: []Layer{ClippedReLU{Input: KindInt32}}}}, "must end with one int32"},
		{[]Layer{ClippedReLU{Input: KindInt32}, &Append{Body: []Layer{NewAffine(4, 2)}}, NewAffine(6, 1)}, "must end with uint8"},
		{[]Layer{ClippedReLU{Input: KindInt32}, &Append{Body: []Layer{Perspective{}}}, NewAffine(6, 1)}, "not allowed in a body"},
		{[]Layer{ClippedReLU{Input: KindInt32}, &Append{Body: make([]Layer, 9)}, NewAffine(6, 1)}, "body of 9 layers"},
	} {
		st := append(append([]Layer{}, head...), c.tail...)
		_, err := NewNetwork(ft, Architecture{Stacks: [][]Layer{st}}, "bad")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error containing %q", c.tail, err, c.want)
		}
	}
}
