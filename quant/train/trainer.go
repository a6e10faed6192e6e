package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
	"github.com/nnuekit/nnuekit/simd"
)

// Config holds the hyper-parameters of a training run. Zero fields take the defaults listed
// (Defaults fills them in); the defaults are the thesis's (§6.1) unless noted.
type Config struct {
	// Arch is the network shape (default ArchThesis).
	Arch Arch
	// L1 is the width of one accumulator: the thesis L1 (default 256; the thesis used 512) or the
	// CPW N (default 256). nnue requires a multiple of 32 to quantize the result.
	L1 int
	// L2 is the width of the thesis hidden layer (default 32); unused by ArchCPW.
	L2 int
	// Buckets is the number of CPW output buckets chosen by piece count (default 8); unused by
	// ArchThesis.
	Buckets int
	// L3 is the width of a second ClippedReLU hidden layer after L2 (ArchThesis; default 0:
	// none, the thesis network).
	L3 int
	// Pairwise replaces ArchThesis's ClippedReLU after the feature transformer by the pairwise
	// product of each perspective's halves, (127/128)·c(a_j)·c(a_{j+L1/2}) with c the clamp to
	// [0, 1] (Stockfish 15.1's SFNNv5 transform, nnue.Pairwise{Max: 127, Shift: 7}): L1/2 values per perspective.
	// L1 must be even (a multiple of 64 for the export).
	Pairwise bool
	// PSQT adds Stockfish's PSQT part to ArchThesis: beside the feature transformer, one
	// value per feature and output bucket, trained with it, and the output becomes
	// S·(stack + (Σ_stm P[f][k] − Σ_other P[f][k])/2) for the position's bucket k, a linear
	// shortcut from the inputs to the output (material and piece-square values). The export
	// is the native format with an nnue PSQT part (psqt=N psqtdiv=2).
	PSQT bool
	// ThesisBuckets is the number of layer stacks (L2 hidden layer and output) of ArchThesis,
	// chosen by piece count like the CPW buckets (quant.OutputBucket; default 1, the thesis
	// network). The export is then native format only (the thesis .nn has no buckets).
	ThesisBuckets int
	// CReLU makes ArchCPW's activation the clipped ReLU clamp(x, 0, 1) instead of SCReLU:
	// bullet's single-layer CReLU layout (e.g. Stormphrax net013), exported as
	// crelu_affine.i16(QA) (nnue.BulletCReLU). ArchCPW only.
	CReLU bool
	// BucketRule chooses the output bucket (ArchCPW's output neuron, ArchThesis's stack and
	// PSQT column) from the piece count, kings included: a declared rule as an architecture
	// string's buckets= field states it (nnue.ParseBucketRule: "pieces(N,Sub,Div)" or
	// "table(b0,…,b32)", e.g. Stockfish's pieces(8,1,4) or Alexandria's table). Its Count()
	// sets Buckets (ArchCPW) or ThesisBuckets (ArchThesis) when they are zero and must equal
	// them otherwise. The zero rule is the CPW page's formula (quant.OutputBucket) for the
	// configured count. The exported network carries the rule.
	BucketRule nnue.BucketRule
	// Loss is the training method (default LossScore).
	Loss Loss
	// Epochs is the number of passes over the training data (default 10).
	Epochs int
	// BatchSize is the number of samples per optimizer step (default 16384).
	BatchSize int
	// LR is the Adam learning rate of the first epoch (default 5e-4); epoch e uses LR·Decay^e.
	LR float64
	// Decay is the per-epoch learning-rate factor of ScheduleExp (default 0.99).
	Decay float64
	// Schedule is the learning-rate schedule over units (epochs, or superbatches when
	// training from a stream): ScheduleExp (default), ScheduleStep or ScheduleCosine.
	Schedule Schedule
	// StepEvery is ScheduleStep's interval in units (default 1): LR·Gamma^⌊unit/StepEvery⌋.
	StepEvery int
	// Gamma is ScheduleStep's factor (default 0.1).
	Gamma float64
	// FinalLR is ScheduleCosine's learning rate of the last unit (default LR/100).
	FinalLR float64
	// WeightDecay is AdamW's decoupled weight decay λ (Loshchilov & Hutter): after every
	// Adam step each updated parameter p becomes p − lr·λ·p (default 0: plain Adam). Rows of
	// the feature transformer decay only in steps that touch them, like their Adam update.
	WeightDecay float64
	// Beta1, Beta2 and Eps are Adam's constants (defaults 0.9, 0.999, 1e-8).
	Beta1, Beta2, Eps float64
	// SuperbatchBatches is the number of batches per superbatch, TrainStream's unit of the
	// schedule, validation and checkpoints (default 6104: about 10⁸ samples at 16384, bullet's
	// default).
	SuperbatchBatches int
	// ShuffleBuffer is the number of samples TrainStream's shuffle buffer holds (default 2²⁰;
	// memory (8·MaxActive + 9)·k + 8 bytes per sample, k = 3 for PQR, else 1, MaxActive doubled by a
	// factoriser: 286 MB for ALL; TrainStream refuses a buffer over 16 GiB).
	ShuffleBuffer int
	// Factoriser adds a factoriser to the feature transformer of a product feature set A×B
	// (KING-ALL and other king-bucketed sets): one virtual row per B feature, trained together
	// with every real row ⟨a, b⟩ (its accumulator adds both) and merged into each of them on
	// export (Export, FloatThesis, FloatCPW), so the exported network has the set's own size.
	// Virtual rows start at zero. Data must be encoded with Encoder.Factorise (Trainer.NewEncoder
	// does it).
	Factoriser bool
	// Workers is the number of goroutines that share each batch (default runtime.NumCPU()).
	// Every worker takes a fixed contiguous shard and the shard gradients are summed in worker
	// order, so a run is bit-for-bit reproducible for a given Workers (and Seed).
	Workers int
	// Seed seeds the initial weights and the per-epoch shuffles (default 1).
	Seed uint64
	// WDL is the score→win-rate mapping of the losses (default quant.ThesisWDL, a=1.28,
	// b=297.21, thesis §5.2.1).
	WDL quant.WDLModel
	// Lambda is LossWDL's weight of the evaluation target against the game result, in [0, 1]:
	// t = λ·W(y) + (1 − λ)·r (thesis §5.2.1's λ; Karhan's lambda_). No default: 0 trains on
	// results alone, 1 on evaluations alone.
	Lambda float64
	// Power is the exponent of the score loss |W(y) − W(f(x))|^Power (default 2.6, §5.2.2).
	Power float64
	// OutScale is the fixed factor S between the thesis model's last layer and its output in
	// centipawns (output = S·(B3 + W3·h)); it keeps the trained output weights of order 1 and is
	// folded into W3 and B3 on export (default 600, Stockfish's nnue2score). Unused by ArchCPW,
	// whose output is scaled by CPW.Scale.
	OutScale float64
	// Thesis is the quantization scheme whose ranges the thesis model's weights are clipped to
	// after every step (default quant.Thesis: hidden ±127/64, output ±127²/16, FT ±32767/127).
	Thesis quant.ThesisScheme
	// CPW is the scheme of the CPW model (default quant.CPW: QA=255, QB=64, SCALE=400); its
	// output weights are clipped to ±OutputClip (2.0).
	CPW quant.CPWScheme
	// KeepBest makes the trainer remember the parameters of the epoch with the lowest validation
	// loss (Best, UseBest): with small data sets the validation loss can rise again while the
	// training loss still falls.
	KeepBest bool
	// Checkpoint is the file written after every epoch and when Train is cancelled ("" = none).
	Checkpoint string
	// ProgressEvery is the interval between progress lines on the Trainer's Log (default 10 s).
	ProgressEvery time.Duration
}

