package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant"
)

// trainTiny trains a small model of set with cfg on 400 random positions and exports it,
// returning the export and 200 positions to evaluate it on.
func trainTiny(t *testing.T, set string, cfg Config) (*Exported, []board.Position) {
	t.Helper()
	ps := randomPositions(t, 600, 7)[200:600]
	tr, err := New(set, featureset.MustParse(set).Size(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Train(context.Background(), encodeFor(t, tr, ps), nil); err != nil {
		t.Fatal(err)
	}
	ex, err := tr.Export(nil)
	if err != nil {
		t.Fatal(err)
	}
	return ex, ps[:200]
}

// TestExportBullet: a trained CPW model (SCReLU, with and without output buckets, plain and
// horizontally mirrored inputs) written in bullet's layout and loaded back with
// nnue.ParseBullet under the returned architecture string evaluates every position exactly as
// the native export does (the same quantised integers).
//
// Input buckets are a king-bucket map in the set's string (featureset's "kings(…)"), trained
// with a factoriser: Stormphrax net013's 4-bucket map, and a mirrored 2-bucket map.
func TestExportBullet(t *testing.T) {
	stormphrax := "kings(" + strings.Repeat("0.0.0.0.1.1.1.1.", 2) + strings.Repeat("2.2.2.2.3.3.3.3.", 5) + "2.2.2.2.3.3.3.3)"
	halves := "kings(" + strings.Repeat("1.1.1.1.1.1.1.1.", 2) + strings.Repeat("0.0.0.0.0.0.0.0.", 5) + "0.0.0.0.0.0.0.0)"
	for _, tc := range []struct {
		set               string
		buckets           int
		kings             int
		factoriser, crelu bool
	}{{"all", 8, 1, false, false}, {"all", 1, 1, false, false}, {"all@hm", 4, 1, false, false},
		{stormphrax + "*all", 1, 4, true, false}, {halves + "@hm*all@hm", 8, 2, true, false},
		// Stormphrax net013's layout: 4 king buckets, CReLU, one output
		{stormphrax + "*all", 1, 4, true, true}, {"all@hm", 8, 1, false, true}} {
		t.Run(fmt.Sprintf("%.12s/b%d/k%d/crelu=%v", tc.set, tc.buckets, tc.kings, tc.crelu), func(t *testing.T) {
			cfg := Config{Arch: ArchCPW, L1: 32, Buckets: tc.buckets, Epochs: 2, BatchSize: 32, LR: 3e-3, Workers: 2, Factoriser: tc.factoriser, CReLU: tc.crelu}
			if err := cfg.CheckBullet(tc.set); err != nil {
				t.Fatal(err)
			}
			ex, ps := trainTiny(t, tc.set, cfg)
			var buf bytes.Buffer
			decl, err := ex.WriteBullet(&buf)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("ft=%s:i16 width=32 stack=stm>screlu_affine.i16(255,255,1)", tc.set)
			if tc.crelu {
				want = fmt.Sprintf("ft=%s:i16 width=32 stack=stm>crelu_affine.i16(255)", tc.set)
			}
			if !strings.HasPrefix(decl, want) || !strings.Contains(decl, "out=*400/16320") {
				t.Errorf("architecture %q, want %q… out=*400/16320", decl, want)
			}
			if size := 2*(768*tc.kings*32+32+64*tc.buckets) + 2*tc.buckets; buf.Len() != (size+63)/64*64 {
				t.Errorf("%d bytes, want %d padded to 64", buf.Len(), size)
			}
			spec, err := nnue.ParseSpec(decl)
			if err != nil {
				t.Fatal(err)
			}
			b, err := nnue.ParseBullet(buf.Bytes(), spec, nnue.BulletFile{})
			if err != nil {
				t.Fatal(err)
			}
			en, eb := ex.Network.NewEvaluator(), b.NewEvaluator()
			nonzero := 0
			for i := range ps {
				vn, vb := en.Evaluate(&ps[i]), eb.Evaluate(&ps[i])
				if vn != vb {
					t.Fatalf("%s: native %d, bullet %d", ps[i].FEN(), vn, vb)
				}
				if vn != 0 {
					nonzero++
				}
			}
			if nonzero < len(ps)/2 {
				t.Errorf("only %d of %d evaluations nonzero", nonzero, len(ps))
			}
		})
	}
}

// TestCheckBullet: architectures with no bullet layout are refused before training, by name.
func TestCheckBullet(t *testing.T) {
	for _, tc := range []struct {
		set  string
		cfg  Config
		want string
	}{
		{"all", Config{Arch: ArchThesis, L1: 32}, "thesis architecture has no bullet layout"},
		{"ka", Config{Arch: ArchCPW, L1: 32}, "bullet file holds 768 inputs"},
		{"h+v", Config{Arch: ArchCPW, L1: 32}, "bullet file holds 768 inputs"},
	} {
		if err := tc.cfg.CheckBullet(tc.set); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want %q", tc.set, tc.cfg.Arch, err, tc.want)
		}
	}
}

// TestExportStockfish: a trained HalfKP 256×2-32-32-1 model (Stockfish 13's fixed widths)
// written as a Stockfish .nnue file loads with nnue.Load as a Stockfish HalfKP network and
// evaluates every position exactly as the native export does; the native file of the same
// network loads too and agrees.
func TestExportStockfish(t *testing.T) {
	if raceEnabled {
		t.Skip("HalfKP's 41024×256 feature transformer trains slowly under -race; covered without it")
	}
	cfg := Config{Arch: ArchThesis, L1: 256, L2: 32, L3: 32, Epochs: 2, BatchSize: 64, LR: 3e-3, Workers: 2}
	if err := cfg.CheckStockfish("halfkp"); err != nil {
		t.Fatal(err)
	}
	ex, ps := trainTiny(t, "halfkp", cfg)
	var buf bytes.Buffer
	if err := ex.WriteStockfish(&buf, "nnuekit test"); err != nil {
		t.Fatal(err)
	}
	n, err := nnue.Load(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(n.Description(), "Stockfish HalfKP net") {
		t.Errorf("loaded as %q", n.Description())
	}
	var native bytes.Buffer
	if err := nnue.WriteNative(&native, ex.Network); err != nil {
		t.Fatal(err)
	}
	m, err := nnue.Load(bytes.NewReader(native.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	es, en := n.NewEvaluator(), m.NewEvaluator()
	distinct := map[int32]bool{}
	for i := range ps {
		vs, vn := es.Evaluate(&ps[i]), en.Evaluate(&ps[i])
		if vs != vn {
			t.Fatalf("%s: stockfish file %d, native %d", ps[i].FEN(), vs, vn)
		}
		distinct[vs] = true
	}
	if len(distinct) < 20 {
		t.Errorf("only %d distinct evaluations over %d positions", len(distinct), len(ps))
	}
}

// TestCheckStockfish: architectures that are not Stockfish 13's are refused before training.
func TestCheckStockfish(t *testing.T) {
	for _, tc := range []struct {
		set  string
		cfg  Config
		want string
	}{
		{"halfkp", Config{Arch: ArchCPW, L1: 256}, "cpw architecture is not a Stockfish one"},
		{"halfkp", Config{Arch: ArchThesis, L1: 256, L2: 32}, "L3 0 is not a Stockfish architecture"},
		{"halfkp", Config{Arch: ArchThesis, L1: 256, L2: 32, L3: 32, Pairwise: true}, "pairwise true"},
		{"halfkp", Config{Arch: ArchThesis, L1: 128, L2: 32, L3: 32}, "Stockfish 13 HalfKP"},
		{"all", Config{Arch: ArchThesis, L1: 256, L2: 32, L3: 32}, "Stockfish 13 HalfKP"},
		{"halfkp", Config{Arch: ArchThesis, L1: 256, L2: 16, L3: 32}, "Stockfish 13 HalfKP"},
	} {
		if err := tc.cfg.CheckStockfish(tc.set); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: %v, want %q", tc.set, tc.cfg, err, tc.want)
		}
	}
}

// TestPSQT: with PSQT the thesis model learns the material target faster (a linear function
// of the inputs, which the PSQT shortcut represents exactly), and the export carries the
// PSQT part: psqt=B psqtdiv=2 in its declaration, nonzero PSQT terms, and evaluations within
// a few centipawns of the trainer's float model.
func TestPSQT(t *testing.T) {
	ps := randomPositions(t, 600, 11)[200:600]
	var losses [2]float64
	for i, psqt := range []bool{false, true} {
		cfg := Config{Arch: ArchThesis, L1: 32, L2: 8, ThesisBuckets: 2, PSQT: psqt, Epochs: 4, BatchSize: 32, LR: 3e-3, Workers: 2}
		tr, err := New("all", 768, cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := encodeFor(t, tr, ps)
		if err := tr.Train(context.Background(), d, nil); err != nil {
			t.Fatal(err)
		}
		if losses[i], err = tr.Loss(d); err != nil {
			t.Fatal(err)
		}
		if !psqt {
			continue
		}
		ex, err := tr.Export(ps[:100])
		if err != nil {
			t.Fatal(err)
		}
		spec, err := ex.Network.Spec()
		if err != nil {
			t.Fatal(err)
		}
		if s := spec.String(); !strings.Contains(s, "psqt=2") || !strings.Contains(s, "psqtdiv=2") {
			t.Errorf("declaration %s lacks psqt=2 psqtdiv=2", s)
		}
		if ex.Error.Within < 0.99 {
			t.Errorf("only %.1f%% of quantization errors within 0.03 in WDL space", 100*ex.Error.Within)
		}
		// the PSQT term alone: nnue's (psqt_stm − psqt_other)/2 in raw units (×16) against the
		// trainer's S·(P_stm − P_other)/2 in centipawns
		m := tr.net.(*thesisNet)
		ev := ex.Network.NewEvaluator()
		nonzero := 0
		for i := range 100 {
			ev.Refresh(&ps[i])
			o := ev.Forward(ev.Accumulator(), &ps[i])
			k := quant.OutputBucket(ps[i].PieceCount(), 2)
			var sum float64
			for _, f := range d.features(i, 0, 0) {
				sum += float64(m.psqt.data[int(f)*2+k])
			}
			for _, f := range d.features(i, 0, 1) {
				sum -= float64(m.psqt.data[int(f)*2+k])
			}
			want := float64(m.s) * sum / 2
			// rounding: ½ raw unit per weight, halved, and the truncating division by 2
			bound := (0.25*float64(len(d.features(i, 0, 0))+len(d.features(i, 0, 1))) + 1) / 16
			if got := float64(o.PSQT) / 16; math.Abs(got-want) > bound {
				t.Errorf("position %d: PSQT term %v cp, trainer %v", i, got, want)
			}
			if o.PSQT != 0 {
				nonzero++
			}
		}
		if nonzero < 90 {
			t.Errorf("PSQT term nonzero in only %d of 100 positions", nonzero)
		}
	}
	t.Logf("training loss after 4 epochs: without PSQT %.5f, with %.5f", losses[0], losses[1])
	if !(losses[1] < losses[0]) {
		t.Errorf("PSQT did not lower the loss on a material target: %v vs %v", losses[1], losses[0])
	}
}
