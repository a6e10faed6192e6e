package train

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func FuzzParseArch(f *testing.F) {
	for _, s := range []string{"thesis", "cpw", "", "THESIS"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, err := ParseArch(s); err == nil && a.String() != s {
			t.Fatalf("ParseArch(%q) = %v", s, a)
		}
	})
}

func FuzzParseLoss(f *testing.F) {
	for _, s := range []string{"score", "pqr", "", "Score"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := ParseLoss(s); err == nil && l.String() != s {
			t.Fatalf("ParseLoss(%q) = %v", s, l)
		}
	})
}

// TestWriteCheckpointCorpus writes the committed seed of FuzzReadCheckpoint (a checkpoint
// of a tiny trainer, and its first half) when NNUEKIT_WRITE_CORPUS=1.
func TestWriteCheckpointCorpus(t *testing.T) {
	if os.Getenv("NNUEKIT_WRITE_CORPUS") != "1" {
		t.Skip("set NNUEKIT_WRITE_CORPUS=1 to rewrite testdata/fuzz/FuzzReadCheckpoint")
	}
	tr, err := New("h", 96, Config{L1: 4, L2: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tr.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzReadCheckpoint")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"tiny": buf.Bytes(), "tiny-half": buf.Bytes()[:buf.Len()/2]} {
		if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
