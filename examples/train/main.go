// Command train trains an NNUE network on samples of any format quant/dataset reads
// (Stockfish's .binpack and .plain, the thesis's text formats) and exports it quantized, in
// nnuekit's native format, (the plain thesis architecture) the thesis .nn format, with -bullet
// (a CPW network on all or all@hm, or a king-bucket map times it) bullet's quantised layout, and with -stockfish (HalfKP
// 256×2-32-32-1) a Stockfish 13 .nnue file. -psqt adds a PSQT part to the thesis architecture.
//
// Usage:
//
//	go run ./examples/train -data FILE [-set all] [-arch thesis|cpw] [-l1 256] [-l2 32] [-l3 0]
//	    [-pairwise] [-psqt] [-buckets 0] [-bucket-rule RULE] [-activation screlu|crelu] [-factoriser]
//	    [-loss score|pqr|wdl] [-epochs 10] [-batch 16384]
//	    [-lr 5e-4] [-decay 0.99] [-lr-schedule exp|step|cosine] [-lr-step 1] [-lr-gamma 0.1]
//	    [-lr-final 0] [-wd 0] [-superbatch N] [-superbatches 10] [-shuffle 1048576] [-val 0.02]
//	    [-max N] [-skip 0] [-workers N] [-seed 1] [-out net] [-resume] [-time 30m] [-final]
//	    [-pawn-value 361] [-wdl-a 1.28] [-wdl-b 297.21] [-unscale none|sf15.1] [-mirror]
//	    [-lambda 1] [-filter thesis|nocheck|none] [-pqr-p 0] [-pqr-plots 4000] [-finetune CKPT]
//	    [-bullet] [-stockfish] [-force]
//
// With -superbatch N the data is not loaded but streamed, pass after pass, through a shuffle
// buffer of -shuffle samples, in superbatches of N samples (-superbatches of them); the first
// -val samples (a count) are held out. Architectures: -arch thesis (F→L1)×2→L2→1 ClippedReLU,
// with -l3 a second hidden layer, -pairwise the pairwise product after the feature
// transformer, -buckets N a stack per piece-count bucket; -arch cpw F→N→1 SCReLU (or CReLU,
// -activation crelu) with -buckets output buckets; -factoriser adds shared virtual rows to a
// product set (ka, …).
//
// Every flag is checked before any data is read (a bad -l1, -set, -val, output path, … fails at
// once). Outputs are written through a temporary file renamed into place; an existing output is
// replaced only with -force (or, with -resume, when it is the resumed run's own output), and
// never when it is one of the inputs. -help prints a synopsis, an example and the flags. There
// is no -json: the results are text on standard output and the per-epoch figures are in
// OUT-history.csv.
//
// -data may be in any format quant/dataset reads, chosen by extension: .binpack (Stockfish),
// .plain (Stockfish), anything else the thesis's text formats. -loss wdl is Karhan's
// cross-entropy against λ·W(score) + (1 − λ)·result (-lambda). -finetune CKPT starts from the
// parameters of another run's checkpoint (its best epoch unless -final; e.g. a score run) and
// continues with -loss, -lr and -epochs as a new run (thesis §6.5 B). For -loss pqr, -pqr-p p
// skips samples with fewer legal moves than the p-quantile for their turn and side to move
// (the thesis's M filter, §6.5; two passes over -data), and -pqr-plots N writes the f(P)/−f(Q)
// scatter and the f(R) − f(Q) histogram (thesis Figures 14, 17) over N validation samples as
// OUT-pqr-scatter.png and OUT-pqr-hist.png (with -finetune also OUT-pqr-start-*.png for the
// starting model).
//
// With -filter thesis (the default) the samples pass the thesis filter
// (quant/dataset.ThesisFilter: no check, no capture as best move, |score| ≤ 5000), plus -skip
// random skipping; -unscale sf15.1 then divides each score by Stockfish 15.1's evaluation
// scaling, and -mirror adds the a↔h mirror of every kept sample without castling rights
// (doc/default-network.md); the last -val of them (a fraction < 1 or a
// count) are held out for the validation loss. Outputs, all named after -out:
//
//	OUT.ckpt        checkpoint, written after every epoch and on Ctrl-C (SIGINT/SIGTERM);
//	                -resume continues from it (same -data and filter flags)
//	OUT.nnue        the quantized network, native format (nnue.Load reads it)
//	OUT.nn          the thesis .nn file (thesis architecture only)
//	OUT-loss.png    training and validation loss per epoch
//	OUT-history.csv epoch,train_loss,val_loss,lr,seconds,samples
//
// and, on standard output, progress lines, the clipping report and the quantization error in
// WDL space against the float model over up to 10,000 validation positions (thesis §4.5.1).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
	"github.com/nnuekit/nnuekit/quant/dataset"
	"github.com/nnuekit/nnuekit/quant/train"
)

type options struct {
	data, set, arch, loss, out, val string
	l1, l2, buckets, epochs, batch  int
	workers, max                    int
	lr, decay, skip                 float64
	seed                            uint64
	resume                          bool
	errorPositions                  int
	pawnValue                       int
	final                           bool
	budget                          time.Duration
	wdlA, wdlB                      float64
	unscale                         string
	mirror                          bool
	lambda                          float64
	filter                          string
	pqrP                            float64
	pqrPlots                        int
	finetune                        string
	force                           bool
	superbatch, superbatches        int
	shuffle, lrStep                 int
	schedule                        string
	lrGamma, lrFinal, wd            float64
	factoriser, pairwise            bool
	bullet, stockfish, psqt         bool
	l3                              int
	bucketRule                      string
	activation                      string
}

