package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/quant/dataset"
)

const fixtures = "../../quant/dataset/testdata/binpack/"

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConvertChain converts our datagen fixture .txt → .binpack → .plain → .txt and compares
// with Stockfish's files and the original.
func TestConvertChain(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "a.binpack")
	plain := filepath.Join(dir, "a.plain")
	txt := filepath.Join(dir, "a.txt")
	var progress bytes.Buffer
	steps := []struct{ in, out string }{{fixtures + "datagen.txt", bin}, {bin, plain}, {plain, txt}}
	for _, s := range steps {
		st, err := run(context.Background(), options{in: s.in, out: s.out, progress: 1}, &progress)
		if err != nil || st.read != 3685 || st.written != 3685 {
			t.Fatalf("%s → %s: %+v, %v", s.in, s.out, st, err)
		}
	}
	cmp := func(got string, want []byte) {
		b, _ := os.ReadFile(got)
		if !bytes.Equal(b, want) {
			t.Errorf("%s differs from its reference (%d vs %d bytes)", got, len(b), len(want))
		}
	}
	sfBin, _ := os.ReadFile(fixtures + "datagen-sf.binpack")
	cmp(bin, sfBin)
	cmp(plain, gunzip(t, fixtures+"datagen-sf.plain.gz"))
	orig, _ := os.ReadFile(fixtures + "datagen.txt")
	cmp(txt, orig)
	if !strings.Contains(progress.String(), "100.0%") {
		t.Errorf("progress output %q", progress.String())
	}
}

func TestConvertBullet(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a.bullet")
	st, err := run(context.Background(), options{in: fixtures + "sfgen.binpack", out: out, bulletScale: 1, quietOnly: true, noProgress: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(out)
	if st.read != 3000 || st.written == 0 || st.written >= 3000 || fi.Size() != 32*st.written {
		t.Errorf("%+v, %d bytes", st, fi.Size())
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	good, _ := os.ReadFile(fixtures + "datagen-sf.binpack")
	bad := filepath.Join(dir, "bad.binpack")
	os.WriteFile(bad, good[:5000], 0o644)
	out := filepath.Join(dir, "out.plain")
	st, err := run(context.Background(), options{in: bad, out: out, noProgress: true}, nil)
	var fe *dataset.FormatError
	if !errors.As(err, &fe) || fe.Offset <= 0 || fe.Offset > 5000 {
		t.Fatalf("truncated input: %v", err)
	}
	// The output holds whole records for every sample read before the error.
	r := dataset.NewStockfishPlainReader(mustOpen(t, out))
	n := int64(0)
	for r.Next() {
		n++
	}
	if r.Err() != nil || n != st.written || n == 0 {
		t.Errorf("output after the error: %d records (%v), %d written", n, r.Err(), st.written)
	}
	for _, o := range []options{
		{in: fixtures + "datagen.txt", out: filepath.Join(dir, "x.csv")},
		{in: filepath.Join(dir, "x.bullet"), out: out},
		{in: fixtures + "datagen.txt", out: fixtures + "datagen.txt"},
	} {
		o.noProgress = true
		if _, err := run(context.Background(), o, nil); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestConvertInterrupt: a cancelled run stops and leaves a valid output.
func TestConvertInterrupt(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.binpack")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := run(ctx, options{in: fixtures + "sfgen.binpack", out: out, noProgress: true}, nil)
	if !errors.Is(err, context.Canceled) || st.read != 1024 {
		t.Fatalf("%+v, %v", st, err)
	}
	r := dataset.NewBinpackReader(mustOpen(t, out))
	n := int64(0)
	for r.Next() {
		n++
	}
	if r.Err() != nil || n != st.written {
		t.Errorf("interrupted output: %d samples (%v), %d written", n, r.Err(), st.written)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
