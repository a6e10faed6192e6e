package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFull(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(FullEnv, c.v)
		if got := Full(); got != c.want {
			t.Errorf("%s=%q: Full() = %v, want %v", FullEnv, c.v, got, c.want)
		}
	}
}

// layout makes <tmp>/repo/go.mod and <tmp>/repo/pkg/sub, optionally <tmp>/shared, and
// changes into repo/pkg/sub.
func layout(t *testing.T, withShared bool) string {
	tmp := t.TempDir()
	sub := filepath.Join(tmp, "repo", "pkg", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "repo", "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if withShared {
		if err := os.Mkdir(filepath.Join(tmp, "shared"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(sub)
	return tmp
}

func TestSharedDir(t *testing.T) {
	for _, present := range []bool{false, true} {
		tmp := layout(t, present)
		dir, ok := SharedDir()
		if want := filepath.Join(tmp, "shared"); dir != want || ok != present {
			t.Errorf("shared present=%v: SharedDir() = %q, %v; want %q, %v", present, dir, ok, want, present)
		}
		if got := packageLabel(); got != "pkg/sub" {
			t.Errorf("packageLabel() = %q, want pkg/sub", got)
		}
	}
}

func TestSkipLine(t *testing.T) {
	got := skipLine("nnue", "/x/shared")
	want := "nnue: golden tests skipped: /x/shared not found (README.md, \"Networks and data\")\n"
	if got != want {
		t.Errorf("skipLine = %q, want %q", got, want)
	}
	if strings.Count(got, "\n") != 1 {
		t.Errorf("skipLine is not one line: %q", got)
	}
}