// units is the number of schedule units: superbatches when streaming, else epochs.
func (o options) units() int {
	if o.superbatch > 0 {
		return o.superbatches
	}
	return o.epochs
}

// usage is printed by -help (and after a flag error) before the flag list.
const usage = `train: train an NNUE network on chess samples and export it quantized.

Usage:
  go run ./examples/train -data FILE [flags]

Examples (the thesis architecture at L1 256 on a binpack in memory, 20 epochs, outputs run1.*;
a CPW network over KING-ALL with a factoriser, streamed in superbatches of 10^8 samples):
  go run ./examples/train -data train.binpack -set all -arch thesis -l1 256 -l2 32 \
      -loss score -epochs 20 -batch 16384 -lr 5e-4 -out run1
  go run ./examples/train -data big.binpack -set ka -factoriser -arch cpw -l1 1024 -buckets 8 \
      -loss wdl -lambda 0.75 -superbatch 100000000 -superbatches 40 -val 100000 \
      -lr-schedule cosine -wd 0.01 -out run2

Outputs (named after -out): OUT.ckpt, OUT.nnue, OUT.nn (thesis architecture), OUT-loss.png,
OUT-history.csv, with -pqr-plots OUT-pqr-*.png. None of them is written over an existing file
without -force (with -resume, the resumed run's own outputs are replaced) or over an input.
Every flag is checked before any data is read. There is no -json: progress and results are
text on standard output, the per-epoch figures are in OUT-history.csv. See doc/trainer.md.

Flags:
`

