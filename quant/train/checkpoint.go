package train

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// checkpointVersion is bumped whenever the checkpoint layout changes.
const checkpointVersion = 1

// checkpoint is the gob-encoded state of a Trainer.
type checkpoint struct {
	Version    int
	Config     Config
	FeatureSet string
	Features   int
	Params     [][]float32
	M, V       [][]float32
	Step       int64
	Epoch      int
	Batch      int
	PartLoss   float64
	PartN      int64
	PartSecs   float64
	History    []EpochStats
	BestEpoch  int
	BestLoss   float64
	BestParams [][]float32
	Stream     StreamPosition
}

// Save writes the trainer's complete state (configuration, parameters, Adam moments, position in
// the epoch, history) to path, atomically (a temporary file renamed over it). Load resumes from
// it.
func (t *Trainer) Save(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := t.WriteCheckpoint(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return nil
}

// WriteCheckpoint writes the trainer's state to w (the format of Save).
func (t *Trainer) WriteCheckpoint(w io.Writer) error {
	cp := checkpoint{Version: checkpointVersion, Config: t.cfg, FeatureSet: t.featureSet, Features: t.features,
		M: t.m, V: t.v, Step: t.step, Epoch: t.epoch, Batch: t.batch, PartLoss: t.partLoss, PartN: t.partN,
		PartSecs: t.partSecs, History: t.history, BestEpoch: t.bestEpoch, BestLoss: t.bestLoss, BestParams: t.bestParams,
		Stream: t.stream}
	for _, ts := range t.ts {
		cp.Params = append(cp.Params, ts.data)
	}
	bw := bufio.NewWriter(w)
	if err := gob.NewEncoder(bw).Encode(&cp); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return nil
}

// Load reads a checkpoint written by Save and returns a trainer that continues where it stopped.
// It returns an error for an unreadable, foreign or inconsistent file.
func Load(path string) (*Trainer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	defer f.Close()
	return ReadCheckpoint(f)
}

// ReadCheckpoint reads a checkpoint (the format of Save) from r. Shapes are checked against the
// stored configuration before any parameter is used.
func ReadCheckpoint(r io.Reader) (*Trainer, error) {
	var cp checkpoint
	if err := gob.NewDecoder(bufio.NewReader(r)).Decode(&cp); err != nil {
		return nil, fmt.Errorf("train: reading checkpoint: %w", err)
	}
	if cp.Version != checkpointVersion {
		return nil, fmt.Errorf("train: checkpoint version %d, want %d", cp.Version, checkpointVersion)
	}
	// check the stored shapes against the configuration before New allocates anything, so that
	// a hostile file cannot make it allocate more than the file itself holds
	cfg := cp.Config.Defaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	rows := cp.Features
	if cfg.Factoriser {
		v, err := virtualRows(cp.FeatureSet, cp.Features)
		if err != nil {
			return nil, fmt.Errorf("train: checkpoint: %w", err)
		}
		rows += v
	}
	sizes := tensorSizes(cfg, rows)
	if len(cp.Params) != len(sizes) {
		return nil, errors.New("train: checkpoint: wrong number of tensors")
	}
	for i, n := range sizes {
		if len(cp.Params[i]) != n {
			return nil, fmt.Errorf("train: checkpoint: tensor %d has %d values, want %d", i, len(cp.Params[i]), n)
		}
	}
	t, err := New(cp.FeatureSet, cp.Features, cp.Config)
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint: %w", err)
	}
	if len(cp.Params) != len(t.ts) || len(cp.M) != len(t.ts) || len(cp.V) != len(t.ts) {
		return nil, errors.New("train: checkpoint: wrong number of tensors")
	}
	for i, ts := range t.ts {
		if len(cp.Params[i]) != len(ts.data) || len(cp.M[i]) != len(ts.data) || len(cp.V[i]) != len(ts.data) {
			return nil, fmt.Errorf("train: checkpoint: tensor %s has %d values, want %d", ts.name, len(cp.Params[i]), len(ts.data))
		}
		copy(ts.data, cp.Params[i])
		t.m[i], t.v[i] = cp.M[i], cp.V[i]
	}
	t.net.sync()
	if cp.Epoch < 0 || cp.Batch < 0 || cp.Step < 0 || cp.PartN < 0 || cp.Stream.Pass < 0 || cp.Stream.Seen < 0 {
		return nil, errors.New("train: checkpoint: negative counters")
	}
	if cp.BestEpoch != 0 {
		if len(cp.BestParams) != len(t.ts) {
			return nil, errors.New("train: checkpoint: wrong number of best tensors")
		}
		for i, ts := range t.ts {
			if len(cp.BestParams[i]) != len(ts.data) {
				return nil, fmt.Errorf("train: checkpoint: best tensor %s has %d values, want %d", ts.name, len(cp.BestParams[i]), len(ts.data))
			}
		}
		t.bestEpoch, t.bestLoss, t.bestParams = cp.BestEpoch, cp.BestLoss, cp.BestParams
	}
	t.step, t.epoch, t.batch, t.stream = cp.Step, cp.Epoch, cp.Batch, cp.Stream
	t.partLoss, t.partN, t.partSecs, t.history = cp.PartLoss, cp.PartN, cp.PartSecs, cp.History
	return t, nil
}

// tensorSizes returns the number of values of each tensor of a model with cfg (defaults applied)
// and features rows of the feature transformer (factoriser rows included), in the order of net.tensors(); -1 marks a size that overflows.
func tensorSizes(cfg Config, features int) []int {
	mul := func(a, b int) int {
		limit := min(int64(1)<<40, int64(math.MaxInt)) // 2⁴⁰ values, or int's range on 32-bit platforms
		if a < 0 || b < 0 || (a > 0 && int64(b) > limit/int64(a)) {
			return -1
		}
		return a * b
	}
	if cfg.Arch == ArchCPW {
		return []int{mul(features, cfg.L1), cfg.L1, mul(cfg.Buckets, 2*cfg.L1), cfg.Buckets}
	}
	nb, in := cfg.ThesisBuckets, 2*cfg.L1
	if cfg.Pairwise {
		in = cfg.L1
	}
	sizes := []int{mul(features, cfg.L1), cfg.L1}
	for _, out := range cfg.hiddenWidths() {
		sizes = append(sizes, mul(nb*out, in), nb*out)
		in = out
	}
	sizes = append(sizes, nb*in, nb)
	if cfg.PSQT {
		sizes = append(sizes, mul(features, nb))
	}
	return sizes
}
