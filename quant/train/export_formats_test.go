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
