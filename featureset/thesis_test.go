package featureset

import (
	"bufio"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedDir returns ../shared relative to the repository root, or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	d := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(d); err != nil {
		t.Skip("shared data: ../shared absent")
	}
	return d
}

// Every thesis network's header names its feature set and its feature count: Parse must
// accept the name, give the same count and print the name back unchanged.
func TestThesisNetHeaders(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "thesis-models")
	files, _ := filepath.Glob(filepath.Join(dir, "*.nn"))
	if len(files) == 0 {
		t.Skip("no thesis networks")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(fh)
		name, err := r.ReadString(0)
		if err != nil {
			t.Fatal(err)
		}
		name = strings.TrimSuffix(name, "\x00")
		var nf uint32
		if err := binary.Read(r, binary.LittleEndian, &nf); err != nil {
			t.Fatal(err)
		}
		fh.Close()
		s, err := Parse(name)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if s.Size() != int(nf) {
			t.Errorf("%s: %s has %d features, header says %d", f, name, s.Size(), nf)
		}
		if s.String() != name {
			t.Errorf("%s: String() = %q, header %q", f, s.String(), name)
		}
	}
}
