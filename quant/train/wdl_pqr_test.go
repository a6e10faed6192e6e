package train

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/quant"
)

// TestWDLLoss checks Karhan's cross-entropy: hand values, the derivative against finite
// differences, and that λ interpolates between the evaluation and the result.
func TestWDLLoss(t *testing.T) {
	w := quant.ThesisWDL
	// At the optimum W(out) = t the loss is 0: with λ = 1 that is out = y.
	if l, g := wdlLoss(w, 1, 250, 1, 250); math.Abs(l) > 1e-12 || math.Abs(g) > 1e-12 {
		t.Errorf("optimum: loss %g grad %g", l, g)
	}
	// λ = 0 and a win: t = 1, L = −log W(out); at out = a, W = 0.5: log 2.
	if l, _ := wdlLoss(w, 0, -900, 1, w.A); math.Abs(l-math.Ln2) > 1e-12 {
		t.Errorf("λ=0, win, W(out)=½: %v, want ln 2", l)
	}
	// λ = 0.5, y with W(y) = 0.5 (y = a), a draw r = 0.5: t = 0.5; optimum at out = a.
	if l, g := wdlLoss(w, 0.5, w.A, 0.5, w.A); math.Abs(l) > 1e-12 || math.Abs(g) > 1e-12 {
		t.Errorf("λ=½ optimum: %g %g", l, g)
	}
	// Unknown result: the evaluation target alone.
	l1, _ := wdlLoss(w, 0.2, 300, -1, 100)
	l2, _ := wdlLoss(w, 1, 300, 0, 100)
	if math.Abs(l1-l2) > 1e-12 {
		t.Errorf("unknown result: %v, evaluation-only %v", l1, l2)
	}
	for _, c := range [][4]float64{{0.7, 100, 1, 50}, {0.3, -300, 0, 20}, {1, 0, 0.5, 400}, {0, 1200, 0, -800}} {
		_, g := wdlLoss(w, c[0], c[1], c[2], c[3])
		h := 1e-3
		lp, _ := wdlLoss(w, c[0], c[1], c[2], c[3]+h)
		lm, _ := wdlLoss(w, c[0], c[1], c[2], c[3]-h)
		if fd := (lp - lm) / (2 * h); math.Abs(fd-g) > 1e-8 {
			t.Errorf("wdlLoss(%v): grad %g, finite difference %g", c, g, fd)
		}
	}
}

// TestWDLTraining: training with λ = 0 on results that disagree with the evaluations moves the
// model towards the results; λ = 1 towards the evaluations.
func TestWDLTraining(t *testing.T) {
	set := featureset.MustParse("all")
	ps := randomPositions(t, 300, 11)
	enc := func() *Data {
		e := NewEncoder(set, LossWDL, 1)
		for i := range ps {
			// evaluation: material; result: always a win for the side to move
			if err := e.AddResult(&ps[i], material(&ps[i]), board.NullMove, 1); err != nil {
				t.Fatal(err)
			}
		}
		return e.Data()
	}
	mean := func(tr *Trainer, d *Data) float64 {
		s := 0.0
		for i := range d.Len() {
			s += tr.Eval(d, i)
		}
		return s / float64(d.Len())
	}
	means := map[float64]float64{}
	for _, lambda := range []float64{0, 1} {
		d := enc()
		if d.Result(0) != 1 {
			t.Fatalf("result %v", d.Result(0))
		}
		tr, err := New("all", 768, Config{Arch: ArchCPW, L1: 32, Buckets: 1, Loss: LossWDL, Lambda: lambda, Epochs: 4, BatchSize: 32, LR: 3e-3, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		before, _ := tr.Loss(d)
		if err := tr.Train(context.Background(), d, nil); err != nil {
			t.Fatal(err)
		}
		after, _ := tr.Loss(d)
		if !(after < before) {
			t.Errorf("λ=%v: loss %v → %v", lambda, before, after)
		}
		means[lambda] = mean(tr, d)
	}
	// Results say "win" everywhere: the λ = 0 model's mean output is far above the λ = 1 one's.
	if !(means[0] > means[1]+200) {
		t.Errorf("mean output λ=0 %.0f, λ=1 %.0f", means[0], means[1])
	}
	if _, err := New("all", 768, Config{Loss: LossWDL, Lambda: 1.5}); err == nil {
		t.Error("λ = 1.5 accepted")
	}
}

// TestFineTunePQR: a score-trained model fine-tuned with PQR keeps training, starts a fresh
// history, and the diagnostics and plots work.
func TestFineTunePQR(t *testing.T) {
	set := featureset.MustParse("all")
	ps := randomPositions(t, 200, 13)
	d := encode(t, set, LossScore, ps)
	tr, err := New("all", 768, Config{Arch: ArchThesis, L1: 32, L2: 8, Epochs: 3, BatchSize: 32, LR: 3e-3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Train(context.Background(), d, nil); err != nil {
		t.Fatal(err)
	}
	pd := encode(t, set, LossPQR, ps)
	diagBefore, err := tr.PQRDiagnose(pd, 150)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.FineTune(LossPQR, 1e-4, 2); err != nil {
		t.Fatal(err)
	}
	if tr.Epoch() != 0 || len(tr.History()) != 0 || tr.Config().Loss != LossPQR || tr.Config().LR != 1e-4 {
		t.Fatalf("after FineTune: epoch %d, %d history, %v", tr.Epoch(), len(tr.History()), tr.Config())
	}
	before, _ := tr.Loss(pd)
	if err := tr.Train(context.Background(), pd, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := tr.Loss(pd)
	if !(after < before) || len(tr.History()) != 2 {
		t.Errorf("PQR fine-tuning: loss %v → %v, %d epochs", before, after, len(tr.History()))
	}
	// The (briefly) material-trained model leans towards f(P) ≈ −f(Q) (material changes only
	// by captures): positive correlation.
	corr, meanAbs, share, _ := diagBefore.Summary()
	if corr < 0.2 || meanAbs > 400 || share < 0.3 {
		t.Errorf("score model: corr %.3f, mean |f(P)+f(Q)| %.1f, share f(R)>f(Q) %.2f", corr, meanAbs, share)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "s.png"), filepath.Join(dir, "h.png")
	if err := diagBefore.PlotPQR(a, b, "test", 0); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if fi, err := os.Stat(p); err != nil || fi.Size() < 1000 {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := tr.PQRDiagnose(d, 10); err == nil {
		t.Error("PQRDiagnose on score data succeeded")
	}
	if err := tr.FineTune(LossPQR, -1, 0); err == nil {
		t.Error("negative learning rate accepted")
	}
}
