package train

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
	"github.com/nnuekit/nnuekit/simd"
)

// FloatThesis returns the trained thesis model as a quant.FloatThesis (a copy), with the output
// scale S folded into W3 and B3 so that its Forward gives the trainer's output in centipawns.
// It returns an error if the trainer's architecture is not ArchThesis or it has more than one
// output bucket (FloatThesisBuckets).
func (t *Trainer) FloatThesis() (*quant.FloatThesis, error) {
	fs, err := t.FloatThesisBuckets()
	if err != nil {
		return nil, err
	}
	if len(fs) != 1 {
		return nil, fmt.Errorf("train: FloatThesis of a model with %d output buckets (FloatThesisBuckets)", len(fs))
	}
	return fs[0], nil
}

// FloatThesisBuckets returns one quant.FloatThesis per output bucket (Config.ThesisBuckets):
// the shared feature transformer with that bucket's hidden and output layers, S folded in. The
// model's output for a position is that of the bucket Config.BucketRule (default
// quant.OutputBucket) chooses for its piece count. Error:
// the architecture is not ArchThesis.
func (t *Trainer) FloatThesisBuckets() ([]*quant.FloatThesis, error) {
	m, ok := t.net.(*thesisNet)
	if !ok {
		return nil, fmt.Errorf("train: FloatThesis of a %v model", t.cfg.Arch)
	}
	if m.pairwise || len(m.hidden) != 1 || m.psqt != nil {
		return nil, errors.New("train: FloatThesis of a model with the pairwise product, two hidden layers or PSQT (quant.FloatThesis has none of them)")
	}
	d := m.hidden[0]
	in, l2 := d.in, d.out
	out := make([]*quant.FloatThesis, m.nb)
	for k := range out {
		f := quant.NewFloatThesis(t.featureSet, m.f, m.l1, l2)
		t.mergeRows(f.W1, m.w1.data, m.l1)
		copy(f.B1, m.b1.data)
		for j := range f.W2 {
			copy(f.W2[j], d.w.data[(k*l2+j)*in:(k*l2+j+1)*in])
		}
		copy(f.B2, d.b.data[k*l2:(k+1)*l2])
		for j, w := range m.w3.data[k*l2 : (k+1)*l2] {
			f.W3[j] = w * m.s
		}
		f.B3 = m.b3.data[k] * m.s
		out[k] = f
	}
	return out, nil
}

// quantizeThesisBuckets quantizes every bucket's model with quant.QuantizeThesis and joins the
// stacks into one network with rule (Config.buckets: the declared rule, or the CPW piece-count
// rule as QuantizeCPW): the
// feature transformers are the same (shared W1, B1), so the first one serves all.
func quantizeThesisBuckets(ms []*quant.FloatThesis, rule nnue.Buckets, s quant.ThesisScheme) (*nnue.Network, *quant.ClipReport, error) {
	var (
		first *nnue.Network
		rep   *quant.ClipReport
		arch  nnue.Architecture
	)
	for k, m := range ms {
		n, r, err := quant.QuantizeThesis(m, s)
		if err != nil {
			return nil, nil, err
		}
		if k == 0 {
			first, rep, arch = n, r, n.Architecture()
			arch.Stacks = nil
		} else {
			rep.Layers = append(rep.Layers, r.Layers[2:]...) // the FT is bucket 0's
		}
		arch.Stacks = append(arch.Stacks, n.Architecture().Stacks[0])
	}
	if len(ms) == 1 {
		return first, rep, nil
	}
	arch.Buckets = rule
	n, err := nnue.NewNetwork(first.FeatureTransformer(), arch, "quantized by nnuekit/quant/train (thesis stacks per output bucket)")
	if err != nil {
		return nil, nil, err
	}
	return n, rep, nil
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
	f.BucketRule, f.CReLU = t.cfg.BucketRule, m.crelu
	return f, nil
}

