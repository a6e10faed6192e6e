package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPGNErrors: binary junk, a directory or a bad game given to -pgn is an error (the
// program exits 1); before issue 16 ReadPGN returned no games and no error, and diff
// printed nothing and exited 0.
func TestPGNErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pgn")
	if err := os.WriteFile(junk, []byte("\x00\x01\x02\xff binary"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.pgn")
	if err := os.WriteFile(bad, []byte("[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{"junk": junk, "directory": dir, "bad game": bad} {
		var out bytes.Buffer
		err := run(options{set: "all", pgn: path}, &out)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.Contains(err.Error(), "PGN game") {
			t.Errorf("%s: error %q does not name the game", name, err)
		}
	}
}
