package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant/dataset"
	"github.com/nnuekit/nnuekit/quant/train"
)

// testdata/tiny.txt: the first games of a Stockfish self-play run of examples/datagen (compact
// format with results).

func TestSmokeThesis(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "net")
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", out: out, val: "0.1",
		l1: 32, l2: 8, epochs: 1, batch: 256, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, errorPositions: 1000}
	log := runOK(t, o, "")
	for _, want := range []string{"epoch 1/1", "val loss", "clipped values: 0", "within 0.03"} {
		if !strings.Contains(log, want) {
			t.Errorf("output lacks %q:\n%s", want, log)
		}
	}
	for _, f := range []string{".nnue", ".nn", ".ckpt", "-loss.png", "-history.csv"} {
		if st, err := os.Stat(out + f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", out+f, err)
		}
	}
	a, err := nnue.LoadFile(out + ".nn")
	if err != nil {
		t.Fatal(err)
	}
	b, err := nnue.LoadFile(out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	p := board.StartPosition()
	if a.Evaluate(&p) != b.Evaluate(&p) {
		t.Errorf("thesis file %d, native file %d", a.Evaluate(&p), b.Evaluate(&p))
	}
	// resume one more epoch
	o.resume, o.epochs = true, 2
	log = runOK(t, o, "resume")
	if !strings.Contains(log, "resuming") || !strings.Contains(log, "epoch 2/2") {
		t.Errorf("resume output:\n%s", log)
	}
}