// newFlagSet returns the command's flags bound to o; -help prints usage and the flag list to
// stderr.
func newFlagSet(o *options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.data, "data", "", "training samples (required), format by extension: .binpack or .plain (Stockfish), otherwise the thesis text formats (quant/dataset: FEN,score,best or the compact per-game line)")
	fs.StringVar(&o.set, "set", "all", "feature set (featureset.Parse syntax, e.g. all, h+v, all+ph+pv, ka, kings(b0.….b63)@hm*all@hm for a king-bucket map)")
	fs.StringVar(&o.arch, "arch", "thesis", "architecture: thesis ((F→L1)×2→L2→1 ClippedReLU) or cpw (F→N→1 SCReLU, output buckets)")
	fs.StringVar(&o.loss, "loss", "score", "loss: score (WDL-space |W(y)−W(f)|^2.6), pqr (thesis §5.3) or wdl (cross-entropy against λ·W(score) + (1−λ)·result, see -lambda)")
	fs.IntVar(&o.l1, "l1", 256, "accumulator width L1 (cpw: N); a multiple of 32 in [32, 16384]")
	fs.IntVar(&o.l2, "l2", 32, "hidden layer width L2 (thesis architecture), in [1, 4096]")
	fs.IntVar(&o.buckets, "buckets", 0, "output buckets by piece count, in [1, 32] (0: cpw 8, thesis 1); thesis with more than 1: a hidden and an output layer per bucket, native format only")
	fs.StringVar(&o.activation, "activation", "screlu", "cpw: the activation after the feature transformer, screlu or crelu (bullet's CReLU single layer, e.g. Stormphrax net013)")
	fs.StringVar(&o.bucketRule, "bucket-rule", "", "output bucket by piece count as a declared rule, pieces(N,Sub,Div) or table(b0,…,b32) (nnue.ParseBucketRule; its bucket count sets -buckets); default the CPW formula (pieces−2)/⌈32/N⌉")
	fs.IntVar(&o.epochs, "epochs", 10, "epochs (total, also when resuming)")
	fs.IntVar(&o.batch, "batch", 16384, "batch size")
	fs.Float64Var(&o.lr, "lr", 5e-4, "Adam learning rate of the first epoch")
	fs.Float64Var(&o.decay, "decay", 0.99, "learning-rate factor per epoch")
	fs.StringVar(&o.val, "val", "0.02", "validation samples: a fraction of the data (< 1) or a count (0: none)")
	fs.IntVar(&o.max, "max", 0, "use at most this many samples (0: all)")
	fs.Float64Var(&o.skip, "skip", 0, "random skip rate of the filter, in [0, 1)")
	fs.IntVar(&o.workers, "workers", 0, "worker goroutines (0: number of CPUs); a run is reproducible for a fixed count")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of weights, shuffles, PQR moves and skipping")
	fs.StringVar(&o.out, "out", "net", "output prefix (its directory must exist)")
	fs.BoolVar(&o.force, "force", false, "replace existing outputs")
	fs.BoolVar(&o.resume, "resume", false, "continue from OUT.ckpt (same -data and filter flags)")
	fs.IntVar(&o.errorPositions, "error-positions", 10000, "validation positions for the quantization-error report")
	fs.IntVar(&o.pawnValue, "pawn-value", 0, "output units per pawn stored in the native file (0: format default 100; 361 for Stockfish 15.1 internal units)")
	fs.BoolVar(&o.final, "final", false, "export the last epoch's parameters instead of those with the lowest validation loss")
	fs.DurationVar(&o.budget, "time", 0, "training time budget (e.g. 30m): stop after the current batch, checkpoint and export (0: none)")
	fs.Float64Var(&o.wdlA, "wdl-a", 0, "WDL model a of the losses (0: thesis 1.28)")
	fs.Float64Var(&o.wdlB, "wdl-b", 0, "WDL model b of the losses, positive (0: thesis 297.21)")
	fs.StringVar(&o.unscale, "unscale", "none", "score transform: none, or sf15.1 (divide by Stockfish 15.1's material and fifty-move scaling, quant/dataset.UnscaleStockfish151)")
	fs.BoolVar(&o.mirror, "mirror", false, "also train on each sample mirrored a↔h when neither side may castle (-loss score or wdl)")
	fs.Float64Var(&o.lambda, "lambda", 1, "-loss wdl: weight of the evaluation target against the game result, in [0, 1]")
	fs.StringVar(&o.filter, "filter", "thesis", "sample filter: thesis (no check, no capture as best move, |score| ≤ 5000), nocheck (only positions in check skipped) or none")
	fs.Float64Var(&o.pqrP, "pqr-p", 0, "-loss pqr: move-count quantile p of the M filter, in [0, 1) (thesis §6.5: 0, 0.25, 0.5, 0.75)")
	fs.IntVar(&o.pqrPlots, "pqr-plots", 0, "-loss pqr: draw the PQR diagnostics over this many validation samples (0: none)")
	fs.IntVar(&o.superbatch, "superbatch", 0, "stream -data instead of loading it: samples per superbatch (rounded down to whole batches; 0: epochs over the data in memory)")
	fs.IntVar(&o.superbatches, "superbatches", 10, "with -superbatch: superbatches to train (total, also when resuming)")
	fs.IntVar(&o.shuffle, "shuffle", 1<<20, "with -superbatch: samples in the shuffle buffer")
	fs.StringVar(&o.schedule, "lr-schedule", "exp", "learning-rate schedule over epochs or superbatches: exp (lr·decay^unit), step (lr·gamma^⌊unit/step⌋) or cosine (lr to -lr-final)")
	fs.IntVar(&o.lrStep, "lr-step", 1, "-lr-schedule step: units per step")
	fs.Float64Var(&o.lrGamma, "lr-gamma", 0.1, "-lr-schedule step: factor per step")
	fs.Float64Var(&o.lrFinal, "lr-final", 0, "-lr-schedule cosine: learning rate of the last unit (0: lr/100)")
	fs.BoolVar(&o.pairwise, "pairwise", false, "thesis architecture: the pairwise product of each perspective's accumulator halves instead of ClippedReLU (nnue.Pairwise{Max: 127, Shift: 7}; -l1 a multiple of 64)")
	fs.IntVar(&o.l3, "l3", 0, "thesis architecture: width of a second hidden layer after L2 (0: none)")
	fs.BoolVar(&o.psqt, "psqt", false, "thesis architecture: a Stockfish-style PSQT part beside the feature transformer, one column per output bucket (native format only)")
	fs.BoolVar(&o.bullet, "bullet", false, "also write OUT.bin in bullet's quantised layout and print the architecture string that loads it (-arch cpw on all or all@hm, optionally times a king-bucket map; doc/trainer.md)")
	fs.BoolVar(&o.stockfish, "stockfish", false, "also write OUT-stockfish.nnue, a Stockfish 13 .nnue file (-arch thesis -set halfkp -l1 256 -l2 32 -l3 32 only; doc/trainer.md)")
	fs.BoolVar(&o.factoriser, "factoriser", false, "train a factoriser for a product set A*B such as ka or kb32*all: one virtual row per B feature shared by every A value, merged into each row on export")
	fs.Float64Var(&o.wd, "wd", 0, "AdamW weight decay λ in [0, 1) (0: Adam)")
	fs.StringVar(&o.finetune, "finetune", "", "start from this checkpoint's parameters and train with -loss, -lr, -epochs as a new run")
	return fs
}

// parseFlags parses args (without the program name). -help returns flag.ErrHelp after printing
// the usage to stderr.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := newFlagSet(&o, stderr)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return o, nil
}

// errorLine formats an error for stderr with the program's name in front, once: errors of
// package quant/train already start with its name, "train".
func errorLine(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "train: ") {
		return msg
	}
	return "train: " + msg
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, errorLine(err))
		if errors.Is(err, context.Canceled) {
			os.Exit(130)
		}
		os.Exit(1)
	}
}

// loaded is the encoded data plus the last positions (the validation tail) for the
// quantization-error report.
type loaded struct {
	data *train.Data
	tail []board.Position // ring buffer of the last positions added, oldest at next
	next int
	read int // samples read before filtering
}

// source reads -data once, in order, and yields the samples the run trains on: read by the
// reader of the file's extension, filtered (-filter, -skip, the PQR M filter), unscaled
// (-unscale), each followed by its a↔h mirror with -mirror. Every pass over the file opens a
// new source, so every pass yields the same samples.
type source struct {
	path    string
	f       *os.File
	r       dataset.SampleReader
	filt    *dataset.Filter
	mfilt   *dataset.MFilter
	unscale bool
	mirror  bool
	read    int // samples read before filtering
	pending *board.Position
	s       *dataset.Sample
	score   float64
}

