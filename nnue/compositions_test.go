package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// randomSFNNv5 builds a small network with the Stockfish 15.1 SFNNv5 shape: FT width m with
// 8 PSQT buckets; 8 stacks of fc0 m→16, Forward(·9600/8128), Concat(SqrClippedReLU>>19,
// ClippedReLU>>6) → 30, fc1 30→32, ClippedReLU>>6, fc2 32→1; value (psqt/2 + positional)/16.
func randomSFNNv5(t testing.TB, rng *rand.Rand, spec string, m int) *Network {
	t.Helper()
	set := featureset.MustParse(spec)
	nf := set.Size()
	w := make([]int16, nf*m)
	for i := range w {
		w[i] = int16(rng.IntN(161) - 80)
	}
	b := make([]int16, m)
	for i := range b {
		b[i] = int16(rng.IntN(161) - 40)
	}
	ps := make([]int32, nf*8)
	for i := range ps {
		ps[i] = int32(rng.IntN(20001) - 10000)
	}
	ft, err := NewFeatureTransformer(set, m, w, b, 8, ps)
	if err != nil {
		t.Fatal(err)
	}
	arch := Architecture{Buckets: Buckets{N: 8, Sub: 1, Div: 4}, PSQTDiv: 2, Output: OutputScale{Div: 16}, PawnValue: 361}
	for k := 0; k < 8; k++ {
		arch.Stacks = append(arch.Stacks, []Layer{
			Perspective{},
			Pairwise{Max: 127, Shift: 7},
			randomAffine(rng, m, 16, 20000),
			&Residual{Mul: 9600, Div: 8128, Body: []Layer{
				&Concat{Parts: []Layer{SqrClippedReLU{Shift: 19}, ClippedReLU{Input: KindInt32, Shift: 6}}},
				randomAffine(rng, 30, 32, 5000),
				ClippedReLU{Input: KindInt32, Shift: 6},
				randomAffine(rng, 32, 1, 5000),
			}},
		})
	}
	n, err := NewNetwork(ft, arch, "random SFNNv5-shaped")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// refSFNNv5 is a direct transcription of the SFNNv5 evaluation (Stockfish 15.1
// evaluate_nnue.cpp, nnue_architecture.h) with plain loops, independent of the layer code.
func refSFNNv5(n *Network, pos *board.Position) int32 {
	ft := n.FeatureTransformer()
	m := ft.Width()
	var acc [2][]int32
	var psqt [2][8]int32
	for p := 0; p < 2; p++ {
		acc[p] = make([]int32, m)
		for j := range acc[p] {
			acc[p][j] = int32(ft.Bias()[j])
		}
		for _, f := range ft.Set().Active(pos, board.Color(p), nil) {
			for j, x := range ft.Weights(f) {
				acc[p][j] = int32(int16(acc[p][j] + int32(x)))
			}
			for k, x := range ft.PSQT(f) {
				psqt[p][k] += x
			}
		}
	}
	bucket := (pos.PieceCount() - 1) / 4
	stm := int(pos.SideToMove())
	in := make([]int32, m)
	for i, p := range []int{stm, 1 - stm} {
		for j := 0; j < m/2; j++ {
			a := min(max(acc[p][j], 0), 127)
			b := min(max(acc[p][j+m/2], 0), 127)
			in[i*m/2+j] = a * b / 128
		}
	}
	st := n.Architecture().Stacks[bucket]
	body := st[3].(*Residual).Body
	fc0, fc1, fc2 := st[2].(*Affine), body[1].(*Affine), body[3].(*Affine)
	o0 := affineRef(fc0, in)
	fwd := int32(int64(o0[15]) * 9600 / 8128)
	x1 := make([]int32, 30)
	for i := 0; i < 15; i++ {
		x1[i] = int32(min(int64(o0[i])*int64(o0[i])>>19, 127))
		x1[15+i] = min(max(o0[i]>>6, 0), 127)
	}
	o1 := affineRef(fc1, x1)
	for i := range o1 {
		o1[i] = min(max(o1[i]>>6, 0), 127)
	}
	positional := affineRef(fc2, o1)[0] + fwd
	ps := (psqt[stm][bucket] - psqt[1-stm][bucket]) / 2
	return (ps + positional) / 16
}

// randomCPW builds a CPW-style 768→m→1 SCReLU network with 8 output buckets.
func randomCPW(t testing.TB, rng *rand.Rand, m int) *Network {
	t.Helper()
	set := featureset.MustParse("all")
	w := make([]int16, set.Size()*m)
	for i := range w {
		w[i] = int16(rng.IntN(201) - 100)
	}
	b := make([]int16, m)
	for i := range b {
		b[i] = int16(rng.IntN(301) - 50)
	}
	ft, err := NewFeatureTransformer(set, m, w, b, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var outs []Layer
	for k := 0; k < 8; k++ {
		o := &SCReLU{QA: CPWQA, Div: CPWQA, Out: 1, Weights: make([]int16, 2*m), Bias: []int32{int32(rng.IntN(40001) - 20000)}}
		for i := range o.Weights {
			o.Weights[i] = int16(rng.IntN(257) - 128) // |w| ≤ 128: Lizard SCReLU is exact
		}
		outs = append(outs, o)
	}
	arch, err := CPWArchitecture(Buckets{N: 8, Sub: 2, Div: 4}, outs, CPWQA, CPWQB, CPWScale)
	if err != nil {
		t.Fatal(err)
	}
	n, err := NewNetwork(ft, arch, "random CPW-shaped")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// refCPW transcribes the CPW page's forward pass with SCReLU and output buckets.
func refCPW(n *Network, pos *board.Position) int32 {
	ft := n.FeatureTransformer()
	m := ft.Width()
	var acc [2][]int32
	for p := 0; p < 2; p++ {
		acc[p] = make([]int32, m)
		for j := range acc[p] {
			acc[p][j] = int32(ft.Bias()[j])
		}
		for _, f := range ft.Set().Active(pos, board.Color(p), nil) {
			for j, x := range ft.Weights(f) {
				acc[p][j] = int32(int16(acc[p][j] + int32(x)))
			}
		}
	}
	bucket := min((pos.PieceCount()-2)/((32+8-1)/8), 7)
	o := n.Architecture().Stacks[bucket][1].(*SCReLU)
	stm := int(pos.SideToMove())
	var eval int64
	for i := 0; i < m; i++ {
		us := int64(min(max(acc[stm][i], 0), 255))
		them := int64(min(max(acc[1-stm][i], 0), 255))
		eval += us * us * int64(o.Weights[i])
		eval += them * them * int64(o.Weights[m+i])
	}
	eval /= 255
	eval += int64(o.Bias[0])
	eval *= 400
	eval /= 255 * 64
	return int32(eval)
}

// testPositions returns positions for composition tests: random games from the start
// position (and every 50th line of positions.epd when ../shared is present).
func testPositions(t testing.TB) []board.Position {
	rng := rand.New(rand.NewPCG(5, 5))
	var ps []board.Position
	games := 20
	if raceEnabled {
		games = 4
	}
	for g := 0; g < games; g++ {
		p := board.StartPosition()
		for k := 0; k < 120; k++ {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Play(ms[rng.IntN(len(ms))])
			if k%7 == 0 {
				ps = append(ps, p)
			}
		}
	}
	if gd := tryGolden(t); gd != nil {
		for i := 0; i < len(gd.pos); i += 50 {
			ps = append(ps, gd.pos[i])
		}
	}
	return ps
}

func TestSFNNv5Composition(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := randomSFNNv5(t, rng, "hv", 128)
	e := n.NewEvaluator()
	buckets := map[int]bool{}
	distinct := map[int32]bool{}
	nonzero := 0
	for _, pos := range testPositions(t) {
		got, want := e.Evaluate(&pos), refSFNNv5(n, &pos)
		if got != want {
			t.Fatalf("%s: got %d, reference %d", pos.FEN(), got, want)
		}
		if got != 0 {
			nonzero++
		}
		buckets[n.Architecture().Buckets.Of(&pos)] = true
		distinct[got] = true
	}
	if len(buckets) < 6 || nonzero == 0 || len(distinct) < 20 {
		t.Fatalf("weak test: buckets %v, %d nonzero, %d distinct", buckets, nonzero, len(distinct))
	}
}

func TestCPWComposition(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	n := randomCPW(t, rng, 64)
	e := n.NewEvaluator()
	nonzero := 0
	distinct := map[int32]bool{}
	for _, pos := range testPositions(t) {
		got, want := e.Evaluate(&pos), refCPW(n, &pos)
		distinct[got] = true
		if got != want {
			t.Fatalf("%s: got %d, reference %d", pos.FEN(), got, want)
		}
		if got != 0 {
			nonzero++
		}
	}
	if nonzero == 0 || len(distinct) < 20 {
		t.Fatalf("weak test: %d nonzero, %d distinct", nonzero, len(distinct))
	}
}
