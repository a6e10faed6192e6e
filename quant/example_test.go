package quant_test

import (
	"fmt"

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