// Defaults returns c with every zero field set to its default.
func (c Config) Defaults() Config {
	set := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	setf := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	set(&c.L1, 256)
	set(&c.L2, 32)
	if !c.BucketRule.IsZero() {
		if c.Arch == ArchCPW {
			set(&c.Buckets, c.BucketRule.Count())
		} else {
			set(&c.ThesisBuckets, c.BucketRule.Count())
		}
	}
	set(&c.Buckets, 8)
	set(&c.ThesisBuckets, 1)
	set(&c.Epochs, 10)
	set(&c.BatchSize, 16384)
	set(&c.Workers, runtime.NumCPU())
	setf(&c.LR, 5e-4)
	setf(&c.Decay, 0.99)
	set(&c.StepEvery, 1)
	set(&c.SuperbatchBatches, 6104)
	set(&c.ShuffleBuffer, 1<<20)
	setf(&c.Gamma, 0.1)
	setf(&c.FinalLR, c.LR/100)
	setf(&c.Beta1, 0.9)
	setf(&c.Beta2, 0.999)
	setf(&c.Eps, 1e-8)
	setf(&c.Power, 2.6)
	setf(&c.OutScale, 600)
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.WDL == (quant.WDLModel{}) {
		c.WDL = quant.ThesisWDL
	}
	if c.Thesis == (quant.ThesisScheme{}) {
		c.Thesis = quant.Thesis
	}
	if c.CPW == (quant.CPWScheme{}) {
		c.CPW = quant.CPW
	}
	if c.ProgressEvery == 0 {
		c.ProgressEvery = 10 * time.Second
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.Arch != ArchThesis && c.Arch != ArchCPW:
		return fmt.Errorf("train: unknown architecture %v", c.Arch)
	case c.Loss != LossScore && c.Loss != LossPQR && c.Loss != LossWDL:
		return fmt.Errorf("train: unknown loss %v", c.Loss)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("train: lambda %v outside [0, 1]", c.Lambda)
	case c.L1 < 1 || c.L1 > 1<<14:
		return fmt.Errorf("train: L1 %d outside [1, 16384]", c.L1)
	case c.Arch == ArchThesis && (c.L2 < 1 || c.L2 > 1<<12):
		return fmt.Errorf("train: L2 %d outside [1, 4096]", c.L2)
	case c.Arch == ArchCPW && (c.Buckets < 1 || c.Buckets > 32):
		return fmt.Errorf("train: %d output buckets outside [1, 32]", c.Buckets)
	case c.Arch == ArchThesis && (c.L3 < 0 || c.L3 > 1<<12):
		return fmt.Errorf("train: L3 %d outside [0, 4096]", c.L3)
	case c.CReLU && c.Arch != ArchCPW:
		return fmt.Errorf("train: CReLU is the cpw architecture's option (the thesis architecture always uses ClippedReLU)")
	case c.PSQT && c.Arch != ArchThesis:
		return fmt.Errorf("train: PSQT needs the thesis architecture (have %v)", c.Arch)
	case c.Pairwise && (c.Arch != ArchThesis || c.L1%2 != 0):
		return fmt.Errorf("train: the pairwise product needs the thesis architecture and an even L1 (have %v, %d)", c.Arch, c.L1)
	case c.Arch == ArchThesis && (c.ThesisBuckets < 1 || c.ThesisBuckets > 32):
		return fmt.Errorf("train: %d thesis output buckets outside [1, 32]", c.ThesisBuckets)
	case c.Epochs < 1, c.BatchSize < 1, c.Workers < 1:
		return fmt.Errorf("train: epochs %d, batch size %d and workers %d must be positive", c.Epochs, c.BatchSize, c.Workers)
	case !(c.LR > 0) || !(c.Decay > 0) || !(c.WDL.B > 0) || !(c.Power > 0) || !(c.OutScale > 0):
		return fmt.Errorf("train: LR %v, Decay %v, WDL b %v, Power %v and OutScale %v must be positive", c.LR, c.Decay, c.WDL.B, c.Power, c.OutScale)
	case c.Schedule > ScheduleCosine:
		return fmt.Errorf("train: unknown schedule %v", c.Schedule)
	case c.StepEvery < 1 || !(c.Gamma > 0) || !(c.FinalLR > 0):
		return fmt.Errorf("train: schedule step %d, gamma %v and final LR %v must be positive", c.StepEvery, c.Gamma, c.FinalLR)
	case c.SuperbatchBatches < 1 || c.ShuffleBuffer < 1 || c.ShuffleBuffer > 1<<27:
		return fmt.Errorf("train: %d batches per superbatch, shuffle buffer %d: want ≥ 1 and a buffer ≤ 2^27", c.SuperbatchBatches, c.ShuffleBuffer)
	case !(c.WeightDecay >= 0 && c.WeightDecay < 1):
		return fmt.Errorf("train: weight decay %v outside [0, 1)", c.WeightDecay)
	}
	if r := c.BucketRule; !r.IsZero() {
		if _, err := nnue.ParseBucketRule(r.String()); err != nil {
			return fmt.Errorf("train: bucket rule: %w", err)
		}
		if r.Count() != c.outputBuckets() {
			return fmt.Errorf("train: bucket rule %s selects %d buckets, the model has %d", r, r.Count(), c.outputBuckets())
		}
	}
	if err := c.Thesis.Validate(); err != nil {
		return err
	}
	return c.CPW.Validate()
}