func TestSmokeCPWAndPQR(t *testing.T) {
	dir := t.TempDir()
	for _, o := range []options{
		{arch: "cpw", loss: "score", l1: 32, buckets: 8},
		{arch: "thesis", loss: "pqr", l1: 32, l2: 8},
	} {
		o.data, o.set, o.out, o.val = "testdata/tiny.txt", "all", filepath.Join(dir, o.arch+o.loss), "50"
		o.epochs, o.batch, o.lr, o.decay, o.workers, o.seed, o.max = 1, 256, 1e-3, 0.99, 2, 1, 400
		runOK(t, o, fmt.Sprintf("%s/%s", o.arch, o.loss))
		if _, err := nnue.LoadFile(o.out + ".nnue"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, o := range []options{
		{},
		{data: "testdata/tiny.txt", arch: "resnet", loss: "score", set: "all"},
		{data: "testdata/tiny.txt", arch: "thesis", loss: "mse", set: "all"},
		{data: "testdata/tiny.txt", arch: "thesis", loss: "score", set: "nonsense"},
		{data: "testdata/tiny.txt", arch: "thesis", loss: "score", set: "all", unscale: "sf16"},
		{data: "testdata/missing.txt", arch: "thesis", loss: "score", set: "all", l1: 32, l2: 8, epochs: 1, batch: 8, lr: 1, decay: 1, val: "0"},
	} {
		if err := run(context.Background(), o, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestMirrorNeedsScoreLoss(t *testing.T) {
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "pqr", out: filepath.Join(t.TempDir(), "net"),
		val: "0.1", l1: 32, l2: 8, epochs: 1, batch: 64, lr: 1e-3, decay: 0.99, workers: 1, seed: 1, mirror: true}
	err := run(context.Background(), o, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-mirror") {
		t.Errorf("-mirror with -loss pqr: error %v, want one naming -mirror", err)
	}
}

func TestTimeBudget(t *testing.T) {
	out := filepath.Join(t.TempDir(), "net")
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", out: out, val: "0.1",
		l1: 32, l2: 8, epochs: 50, batch: 64, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, budget: time.Nanosecond, wdlB: 650}
	log := runOK(t, o, "")
	if !strings.Contains(log, "time budget") {
		t.Errorf("output:\n%s", log)
	}
	if _, err := nnue.LoadFile(out + ".nnue"); err != nil {
		t.Fatal(err)
	}
}

// TestUnscaleMirror checks that -mirror adds the a↔h mirror of every sample without castling
// rights and that -unscale sf15.1 trains.
func TestUnscaleMirror(t *testing.T) {
	kept := func(o options) (string, int) {
		o.data, o.set, o.arch, o.loss, o.val = "testdata/tiny.txt", "all", "thesis", "score", "0.1"
		o.out = filepath.Join(t.TempDir(), "net")
		o.l1, o.l2, o.epochs, o.batch, o.lr, o.decay, o.workers, o.seed = 32, 8, 1, 256, 1e-3, 0.99, 2, 1
		log := runOK(t, o, fmt.Sprintf("%+v", o))
		var n, read int
		for _, line := range strings.Split(log, "\n") {
			if strings.HasPrefix(line, "read ") {
				if _, err := fmt.Sscanf(line[strings.Index(line, ": ")+2:], "%d samples kept of %d", &n, &read); err != nil {
					t.Fatalf("%q: %v", line, err)
				}
			}
		}
		return log, n
	}
	_, plain := kept(options{})
	_, unscaled := kept(options{unscale: "sf15.1"})
	if unscaled != plain {
		t.Errorf("-unscale changed the sample count: %d, want %d", unscaled, plain)
	}
	// the expected count: quiet samples plus the quiet samples without castling rights
	f, err := os.Open("testdata/tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, filt := dataset.NewReader(f), dataset.ThesisFilter(0, 1)
	quiet, noCastling := 0, 0
	for r.Next() {
		if s := r.Sample(); filt.Keep(s) {
			quiet++
			if s.Pos.Castling() == 0 {
				noCastling++
			}
		}
	}
	if quiet != plain || noCastling == 0 {
		t.Fatalf("%d quiet samples (%d without castling), trainer kept %d", quiet, noCastling, plain)
	}
	if _, mirrored := kept(options{mirror: true, unscale: "sf15.1"}); mirrored != quiet+noCastling {
		t.Errorf("-mirror kept %d samples, want %d + %d", mirrored, quiet, noCastling)
	}
}

// TestWDLFineTunePQR: a wdl run (λ = 0.5) from the binpack fixture, then PQR fine-tuning from
// its checkpoint with the M filter and the diagnostic plots.
func TestWDLFineTunePQR(t *testing.T) {
	dir := t.TempDir()
	base := options{set: "all", arch: "cpw", l1: 32, buckets: 1, val: "200", epochs: 1, batch: 256, lr: 1e-3,
		decay: 0.99, workers: 2, seed: 1}
	o := base
	o.data, o.loss, o.lambda, o.out = "../../quant/dataset/testdata/binpack/sfgen.binpack", "wdl", 0.5, filepath.Join(dir, "wdl")
	log := runOK(t, o, "wdl")
	if !strings.Contains(log, "loss=wdl") {
		t.Errorf("log: %s", log)
	}
	f := base
	f.data, f.loss, f.out, f.finetune = "testdata/tiny.txt", "pqr", filepath.Join(dir, "ft"), o.out+".ckpt"
	f.lr, f.pqrP, f.pqrPlots, f.filter = 1e-4, 0.25, 100, "nocheck"
	log = runOK(t, f, "finetune")
	for _, want := range []string{"fine-tuning", "M filter p=0.25", "PQR diagnostics (checkpoint", "loss=pqr"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	for _, p := range []string{"ft-pqr-scatter.png", "ft-pqr-hist.png", "ft-pqr-start-scatter.png", "ft-pqr-start-hist.png", "ft.nnue"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Error(err)
		}
	}
	f.resume = true
	if err := run(context.Background(), f, io.Discard); err == nil {
		t.Error("-resume with -finetune accepted")
	}
}

// TestFlagsCheckedBeforeTraining: a width nnue cannot export (-l1 30) and outputs that may not be
// written fail before any data is read: no epoch runs and no checkpoint appears.
func TestFlagsCheckedBeforeTraining(t *testing.T) {
	dir := t.TempDir()
	base := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", val: "0.1",
		l1: 32, l2: 8, epochs: 1, batch: 256, lr: 1e-3, decay: 0.99, workers: 1, seed: 1}
	existing := filepath.Join(dir, "old")
	if err := os.WriteFile(existing+".nnue", []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	same := filepath.Join(dir, "in")
	data, err := os.ReadFile("testdata/tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(same+"-history.csv", data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, want string
		edit       func(o *options)
	}{
		{"l1 30", "multiple of 32", func(o *options) { o.l1 = 30 }},
		{"l2 0", "L2", func(o *options) { o.l2 = 0 }},
		{"batch 0", "batch", func(o *options) { o.batch = 0 }},
		{"lambda 2", "lambda", func(o *options) { o.lambda = 2 }},
		{"val", "-val", func(o *options) { o.val = "1.5" }},
		{"pqr-p", "-pqr-p", func(o *options) { o.pqrP = 1 }},
		{"out dir", "does not exist", func(o *options) { o.out = filepath.Join(dir, "nodir", "net") }},
		{"existing", "exists", func(o *options) { o.out = existing }},
		{"input", "same file as an input", func(o *options) { o.out, o.data, o.force = same, same+"-history.csv", true }},
		{"data dir", "directory", func(o *options) { o.data = dir }},
	} {
		o := base
		o.out = filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
		tc.edit(&o)
		var log bytes.Buffer
		err := run(context.Background(), o, &log)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if strings.Contains(log.String(), "epoch") || strings.Contains(log.String(), "read ") {
			t.Errorf("%s: work started before the error:\n%s", tc.name, log.String())
		}
		if _, err := os.Stat(o.out + ".ckpt"); err == nil {
			t.Errorf("%s: checkpoint written", tc.name)
		}
	}
	if b, _ := os.ReadFile(existing + ".nnue"); string(b) != "keep" {
		t.Errorf("existing output changed: %q", b)
	}
	// with -force the existing output is replaced by a network
	o := base
	o.out, o.force = existing, true
	if err := run(context.Background(), o, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if _, err := nnue.LoadFile(existing + ".nnue"); err != nil {
		t.Errorf("-force: %v", err)
	}
}

// TestHelpAndErrors: -help prints a synopsis, an example and the flags with complete help
// texts; an error of package train is printed with the program's name once.
func TestHelpAndErrors(t *testing.T) {
	var buf bytes.Buffer
	if _, err := parseFlags([]string{"-help"}, &buf); err != flag.ErrHelp {
		t.Fatalf("-help: %v", err)
	}
	for _, want := range []string{"Usage:", "go run ./examples/train -data", "Examples", "-superbatch", "-l1", "wdl", ".binpack", "-force", "no -json"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("-help lacks %q:\n%s", want, buf.String())
		}
	}
	if _, err := parseFlags([]string{"-data", "x", "extra"}, &bytes.Buffer{}); err == nil {
		t.Error("extra argument accepted")
	}
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", val: "0", out: filepath.Join(t.TempDir(), "n"),
		l1: 32, l2: 8, epochs: 1, batch: 256, lr: -1, decay: 0.99, workers: 1, seed: 1}
	err := run(context.Background(), o, &bytes.Buffer{})
	if err == nil {
		t.Fatal("negative -lr accepted")
	}
	if line := errorLine(err); strings.Count(line, "train:") != 1 {
		t.Errorf("error line %q", line)
	}
	if line := errorLine(errors.New("-val: bad")); line != "train: -val: bad" {
		t.Errorf("error line %q", line)
	}
}

// TestStreamSuperbatches streams the binpack fixture through a shuffle buffer in superbatches
// with a cosine schedule and AdamW, exports, and resumes for one more superbatch.
func TestStreamSuperbatches(t *testing.T) {
	dir := t.TempDir()
	o := options{data: "../../quant/dataset/testdata/binpack/sfgen.binpack", set: "all", arch: "cpw", loss: "wdl", lambda: 0.5,
		out: filepath.Join(dir, "s"), val: "100", l1: 32, buckets: 2, batch: 64, lr: 1e-3, decay: 0.99, workers: 2, seed: 1,
		superbatch: 256, superbatches: 3, shuffle: 100, schedule: "cosine", wd: 0.01, filter: "none", errorPositions: 50}
	log := runOK(t, o, "")
	for _, want := range []string{"streamed after the first 100", "superbatches of 4 batches (256 samples), shuffle buffer 100", "superbatch 3/3", "cosine schedule"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if _, err := nnue.LoadFile(o.out + ".nnue"); err != nil {
		t.Fatal(err)
	}
	o.resume, o.superbatches = true, 4
	log = runOK(t, o, "resume")
	if !strings.Contains(log, "superbatch 4/4") {
		t.Errorf("resume log:\n%s", log)
	}
	// flags that make no sense when streaming fail before any work
	for _, bad := range []options{{val: "0.1"}, {max: 10}, {superbatches: -1}} {
		b := o
		b.resume, b.force = false, true
		if bad.val != "" {
			b.val = bad.val
		}
		b.max, b.superbatches = bad.max, max(b.superbatches, 0)+min(bad.superbatches, 0)*10
		if err := run(context.Background(), b, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestStreamTruncatedFile: a binpack cut in the middle of a chunk stops a streamed run with the
// reader's error naming the byte offset and the pass; the checkpoint of the last finished
// superbatch stays loadable.
func TestStreamTruncatedFile(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../quant/dataset/testdata/binpack/sfgen.binpack")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.binpack")
	// The whole file, then a copy cut inside its chunk: the binpack reader checks a chunk
	// before handing out its samples, so the first copy's superbatches train and are
	// checkpointed before the reader meets the cut.
	if err := os.WriteFile(cut, append(slices.Clone(data), data[:len(data)*2/3]...), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options{data: cut, set: "all", arch: "cpw", loss: "score", out: filepath.Join(dir, "t"), val: "0", l1: 32, buckets: 1,
		batch: 32, lr: 1e-3, decay: 0.99, workers: 1, seed: 1, superbatch: 32, superbatches: 1000, shuffle: 16, filter: "none"}
	var log bytes.Buffer
	err = run(context.Background(), o, &log)
	if err == nil || !strings.Contains(err.Error(), "byte offset") || !strings.Contains(err.Error(), "pass 1") {
		t.Fatalf("error %v, want the binpack reader's offset and the pass\n%s", err, log.String())
	}
	tr, lerr := train.Load(o.out + ".ckpt")
	if lerr != nil {
		t.Fatalf("checkpoint: %v", lerr)
	}
	if tr.Epoch() == 0 || !strings.Contains(log.String(), fmt.Sprintf("superbatch %d/1000", tr.Epoch())) {
		t.Errorf("checkpoint after %d superbatches; log:\n%s", tr.Epoch(), log.String())
	}
	if _, err := os.Stat(o.out + ".nnue"); err == nil {
		t.Error("a network was exported after the data error")
	}
}

// TestFactoriser trains KING-ALL with a factoriser (streamed) and loads the exported network,
// which has KING-ALL's own size; a set that is not a product is refused before any work.
func TestFactoriser(t *testing.T) {
	dir := t.TempDir()
	o := options{data: "testdata/tiny.txt", set: "ka", arch: "cpw", loss: "score", out: filepath.Join(dir, "f"), val: "50",
		l1: 32, buckets: 1, batch: 64, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, factoriser: true,
		superbatch: 128, superbatches: 2, shuffle: 64, errorPositions: 50}
	log := runOK(t, o, "")
	n, err := nnue.LoadFile(o.out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	if got := n.FeatureSet().Size(); got != 49152 {
		t.Errorf("exported feature set has %d features, want KING-ALL's 49152", got)
	}
	// Stormphrax net013's layout: a king-bucket map by string (4 buckets), factorised, CReLU,
	// in bullet's layout too: the printed architecture loads the .bin file, which evaluates as
	// the .nnue.
	o.set = "kings(" + strings.Repeat("0.0.0.0.1.1.1.1.", 2) + strings.Repeat("2.2.2.2.3.3.3.3.", 5) + "2.2.2.2.3.3.3.3)*all"
	o.out, o.bullet, o.activation = filepath.Join(dir, "k"), true, "crelu"
	log = runOK(t, o, "")
	_, decl, ok := strings.Cut(log, "load it with -arch '")
	decl, _, _ = strings.Cut(decl, "'")
	if !ok || !strings.HasPrefix(decl, "ft="+o.set+":i16 width=32 stack=stm>crelu_affine.i16(255) ") {
		t.Fatalf("bullet architecture %q, want ft=%s…; log:\n%s", decl, o.set, log)
	}
	kn, err := nnue.LoadFile(o.out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := nnue.ParseSpec(decl)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := nnue.LoadBulletFile(o.out+".bin", spec, nnue.BulletFile{})
	if err != nil {
		t.Fatal(err)
	}
	if kn.FeatureSet().Size() != 4*768 || kb.FeatureSet().String() != kn.FeatureSet().String() {
		t.Errorf("feature sets %s (%d) and %s", kn.FeatureSet(), kn.FeatureSet().Size(), kb.FeatureSet())
	}
	for _, fen := range []string{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8/5k2/8/3Q4/8/8/1K6/8 b - - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"} {
		pos, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := kn.Evaluate(&pos), kb.Evaluate(&pos); a != b {
			t.Errorf("%s: native %d, bullet %d", fen, a, b)
		}
	}
	o.bullet, o.activation = false, ""
	o.set, o.out = "all", filepath.Join(dir, "g")
	runRefused(t, o, "-factoriser with -set all", "not a product")
}

// TestThesisBuckets: -arch thesis -buckets 4 trains a hidden and an output layer per bucket and
// exports the native format only.
func TestThesisBuckets(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b")
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", out: out, val: "0.1",
		l1: 32, l2: 8, buckets: 4, epochs: 1, batch: 128, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, errorPositions: 100}
	runOK(t, o, "")
	n, err := nnue.LoadFile(out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Architecture().Buckets.Count(); got != 4 {
		t.Errorf("%d buckets", got)
	}
	if _, err := os.Stat(out + ".nn"); err == nil {
		t.Error("a thesis .nn written for a bucketed network")
	}
}

// TestPairwiseTwoHidden: the pairwise product and a second hidden layer, with output buckets,
// train, export (native only) and load; -l1 32 with -pairwise is refused before any work.
func TestPairwiseTwoHidden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", out: out, val: "0.1",
		l1: 64, l2: 16, l3: 32, pairwise: true, buckets: 2, epochs: 1, batch: 128, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, errorPositions: 100}
	runOK(t, o, "")
	n, err := nnue.LoadFile(out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	if st := n.Architecture().Stacks; len(st) != 2 || len(st[0]) != 7 {
		t.Errorf("stacks %v", st)
	}
	if _, err := os.Stat(out + ".nn"); err == nil {
		t.Error("a thesis .nn written")
	}
	o.l1, o.out = 32, out+"2"
	runRefused(t, o, "-pairwise -l1 32", "nnue.Pairwise")
}

// TestBulletExport: -bullet writes OUT.bin in bullet's layout and prints the architecture
// string; the file loaded with it evaluates as the native file does. A thesis architecture
// with -bullet is refused before any data is read.
func TestBulletExport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b")
	o := options{data: "testdata/tiny.txt", set: "all@hm", arch: "cpw", loss: "score", out: out, val: "0.1",
		l1: 32, buckets: 4, epochs: 1, batch: 128, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, errorPositions: 100, bullet: true}
	log := runOK(t, o, "")
	_, decl, ok := strings.Cut(log, "load it with -arch '")
	decl, _, _ = strings.Cut(decl, "'")
	if !ok || !strings.HasPrefix(decl, "ft=all@hm:i16 width=32 ") {
		t.Fatalf("no architecture string in\n%s", log)
	}
	spec, err := nnue.ParseSpec(decl)
	if err != nil {
		t.Fatal(err)
	}
	b, err := nnue.LoadBulletFile(out+".bin", spec, nnue.BulletFile{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := nnue.LoadFile(out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, count := dataset.NewReader(f), 0
	for ; r.Next(); count++ {
		s := r.Sample()
		if vb, vn := b.Evaluate(&s.Pos), n.Evaluate(&s.Pos); vb != vn {
			t.Fatalf("%s: bullet file %d, native %d", s.Pos.FEN(), vb, vn)
		}
	}
	if r.Err() != nil || count < 600 {
		t.Fatalf("%d positions compared: %v", count, r.Err())
	}
	o.arch, o.l2, o.out = "thesis", 8, out+"2"
	runRefused(t, o, "-arch thesis -bullet", "-bullet")
}

// TestStockfishExport: -stockfish writes OUT-stockfish.nnue, which nnue.LoadFile reads as a
// Stockfish HalfKP network evaluating as the native file does; an architecture that is not
// Stockfish 13's is refused before any data is read.
func TestStockfishExport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s")
	o := options{data: "testdata/tiny.txt", set: "halfkp", arch: "thesis", loss: "score", out: out, val: "0.1",
		l1: 256, l2: 32, l3: 32, epochs: 1, batch: 128, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, errorPositions: 100, stockfish: true}
	runOK(t, o, "")
	s, err := nnue.LoadFile(out + "-stockfish.nnue")
	if err != nil {
		t.Fatal(err)
	}
	n, err := nnue.LoadFile(out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Description(), "Stockfish HalfKP net") {
		t.Errorf("loaded as %q", s.Description())
	}
	f, err := os.Open("testdata/tiny.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := dataset.NewReader(f)
	for r.Next() {
		p := &r.Sample().Pos
		if vs, vn := s.Evaluate(p), n.Evaluate(p); vs != vn {
			t.Fatalf("%s: stockfish file %d, native %d", p.FEN(), vs, vn)
		}
	}
	o.l3, o.out = 0, out+"2"
	runRefused(t, o, "-l3 0 -stockfish", "-stockfish")
}

// TestPSQTFlag: -psqt trains and exports a thesis net with a PSQT part (native format only).
func TestPSQTFlag(t *testing.T) {
	out := filepath.Join(t.TempDir(), "q")
	o := options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", out: out, val: "0.1",
		l1: 32, l2: 8, buckets: 2, psqt: true, epochs: 1, batch: 128, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, errorPositions: 100}
	runOK(t, o, "")
	n, err := nnue.LoadFile(out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	if got := n.FeatureTransformer().PSQTBuckets(); got != 2 {
		t.Errorf("%d PSQT buckets, want 2", got)
	}
	if _, err := os.Stat(out + ".nn"); err == nil {
		t.Error("a thesis .nn written")
	}
	o.arch, o.out = "cpw", out+"2"
	runRefused(t, o, "-arch cpw -psqt", "PSQT")
}

// TestBucketRule: -bucket-rule declares the output-bucket rule; the exported network (native
// and bullet) carries it, the thesis .nn (no buckets) is not written, and a rule that
// disagrees with -buckets or does not parse is refused before any work.
func TestBucketRule(t *testing.T) {
	dir := t.TempDir()
	table := "table(7,7,7,7,7,6,6,6,5,5,5,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0,0,0,0)"
	o := options{data: "testdata/tiny.txt", set: "all", arch: "cpw", loss: "score", out: filepath.Join(dir, "c"), val: "50",
		l1: 32, batch: 64, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, epochs: 1, errorPositions: 50,
		bucketRule: table, bullet: true}
	log := runOK(t, o, "")
	if !strings.Contains(log, " buckets="+table+" ") {
		t.Errorf("bullet architecture without buckets=%s:\n%s", table, log)
	}
	n, err := nnue.LoadFile(o.out + ".nnue")
	if err != nil {
		t.Fatal(err)
	}
	if sp, err := n.Spec(); err != nil || sp.Buckets.String() != table {
		t.Errorf("exported rule %s (%v), want %s", sp.Buckets, err, table)
	}

	o = options{data: "testdata/tiny.txt", set: "all", arch: "thesis", loss: "score", out: filepath.Join(dir, "t"), val: "50",
		l1: 32, l2: 8, batch: 64, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, epochs: 1, errorPositions: 50,
		bucketRule: "pieces(8,1,4)"}
	log = runOK(t, o, "")
	if n, err = nnue.LoadFile(o.out + ".nnue"); err != nil {
		t.Fatal(err)
	}
	if sp, err := n.Spec(); err != nil || sp.Buckets.String() != "pieces(8,1,4)" || len(n.Architecture().Stacks) != 8 {
		t.Errorf("exported rule %s (%v), %d stacks; want pieces(8,1,4), 8", sp.Buckets, err, len(n.Architecture().Stacks))
	}
	if _, err := os.Stat(o.out + ".nn"); err == nil {
		t.Error("a thesis .nn file was written for a bucketed network")
	}

	for _, bad := range []struct {
		rule    string
		buckets int
		want    string
	}{{"pieces(8,1,4)", 4, "selects 8 buckets, -buckets is 4"}, {"pieces(8,1)", 0, "takes 3 values"}, {"table(0,1)", 0, "want 33"}} {
		o.bucketRule, o.buckets, o.out = bad.rule, bad.buckets, filepath.Join(dir, "bad")
		runRefused(t, o, fmt.Sprintf("-bucket-rule %s -buckets %d", bad.rule, bad.buckets), bad.want)
	}
}

// TestActivationFlag: -activation crelu is the cpw architecture's; anything else is refused
// before any work.
func TestActivationFlag(t *testing.T) {
	for _, c := range []struct{ arch, act string }{{"thesis", "crelu"}, {"cpw", "relu"}, {"cpw", "CReLU"}} {
		o := options{data: "testdata/tiny.txt", set: "all", arch: c.arch, loss: "score", out: filepath.Join(t.TempDir(), "x"), val: "50",
			l1: 32, l2: 8, batch: 64, lr: 1e-3, decay: 0.99, workers: 2, seed: 1, epochs: 1, activation: c.act}
		runRefused(t, o, fmt.Sprintf("-arch %s -activation %s", c.arch, c.act), "-activation")
	}
}

// runOK runs the trainer with o and stops the test with the error and the trainer's log if
// it fails (what names the run); it returns the log.
func runOK(t *testing.T, o options, what string) string {
	t.Helper()
	var log bytes.Buffer
	if err := run(context.Background(), o, &log); err != nil {
		if what != "" {
			what += ": "
		}
		t.Fatalf("%s%v\n%s", what, err, log.String())
	}
	return log.String()
}

// runRefused runs the trainer with o and fails the test unless it returns an error containing
// want before it logs anything (refused before any data is read); what names the case.
func runRefused(t *testing.T, o options, what, want string) {
	t.Helper()
	var log bytes.Buffer
	if err := run(context.Background(), o, &log); err == nil || !strings.Contains(err.Error(), want) || log.Len() > 0 {
		t.Errorf("%s: error %v, log %q", what, err, log.String())
	}
}