func newSource(o options, mfilt *dataset.MFilter) (*source, error) {
	f, err := os.Open(o.data)
	if err != nil {
		return nil, err
	}
	filt := dataset.ThesisFilter(o.skip, o.seed)
	switch o.filter {
	case "nocheck":
		filt = &dataset.Filter{SkipInCheck: true, SkipRate: o.skip, Seed: o.seed}
	case "none":
		filt = &dataset.Filter{SkipRate: o.skip, Seed: o.seed}
	}
	return &source{path: o.data, f: f, r: openReader(o.data, f), filt: filt, mfilt: mfilt, unscale: o.unscale == "sf15.1", mirror: o.mirror}, nil
}

// add encodes the next sample into enc: the original's error wrapped with its line, io.EOF at
// the end of the file, the reader's error (naming its position) for bad data.
func (src *source) add(enc *train.Encoder) error {
	if m := src.pending; m != nil {
		// Without castling rights a position and its a↔h mirror have the same value; for a
		// feature set that is not itself mirror-symmetric (ALL, H, …) the mirror is a new
		// input, so a second sample with the same score.
		src.pending = nil
		if err := enc.AddResult(m, src.score, board.NullMove, src.s.ResultFor()); err != nil {
			return fmt.Errorf("%s:%d: mirrored: %w", src.path, src.s.Line, err)
		}
		return nil
	}
	for src.r.Next() {
		s := src.r.Sample()
		src.read++
		if !src.filt.Keep(s) || (src.mfilt != nil && !src.mfilt.Keep(&s.Pos)) {
			continue
		}
		score := float64(s.Score)
		if src.unscale {
			score = dataset.UnscaleStockfish151(&s.Pos, score)
		}
		if err := enc.AddResult(&s.Pos, score, s.Best, s.ResultFor()); err != nil {
			if errors.Is(err, train.ErrNoAlternative) {
				continue
			}
			return fmt.Errorf("%s:%d: %w", src.path, s.Line, err)
		}
		src.s, src.score = s, score
		if src.mirror && s.Pos.Castling() == 0 {
			m := s.Pos.MirrorFiles()
			src.pending = &m
		}
		return nil
	}
	if err := src.r.Err(); err != nil {
		return fmt.Errorf("%s: %w", src.path, err)
	}
	return io.EOF
}

// position is the position of the sample add encoded last.
func (src *source) position() board.Position {
	if src.pending == nil && src.mirror && src.s.Pos.Castling() == 0 {
		return src.s.Pos.MirrorFiles()
	}
	return src.s.Pos
}

func (src *source) Close() error { return src.f.Close() }

// fileStream is the train.Stream of -superbatch: every pass a new source over -data, whose
// first skip encoded samples (the held-out validation head) are passed over.
type fileStream struct {
	o     options
	mfilt *dataset.MFilter
	tr    *train.Trainer
	skip  int
	src   *source
}

func (fs *fileStream) Open(pass int) error {
	fs.Close()
	src, err := newSource(fs.o, fs.mfilt)
	if err != nil {
		return err
	}
	fs.src = src
	for range fs.skip {
		enc, err := fs.tr.NewEncoder()
		if err != nil {
			return err
		}
		if err := src.add(enc); err != nil {
			return err
		}
	}
	return nil
}

func (fs *fileStream) Next(enc *train.Encoder) error { return fs.src.add(enc) }

func (fs *fileStream) Close() error {
	if fs.src == nil {
		return nil
	}
	err := fs.src.Close()
	fs.src = nil
	return err
}

