package train

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/quant"
)

// sliceStream is a Stream over positions in memory; the target is the material balance, or
// the sample's number with numbered. failPass/failAt make Next return a read error.
type sliceStream struct {
	ps               []board.Position
	i, pass          int
	numbered         bool
	failPass, failAt int
	opens            int
}

var errBadRecord = errors.New("bad record at byte 1234")

func (s *sliceStream) Open(pass int) error {
	s.i, s.pass = 0, pass
	s.opens++
	return nil
}

func (s *sliceStream) Next(e *Encoder) error {
	if s.failAt > 0 && s.pass == s.failPass && s.i == s.failAt {
		return errBadRecord
	}
	if s.i >= len(s.ps) {
		return io.EOF
	}
	p := &s.ps[s.i]
	s.i++
	score := material(p)
	if s.numbered {
		score = float64(s.i - 1)
	}
	return e.AddResult(p, score, p.LegalMoves()[0], -1)
}

func (s *sliceStream) Close() error { return nil }

// TestShuffleBufferOncePerPass: through a shuffle buffer smaller and larger than the data,
// every pass emits every sample exactly once, in an order that changes from pass to pass.
func TestShuffleBufferOncePerPass(t *testing.T) {
	set := featureset.MustParse("all")
	ps := randomPositions(t, 300, 9)[:257]
	for _, size := range []int{1, 16, 256, 1000} {
		src := &sliceStream{ps: ps, numbered: true}
		enc := NewEncoder(set, LossScore, 1)
		sh := newShuffler(enc, size)
		var orders [][]int
		for pass := range 3 {
			if err := sh.start(src, pass, 5); err != nil {
				t.Fatal(err)
			}
			var got []int
			for {
				err := sh.next(src, func(s int) { got = append(got, int(sh.score[s])) })
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			sorted := slices.Sorted(slices.Values(got))
			for i, v := range sorted {
				if v != i || len(sorted) != len(ps) {
					t.Fatalf("buffer %d pass %d: samples %v..., want each of 0..%d once", size, pass, sorted[:min(10, len(sorted))], len(ps)-1)
				}
			}
			orders = append(orders, got)
		}
		if size > 1 && slices.Equal(orders[0], orders[1]) {
			t.Errorf("buffer %d: passes 0 and 1 in the same order", size)
		}
	}
}

func streamConfig(cp string) Config {
	return Config{L1: 32, L2: 8, Epochs: 4, BatchSize: 48, SuperbatchBatches: 3, ShuffleBuffer: 64, LR: 1e-3,
		Workers: 2, Schedule: ScheduleCosine, WeightDecay: 0.01, Checkpoint: cp}
}

// TestTrainStreamResume: streamed training over several passes is reproducible, a run
// interrupted mid-superbatch and resumed from its checkpoint equals an uninterrupted one, and
// the loss falls.
func TestTrainStreamResume(t *testing.T) {
	set := featureset.MustParse("all")
	ps := randomPositions(t, 600, 5)
	val := encode(t, set, LossScore, ps[500:])
	run := func() *Trainer {
		tr, err := New("all", 768, streamConfig(""))
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.TrainStream(context.Background(), &sliceStream{ps: ps[:200]}, val); err != nil {
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
	if p := a.Position(); p.Pass != 2 || p.Seen != 4*3*48-2*200 {
		t.Errorf("position after 576 samples of 200 per pass: %+v", p)
	}
	h := a.History()
	if len(h) != 4 || !(h[3].ValLoss < h[0].ValLoss) || !(h[3].LR < h[0].LR) {
		t.Errorf("history %+v", h)
	}
	cp := filepath.Join(t.TempDir(), "ckpt")
	tr, _ := New("all", 768, streamConfig(cp))
	ctx, cancel := context.WithCancel(context.Background())
	tr.Log = &cancelAfter{n: 6, cancel: cancel}
	tr.cfg.ProgressEvery = 1
	if err := tr.TrainStream(ctx, &sliceStream{ps: ps[:200]}, val); err != context.Canceled {
		t.Fatalf("TrainStream: %v, want context.Canceled", err)
	}
	r, err := Load(cp)
	if err != nil {
		t.Fatal(err)
	}
	if r.batch == 0 || r.Position().Seen == 0 {
		t.Fatalf("checkpoint at a superbatch boundary (batch %d, %+v): the test wants one inside", r.batch, r.Position())
	}
	if err := r.TrainStream(context.Background(), &sliceStream{ps: ps[:200]}, val); err != nil {
		t.Fatal(err)
	}
	for i := range a.ts {
		if !equalF32(a.ts[i].data, r.ts[i].data) {
			t.Fatalf("resumed run differs from an uninterrupted one in %s", a.ts[i].name)
		}
	}
}

// TestTrainStreamBadData: a read error in the second pass stops training with an error naming
// the pass and the sample count and the reader's own position; the checkpoint of the last
// finished superbatch is left as it was.
func TestTrainStreamBadData(t *testing.T) {
	ps := randomPositions(t, 600, 5)
	cp := filepath.Join(t.TempDir(), "ckpt")
	tr, _ := New("all", 768, streamConfig(cp))
	var log bytes.Buffer
	tr.Log = &log
	src := &sliceStream{ps: ps[:200], failPass: 1, failAt: 190}
	err := tr.TrainStream(context.Background(), src, nil)
	if err == nil || !errors.Is(err, errBadRecord) || !strings.Contains(err.Error(), "pass 2") || !strings.Contains(err.Error(), "byte 1234") {
		t.Fatalf("error %v, want the read error with pass 2", err)
	}
	saved, rerr := os.ReadFile(cp)
	if rerr != nil {
		t.Fatal(rerr)
	}
	r, lerr := Load(cp)
	if lerr != nil {
		t.Fatal(lerr)
	}
	// sample 190 of pass 2 is read (64-sample buffer) when about 200 + 126 samples have been
	// drawn: superbatches of 144 → the second (288 samples) finished, the third not
	if r.Epoch() != 2 || r.batch != 0 {
		t.Fatalf("checkpoint after %d superbatches, batch %d; want 2, 0\n%s", r.Epoch(), r.batch, log.String())
	}
	var buf bytes.Buffer
	if err := r.WriteCheckpoint(&buf); err != nil || !bytes.Equal(buf.Bytes(), saved) {
		t.Errorf("checkpoint does not round-trip (%v)", err)
	}
}

// TestThesisBucketsBatch: a chunk whose positions fall into different output buckets gives
// each position the output of its own bucket, as evaluating it alone does, and the gradient of
// a chunk is the sum of the positions' gradients.
func TestThesisBucketsBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var ps []board.Position
	for len(ps) < 40 {
		p := board.StartPosition()
		for range 20 + r.IntN(300) {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Play(ms[r.IntN(len(ms))])
		}
		if len(p.LegalMoves()) > 0 {
			ps = append(ps, p)
		}
	}
	tr, err := New("all", 768, Config{Arch: ArchThesis, L1: 32, L2: 8, ThesisBuckets: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := encodeFor(t, tr, ps)
	buckets := map[int]bool{}
	var all posBatch
	for i := range d.Len() {
		all.add(d.features(i, 0, 0), d.features(i, 0, 1), d.piecesOf(i, 0))
		buckets[quant.OutputBucket(d.piecesOf(i, 0), 4)] = true
	}
	if len(buckets) < 3 {
		t.Fatalf("positions cover buckets %v only", buckets)
	}
	w := tr.workers[0]
	tr.net.forward(w.sc, &all)
	got := append([]float64(nil), all.out...)
	all.g = make([]float64, len(got))
	for i := range all.g {
		all.g[i] = float64(i%5) - 2
	}
	batchGr := newGrads(tr.ts)
	tr.net.backward(w.sc, &all, batchGr)
	sumGr := newGrads(tr.ts)
	for i := range d.Len() {
		var one posBatch
		one.add(all.stm[i], all.nstm[i], all.pieces[i])
		tr.net.forward(w.sc, &one)
		if one.out[0] != got[i] {
			t.Fatalf("position %d (bucket %d): batch %v, alone %v", i, quant.OutputBucket(all.pieces[i], 4), got[i], one.out[0])
		}
		one.g = []float64{all.g[i]}
		tr.net.backward(w.sc, &one, sumGr)
	}
	for ti := range tr.ts {
		for j := range batchGr.g[ti] {
			a, b := float64(batchGr.g[ti][j]), float64(sumGr.g[ti][j])
			if math.Abs(a-b) > 1e-4*math.Max(1, math.Abs(b)) {
				t.Fatalf("%s[%d]: batch gradient %v, sum of single gradients %v", tr.ts[ti].name, j, a, b)
			}
		}
	}
}

// TestTrainStreamBufferBound: a shuffle buffer whose slots would need more than 16 GiB is
// refused before anything is allocated or read.
func TestTrainStreamBufferBound(t *testing.T) {
	tr, err := New("all", 768, Config{L1: 32, L2: 8, ShuffleBuffer: 1 << 27, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	src := &sliceStream{ps: randomPositions(t, 10, 1)}
	if err := tr.TrainStream(context.Background(), src, nil); err == nil || !strings.Contains(err.Error(), "shuffle buffer") || src.opens != 0 {
		t.Errorf("error %v after %d opens", err, src.opens)
	}
}