// Validate applies the defaults to c and reports the first invalid setting (the check New makes),
// so that a program can reject a configuration before it reads any data. Errors name the field
// and its allowed range.
func (c Config) Validate() error { return c.Defaults().validate() }

// CheckExport reports whether a model trained with c (defaults applied) can be exported: Export
// quantizes into an nnue network, whose feature transformer needs L1 a multiple of 32 (nnue's
// accumulator width rule). New accepts other widths (small models for tests); a program that
// exports calls CheckExport before training.
func (c Config) CheckExport() error {
	c = c.Defaults()
	if c.L1%32 != 0 {
		return fmt.Errorf("train: L1 %d cannot be exported: nnue needs an accumulator width that is a multiple of 32", c.L1)
	}
	if c.Pairwise && c.L1%64 != 0 {
		return fmt.Errorf("train: L1 %d cannot be exported with the pairwise product: nnue.Pairwise needs L1/2 a multiple of 32", c.L1)
	}
	return nil
}

// hiddenWidths returns the widths of ArchThesis's hidden layers: [L2] or [L2, L3].
// outputBuckets is the number of output buckets of the configured architecture.
func (c Config) outputBuckets() int {
	if c.Arch == ArchCPW {
		return c.Buckets
	}
	return c.ThesisBuckets
}

