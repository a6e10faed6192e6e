package nnue

import "fmt"

// CPW quantization constants of the Chessprogramming wiki "NNUE" page (768→N→1 networks).
const (
	CPWQA    = 255 // feature transformer scale and SCReLU clipping bound
	CPWQB    = 64  // output weight scale
	CPWScale = 400 // evaluation scale: float output 1.0 = 400 centipawns
)

// CPWArchitecture returns the CPW composition of a 768→N→1 network with SCReLU and output
// buckets (CPW "SCReLU", "Output Buckets", "Lizard SCReLU"): per bucket b,
// [Perspective, outputs[b]] with outputs[b] an SCReLU layer with QA = qa, Div = qa and one
// output whose bias is at scale qa·qb; the value is (Σ v²w / qa + bias)·scale / (qa·qb)
// centipawns for the side to move (C-style truncating divisions).
// len(outputs) must equal buckets.Count().
func CPWArchitecture(buckets Buckets, outputs []*SCReLU, qa, qb, scale int32) (Architecture, error) {
	if len(outputs) != buckets.Count() {
		return Architecture{}, fmt.Errorf("nnue: CPWArchitecture: %d output layers for %d buckets", len(outputs), buckets.Count())
	}
	a := Architecture{
		Buckets:      buckets,
		Output:       OutputScale{Mul: scale, Div: qa * qb},
		PawnValue:    100,
		Quantization: fmt.Sprintf("CPW: QA=%d (feature transformer), QB=%d (output weights), output bias ×QA·QB, SCALE=%d", qa, qb, scale),
	}
	for _, o := range outputs {
		if o == nil || o.QA != int16(qa) || o.Div != qa || o.Out != 1 {
			return Architecture{}, fmt.Errorf("nnue: CPWArchitecture: output layer must be SCReLU(QA=%d, Div=%d, →1)", qa, qa)
		}
		a.Stacks = append(a.Stacks, []Layer{Perspective{}, o})
	}
	return a, nil
}
