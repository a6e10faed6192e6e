package nnue

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// onlyReader hides every method but Read, so Load cannot learn the size: the streaming
// path of unknown size.
type onlyReader struct{ r *bytes.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// smallNets returns small network files (≈ 4 KB) for fuzz seeds: thesis and native
// encodings of a KSQ network of width 32 and one hidden neuron, and a native SFNNv5-shaped
// one.
func smallNets(t testing.TB) map[string][]byte {
	rng := rand.New(rand.NewPCG(11, 11))
	th := randomThesisNet(t, rng, "ksq", 32, 1, 100)
	return map[string][]byte{
		"thesis-ksq": encodeThesis(t, th),
		"native-ksq": encodeNative(t, th),
	}
}

// FuzzLoad: Load from a stream of unknown size, from a sized reader and Decode from
// memory agree: all fail, or all give the same network and evaluation. Failures are
// *FormatError values or "nnue:" errors, never panics.
func FuzzLoad(f *testing.F) {
	for _, b := range smallNets(f) {
		f.Add(b)
	}
	f.Add([]byte("ksq\x00"))
	f.Add([]byte(NativeMagic + "\x01\x00\x00\x00"))
	start := board.StartPosition()
	f.Fuzz(func(t *testing.T, data []byte) {
		a, errA := Load(onlyReader{bytes.NewReader(data)})
		b, errB := Load(bytes.NewReader(data))
		c, errC := Decode(data)
		if (errA == nil) != (errB == nil) || (errB == nil) != (errC == nil) {
			t.Fatalf("stream: %v; sized: %v; memory: %v", errA, errB, errC)
		}
		for _, err := range []error{errA, errB, errC} {
			var fe *FormatError
			if err != nil && !errors.As(err, &fe) && !strings.Contains(err.Error(), "nnue") {
				t.Fatalf("error without format context: %v", err)
			}
		}
		if errA != nil {
			return
		}
		va, vb, vc := a.Evaluate(&start), b.Evaluate(&start), c.Evaluate(&start)
		if va != vb || vb != vc || a.String() != c.String() {
			t.Fatalf("evaluations %d %d %d; %v vs %v", va, vb, vc, a, c)
		}
	})
}

// TestWriteFuzzCorpus writes the committed seed corpora of this package's fuzz targets
// (testdata/fuzz/FuzzXxx/) when NNUEKIT_WRITE_CORPUS=1; otherwise it checks that they
// exist. Seeds are kept small (≤ 5 KB) so that each target runs ≥ 10⁵ executions per
// minute.
func TestWriteFuzzCorpus(t *testing.T) {
	write := os.Getenv("NNUEKIT_WRITE_CORPUS") == "1"
	seeds := map[string]map[string][]byte{}
	add := func(target, name string, b []byte) {
		if seeds[target] == nil {
			seeds[target] = map[string][]byte{}
		}
		seeds[target][name] = b
	}
	for name, b := range smallNets(t) {
		add("FuzzLoad", name, b)
		add("FuzzDecode", name, b)
		add("FuzzDecode", name+"-third", b[:len(b)/3])
		if strings.HasPrefix(name, "native") {
			add("FuzzDecodeNative", name, b)
		} else {
			add("FuzzDecodeThesis", name, b)
		}
	}
	for _, target := range []string{"FuzzReadStockfish"} {
		for name, b := range stockfishSeeds() {
			add(target, name, b)
		}
	}
	for target, m := range seeds {
		dir := filepath.Join("testdata", "fuzz", target)
		for name, b := range m {
			path := filepath.Join(dir, name)
			if !write {
				if _, err := os.Stat(path); err != nil {
					t.Errorf("seed %s missing (NNUEKIT_WRITE_CORPUS=1 go test -run TestWriteFuzzCorpus ./nnue)", path)
				}
				continue
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