// buckets is the rule choosing the output bucket (BucketRule, or the CPW formula).
func (c Config) buckets() nnue.Buckets { return quant.Buckets(c.BucketRule, c.outputBuckets()) }

func (c Config) hiddenWidths() []int {
	if c.L3 > 0 {
		return []int{c.L2, c.L3}
	}
	return []int{c.L2}
}

// EpochStats records one finished epoch.
type EpochStats struct {
	Epoch     int     // 1-based
	TrainLoss float64 // mean training loss over the epoch's batches (weights changing meanwhile)
	ValLoss   float64 // loss on the validation data after the epoch (NaN without validation data)
	LR        float64 // learning rate used
	Seconds   float64 // wall time of the epoch, validation included
	Samples   int64   // training samples seen
}

// Trainer trains one float model with Adam. Create it with New or Load; it is not safe for
// concurrent use.
type Trainer struct {
	// Log receives progress lines (nil: none).
	Log io.Writer

	cfg        Config
	featureSet string
	features   int
	virtual    int // factoriser rows after the features (Config.Factoriser)
	net        net
	ts         []*tensor
	m, v       [][]float32 // Adam moments, per tensor
	step       int64       // optimizer steps taken
	epoch      int         // finished epochs
	batch      int         // batches finished in the current epoch
	partLoss   float64     // loss sum of the current epoch so far
	partN      int64       // samples of the current epoch so far
	partSecs   float64     // seconds spent in the current epoch before a checkpoint
	history    []EpochStats
	workers    []*worker
	bestEpoch  int         // 1-based epoch of bestParams; 0 = none
	bestLoss   float64     // its validation loss
	bestParams [][]float32 // copy of the tensors at bestEpoch (KeepBest)
	stream     StreamPosition
}

type worker struct {
	gr *grads
	sc scratch
	b  posBatch
}

// New returns a trainer for a model over the feature set named featureSet (featureset.Parse
// syntax, stored in the exported network) with features inputs, initialised from cfg.Seed with
// PyTorch's default nn.Linear initialisation. It returns an error for invalid settings.
func New(featureSet string, features int, cfg Config) (*Trainer, error) {
	cfg = cfg.Defaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if features < 1 || features > 1<<24 {
		return nil, fmt.Errorf("train: %d features outside [1, 2^24]", features)
	}
	t := &Trainer{cfg: cfg, featureSet: featureSet, features: features}
	if cfg.Factoriser {
		v, err := virtualRows(featureSet, features)
		if err != nil {
			return nil, err
		}
		t.virtual = v
	}
	t.build()
	return t, nil
}

// virtualRows returns the factoriser's number of virtual rows for the set named spec: the size
// of B for a product A×B. Errors: an unknown spec, a size other than features, not a product.
func virtualRows(spec string, features int) (int, error) {
	set, err := featureset.Parse(spec)
	if err != nil {
		return 0, fmt.Errorf("train: factoriser: %w", err)
	}
	if set.Size() != features {
		return 0, fmt.Errorf("train: factoriser: feature set %s has %d features, not %d", spec, set.Size(), features)
	}
	_, b, ok := featureset.Factors(set.Root())
	if !ok {
		return 0, fmt.Errorf("train: factoriser: feature set %s is not a product A*B", spec)
	}
	return b.Size(), nil
}

// NewEncoder returns an encoder for the trainer's feature set and loss (Config.Seed for PQR's
// random moves), with the factoriser's virtual features when Config.Factoriser is set.
func (t *Trainer) NewEncoder() (*Encoder, error) {
	set, err := t.parseSet()
	if err != nil {
		return nil, err
	}
	if set.Size() != t.features {
		return nil, fmt.Errorf("train: feature set %s has %d features, model %d", t.featureSet, set.Size(), t.features)
	}
	enc := NewEncoder(set, t.cfg.Loss, t.cfg.Seed)
	if t.cfg.Factoriser {
		if err := enc.Factorise(); err != nil {
			return nil, err
		}
	}
	return enc, nil
}

