package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
)

// randomPositions plays n random games from the start position with a fixed seed and returns
// one position from each after 4–40 plies (never checkmate/stalemate).
func randomPositions(t testing.TB, n int, seed uint64) []board.Position {
	t.Helper()
	key := [2]uint64{uint64(n), seed}
	posCacheMu.Lock()
	defer posCacheMu.Unlock()
	if ps, ok := posCache[key]; ok {
		return ps
	}
	ps := genPositions(n, seed)
	posCache[key] = ps
	return ps
}

var (
	posCacheMu sync.Mutex
	posCache   = map[[2]uint64][]board.Position{}
)

func genPositions(n int, seed uint64) []board.Position {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []board.Position
	for len(out) < n {
		p := board.StartPosition()
		plies := 4 + r.IntN(37)
		ok := true
		for range plies {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				ok = false
				break
			}
			p, _ = p.Play(ms[r.IntN(len(ms))])
		}
		if ok && len(p.LegalMoves()) >= 2 {
			out = append(out, p)
		}
	}
	return out
}

// material is a learnable synthetic target: material balance in centipawns, side to move.
func material(p *board.Position) float64 {
	vals := [6]float64{100, 300, 320, 500, 900, 0}
	s := 0.0
	for r := board.Role(0); r < 6; r++ {
		s += vals[r] * float64(p.Pieces(board.White, r).Count()-p.Pieces(board.Black, r).Count())
	}
	if p.SideToMove() == board.Black {
		s = -s
	}
	return s
}

// encodeFor encodes ps (material target, first legal move) for tr's feature set, loss and
// factoriser.
func encodeFor(t testing.TB, tr *Trainer, ps []board.Position) *Data {
	t.Helper()
	e, err := tr.NewEncoder()
	if err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		if err := e.Add(&ps[i], material(&ps[i]), ps[i].LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	return e.Data()
}

func encode(t testing.TB, set *featureset.Set, loss Loss, ps []board.Position) *Data {
	t.Helper()
	e := NewEncoder(set, loss, 7)
	for i := range ps {
		ms := ps[i].LegalMoves()
		if err := e.Add(&ps[i], material(&ps[i]), ms[0]); err != nil {
			t.Fatal(err)
		}
	}
	return e.Data()
}

func TestLossDerivatives(t *testing.T) {
	w := quant.ThesisWDL
	for _, c := range [][2]float64{{100, 50}, {-300, 20}, {0, 400}, {1200, -800}} {
		_, g := scoreLoss(w, 2.6, c[0], c[1])
		h := 1e-4
		lp, _ := scoreLoss(w, 2.6, c[0], c[1]+h)
		lm, _ := scoreLoss(w, 2.6, c[0], c[1]-h)
		if fd := (lp - lm) / (2 * h); math.Abs(fd-g) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("scoreLoss(%v): grad %g, finite difference %g", c, g, fd)
		}
	}
	for _, c := range [][3]float64{{100, -50, 30}, {-300, 250, -400}, {0, 0, 0}, {900, 100, -20}} {
		_, gp, gq, gr := pqrLoss(w, c[0], c[1], c[2])
		for k, g := range [3]float64{gp, gq, gr} {
			h := 1e-3
			a, b := c, c
			a[k] += h
			b[k] -= h
			la, _, _, _ := pqrLoss(w, a[0], a[1], a[2])
			lb, _, _, _ := pqrLoss(w, b[0], b[1], b[2])
			if fd := (la - lb) / (2 * h); math.Abs(fd-g) > 1e-8 {
				t.Errorf("pqrLoss(%v) d/d%d: grad %g, finite difference %g", c, k, g, fd)
			}
		}
	}
	// hand-checked value: W(0)=σ(−1.28/297.21); equal outputs give p+q, and r=q
	l, _, _, _ := pqrLoss(w, 0, 0, 0)
	u := 2 * (2*w.Win(0) - 1)
	want := math.Log(2) + logSigmoidNeg(u) + logSigmoidNeg(-u)
	if math.Abs(l-want) > 1e-12 {
		t.Errorf("pqrLoss(0,0,0) = %v, want %v", l, want)
	}
}

