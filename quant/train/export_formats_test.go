package train

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
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
func TestExportBullet(t *testing.T) {
	for _, tc := range []struct {
		set     string
		buckets int
	}{{"all", 8}, {"all", 1}, {"all@hm", 4}} {
		t.Run(fmt.Sprintf("%s/b%d", tc.set, tc.buckets), func(t *testing.T) {
			cfg := Config{Arch: ArchCPW, L1: 32, Buckets: tc.buckets, Epochs: 2, BatchSize: 32, LR: 3e-3, Workers: 2}
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
			if !strings.HasPrefix(decl, want) || !strings.Contains(decl, "out=*400/16320") {
				t.Errorf("architecture %q, want %q… out=*400/16320", decl, want)
			}
			if size := 2*(768*32+32+64*tc.buckets) + 2*tc.buckets; buf.Len() != (size+63)/64*64 {
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