func (t *Trainer) build() {
	c := t.cfg
	switch c.Arch {
	case ArchThesis:
		t.net = newThesisNet(t.features, t.virtual, c.L1, c.hiddenWidths(), c.Pairwise, c.PSQT, c.buckets(), c.OutScale, c.Thesis, c.Seed)
	case ArchCPW:
		t.net = newCPWNet(t.features, t.virtual, c.L1, c.buckets(), c.CReLU, c.CPW, c.Seed)
	}
	t.ts = t.net.tensors()
	t.m = make([][]float32, len(t.ts))
	t.v = make([][]float32, len(t.ts))
	for i, ts := range t.ts {
		t.m[i] = make([]float32, len(ts.data))
		t.v[i] = make([]float32, len(ts.data))
	}
	t.workers = make([]*worker, c.Workers)
	for i := range t.workers {
		t.workers[i] = &worker{gr: newGrads(t.ts), sc: t.net.newScratch()}
	}
}

// parseSet parses the trainer's feature set.
func (t *Trainer) parseSet() (*featureset.Set, error) {
	set, err := featureset.Parse(t.featureSet)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return set, nil
}

// Config returns the trainer's configuration with defaults applied.
func (t *Trainer) Config() Config { return t.cfg }

// Epoch returns the number of finished epochs.
func (t *Trainer) Epoch() int { return t.epoch }

// History returns the statistics of the finished epochs, oldest first.
func (t *Trainer) History() []EpochStats { return append([]EpochStats(nil), t.history...) }

// Eval returns the float model's output for sample i of d, slot 0 (P), in centipawns from its
// side to move (ArchCPW: Scale-based centipawns).
func (t *Trainer) Eval(d *Data, i int) float64 { return t.EvalSlot(d, i, 0) }

// EvalSlot returns the float model's output for slot k of sample i of d (PQR data: 0 = P,
// 1 = Q, 2 = R), in centipawns from that position's side to move. It panics for a slot the data
// does not have.
func (t *Trainer) EvalSlot(d *Data, i, k int) float64 {
	if k < 0 || k >= d.Loss.positionsPer() {
		panic(fmt.Sprintf("train: EvalSlot: slot %d of %v data", k, d.Loss))
	}
	w := t.workers[0]
	w.b.reset()
	w.b.add(d.features(i, k, 0), d.features(i, k, 1), d.piecesOf(i, k))
	t.net.forward(w.sc, &w.b)
	return w.b.out[0]
}

// SetCheckpoint sets the file written after every epoch and on cancellation ("" = none), e.g.
// a new one for a run fine-tuned from another run's checkpoint.
func (t *Trainer) SetCheckpoint(path string) { t.cfg.Checkpoint = path }

// FineTune turns the trainer into a new run that starts from its current parameters (thesis
// §6.5 B: "continue from a checkpoint"): the loss becomes loss, the learning rate lr (×Decay per
// epoch as before), the run lasts epochs epochs (0: keep the configured count); the epoch count,
// history, best-epoch record and Adam's moments start afresh. Errors: invalid settings.
func (t *Trainer) FineTune(loss Loss, lr float64, epochs int) error {
	c := t.cfg
	c.Loss, c.LR = loss, lr
	if epochs > 0 {
		c.Epochs = epochs
	}
	if err := c.validate(); err != nil {
		return err
	}
	t.cfg = c
	for i := range t.m {
		clear(t.m[i])
		clear(t.v[i])
	}
	t.step, t.epoch, t.batch = 0, 0, 0
	t.partLoss, t.partN, t.partSecs = 0, 0, 0
	t.history = nil
	t.bestEpoch, t.bestLoss, t.bestParams = 0, 0, nil
	t.stream = StreamPosition{}
	return nil
}

func (t *Trainer) checkData(d *Data) error {
	if d == nil || d.Len() == 0 {
		return fmt.Errorf("train: no samples")
	}
	if d.Features != t.features {
		return fmt.Errorf("train: data has %d features, model %d", d.Features, t.features)
	}
	if d.Virtual != t.virtual {
		return fmt.Errorf("train: data has %d factoriser rows, model %d (Trainer.NewEncoder encodes for the model)", d.Virtual, t.virtual)
	}
	if d.Loss != t.cfg.Loss {
		return fmt.Errorf("train: data encoded for loss %v, trainer uses %v", d.Loss, t.cfg.Loss)
	}
	return nil
}