// TestGradientCheck compares the backward pass of both architectures with central finite
// differences of the forward pass, for every parameter of a small model that some sample uses.
func TestGradientCheck(t *testing.T) {
	for _, tc := range []struct {
		spec string
		cfg  Config
	}{
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, Workers: 1}},
		{"h+v", Config{Arch: ArchCPW, L1: 8, Buckets: 4, Workers: 1}},
		{"h+v", Config{Arch: ArchCPW, L1: 8, Buckets: 4, Workers: 1, CReLU: true}},
		{"ksq*h", Config{Arch: ArchCPW, L1: 8, Buckets: 2, Workers: 1, CReLU: true, Factoriser: true}},
		// hidden layers per output bucket
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, ThesisBuckets: 4, Workers: 1}},
		// the pairwise product, a second hidden layer, both with buckets
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, Pairwise: true, Workers: 1}},
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, L3: 4, Workers: 1}},
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, L3: 3, Pairwise: true, ThesisBuckets: 2, Workers: 1}},
		// the factoriser's virtual rows (ksq*h: one shared H row per king square)
		{"ksq*h", Config{Arch: ArchThesis, L1: 8, L2: 4, Workers: 1, Factoriser: true}},
		{"ksq*h", Config{Arch: ArchCPW, L1: 8, Buckets: 4, Workers: 1, Factoriser: true}},
		// PSQT, alone, with output buckets and two hidden layers, with the factoriser
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, PSQT: true, Workers: 1}},
		{"h+v", Config{Arch: ArchThesis, L1: 8, L2: 4, L3: 3, ThesisBuckets: 3, PSQT: true, Workers: 1}},
		{"ksq*h", Config{Arch: ArchThesis, L1: 8, L2: 4, ThesisBuckets: 2, PSQT: true, Workers: 1, Factoriser: true}},
	} {
		cfg := tc.cfg
		set := featureset.MustParse(tc.spec)
		name := tc.spec + "/" + cfg.Arch.String()
		t.Run(name, func(t *testing.T) {
			tr, err := New(set.String(), set.Size(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			d := encodeFor(t, tr, randomPositions(t, 6, 3))
			// the factoriser's rows start at 0: give them values so that they matter
			if cfg.Factoriser {
				for j := set.Size() * cfg.L1; j < len(tr.ts[0].data); j++ {
					tr.ts[0].data[j] = float32(j%7-3) * 0.01
				}
			}
			// move the biases so that activations sit inside (0, 1) often
			for _, ts := range tr.ts {
				if ts.name == "ft.bias" {
					for j := range ts.data {
						ts.data[j] = 0.5
					}
				}
			}
			tr.net.sync()
			w := tr.workers[0]
			eval := func(b *posBatch) float64 {
				tr.net.forward(w.sc, b)
				return b.out[0]
			}
			checked := 0
			for i := range d.Len() {
				var b posBatch
				b.add(d.features(i, 0, 0), d.features(i, 0, 1), d.piecesOf(i, 0))
				gr := newGrads(tr.ts)
				eval(&b)
				if nearKink(w.sc) {
					continue // a finite difference across a ClippedReLU/SCReLU kink is meaningless
				}
				b.g = []float64{1}
				tr.net.backward(w.sc, &b, gr)
				for ti, ts := range tr.ts {
					for j := range ts.data {
						if ts.sparse && !gr.touched[j/ts.cols] {
							if gr.g[ti][j] != 0 {
								t.Fatalf("%s[%d]: gradient %g on an untouched row", ts.name, j, gr.g[ti][j])
							}
							continue
						}
						old := ts.data[j]
						h := float32(1e-3)
						ts.data[j] = old + h
						tr.net.sync()
						fp := eval(&b)
						ts.data[j] = old - h
						tr.net.sync()
						fm := eval(&b)
						ts.data[j] = old
						tr.net.sync()
						fd := (fp - fm) / (2 * float64(h))
						g := float64(gr.g[ti][j])
						if math.Abs(fd-g) > 2e-2*math.Max(1, math.Abs(g)) {
							t.Errorf("sample %d %s[%d]: backward %g, finite difference %g", i, ts.name, j, g, fd)
						}
						checked++
					}
				}
			}
			if checked < 100 {
				t.Fatalf("only %d parameters checked", checked)
			}
		})
	}
}

func TestTrainingReducesLoss(t *testing.T) {
	set := featureset.MustParse("all")
	ps := randomPositions(t, 600, 5)
	if raceEnabled || testing.Short() {
		ps = ps[:200] // the race detector slows the float loops about tenfold
	}
	for _, c := range []struct {
		cfg  Config
		loss Loss
	}{
		{Config{Arch: ArchThesis, L1: 32, L2: 8, Epochs: 6, BatchSize: 32, LR: 3e-3, Workers: 2}, LossScore},
		{Config{Arch: ArchCPW, L1: 32, Buckets: 8, Epochs: 6, BatchSize: 32, LR: 3e-3, Workers: 2}, LossScore},
		{Config{Arch: ArchThesis, L1: 32, L2: 8, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2, Loss: LossPQR}, LossPQR},
		{Config{Arch: ArchThesis, L1: 32, L2: 8, ThesisBuckets: 4, Epochs: 6, BatchSize: 32, LR: 3e-3, Workers: 2}, LossScore},
		{Config{Arch: ArchThesis, L1: 64, L2: 16, L3: 16, Pairwise: true, Epochs: 6, BatchSize: 32, LR: 3e-3, Workers: 2}, LossScore},
		{Config{Arch: ArchCPW, L1: 32, Buckets: 1, Epochs: 6, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: true}, LossScore},
	} {
		spec := set.String()
		if c.cfg.Factoriser {
			spec = "ka"
		}
		name := fmt.Sprintf("%v-%v-b%d-l3=%d-pairwise=%v-factoriser=%v", c.cfg.Arch, c.loss, c.cfg.ThesisBuckets, c.cfg.L3, c.cfg.Pairwise, c.cfg.Factoriser)
		t.Run(name, func(t *testing.T) {
			c.cfg.Loss = c.loss
			fs := featureset.MustParse(spec)
			tr, err := New(spec, fs.Size(), c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := tr.NewEncoder()
			if err != nil {
				t.Fatal(err)
			}
			for i := range ps {
				if err := enc.Add(&ps[i], material(&ps[i]), ps[i].LegalMoves()[0]); err != nil {
					t.Fatal(err)
				}
			}
			d := enc.Data()
			before, _ := tr.Loss(d)
			floor, factor := 0.0, 0.8
			if c.loss == LossPQR {
				floor = 2 * math.Ln2 // the two equality terms: minimum at p + q = 0
				factor = 0.9         // PQR has no targets and learns more slowly
			}
			if err := tr.Train(context.Background(), d, nil); err != nil {
				t.Fatal(err)
			}
			after, _ := tr.Loss(d)
			t.Logf("loss %.6f → %.6f", before, after)
			if !(after-floor < factor*(before-floor)) {
				t.Errorf("loss %.6f → %.6f: excess over %.4f not reduced to %.0f%%", before, after, floor, 100*factor)
			}
		})
	}
}

func TestDeterministicAndResume(t *testing.T) {
	set := featureset.MustParse("all")
	d := encode(t, set, LossScore, randomPositions(t, 600, 5)[:300])
	train, val, err := d.Split(50)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []Config{
		{L1: 32, L2: 8, Epochs: 3, BatchSize: 40, LR: 1e-3, Workers: 2},
		{L1: 32, L2: 8, ThesisBuckets: 2, PSQT: true, Epochs: 3, BatchSize: 40, LR: 1e-3, Workers: 2},
	} {
		t.Run(fmt.Sprintf("psqt=%v", cfg.PSQT), func(t *testing.T) { checkDeterministicAndResume(t, cfg, train, val) })
	}
	if _, err := ReadCheckpoint(bytes.NewReader([]byte("garbage"))); err == nil {
		t.Fatal("ReadCheckpoint accepted garbage")
	}
}

// checkDeterministicAndResume: two runs of cfg give the same parameters, and a run
// interrupted, checkpointed and resumed gives them too.
func checkDeterministicAndResume(t *testing.T, cfg Config, train, val *Data) {
	run := func() *Trainer {
		tr, err := New("all", 768, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Train(context.Background(), train, val); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	a, b := run(), run()
	for i := range a.ts {
		if !equalF32(a.ts[i].data, b.ts[i].data) {
			t.Fatalf("two runs differ in %s", a.ts[i].name)
		}
	}
	// interrupted after 1 epoch + 2 batches, saved, resumed
	dir := t.TempDir()
	cp := filepath.Join(dir, "ckpt")
	c2 := cfg
	c2.Checkpoint = cp
	tr, _ := New("all", 768, c2)
	ctx, cancel := context.WithCancel(context.Background())
	tr.Log = &cancelAfter{n: 2, cancel: cancel} // progress lines trigger the cancel
	tr.cfg.ProgressEvery = 1
	if err := tr.Train(ctx, train, val); err != context.Canceled {
		t.Fatalf("Train: %v, want context.Canceled", err)
	}
	r, err := Load(cp)
	if err != nil {
		t.Fatal(err)
	}
	if r.epoch == 0 && r.batch == 0 {
		t.Fatal("checkpoint at the very start")
	}
	if err := r.Train(context.Background(), train, val); err != nil {
		t.Fatal(err)
	}
	for i := range a.ts {
		if !equalF32(a.ts[i].data, r.ts[i].data) {
			t.Fatalf("resumed run differs from an uninterrupted one in %s", a.ts[i].name)
		}
	}
	h := r.History()
	if len(h) != 3 || math.IsNaN(h[2].ValLoss) || h[2].ValLoss <= 0 {
		t.Fatalf("history %+v", h)
	}
	if err := PlotLoss(filepath.Join(dir, "loss.png"), "test", HistoryCurves(h)); err != nil {
		t.Fatal(err)
	}
}

type cancelAfter struct {
	n      int
	cancel func()
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.n--
	if c.n == 0 {
		c.cancel()
	}
	return len(p), nil
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// TestExportEndToEnd trains both architectures briefly, quantizes them, writes and reloads the
// files through nnue, and checks that the loaded networks evaluate like the float models.
func TestExportEndToEnd(t *testing.T) {
	ps := randomPositions(t, 600, 5)[200:600]
	for _, cfg := range []Config{
		{Arch: ArchThesis, L1: 32, L2: 8, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchCPW, L1: 32, Buckets: 8, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 32, L2: 8, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: true},
		{Arch: ArchCPW, L1: 32, Buckets: 8, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: true},
		{Arch: ArchCPW, L1: 32, Buckets: 4, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: true, CReLU: true},
		{Arch: ArchThesis, L1: 32, L2: 8, ThesisBuckets: 4, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 64, L2: 16, Pairwise: true, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 32, L2: 16, L3: 8, ThesisBuckets: 2, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 64, L2: 16, L3: 32, Pairwise: true, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: true},
		{Arch: ArchThesis, L1: 32, L2: 8, ThesisBuckets: 4, PSQT: true, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 32, L2: 8, L3: 8, ThesisBuckets: 2, PSQT: true, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: true},
		// declared bucket rules: Alexandria's table for CPW, Stockfish's pieces(8,1,4) for thesis stacks with PSQT
		{Arch: ArchCPW, L1: 32, BucketRule: mustBucketRule(t, "table(7,7,7,7,7,6,6,6,5,5,5,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0,0,0,0)"), Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 32, L2: 8, BucketRule: mustBucketRule(t, "pieces(8,1,4)"), Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
		{Arch: ArchThesis, L1: 32, L2: 8, L3: 8, BucketRule: mustBucketRule(t, "pieces(8,1,4)"), PSQT: true, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 2},
	} {
		spec := "all"
		if cfg.Factoriser {
			spec = "ka" // KING-ALL = KSQ×ALL with a shared ALL row per king square
		}
		set := featureset.MustParse(spec)
		t.Run(fmt.Sprintf("%v/%s/b%d/l3=%d/pairwise=%v/psqt=%v/crelu=%v/%.8s", cfg.Arch, spec, cfg.ThesisBuckets, cfg.L3, cfg.Pairwise, cfg.PSQT, cfg.CReLU, cfg.BucketRule), func(t *testing.T) {
			tr, err := New(spec, set.Size(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			d := encodeFor(t, tr, ps)
			if err := tr.Train(context.Background(), d, nil); err != nil {
				t.Fatal(err)
			}
			ex, err := tr.Export(ps[:200])
			if err != nil {
				t.Fatal(err)
			}
			if n := ex.Clip.TotalClipped(); n != 0 {
				t.Errorf("%d values clipped:\n%s", n, ex.Clip)
			}
			if r := cfg.BucketRule; !r.IsZero() {
				sp, err := ex.Network.Spec()
				if err != nil || !strings.Contains(sp.String(), " buckets="+r.String()+" ") {
					t.Errorf("exported architecture %s (%v), want buckets=%s", sp, err, r)
				}
			}
			t.Logf("WDL error: mean %.5f max %.5f within 0.03 %.1f%%", ex.Error.Mean, ex.Error.Max, 100*ex.Error.Within)
			if ex.Error.Within < 0.99 {
				t.Errorf("only %.1f%% of quantization errors within 0.03", 100*ex.Error.Within)
			}
			dir := t.TempDir()
			native := filepath.Join(dir, "n.nnue")
			thesis := ""
			if cfg.Arch == ArchThesis && cfg.Defaults().ThesisBuckets <= 1 && cfg.L3 == 0 && !cfg.Pairwise && !cfg.PSQT {
				thesis = filepath.Join(dir, "n.nn")
			}
			if err := ex.WriteFiles(native, thesis); err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{native, thesis} {
				if path == "" {
					continue
				}
				n, err := nnue.LoadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				for i := range 50 {
					if a, b := n.Evaluate(&ps[i]), ex.Network.Evaluate(&ps[i]); a != b {
						t.Fatalf("%s: position %d: reloaded %d, exported %d", path, i, a, b)
					}
				}
			}
			// the float model of Export agrees with the trainer's own forward pass
			for i := range 20 {
				got := tr.Eval(d, i)
				var want float64
				if cfg.Pairwise || cfg.L3 > 0 || cfg.PSQT {
					want = float64(ex.Network.Evaluate(&ps[i])) // no float model outside the trainer: compare with the integers
					if math.Abs(got-want) > 8+0.05*math.Abs(want) {
						t.Fatalf("position %d: trainer %v, exported network %v", i, got, want)
					}
					continue
				} else if cfg.Arch == ArchThesis {
					ms, _ := tr.FloatThesisBuckets()
					want, _ = ms[quant.Buckets(cfg.BucketRule, len(ms)).OfPieces(ps[i].PieceCount())].EvaluatePosition(set, &ps[i])
				} else {
					m, _ := tr.FloatCPW()
					want, _ = m.EvaluatePosition(set, &ps[i])
				}
				if math.Abs(got-want) > 1e-2*math.Max(1, math.Abs(want)) {
					t.Fatalf("position %d: trainer %v, exported float model %v", i, got, want)
				}
			}
		})
	}
}

// nearKink reports whether a pre-activation is within 0.02 of 0 or 1, where the activation's
// derivative jumps and a finite difference with step 1e-3 per feature can cross the kink.
func nearKink(s scratch) bool {
	var vs [][]float32
	switch sc := s.(type) {
	case *thesisScratch: // one position
		vs = [][]float32{sc.a[:len(sc.a)/chunk]}
		for _, z := range sc.z {
			vs = append(vs, z[:len(z)/chunk])
		}
	case *cpwScratch:
		vs = [][]float32{sc.a[:len(sc.a)/chunk]}
	}
	for _, v := range vs {
		for _, x := range v {
			if math.Abs(float64(x)) < 0.02 || math.Abs(float64(x-1)) < 0.02 {
				return true
			}
		}
	}
	return false
}

// BenchmarkTrainStep measures one optimizer step of the default-network shape (ALL, 256×2→32→1)
// on a batch of 4096 positions; samples/s = 4096 / (ns/op · 1e-9).
func BenchmarkTrainStep(b *testing.B) {
	set := featureset.MustParse("all")
	d := encode(b, set, LossScore, randomPositions(b, 4096, 13))
	tr, _ := New("all", 768, Config{L1: 256, L2: 32, BatchSize: 4096})
	ids := make([]int32, d.Len())
	for i := range ids {
		ids[i] = int32(i)
	}
	b.ResetTimer()
	for range b.N {
		tr.trainStep(d, ids, 1e-3)
	}
	b.ReportMetric(float64(len(ids))*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}

// FuzzReadCheckpoint feeds arbitrary bytes to ReadCheckpoint: it must return an error or a
// usable trainer, never panic or allocate beyond the input's size.
func FuzzReadCheckpoint(f *testing.F) {
	tr, _ := New("h", 96, Config{L1: 4, L2: 2, Workers: 1})
	var buf bytes.Buffer
	if err := tr.WriteCheckpoint(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("garbage"))
	f.Add(buf.Bytes()[:buf.Len()/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadCheckpoint(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(r.ts) == 0 {
			t.Fatal("trainer without tensors")
		}
	})
}

func mustBucketRule(t *testing.T, s string) nnue.BucketRule {
	r, err := nnue.ParseBucketRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
