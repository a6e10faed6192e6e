package nnue

import "fmt"

// CPW quantization constants of the Chessprogramming wiki "NNUE" page (768→N→1 networks).
const (
	CPWQA    = 255 // feature transformer scale and SCReLU clipping bound
	CPWQB    = 64  // output weight scale
	CPWScale = 400 // evaluation scale: float output 1.0 = 400 centipawns
)

// CPWArchitecture returns the CPW composition of a 768→N→1 network with output buckets
// (CPW "Basic NNUE architecture", "SCReLU", "Output Buckets", "Lizard SCReLU"; bullet's
// single-layer examples): per bucket b, [Perspective, outputs[b]] with outputs[b] either an
// *SCReLU with QA = qa, Div = qa and one output — the value is (Σ v²w / qa + bias)·scale /
// (qa·qb) — or a *BulletCReLU with QA = qa — the value is (Σ clamp(v, 0, qa)·w + bias)·scale /
// (qa·qb) — each bias at scale qa·qb, in centipawns for the side to move (C-style truncating
// divisions). len(outputs) must equal buckets.Count(); every output must be one of the two
// kinds with qa, else an error names the layer.
func CPWArchitecture(buckets Buckets, outputs []Layer, qa, qb, scale int32) (Architecture, error) {
	if len(outputs) != buckets.Count() {
		return Architecture{}, fmt.Errorf("nnue: CPWArchitecture: %d output layers for %d buckets", len(outputs), buckets.Count())
	}
	a := Architecture{
		Buckets:      buckets,
		Output:       OutputScale{Mul: scale, Div: qa * qb},
		PawnValue:    100,
		Quantization: fmt.Sprintf("CPW: QA=%d (feature transformer), QB=%d (output weights), output bias ×QA·QB, SCALE=%d", qa, qb, scale),
	}
	for k, o := range outputs {
		switch l := o.(type) {
		case *SCReLU:
			if l == nil || l.QA != int16(qa) || l.Div != qa || l.Out != 1 {
				return Architecture{}, fmt.Errorf("nnue: CPWArchitecture: output %d must be SCReLU(QA=%d, Div=%d, →1)", k, qa, qa)
			}
		case *BulletCReLU:
			if l == nil || l.QA != int16(qa) {
				return Architecture{}, fmt.Errorf("nnue: CPWArchitecture: output %d must be BulletCReLU(QA=%d)", k, qa)
			}
		default:
			return Architecture{}, fmt.Errorf("nnue: CPWArchitecture: output %d is %v, want SCReLU or BulletCReLU", k, o)
		}
		a.Stacks = append(a.Stacks, []Layer{Perspective{}, o})
	}
	return a, nil
}