// samplesLoss runs the samples at positions lo ≤ j < hi of ids (ids nil: samples lo..hi−1)
// of d through the model on worker w, a chunk of positions at a time, with the backward pass
// into w's gradients if backward, and returns their summed loss.
func (t *Trainer) samplesLoss(w *worker, d *Data, ids []int32, lo, hi int, backward bool) float64 {
	c := &t.cfg
	k := d.Loss.positionsPer()
	per := chunk / k
	at := func(j int) int {
		if ids == nil {
			return j
		}
		return int(ids[j])
	}
	sum := 0.0
	b := &w.b
	for j0 := lo; j0 < hi; j0 += per {
		j1 := min(j0+per, hi)
		b.reset()
		for j := j0; j < j1; j++ {
			i := at(j)
			for s := range k {
				b.add(d.features(i, s, 0), d.features(i, s, 1), d.piecesOf(i, s))
			}
		}
		t.net.forward(w.sc, b)
		for j := j0; j < j1; j++ {
			i, o := at(j), b.out[(j-j0)*k:]
			switch c.Loss {
			case LossPQR:
				l, gp, gq, gr := pqrLoss(c.WDL, o[0], o[1], o[2])
				sum += l
				b.g = append(b.g, gp, gq, gr)
			case LossWDL:
				l, g := wdlLoss(c.WDL, c.Lambda, float64(d.score[i]), float64(d.result[i]), o[0])
				sum += l
				b.g = append(b.g, g)
			default:
				l, g := scoreLoss(c.WDL, c.Power, float64(d.score[i]), o[0])
				sum += l
				b.g = append(b.g, g)
			}
		}
		if backward {
			t.net.backward(w.sc, b, w.gr)
		}
	}
	return sum
}

// shards splits n items into len(t.workers) contiguous ranges.
func (t *Trainer) shards(n int, fn func(w *worker, lo, hi int) float64) float64 {
	nw := len(t.workers)
	sums := make([]float64, nw)
	var wg sync.WaitGroup
	for k := range nw {
		lo, hi := n*k/nw, n*(k+1)/nw
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[k] = fn(t.workers[k], lo, hi)
		}()
	}
	wg.Wait()
	s := 0.0
	for _, v := range sums {
		s += v
	}
	return s
}

// Loss returns the mean loss of the current model over d (the validation loss), computed by
// all workers. It returns an error if d does not match the model.
func (t *Trainer) Loss(d *Data) (float64, error) {
	if err := t.checkData(d); err != nil {
		return 0, err
	}
	s := t.shards(d.Len(), func(w *worker, lo, hi int) float64 {
		return t.samplesLoss(w, d, nil, lo, hi, false)
	})
	return s / float64(d.Len()), nil
}

// trainStep runs one optimizer step on the samples ids of d with learning rate lr and returns
// the summed loss before the step.
func (t *Trainer) trainStep(d *Data, ids []int32, lr float64) float64 {
	loss := t.shards(len(ids), func(w *worker, lo, hi int) float64 {
		return t.samplesLoss(w, d, ids, lo, hi, true)
	})
	t.reduceAndUpdate(float32(1/float64(len(ids))), lr)
	return loss
}

// reduceAndUpdate sums the worker gradients into worker 0 in worker order, scales them by
// scale (1/batch), applies Adam, clips, and clears every gradient buffer.
func (t *Trainer) reduceAndUpdate(scale float32, lr float64) {
	c := &t.cfg
	g0 := t.workers[0].gr
	t.step++
	b1, b2 := c.Beta1, c.Beta2
	bc1 := 1 - math.Pow(b1, float64(t.step))
	bc2 := 1 - math.Pow(b2, float64(t.step))
	// Adam with bias correction folded into the step size (Kingma & Ba, §2).
	alpha := float32(lr * math.Sqrt(bc2) / bc1)
	eps := float32(c.Eps * math.Sqrt(bc2))
	fb1, fb2 := float32(b1), float32(b2)
	keep := float32(1 - lr*c.WeightDecay) // AdamW: p ← p − lr·λ·p, decoupled from the gradient
	adam := func(p, g, m, v []float32, clip float32) {
		for j := range p {
			gj := g[j] * scale
			mj := fb1*m[j] + (1-fb1)*gj
			vj := fb2*v[j] + (1-fb2)*gj*gj
			m[j], v[j] = mj, vj
			x := p[j]
			if keep != 1 {
				x *= keep
			}
			x -= alpha * mj / (float32(math.Sqrt(float64(vj))) + eps)
			if clip > 0 {
				x = min(max(x, -clip), clip)
			}
			p[j] = x
			g[j] = 0
		}
	}
	// The sparse tensors (the feature transformer's weights and, with PSQT, its PSQT
	// weights) share their rows: a row is touched in all of them or in none.
	var sparse []int
	for ti, ts := range t.ts {
		if ts.sparse {
			sparse = append(sparse, ti)
		}
	}
	for _, w := range t.workers[1:] {
		for _, r := range w.gr.rows {
			first := !g0.touched[r]
			if first {
				g0.touch(r)
			}
			for _, ti := range sparse {
				n := t.ts[ti].cols
				src := w.gr.g[ti][int(r)*n : int(r)*n+n]
				dst := g0.g[ti][int(r)*n : int(r)*n+n]
				if first {
					copy(dst, src)
				} else {
					simd.AddF32(dst, src)
				}
				clear(src)
			}
			w.gr.touched[r] = false
		}
		w.gr.rows = w.gr.rows[:0]
	}
	// lazy (sparse) Adam: only rows with a gradient in this batch move
	for _, ti := range sparse {
		ts, n := t.ts[ti], t.ts[ti].cols
		for _, r := range g0.rows {
			lo, hi := int(r)*n, int(r)*n+n
			adam(ts.data[lo:hi], g0.g[ti][lo:hi], t.m[ti][lo:hi], t.v[ti][lo:hi], ts.clip)
		}
	}
	for _, r := range g0.rows {
		g0.touched[r] = false
	}
	g0.rows = g0.rows[:0]
	for ti, ts := range t.ts {
		if ts.sparse {
			continue
		}
		for _, w := range t.workers[1:] {
			simd.AddF32(g0.g[ti], w.gr.g[ti])
			clear(w.gr.g[ti])
		}
		adam(ts.data, g0.g[ti], t.m[ti], t.v[ti], ts.clip)
	}
	t.net.sync()
}