// load reads the first limit samples (all with limit 0) into memory, keeping the last
// -error-positions positions for the quantization-error report.
func load(ctx context.Context, o options, tr *train.Trainer, mfilt *dataset.MFilter, limit int, log io.Writer) (*loaded, error) {
	enc, err := tr.NewEncoder()
	if err != nil {
		return nil, err
	}
	src, err := newSource(o, mfilt)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	l := &loaded{}
	ring := max(o.errorPositions, 0)
	start, last := time.Now(), time.Now()
	for limit == 0 || enc.Len() < limit {
		if err := src.add(enc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
		if ring > 0 {
			p := src.position()
			if len(l.tail) < ring {
				l.tail = append(l.tail, p)
			} else {
				l.tail[l.next] = p
				l.next = (l.next + 1) % ring
			}
		}
		if now := time.Now(); now.Sub(last) > 10*time.Second {
			last = now
			fmt.Fprintf(log, "reading %s: %d samples kept of %d (%.0f/s)\n", o.data, enc.Len(), src.read, float64(src.read)/now.Sub(start).Seconds())
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
	}
	l.read = src.read
	l.data = enc.Data()
	fmt.Fprintf(log, "read %s: %d samples kept of %d in %.1fs\n", o.data, l.data.Len(), l.read, time.Since(start).Seconds())
	return l, nil
}

// openReader picks the sample reader by the file's extension.
func openReader(path string, r io.Reader) dataset.SampleReader {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".binpack":
		return dataset.NewBinpackReader(r)
	case ".plain":
		return dataset.NewStockfishPlainReader(r)
	}
	return dataset.NewReader(r)
}

// moveCountFilter reads -data once to build the per-turn, per-colour legal-move-count
// distribution and returns the M filter for -pqr-p (thesis §6.5).
func moveCountFilter(o options, log io.Writer) (*dataset.MFilter, error) {
	f, err := os.Open(o.data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := openReader(o.data, f)
	var st dataset.MoveCountStats
	n := 0
	for r.Next() {
		if o.max > 0 && n >= 2*o.max {
			break
		}
		st.Add(&r.Sample().Pos)
		n++
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	mf, err := dataset.NewMFilter(&st, o.pqrP)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "M filter p=%.2f over %d positions: M at turns 10/20/40/60 White %d/%d/%d/%d, Black %d/%d/%d/%d\n", o.pqrP, n,
		mf.Threshold(10, board.White), mf.Threshold(20, board.White), mf.Threshold(40, board.White), mf.Threshold(60, board.White),
		mf.Threshold(10, board.Black), mf.Threshold(20, board.Black), mf.Threshold(40, board.Black), mf.Threshold(60, board.Black))
	return mf, nil
}

// lastPositions returns the last n positions added, oldest first.
func (l *loaded) lastPositions(n int) []board.Position {
	ordered := append(append([]board.Position(nil), l.tail[l.next:]...), l.tail[:l.next]...)
	return ordered[max(len(ordered)-n, 0):]
}

// parseVal parses -val: a fraction in [0, 1) or a whole count.
func parseVal(spec string) (float64, error) {
	v, err := strconv.ParseFloat(spec, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) || (v >= 1 && v != math.Trunc(v)) {
		return 0, fmt.Errorf("-val %q: want a fraction in [0, 1) or a whole count", spec)
	}
	return v, nil
}

func valCount(spec string, n int) (int, error) {
	v, err := parseVal(spec)
	if err != nil {
		return 0, err
	}
	if v < 1 {
		return int(v * float64(n)), nil
	}
	return int(v), nil
}

// checkFlags validates every flag that needs no file, so that a mistake is reported before any
// work starts.
func checkFlags(o options) error {
	switch {
	case o.data == "":
		return errors.New("-data is required")
	case o.unscale != "" && o.unscale != "none" && o.unscale != "sf15.1":
		return fmt.Errorf("-unscale %q: want none or sf15.1", o.unscale)
	case o.filter != "" && o.filter != "thesis" && o.filter != "nocheck" && o.filter != "none":
		return fmt.Errorf("-filter %q: want thesis, nocheck or none", o.filter)
	case o.resume && o.finetune != "":
		return errors.New("-resume and -finetune exclude each other")
	case !(o.skip >= 0 && o.skip < 1):
		return fmt.Errorf("-skip %v outside [0, 1)", o.skip)
	case !(o.pqrP >= 0 && o.pqrP < 1):
		return fmt.Errorf("-pqr-p %v outside [0, 1)", o.pqrP)
	case o.pqrPlots < 0:
		return fmt.Errorf("-pqr-plots %d is negative", o.pqrPlots)
	case o.max < 0:
		return fmt.Errorf("-max %d is negative", o.max)
	case o.errorPositions < 0:
		return fmt.Errorf("-error-positions %d is negative", o.errorPositions)
	case o.pawnValue < 0:
		return fmt.Errorf("-pawn-value %d is negative", o.pawnValue)
	case o.budget < 0:
		return fmt.Errorf("-time %s is negative", o.budget)
	case !(o.wdlB >= 0) || math.IsNaN(o.wdlA) || math.IsInf(o.wdlA, 0):
		return fmt.Errorf("-wdl-a %v, -wdl-b %v: want a finite a and b > 0 (0: thesis)", o.wdlA, o.wdlB)
	case o.out == "":
		return errors.New("-out is empty")
	}
	if _, err := parseVal(o.val); err != nil {
		return err
	}
	if o.superbatch == 0 && o.epochs < 1 {
		return fmt.Errorf("-epochs %d: want at least 1", o.epochs)
	}
	if o.workers < 0 {
		return fmt.Errorf("-workers %d is negative", o.workers)
	}
	if o.superbatch < 0 || o.shuffle < 0 || o.lrStep < 0 || o.lrGamma < 0 || o.lrFinal < 0 {
		return fmt.Errorf("-superbatch %d, -shuffle %d, -lr-step %d, -lr-gamma %v, -lr-final %v: negative", o.superbatch, o.shuffle, o.lrStep, o.lrGamma, o.lrFinal)
	}
	if !(o.wd >= 0 && o.wd < 1) {
		return fmt.Errorf("-wd %v outside [0, 1)", o.wd)
	}
	if o.activation != "" && o.activation != "screlu" && (o.activation != "crelu" || o.arch != "cpw") {
		return fmt.Errorf("-activation %s: want screlu, or crelu with -arch cpw", o.activation)
	}
	if rule, err := nnue.ParseBucketRule(o.bucketRule); err != nil {
		return fmt.Errorf("-bucket-rule: %w", err)
	} else if !rule.IsZero() && o.buckets != 0 && rule.Count() != o.buckets {
		return fmt.Errorf("-bucket-rule %s selects %d buckets, -buckets is %d", rule, rule.Count(), o.buckets)
	}
	if o.superbatch > 0 {
		v, _ := parseVal(o.val)
		switch {
		case o.superbatches < 1:
			return fmt.Errorf("-superbatches %d: want at least 1", o.superbatches)
		case v > 0 && v < 1:
			return fmt.Errorf("-val %s: with -superbatch give a count of held-out samples (the first ones of -data), e.g. -val 10000, or 0", o.val)
		case o.max > 0:
			return errors.New("-max limits the samples loaded into memory; with -superbatch every pass streams the whole of -data")
		case o.superbatch < o.batch:
			return fmt.Errorf("-superbatch %d is smaller than -batch %d", o.superbatch, o.batch)
		}
	}
	if !o.resume && o.finetune == "" {
		// a new model: the shape flags must be given (the library reads 0 as "default")
		switch {
		case o.l1 < 1:
			return fmt.Errorf("-l1 %d: want a multiple of 32 in [32, 16384]", o.l1)
		case o.arch == "thesis" && o.l2 < 1:
			return fmt.Errorf("-l2 %d: want L2 in [1, 4096]", o.l2)
		case o.l3 < 0 || (o.arch != "thesis" && (o.l3 > 0 || o.pairwise)):
			return fmt.Errorf("-l3 %d, -pairwise %v: the thesis architecture's options (L3 ≥ 0)", o.l3, o.pairwise)
		case o.buckets < 0 || o.buckets > 32:
			return fmt.Errorf("-buckets %d: want [1, 32] (0: the architecture's default)", o.buckets)
		case o.batch < 1:
			return fmt.Errorf("-batch %d: want at least 1", o.batch)
		case !(o.lr > 0), !(o.decay > 0):
			return fmt.Errorf("-lr %v, -decay %v: want positive values", o.lr, o.decay)
		}
	} else if !(o.lr > 0) && o.finetune != "" {
		return fmt.Errorf("-lr %v: want a positive value", o.lr)
	}
	f, err := os.Open(o.data)
	if err != nil {
		return fmt.Errorf("-data: %w", err)
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return fmt.Errorf("-data: %w", err)
	}
	if st.IsDir() {
		return fmt.Errorf("-data %s is a directory", o.data)
	}
	return nil
}

// thesisFormat reports whether the network has the thesis composition, the only one the thesis
// .nn format holds: one stack, ClippedReLU, one hidden layer.
func thesisFormat(c train.Config) bool {
	c = c.Defaults()
	return c.Arch == train.ArchThesis && c.ThesisBuckets == 1 && c.L3 == 0 && !c.Pairwise && !c.PSQT
}

// outputs lists the files the run writes besides the checkpoint.
func outputs(o options, c train.Config, loss train.Loss) []string {
	out := []string{o.out + ".nnue", o.out + "-loss.png", o.out + "-history.csv"}
	if thesisFormat(c) {
		out = append(out, o.out+".nn")
	}
	if o.bullet {
		out = append(out, o.out+".bin")
	}
	if o.stockfish {
		out = append(out, o.out+"-stockfish.nnue")
	}
	if o.pqrPlots > 0 && loss == train.LossPQR {
		out = append(out, o.out+"-pqr-scatter.png", o.out+"-pqr-hist.png")
		if o.finetune != "" {
			out = append(out, o.out+"-pqr-start-scatter.png", o.out+"-pqr-start-hist.png")
		}
	}
	return out
}

// create opens an output through internal/outfile (temporary file renamed into place by
// commit). A resumed run replaces its own outputs; otherwise an existing file needs -force.
func create(o options, path string, write func(io.Writer) error) error {
	f, err := outfile.Create(path, o.force || o.resume, o.data, o.finetune)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := write(f); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Commit()
}

func run(ctx context.Context, o options, log io.Writer) error {
	if err := checkFlags(o); err != nil {
		return err
	}
	arch, err := train.ParseArch(o.arch)
	if err != nil {
		return err
	}
	loss, err := train.ParseLoss(o.loss)
	if err != nil {
		return err
	}
	set, err := featureset.Parse(o.set)
	if err != nil {
		return err
	}
	sched := train.ScheduleExp
	if o.schedule != "" { // "" in options built by tests: the flag's default
		if sched, err = train.ParseSchedule(o.schedule); err != nil {
			return err
		}
	}
	ckpt := o.out + ".ckpt"
	var tr *train.Trainer
	if o.resume {
		if tr, err = train.Load(ckpt); err != nil {
			return err
		}
		c := tr.Config()
		if c.Arch != arch || c.Loss != loss {
			fmt.Fprintf(log, "resuming %s: architecture %v, loss %v from the checkpoint\n", ckpt, c.Arch, c.Loss)
			loss = c.Loss
		}
		if err := tr.SetEpochs(o.units()); err != nil {
			return err
		}
		fmt.Fprintf(log, "resuming %s after %d epochs\n", ckpt, tr.Epoch())
	} else {
		if err := outfile.Check(ckpt, o.force, o.data, o.finetune); err != nil {
			return err
		}
		if o.finetune != "" {
			if tr, err = train.Load(o.finetune); err != nil {
				return err
			}
			c := tr.Config()
			fmt.Fprintf(log, "fine-tuning %s (%v, loss %v, %d epochs) with loss %v, lr %g, %d epochs\n", o.finetune, c.Arch, c.Loss, tr.Epoch(), loss, o.lr, o.epochs)
			if e, l := tr.Best(); !o.final && tr.UseBest() {
				fmt.Fprintf(log, "starting from its epoch %d (lowest validation loss %.6f; -final: its last parameters)\n", e, l)
			}
			if err := tr.FineTune(loss, o.lr, o.units()); err != nil {
				return err
			}
			tr.SetCheckpoint(ckpt)
		} else {
			cfg := train.Config{Arch: arch, L1: o.l1, L2: o.l2, Loss: loss, Epochs: o.units(),
				BatchSize: o.batch, LR: o.lr, Decay: o.decay, Workers: o.workers, Seed: o.seed, Checkpoint: ckpt, KeepBest: !o.final,
				Lambda: o.lambda, Schedule: sched, StepEvery: o.lrStep, Gamma: o.lrGamma, FinalLR: o.lrFinal, WeightDecay: o.wd,
				SuperbatchBatches: max(o.superbatch/max(o.batch, 1), 1), ShuffleBuffer: o.shuffle, Factoriser: o.factoriser,
				L3: o.l3, Pairwise: o.pairwise, PSQT: o.psqt, CReLU: o.activation == "crelu"}
			if arch == train.ArchThesis {
				cfg.ThesisBuckets = o.buckets
			} else {
				cfg.Buckets = o.buckets
			}
			if cfg.BucketRule, err = nnue.ParseBucketRule(o.bucketRule); err != nil {
				return fmt.Errorf("-bucket-rule: %w", err)
			}
			if o.wdlA != 0 || o.wdlB != 0 {
				cfg.WDL = quant.ThesisWDL
				if o.wdlA != 0 {
					cfg.WDL.A = o.wdlA
				}
				if o.wdlB != 0 {
					cfg.WDL.B = o.wdlB
				}
			}
			if err := cfg.Validate(); err != nil {
				return err
			}
			if err := cfg.CheckExport(); err != nil {
				return err
			}
			if tr, err = train.New(o.set, set.Size(), cfg); err != nil {
				return err
			}
		}
	}
	c := tr.Config()
	if err := c.CheckExport(); err != nil {
		return err
	}
	if o.bullet {
		if err := c.CheckBullet(o.set); err != nil {
			return fmt.Errorf("-bullet: %w", err)
		}
	}
	if o.stockfish {
		if err := c.CheckStockfish(o.set); err != nil {
			return fmt.Errorf("-stockfish: %w", err)
		}
	}
	if o.mirror && loss == train.LossPQR {
		return errors.New("-mirror needs -loss score or wdl")
	}
	for _, p := range outputs(o, c, loss) {
		if err := outfile.Check(p, o.force || o.resume, o.data, o.finetune); err != nil {
			return err
		}
	}
	tr.Log = log
	var mfilt *dataset.MFilter
	if loss == train.LossPQR && o.pqrP > 0 {
		if mfilt, err = moveCountFilter(o, log); err != nil {
			return err
		}
	}
	stream := o.superbatch > 0
	var (
		l                  *loaded
		nval               int
		trainData, valData *train.Data
		trainDesc          string
	)
	if stream {
		// the first -val samples are held out; every pass streams the rest
		l = &loaded{}
		if v, _ := parseVal(o.val); v > 0 {
			if l, err = load(ctx, o, tr, mfilt, int(v), log); err != nil {
				return err
			}
			if nval = l.data.Len(); nval > 0 {
				valData = l.data
			}
		}
		trainDesc = fmt.Sprintf("%s streamed after the first %d", o.data, nval)
	} else {
		if l, err = load(ctx, o, tr, mfilt, o.max, log); err != nil {
			return err
		}
		if nval, err = valCount(o.val, l.data.Len()); err != nil {
			return err
		}
		trainData = l.data
		if nval > 0 {
			if trainData, valData, err = l.data.Split(nval); err != nil {
				return err
			}
		}
		trainDesc = fmt.Sprintf("%d", trainData.Len())
	}
	fmt.Fprintf(log, "training %s %v L1=%d L2=%d loss=%v: %s training, %d validation samples; batch %d, lr %g (%v schedule), %d workers\n",
		o.set, c.Arch, c.L1, c.L2, c.Loss, trainDesc, nval, c.BatchSize, c.LR, c.Schedule, c.Workers)
	if stream {
		fmt.Fprintf(log, "superbatches of %d batches (%d samples), shuffle buffer %d samples\n", c.SuperbatchBatches, c.SuperbatchBatches*c.BatchSize, c.ShuffleBuffer)
	}
	plots := func(prefix, title string) error {
		if o.pqrPlots <= 0 || loss != train.LossPQR || valData == nil {
			return nil
		}
		g, err := tr.PQRDiagnose(valData, o.pqrPlots)
		if err != nil {
			return err
		}
		corr, meanAbs, share, med := g.Summary()
		// The data's engine scores are not a PQR target, but a common yardstick: how well f(P)
		// follows them (Pearson), over the same samples.
		var sx, sy, sxx, syy, sxy float64
		for k := range len(g.P) {
			i := int(int64(k) * int64(valData.Len()) / int64(len(g.P)))
			x, y := g.P[k], float64(valData.Score(i))
			sx, sy, sxx, syy, sxy = sx+x, sy+y, sxx+x*x, syy+y*y, sxy+x*y
		}
		n := float64(len(g.P))
		pearson := (sxy/n - sx/n*sy/n) / math.Sqrt((sxx/n-sx/n*sx/n)*(syy/n-sy/n*sy/n))
		fmt.Fprintf(log, "PQR diagnostics (%s, %d validation samples): corr(f(P), −f(Q)) %.3f, mean |f(P)+f(Q)| %.1f cp, f(R) > f(Q) in %.1f%%, median f(R)−f(Q) %.1f cp, Pearson(f(P), engine score) %.3f\n",
			title, len(g.P), corr, meanAbs, 100*share, med, pearson)
		return create(o, prefix+"-scatter.png", func(sw io.Writer) error {
			return create(o, prefix+"-hist.png", func(hw io.Writer) error { return g.WritePQRPlots(sw, hw, title, 0) })
		})
	}
	if o.finetune != "" {
		if err := plots(o.out+"-pqr-start", "checkpoint "+filepath.Base(o.finetune)); err != nil {
			return err
		}
	}
	start := time.Now()
	tctx := ctx
	if o.budget > 0 {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, o.budget)
		defer cancel()
	}
	if stream {
		err = tr.TrainStream(tctx, &fileStream{o: o, mfilt: mfilt, tr: tr, skip: nval}, valData)
	} else {
		err = tr.Train(tctx, trainData, valData)
	}
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		fmt.Fprintf(log, "time budget %s reached after %d epochs: checkpoint written, exporting\n", o.budget, tr.Epoch())
	}
	fmt.Fprintf(log, "trained in %s\n", time.Since(start).Round(time.Second))
	h := tr.History()
	if err := create(o, o.out+"-history.csv", func(w io.Writer) error { return writeHistory(w, h) }); err != nil {
		return err
	}
	if len(h) > 0 {
		title := fmt.Sprintf("%s %v L1=%d, %s samples", o.set, c.Arch, c.L1, trainDesc)
		if err := create(o, o.out+"-loss.png", func(w io.Writer) error { return train.WriteLossPlot(w, title, train.HistoryCurves(h)) }); err != nil {
			return err
		}
	}
	if !o.final && valData != nil {
		// the last parameters may come from a partial epoch (time budget): compare them too
		cur, err := tr.Loss(valData)
		if err != nil {
			return err
		}
		if e, l := tr.Best(); e > 0 && l <= cur {
			tr.UseBest()
			unit := "epoch"
			if stream {
				unit = "superbatch"
			}
			fmt.Fprintf(log, "exporting %s %d (lowest validation loss %.6f; last parameters %.6f)\n", unit, e, l, cur)
		} else {
			fmt.Fprintf(log, "exporting the last parameters (validation loss %.6f)\n", cur)
		}
	}
	// The diagnostics describe the parameters that are exported.
	if err := plots(o.out+"-pqr", filepath.Base(o.out)+" (exported parameters)"); err != nil {
		return err
	}
	ex, err := tr.Export(l.lastPositions(min(nval, o.errorPositions)))
	if err != nil {
		return err
	}
	if o.pawnValue > 0 {
		desc := fmt.Sprintf("nnuekit examples/train: %s %v L1=%d L2=%d loss=%v, %s samples of %s, %d epochs",
			o.set, c.Arch, c.L1, c.L2, c.Loss, trainDesc, o.data, len(h))
		if o.unscale == "sf15.1" {
			desc += ", scores unscaled (sf15.1)"
		}
		if o.mirror {
			desc += ", a↔h mirrors added"
		}
		if err := ex.SetPawnValue(int32(o.pawnValue), desc); err != nil {
			return err
		}
	}
	if err := create(o, o.out+".nnue", func(w io.Writer) error { return nnue.WriteNative(w, ex.Network) }); err != nil {
		return err
	}
	thesisPath := ""
	if thesisFormat(c) {
		thesisPath = o.out + ".nn"
		if err := create(o, thesisPath, func(w io.Writer) error { return nnue.WriteThesis(w, ex.Network) }); err != nil {
			return err
		}
	}
	if o.bullet {
		var decl string
		if err := create(o, o.out+".bin", func(w io.Writer) (err error) { decl, err = ex.WriteBullet(w); return err }); err != nil {
			return err
		}
		fmt.Fprintf(log, "wrote %s.bin (bullet's quantised layout); load it with -arch '%s'\n", o.out, decl)
	}
	if o.stockfish {
		desc := fmt.Sprintf("nnuekit examples/train: %s %v L1=%d L2=%d L3=%d loss=%v, %s", o.set, c.Arch, c.L1, c.L2, c.L3, c.Loss, o.data)
		if err := create(o, o.out+"-stockfish.nnue", func(w io.Writer) error { return ex.WriteStockfish(w, desc) }); err != nil {
			return err
		}
		fmt.Fprintf(log, "wrote %s-stockfish.nnue (Stockfish 13 HalfKP layout; nnue.Load reads it)\n", o.out)
	}
	fmt.Fprintf(log, "wrote %s.nnue %s\nclipped values: %d\n", o.out, thesisPath, ex.Clip.TotalClipped())
	if ex.Clip.TotalClipped() > 0 {
		fmt.Fprint(log, ex.Clip)
	}
	if ex.Error != nil {
		fmt.Fprintf(log, "quantization error over %d validation positions:\n", ex.Error.N)
		if err := ex.Error.WriteMarkdown(log); err != nil {
			return err
		}
	}
	return nil
}

func writeHistory(w io.Writer, h []train.EpochStats) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "epoch,train_loss,val_loss,lr,seconds,samples")
	for _, e := range h {
		fmt.Fprintf(bw, "%d,%.8f,%.8f,%.6g,%.1f,%d\n", e.Epoch, e.TrainLoss, e.ValLoss, e.LR, e.Seconds, e.Samples)
	}
	return bw.Flush()
}
