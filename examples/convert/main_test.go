package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/nnue"
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
	// Without -partial an input error leaves no output at all.
	_, err := run(context.Background(), options{in: bad, out: out, noProgress: true}, nil)
	var fe *dataset.FormatError
	if !errors.As(err, &fe) || fe.Offset <= 0 || fe.Offset > 5000 {
		t.Fatalf("truncated input: %v", err)
	}
	if !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("error %q does not say that nothing was written", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("after an input error the directory holds %d entries, want only the input", len(ents))
	}
	// With -partial the output holds whole records for every sample read before the error (a
	// binpack reader delivers nothing of a bad chunk: use text cut in the middle of a line).
	txt, _ := os.ReadFile(fixtures + "datagen.txt")
	badTxt := filepath.Join(dir, "bad.txt")
	os.WriteFile(badTxt, append(txt[:20000:20000], "\nnot a line\n"...), 0o644)
	st, err := run(context.Background(), options{in: badTxt, out: out, noProgress: true, partial: true}, nil)
	var pe *dataset.ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "-partial") {
		t.Fatalf("bad text input with -partial: %v", err)
	}
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
		{in: filepath.Join(dir, "x.bullet"), out: filepath.Join(dir, "y.plain")},
		{in: fixtures + "datagen.txt", out: fixtures + "datagen.txt", force: true},
		{in: fixtures + "datagen.txt", out: filepath.Join(dir, "y.bullet"), bulletScale: -1},
		{in: filepath.Join(dir, "missing.txt"), out: filepath.Join(dir, "y.plain")},
		{in: fixtures + "datagen.txt"},
		{out: filepath.Join(dir, "y.plain")},
	} {
		o.noProgress = true
		if _, err := run(context.Background(), o, nil); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestConvertOverInput: the output is never the input, however it is spelled (absolute,
// relative, "..", a symlink), even with -force; the input keeps every byte.
func TestConvertOverInput(t *testing.T) {
	dir := t.TempDir()
	orig, _ := os.ReadFile(fixtures + "datagen.txt")
	in := filepath.Join(dir, "data.txt")
	os.WriteFile(in, orig, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "sub"))
	for _, alias := range []string{in, "../data.txt", "../sub/../data.txt", link, "../link.txt"} {
		_, err := run(context.Background(), options{in: "../data.txt", out: alias, force: true, noProgress: true}, nil)
		if !errors.Is(err, outfile.ErrSameAsInput) {
			t.Errorf("-out %s: %v, want ErrSameAsInput", alias, err)
		}
		if b, _ := os.ReadFile(in); !bytes.Equal(b, orig) {
			t.Fatalf("-out %s: the input now holds %d bytes, want %d", alias, len(b), len(orig))
		}
	}
}

// TestConvertExisting: an existing output is replaced only with -force, and an error keeps it.
func TestConvertExisting(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.plain")
	const old = "fen 8/8/8/8/8/8/8/K6k w - - 0 1\nmove a1a2\nscore 0\nply 0\nresult 0\ne\n"
	os.WriteFile(out, []byte(old), 0o644)
	_, err := run(context.Background(), options{in: fixtures + "datagen.txt", out: out, noProgress: true}, nil)
	if !errors.Is(err, outfile.ErrExists) {
		t.Errorf("existing output without -force: %v", err)
	}
	good, _ := os.ReadFile(fixtures + "datagen-sf.binpack")
	bad := filepath.Join(dir, "bad.binpack")
	os.WriteFile(bad, good[:5000], 0o644)
	if _, err := run(context.Background(), options{in: bad, out: out, force: true, noProgress: true}, nil); err == nil {
		t.Error("truncated input: no error")
	}
	if b, _ := os.ReadFile(out); string(b) != old {
		t.Errorf("after a failed run the output holds %q, want the old content", b)
	}
	st, err := run(context.Background(), options{in: fixtures + "datagen.txt", out: out, force: true, noProgress: true}, nil)
	if err != nil || st.written != 3685 {
		t.Errorf("-force: %+v, %v", st, err)
	}
}

// TestConvertOtherFormat: -force replaces only a file of the format being written.
func TestConvertOtherFormat(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\n0123456789")
	sfBin, _ := os.ReadFile(fixtures + "datagen-sf.binpack")
	for _, tc := range []struct {
		name string
		old  []byte
	}{{"x.binpack", png}, {"x.plain", sfBin}, {"x.txt", []byte("fen 8/8/8/8/8/8/8/K6k w - - 0 1\n")}, {"x.bullet", png}} {
		out := filepath.Join(dir, tc.name)
		os.WriteFile(out, tc.old, 0o644)
		_, err := run(context.Background(), options{in: fixtures + "datagen.txt", out: out, force: true, bulletScale: 1, noProgress: true}, nil)
		if !errors.Is(err, outfile.ErrOtherFormat) {
			t.Errorf("-force over %s holding another format: %v", tc.name, err)
		}
		if b, _ := os.ReadFile(out); !bytes.Equal(b, tc.old) {
			t.Errorf("%s was changed", tc.name)
		}
	}
	// the same format is replaced
	out := filepath.Join(dir, "y.binpack")
	os.WriteFile(out, sfBin, 0o644)
	if _, err := run(context.Background(), options{in: fixtures + "datagen.txt", out: out, force: true, noProgress: true}, nil); err != nil {
		t.Errorf("-force over a binpack: %v", err)
	}
	net := filepath.Join(dir, "net.nnue")
	os.WriteFile(net, png, 0o644)
	if _, err := convertNet(options{net: "../../../shared/thesis-models/hv.nn", out: net, force: true}); err == nil {
		t.Error("-net -force over a PNG accepted")
	}
}

// TestConvertInterrupt: a cancelled run stops and writes nothing, or with -partial leaves a
// valid output.
func TestConvertInterrupt(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.binpack")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err := run(ctx, options{in: fixtures + "sfgen.binpack", out: out, noProgress: true}, nil)
	if !errors.Is(err, context.Canceled) || st.read != 1023 {
		t.Fatalf("%+v, %v", st, err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("interrupted run left an output: %v", err)
	}
	st, err = run(ctx, options{in: fixtures + "sfgen.binpack", out: out, noProgress: true, partial: true}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%+v, %v", st, err)
	}
	r := dataset.NewBinpackReader(mustOpen(t, out))
	n := int64(0)
	for r.Next() {
		n++
	}
	if r.Err() != nil || n != st.written || n == 0 {
		t.Errorf("interrupted output: %d samples (%v), %d written", n, r.Err(), st.written)
	}
}

// TestConvertNet converts networks of three formats to the native format and back.
func TestConvertNet(t *testing.T) {
	dir := t.TempDir()
	for _, net := range []string{"../../../shared/thesis-models/all+ph+pv.nn", "../../../shared/nets/nn-62ef826d1a6d.nnue", "../../../shared/thesis-models/best.nn"} {
		if _, err := os.Stat(net); err != nil {
			t.Logf("skipping %s: %v (../shared absent)", net, err)
			continue
		}
		out := filepath.Join(dir, filepath.Base(net)+".native")
		sum, err := convertNet(options{net: net, out: out})
		if err != nil {
			// a format nnuekit's native writer cannot store must be refused with an error and
			// leave no file
			if _, serr := os.Stat(out); serr == nil {
				t.Errorf("%s: %v, and an output was left", net, err)
			}
			t.Logf("%s: %v", net, err)
			continue
		}
		fi, _ := os.Stat(out)
		if fi == nil || fi.Size() != sum.Bytes || sum.Bytes == 0 {
			t.Errorf("%s: %+v, file %v", net, sum, fi)
		}
		a, _ := nnue.LoadFile(net)
		b, err := nnue.LoadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameNetwork(a, b); err != nil {
			t.Errorf("%s: %v", net, err)
		}
		if _, err := convertNet(options{net: net, out: out}); !errors.Is(err, outfile.ErrExists) {
			t.Errorf("second conversion without -force: %v", err)
		}
	}
	// Not a network: a clear error, no output.
	out := filepath.Join(dir, "x.nnue")
	if _, err := convertNet(options{net: fixtures + "datagen.txt", out: out}); err == nil {
		t.Error("a text file converted as a network")
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed conversion left an output")
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

// TestConvertChecksum: -checksum writes chunk trailers that the reader verifies; the samples are
// the same as without.
func TestConvertChecksum(t *testing.T) {
	dir := t.TempDir()
	sum := filepath.Join(dir, "sum.binpack")
	st, err := run(context.Background(), options{in: fixtures + "datagen.txt", out: sum, checksum: true, noProgress: true}, nil)
	if err != nil || st.written != 3685 {
		t.Fatalf("%+v, %v", st, err)
	}
	plain := filepath.Join(dir, "back.plain")
	st, err = run(context.Background(), options{in: sum, out: plain, noProgress: true}, nil)
	if err != nil || st.read != 3685 || st.checksummed != 1 || st.nosum != 0 {
		t.Fatalf("reading the checksummed file: %+v, %v", st, err)
	}
	if b, _ := os.ReadFile(plain); !bytes.Equal(b, gunzip(t, fixtures+"datagen-sf.plain.gz")) {
		t.Error("the checksummed binpack reads back differently")
	}
	if _, err := run(context.Background(), options{in: fixtures + "datagen.txt", out: filepath.Join(dir, "x.plain"), checksum: true, noProgress: true}, nil); err == nil {
		t.Error("-checksum accepted for .plain output")
	}
}

// TestJSONOutput: -json prints the summary as one JSON object on stdout (nothing else with
// -no-progress), with the chunk counts for binpack input.
func TestJSONOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.plain")
	text, code := runMain(t, "-in", fixtures+"datagen-sf.binpack", "-out", out, "-json", "-no-progress")
	var sum struct {
		Read, Written int64
		Checksummed   *int `json:"chunks_checksummed"`
		Plain         *int `json:"chunks_without_checksum"`
	}
	if err := json.Unmarshal([]byte(text), &sum); err != nil || code != 0 || sum.Read != 3685 || sum.Written != 3685 ||
		sum.Checksummed == nil || *sum.Checksummed != 0 || sum.Plain == nil || *sum.Plain != 1 {
		t.Errorf("exit %d, output %q: %+v, %v", code, text, sum, err)
	}
}

// TestMainError: a failing run prints the error alone (no "0 samples read" summary first) and
// exits 1; a usage error exits 2 before reading anything.
func TestMainError(t *testing.T) {
	dir := t.TempDir()
	good, _ := os.ReadFile(fixtures + "datagen-sf.binpack")
	bad := filepath.Join(dir, "bad.binpack")
	os.WriteFile(bad, good[:5000], 0o644)
	out := filepath.Join(dir, "out.plain")
	text, code := runMain(t, "-in", bad, "-out", out, "-no-progress")
	if code != 1 || strings.Contains(text, "samples read") || strings.Count(text, "\n") != 1 ||
		!strings.HasPrefix(text, "convert: "+bad+": dataset: binpack: byte offset 8: ") || !strings.Contains(text, "nothing written to") {
		t.Errorf("exit %d, output %q", code, text)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run left an output")
	}
	if text, code := runMain(t, "-in", bad); code != 2 || !strings.Contains(text, "-out is required") {
		t.Errorf("missing -out: exit %d, %q", code, text)
	}
}