// lr returns the learning rate of unit e (0-based epoch or superbatch) under Config.Schedule.
func (t *Trainer) lr(e int) float64 {
	c := &t.cfg
	switch c.Schedule {
	case ScheduleStep:
		return c.LR * math.Pow(c.Gamma, float64(e/c.StepEvery))
	case ScheduleCosine:
		if c.Epochs <= 1 {
			return c.LR
		}
		f := min(float64(e)/float64(c.Epochs-1), 1)
		return c.FinalLR + (c.LR-c.FinalLR)*(1+math.Cos(math.Pi*f))/2
	}
	return c.LR * math.Pow(c.Decay, float64(e))
}

// Schedule is a learning-rate schedule over units (epochs or superbatches).
type Schedule uint8

const (
	// ScheduleExp is LR·Decay^unit (thesis §6.1's per-epoch decay).
	ScheduleExp Schedule = iota
	// ScheduleStep is LR·Gamma^⌊unit/StepEvery⌋ (bullet's StepLR).
	ScheduleStep
	// ScheduleCosine anneals from LR at unit 0 to FinalLR at the last unit along half a cosine
	// (Loshchilov & Hutter's SGDR without restarts; bullet's CosineDecayLR).
	ScheduleCosine
)

// String returns "exp", "step" or "cosine".
func (s Schedule) String() string {
	switch s {
	case ScheduleExp:
		return "exp"
	case ScheduleStep:
		return "step"
	case ScheduleCosine:
		return "cosine"
	}
	return fmt.Sprintf("Schedule(%d)", uint8(s))
}

// ParseSchedule parses "exp", "step" or "cosine".
func ParseSchedule(s string) (Schedule, error) {
	for _, v := range []Schedule{ScheduleExp, ScheduleStep, ScheduleCosine} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("train: unknown learning-rate schedule %q (want exp, step or cosine)", s)
}

func (t *Trainer) logf(format string, args ...any) {
	if t.Log != nil {
		fmt.Fprintf(t.Log, format, args...)
	}
}

// Train runs epochs until Config.Epochs are finished, continuing where a loaded checkpoint
// stopped. Each epoch visits the training samples in a fresh random order (seeded by Seed and the
// epoch), takes one Adam step per batch with the learning rate of the epoch (Config.Schedule),
// then computes the validation loss on val (may be nil), appends an EpochStats and writes the
// checkpoint. When ctx is cancelled Train finishes the current batch, writes the checkpoint
// (resumable mid-epoch) and returns ctx.Err(). train must be the same data (same order) when
// resuming. Errors: data that does not match the model, or a checkpoint write failure.
func (t *Trainer) Train(ctx context.Context, train, val *Data) error {
	if err := t.checkData(train); err != nil {
		return err
	}
	if val != nil {
		if err := t.checkData(val); err != nil {
			return fmt.Errorf("validation data: %w", err)
		}
	}
	c := &t.cfg
	n := train.Len()
	bs := min(c.BatchSize, n)
	nb := (n + bs - 1) / bs
	perm := make([]int32, n)
	return t.runUnits(ctx, "epoch", nb, int64(n), val, func(e int) {
		r := rand.New(rand.NewPCG(c.Seed, uint64(e)+1))
		for i := range perm {
			perm[i] = int32(i)
		}
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}, func(b int) (*Data, []int32, func(), error) {
		return train, perm[b*bs : min((b+1)*bs, n)], nil, nil
	})
}