// mergeRows copies the rows of a sparse tensor (the feature transformer's, or the PSQT
// weights) into dst (one per feature of the set), each with its factoriser row added
// (Config.Factoriser: row f + virtual row f mod |B|).
func (t *Trainer) mergeRows(dst [][]float32, w []float32, n int) {
	for i := range dst {
		copy(dst[i], w[i*n:(i+1)*n])
		if t.virtual > 0 {
			v := t.features + i%t.virtual
			simd.AddF32(dst[i], w[v*n:(v+1)*n])
		}
	}
}

// evalPosition is the trainer's float model on one position (set: the model's own).
func (t *Trainer) evalPosition(_ *featureset.Set, p *board.Position) (float64, error) {
	enc, err := t.NewEncoder()
	if err != nil {
		return 0, err
	}
	if err := enc.AddResult(p, 0, board.NullMove, -1); err != nil {
		return 0, err
	}
	return t.Eval(enc.Data(), 0), nil
}

// quantizeStack quantizes an ArchThesis model with the pairwise product, two hidden layers or
// PSQT, which quant.FloatThesis cannot hold (PSQT weights ×S·OutBiasScale, int32, factoriser
// rows merged, one column per bucket, the perspectives' difference divided by 2: PSQTDiv), with Config.Thesis's scales (quant.QuantizeValues):
// feature transformer ×FTScale (int16; factoriser rows merged), every hidden layer's weights
// ×L2WeightScale (int8) and biases ×L2BiasScale (int32), each followed by ClippedReLU >>
// HiddenShift, output weights ×S·OutWeightScale (int8) and bias ×S·OutBiasScale (int32), output
// divided by OutputScale truncating toward zero (Stockfish's division by FV_SCALE, so that a
// Stockfish-shaped stack evaluates alike in both formats; Exported.WriteStockfish). Per bucket
// the stack is Perspective → Pairwise(0..127, >>7) (or ClippedReLU) → (Affine
// → ClippedReLU)… → Affine, the buckets chosen by nnue.Buckets{N, Sub: 2, Div: ⌈32/N⌉}.
func (t *Trainer) quantizeStack(m *thesisNet) (*nnue.Network, *quant.ClipReport, error) {
	s := t.cfg.Thesis
	set, err := t.parseSet()
	if err != nil {
		return nil, nil, err
	}
	rows := make([][]float32, m.f)
	flat := make([]float32, m.f*m.l1)
	for i := range rows {
		rows[i] = flat[i*m.l1 : (i+1)*m.l1]
	}
	t.mergeRows(rows, m.w1.data, m.l1)
	rep := &quant.ClipReport{}
	int16s := func(name string, w []float32, scale float64) []int16 {
		q, lc := quant.QuantizeValues(name, w, scale, quant.MaxInt16)
		rep.Layers = append(rep.Layers, lc)
		out := make([]int16, len(q))
		for i, v := range q {
			out[i] = int16(v)
		}
		return out
	}
	affine := func(name string, w, b []float32, in, out int, ws, bs float64) *nnue.Affine {
		a := nnue.NewAffine(in, out)
		qw, lw := quant.QuantizeValues(name+".weight", w, ws, quant.MaxInt8)
		qb, lb := quant.QuantizeValues(name+".bias", b, bs, quant.MaxInt32)
		rep.Layers = append(rep.Layers, lw, lb)
		for j := range out {
			row := a.Row(j)
			for i := range in {
				row[i] = int8(qw[j*in+i])
			}
			a.Bias[j] = int32(qb[j])
		}
		return a
	}
	var (
		psqt   []int32
		psqtN  int
		psqtDv int32
	)
	if m.psqt != nil {
		// raw output units: ×S·OutputScale, like the output bias; nnue divides the
		// perspectives' difference by 2
		prow := make([][]float32, m.f)
		pflat := make([]float32, m.f*m.nb)
		for i := range prow {
			prow[i] = pflat[i*m.nb : (i+1)*m.nb]
		}
		t.mergeRows(prow, m.psqt.data, m.nb)
		q, lc := quant.QuantizeValues("psqt.weight", pflat, float64(m.s)*s.OutBiasScale(), quant.MaxInt32)
		rep.Layers = append(rep.Layers, lc)
		psqt = make([]int32, len(q))
		for i, v := range q {
			psqt[i] = int32(v)
		}
		psqtN, psqtDv = m.nb, 2
	}
	ft, err := nnue.NewFeatureTransformer(set, m.l1, int16s("ft.weight", flat, s.FTScale()), int16s("ft.bias", m.b1.data, s.FTScale()), psqtN, psqt)
	if err != nil {
		return nil, nil, err
	}
	arch := nnue.Architecture{Output: nnue.OutputScale{Div: int32(s.OutputScale)}, PawnValue: 100, PSQTDiv: psqtDv,
		Quantization: fmt.Sprintf("thesis scales: FT ×%v, hidden weights ×%v, biases ×%v, ClippedReLU >>%d, output weights ×%v, bias ×%v, /%d",
			s.FTScale(), s.L2WeightScale(), s.L2BiasScale(), s.HiddenShift(), s.OutWeightScale(), s.OutBiasScale(), s.OutputScale)}
	if m.nb > 1 {
		arch.Buckets = m.rule
	}
	last := m.last()
	for k := range m.nb {
		var act nnue.Layer = nnue.ClippedReLU{Input: nnue.KindInt16}
		if m.pairwise {
			act = nnue.Pairwise{Max: 127, Shift: 7}
		}
		st := []nnue.Layer{nnue.Perspective{}, act}
		for _, d := range m.hidden {
			size := d.in * d.out
			st = append(st, affine(d.w.name[:2], d.w.data[k*size:(k+1)*size], d.b.data[k*d.out:(k+1)*d.out], d.in, d.out, s.L2WeightScale(), s.L2BiasScale()),
				nnue.ClippedReLU{Input: nnue.KindInt32, Shift: uint8(s.HiddenShift())})
		}
		w3 := make([]float32, last)
		for j, w := range m.w3.data[k*last : (k+1)*last] {
			w3[j] = w * m.s
		}
		st = append(st, affine("out", w3, []float32{m.b3.data[k] * m.s}, last, 1, s.OutWeightScale(), s.OutBiasScale()))
		arch.Stacks = append(arch.Stacks, st)
	}
	n, err := nnue.NewNetwork(ft, arch, "quantized by nnuekit/quant/train")
	if err != nil {
		return nil, nil, err
	}
	return n, rep, nil
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
	m, stack := t.net.(*thesisNet)
	stack = stack && (m.pairwise || len(m.hidden) > 1 || m.psqt != nil)
	switch {
	case stack:
		ex.Network, ex.Clip, err = t.quantizeStack(m)
		float = t.evalPosition
	case t.cfg.Arch == ArchThesis:
		ms, _ := t.FloatThesisBuckets()
		ex.Network, ex.Clip, err = quantizeThesisBuckets(ms, t.cfg.buckets(), t.cfg.Thesis)
		float = func(set *featureset.Set, p *board.Position) (float64, error) {
			return ms[t.cfg.buckets().OfPieces(p.PieceCount())].EvaluatePosition(set, p)
		}
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

// WriteBullet writes ex.Network as bullet saves a quantised network (quantised.bin:
// nnue.WriteBullet with the default layout — no header, output weights [2N][B]) and returns
// the architecture string that loads the file back (nnue.ParseSpec of it with
// nnue.LoadBulletFile, or examples/evaluate -net FILE -arch 'STRING'): bullet files record no
// architecture. The network must be a bullet one: an ArchCPW model on all or all@hm, or a
// king-bucket map times it (the string then reads ft=SET:i16 width=N
// stack=stm>screlu_affine.i16(QA,QA,1), or stm>crelu_affine.i16(QA) with Config.CReLU,
// [buckets=RULE] out=*SCALE/QA·QB). Errors: those of nnue.WriteBullet (an
// architecture with no bullet layout, named) and write errors.
func (ex *Exported) WriteBullet(w io.Writer) (string, error) {
	spec, err := nnue.WriteBullet(w, ex.Network, nnue.BulletFile{})
	if err != nil {
		return "", fmt.Errorf("train: %w", err)
	}
	return spec.String(), nil
}

// CheckBullet reports, before training, whether a model of featureSet with configuration c
// exports to bullet's layout (Exported.WriteBullet): the architecture must be ArchCPW and the
// network's declaration must have a bullet file layout (nnue.BulletFileSize; inputs all or
// all@hm, optionally times a king-bucket map). The error names what is not a bullet architecture.
func (c Config) CheckBullet(featureSet string) error {
	c = c.Defaults()
	if c.Arch != ArchCPW {
		return fmt.Errorf("train: the %v architecture has no bullet layout (bullet's single-layer family is -arch cpw: SCReLU, output buckets)", c.Arch)
	}
	q := c.CPW
	stage := fmt.Sprintf("screlu_affine.i16(%d,%d,1)", q.QA, q.QA)
	if c.CReLU {
		stage = fmt.Sprintf("crelu_affine.i16(%d)", q.QA)
	}
	decl := fmt.Sprintf("ft=%s:i16 width=%d stack=stm>%s out=*%d/%d", featureSet, c.L1, stage, q.Scale, q.QA*q.QB)
	spec, err := nnue.ParseSpec(decl)
	if err != nil {
		return fmt.Errorf("train: no bullet layout: %w", err)
	}
	if _, err := nnue.BulletFileSize(spec, nnue.BulletFile{}); err != nil {
		return fmt.Errorf("train: no bullet layout: %w", err)
	}
	return nil
}

// WriteStockfish writes ex.Network as a Stockfish .nnue file (nnue.WriteStockfish) with
// description in its header; nnue.Load reads it back as a
// Stockfish network that evaluates every position as ex.Network does. The network must be a
// Stockfish architecture: Stockfish 13's HalfKP 256×2-32-32-1, which is an ArchThesis model
// on the halfkp set with L1 256, L2 32, L3 32, no pairwise product, one stack and the
// default thesis scheme (Config.CheckStockfish). Errors: those of nnue.WriteStockfish
// (naming the architecture that is needed) and write errors.
func (ex *Exported) WriteStockfish(w io.Writer, description string) error {
	if err := nnue.WriteStockfish(w, ex.Network, description); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// CheckStockfish reports, before training, whether a model of featureSet with configuration
// c exports to a Stockfish .nnue file (Exported.WriteStockfish): it builds the declaration
// Export will give the network and asks nnue.CheckStockfish. The error names what differs.
func (c Config) CheckStockfish(featureSet string) error {
	c = c.Defaults()
	switch {
	case c.Arch != ArchThesis:
		return fmt.Errorf("train: the %v architecture is not a Stockfish one (Stockfish 13 HalfKP 256×2-32-32-1 is -arch thesis -set halfkp -l1 256 -l2 32 -l3 32)", c.Arch)
	case c.Pairwise || c.PSQT || c.ThesisBuckets > 1 || c.L3 == 0:
		return fmt.Errorf("train: pairwise %v, PSQT %v, %d stacks, L3 %d is not a Stockfish architecture (Stockfish 13 HalfKP: ClippedReLU, no PSQT, one stack, two hidden layers: -l1 256 -l2 32 -l3 32)", c.Pairwise, c.PSQT, c.ThesisBuckets, c.L3)
	}
	s := c.Thesis
	decl := fmt.Sprintf("ft=%s:i16 width=%d stack=stm>crelu.i16", featureSet, c.L1)
	for _, h := range c.hiddenWidths() {
		decl += fmt.Sprintf(">affine.i8(%d)>crelu.i32(%d)", h, s.HiddenShift())
	}
	decl += fmt.Sprintf(">affine.i8(1) out=/%d", s.OutputScale)
	spec, err := nnue.ParseSpec(decl)
	if err != nil {
		return fmt.Errorf("train: not a Stockfish architecture: %w", err)
	}
	if err := nnue.CheckStockfish(spec); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}
