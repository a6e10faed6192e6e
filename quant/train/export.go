package train

import (
	"fmt"
	"os"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
	"github.com/nnuekit/nnuekit/simd"
)

// FloatThesis returns the trained thesis model as a quant.FloatThesis (a copy), with the output
// scale S folded into W3 and B3 so that its Forward gives the trainer's output in centipawns.
// It returns an error if the trainer's architecture is not ArchThesis.
func (t *Trainer) FloatThesis() (*quant.FloatThesis, error) {
	m, ok := t.net.(*thesisNet)
	if !ok {
		return nil, fmt.Errorf("train: FloatThesis of a %v model", t.cfg.Arch)
	}
	f := quant.NewFloatThesis(t.featureSet, m.f, m.l1, m.l2)
	t.mergeRows(f.W1, m.w1.data, m.l1)
	copy(f.B1, m.b1.data)
	for k := range f.W2 {
		copy(f.W2[k], m.w2.data[k*2*m.l1:(k+1)*2*m.l1])
	}
	copy(f.B2, m.b2.data)
	for k, w := range m.w3.data {
		f.W3[k] = w * m.s
	}
	f.B3 = m.b3.data[0] * m.s
	return f, nil
}

// FloatCPW returns the trained CPW model as a quant.FloatCPW (a copy). It returns an error if
// the trainer's architecture is not ArchCPW.
func (t *Trainer) FloatCPW() (*quant.FloatCPW, error) {
	m, ok := t.net.(*cpwNet)
	if !ok {
		return nil, fmt.Errorf("train: FloatCPW of a %v model", t.cfg.Arch)
	}
	f := quant.NewFloatCPW(t.featureSet, m.f, m.n, m.buckets)
	t.mergeRows(f.W1, m.w1.data, m.n)
	copy(f.B1, m.b1.data)
	for k := range f.WOut {
		copy(f.WOut[k], m.w.data[k*2*m.n:(k+1)*2*m.n])
	}
	copy(f.BOut, m.b.data)
	f.Scale = m.scale
	return f, nil
}

// mergeRows copies the feature transformer's rows into dst (one per feature of the set), each
// with its factoriser row added (Config.Factoriser: row f + virtual row f mod |B|).
func (t *Trainer) mergeRows(dst [][]float32, w []float32, n int) {
	for i := range dst {
		copy(dst[i], w[i*n:(i+1)*n])
		if t.virtual > 0 {
			v := t.features + i%t.virtual
			simd.AddF32(dst[i], w[v*n:(v+1)*n])
		}
	}
}

// Exported is the result of Export.
type Exported struct {
	// Network is the quantized network (thesis scheme for ArchThesis, CPW scheme for ArchCPW).
	Network *nnue.Network
	// Clip lists the values the quantization saturated (none when training clipped correctly).
	Clip *quant.ClipReport
	// Error compares the float model with the quantized network in WDL space (thesis §4.5.1) over
	// the positions given to Export; nil when none were given.
	Error *quant.ErrorReport
}

// Export quantizes the trained model (ArchThesis: quant.QuantizeThesis with Config.Thesis;
// ArchCPW: quant.QuantizeCPW with Config.CPW) and, when positions is not empty, measures the
// quantization error in WDL space (Config.WDL; histogram of 0.005-wide bins) by evaluating
// every position with the float model and with the network. Errors come from quantization.
func (t *Trainer) Export(positions []board.Position) (*Exported, error) {
	var (
		ex    Exported
		err   error
		float func(set *featureset.Set, p *board.Position) (float64, error)
	)
	switch t.cfg.Arch {
	case ArchThesis:
		m, _ := t.FloatThesis()
		ex.Network, ex.Clip, err = quant.QuantizeThesis(m, t.cfg.Thesis)
		float = m.EvaluatePosition
	default:
		m, _ := t.FloatCPW()
		ex.Network, ex.Clip, err = quant.QuantizeCPW(m, t.cfg.CPW)
		float = m.EvaluatePosition
	}
	if err != nil {
		return nil, fmt.Errorf("train: export: %w", err)
	}
	if len(positions) == 0 {
		return &ex, nil
	}
	set := ex.Network.FeatureSet()
	fe := make([]float64, len(positions))
	qe := make([]float64, len(positions))
	ev := ex.Network.NewEvaluator()
	for i := range positions {
		if fe[i], err = float(set, &positions[i]); err != nil {
			return nil, fmt.Errorf("train: export: %w", err)
		}
		qe[i] = float64(ev.Evaluate(&positions[i]))
	}
	ex.Error, err = quant.NewErrorReport(fe, qe, t.cfg.WDL, 0.005, 20)
	if err != nil {
		return nil, fmt.Errorf("train: export: %w", err)
	}
	return &ex, nil
}

// WriteFiles writes the network in nnuekit's native format to native (if not "") and, for a
// thesis-architecture network, in the thesis .nn format to thesis (if not "").
func (ex *Exported) WriteFiles(native, thesis string) error {
	write := func(path string, fn func(*os.File) error) error {
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		if err := fn(f); err != nil {
			f.Close()
			return fmt.Errorf("train: writing %s: %w", path, err)
		}
		return f.Close()
	}
	if native != "" {
		if err := write(native, func(f *os.File) error { return nnue.WriteNative(f, ex.Network) }); err != nil {
			return err
		}
	}
	if thesis != "" {
		if err := write(thesis, func(f *os.File) error { return nnue.WriteThesis(f, ex.Network) }); err != nil {
			return err
		}
	}
	return nil
}

// SetPawnValue rebuilds ex.Network with Architecture.PawnValue = pv (output units per pawn, used
// by nnue.Network.Centipawns; 361 for data scored in Stockfish 15.1 internal units) and the given
// description. Only the native format stores either; the thesis .nn format has no field for them.
// It returns an error if pv is not positive or nnue rejects the network.
func (ex *Exported) SetPawnValue(pv int32, description string) error {
	if pv <= 0 {
		return fmt.Errorf("train: pawn value %d must be positive", pv)
	}
	arch := ex.Network.Architecture()
	arch.PawnValue = pv
	n, err := nnue.NewNetwork(ex.Network.FeatureTransformer(), arch, description)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	ex.Network = n
	return nil
}