// runUnits runs units (epochs or superbatches) of nb batches each until Config.Epochs units are
// finished: start(e) prepares unit e, next(b) returns batch b of it (the data, the samples to
// use, and a function to call once the step is taken). perUnit is the number of samples per
// unit (for the progress line). Checkpoints, validation, history and cancellation as Train.
func (t *Trainer) runUnits(ctx context.Context, unit string, nb int, perUnit int64, val *Data,
	start func(e int), next func(b int) (*Data, []int32, func(), error)) error {
	c := &t.cfg
	for t.epoch < c.Epochs {
		e := t.epoch
		start(e)
		lr := t.lr(e)
		begin := time.Now()
		lastLog := begin
		seen0 := t.partN
		for t.batch < nb {
			if err := ctx.Err(); err != nil {
				t.partSecs += time.Since(begin).Seconds()
				if c.Checkpoint != "" {
					if serr := t.Save(c.Checkpoint); serr != nil {
						return fmt.Errorf("train: cancelled, and the checkpoint failed: %w", serr)
					}
					t.logf("cancelled: checkpoint %s (%s %d, batch %d/%d)\n", c.Checkpoint, unit, e+1, t.batch, nb)
				}
				return err
			}
			d, ids, done, err := next(t.batch)
			if err != nil {
				return err
			}
			t.partLoss += t.trainStep(d, ids, lr)
			t.partN += int64(len(ids))
			t.batch++
			if done != nil {
				done()
			}
			if now := time.Now(); now.Sub(lastLog) >= c.ProgressEvery {
				lastLog = now
				rate := float64(t.partN-seen0) / now.Sub(begin).Seconds()
				t.logf("%s %d/%d  batch %d/%d  loss %.6f  %.0f samples/s  eta %s\n", unit, e+1, c.Epochs, t.batch, nb,
					t.partLoss/float64(t.partN), rate, (time.Duration(float64(perUnit-t.partN)/rate) * time.Second).Round(time.Second))
			}
		}
		st := EpochStats{Epoch: e + 1, TrainLoss: t.partLoss / float64(t.partN), ValLoss: math.NaN(), LR: lr, Samples: t.partN}
		if val != nil {
			st.ValLoss, _ = t.Loss(val)
		}
		st.Seconds = t.partSecs + time.Since(begin).Seconds()
		t.history = append(t.history, st)
		if c.KeepBest && !math.IsNaN(st.ValLoss) && (t.bestEpoch == 0 || st.ValLoss < t.bestLoss) {
			t.bestEpoch, t.bestLoss = st.Epoch, st.ValLoss
			t.bestParams = make([][]float32, len(t.ts))
			for i, ts := range t.ts {
				t.bestParams[i] = append([]float32(nil), ts.data...)
			}
		}
		t.epoch++
		t.batch, t.partLoss, t.partN, t.partSecs = 0, 0, 0, 0
		t.logf("%s %d/%d  train loss %.6f  val loss %.6f  lr %.3g  %.1fs\n", unit, st.Epoch, c.Epochs, st.TrainLoss, st.ValLoss, st.LR, st.Seconds)
		if c.Checkpoint != "" {
			if err := t.Save(c.Checkpoint); err != nil {
				return err
			}
		}
	}
	return nil
}

// SetEpochs changes the number of epochs a (resumed) trainer runs to (it must be positive), so
// a finished run can be extended.
func (t *Trainer) SetEpochs(n int) error {
	if n < 1 {
		return fmt.Errorf("train: %d epochs", n)
	}
	t.cfg.Epochs = n
	return nil
}

// Best returns the 1-based epoch with the lowest validation loss seen so far and that loss (0,
// NaN without KeepBest or validation data).
func (t *Trainer) Best() (epoch int, valLoss float64) {
	if t.bestEpoch == 0 {
		return 0, math.NaN()
	}
	return t.bestEpoch, t.bestLoss
}

// UseBest replaces the current parameters with those of the best epoch (KeepBest) and reports
// whether there was one. Training can continue afterwards, from the best parameters (the Adam
// moments are the latest ones).
func (t *Trainer) UseBest() bool {
	if t.bestEpoch == 0 {
		return false
	}
	for i, ts := range t.ts {
		copy(ts.data, t.bestParams[i])
	}
	t.net.sync()
	return true
}
