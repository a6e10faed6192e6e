package quant_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"

	"github.com/nnuekit/nnuekit/quant"
)

// Quantization scales of the thesis scheme and the WDL mapping used to judge the error.
func Example() {
	s := quant.Thesis
	fmt.Println("L2 weights ×", s.L2WeightScale(), "clip ±", s.HiddenClip())
	fmt.Println("L2 bias ×", s.L2BiasScale())
	fmt.Printf("output weights ×%.4f, bias ×%g, shift %d\n", s.OutWeightScale(), s.OutBiasScale(), s.OutputShift())
	fmt.Printf("W(100 cp) = %.4f\n", quant.ThesisWDL.Win(100))
	// Output:
	// L2 weights × 64 clip ± 1.984375
	// L2 bias × 8128
	// output weights ×0.1260, bias ×16, shift 4
	// W(100 cp) = 0.5823
}

// Quantize a small float model of the thesis architecture (H: 96 features → 32 ×2 → 1 → 1),
// evaluate a position with both, and turn it back into floats.
func ExampleQuantizeThesis() {
	m := quant.NewFloatThesis("h", 96, 32, 1)
	for f := range m.W1 {
		for j := range m.W1[f] {
			m.W1[f][j] = float32(f%12-6) / 100 // rows of the H block: file·12 + role·2 + colour
		}
	}
	for j := range m.B1 {
		m.B1[j] = 0.5
	}
	for i := range m.W2[0] {
		m.W2[0][i] = 0.01
		if i >= 32 {
			m.W2[0][i] = -0.01 // the other side's half counts against
		}
	}
	m.W2[0][0] = 2.5 // beyond ±127/64: clipped
	m.B2[0] = -0.6
	m.W3[0] = 300
	m.B3 = -150

	net, rep, err := quant.QuantizeThesis(m, quant.Thesis)
	if err != nil {
		panic(err)
	}
	for _, l := range rep.Layers {
		if l.Clipped > 0 {
			fmt.Printf("%s: %d of %d clipped, max excess %.4f\n", l.Name, l.Clipped, l.Total, l.MaxExcess)
		}
	}
	pos, _ := board.ParseFEN("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
	f, _ := m.EvaluatePosition(net.FeatureSet(), &pos)
	m.Clip(quant.Thesis) // what the trainer should have done after every step
	fc, _ := m.EvaluatePosition(net.FeatureSet(), &pos)
	fmt.Printf("float %.2f cp, clipped float %.2f cp, quantized %d cp\n", f, fc, net.Evaluate(&pos))

	back, _ := quant.DequantizeThesis(net, quant.Thesis)
	fmt.Println("W2[0][0] after the round trip:", back.W2[0][0])
	// Output:
	// l2.weight: 1 of 64 clipped, max excess 0.5156
	// float 64.95 cp, clipped float -17.03 cp, quantized -22 cp
	// W2[0][0] after the round trip: 1.984375
}

// Quantize a CPW-style 768→32→1 SCReLU network with 8 output buckets (QA=255, QB=64, SCALE=400).
func ExampleQuantizeCPW() {
	m := quant.NewFloatCPW("all", 768, 32, 8)
	for f := range m.W1 {
		for j := range m.W1[f] {
			m.W1[f][j] = float32((f+j)%7-3) / 50
		}
	}
	for j := range m.B1 {
		m.B1[j] = 0.4
	}
	for b := range m.WOut {
		for i := range m.WOut[b] {
			m.WOut[b][i] = 0.3 * float32(b+1) / 8
			if i >= 32 {
				m.WOut[b][i] = -m.WOut[b][i]
			}
		}
	}
	net, rep, err := quant.QuantizeCPW(m, quant.CPW)
	if err != nil {
		panic(err)
	}
	pos, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	f, _ := m.EvaluatePosition(net.FeatureSet(), &pos)
	fmt.Printf("clipped %d, bucket %d, float %.2f, quantized %d\n",
		rep.TotalClipped(), quant.OutputBucket(pos.PieceCount(), 8), f, net.Evaluate(&pos))
	// Output:
	// clipped 0, bucket 7, float -73.82, quantized -70
}
