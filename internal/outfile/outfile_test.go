package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("input"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	dotdot := filepath.Join(sub, "..", "in.txt")

	if err := Check(filepath.Join(dir, "new.txt"), false, in); err != nil {
		t.Errorf("new file: %v", err)
	}
	if err := Check(filepath.Join(dir, "nodir", "new.txt"), false); err == nil {
		t.Error("missing directory accepted")
	}
	for _, alias := range []string{in, link, dotdot} {
		err := Check(alias, true, in)
		if !errors.Is(err, ErrSameAsInput) {
			t.Errorf("Check(%s, force, %s) = %v, want ErrSameAsInput", alias, in, err)
		}
	}
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, []byte("x"), 0o644)
	if err := Check(other, false, in); !errors.Is(err, ErrExists) {
		t.Errorf("existing without force: %v", err)
	}
	if err := Check(other, true, in); err != nil {
		t.Errorf("existing with force: %v", err)
	}
	if err := Check(sub, true); err == nil {
		t.Error("directory accepted as output")
	}
}

func TestCreateCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Abandoned: the old file stays, no temporary file is left.
	f, err := Create(out, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("partial")
	f.Close()
	if b, _ := os.ReadFile(out); string(b) != "old" {
		t.Errorf("after abort: %q, want old", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("after abort the directory holds %d entries, want 1", len(ents))
	}
	// Committed: the new content replaces the old.
	if err := WriteFile(out, []byte("new"), true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) != "new" {
		t.Errorf("after commit: %q, want new", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("after commit the directory holds %d entries, want 1", len(ents))
	}
}

// TestPermissions: a new output is 0644 (not CreateTemp's 0600); a replaced one keeps its mode.
func TestPermissions(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	if err := WriteFile(out, []byte("a"), false); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o644 {
		t.Errorf("new output mode %v, want 0644", st.Mode().Perm())
	}
	os.Chmod(out, 0o640)
	if err := WriteFile(out, []byte("b"), true); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o640 {
		t.Errorf("replaced output mode %v, want 0640", st.Mode().Perm())
	}
}

func TestSameFormat(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "a.png")
	os.WriteFile(png, []byte("\x89PNG\r\n\x1a\nrest"), 0o644)
	isPNG := func(h []byte, _ int64) bool { return len(h) >= 4 && string(h[1:4]) == "PNG" }
	isText := func(h []byte, _ int64) bool { return len(h) > 0 && h[0] == 't' }
	if err := SameFormat(png, "a PNG image", isPNG); err != nil {
		t.Errorf("PNG as PNG: %v", err)
	}
	if err := SameFormat(png, "text", isText); !errors.Is(err, ErrOtherFormat) {
		t.Errorf("PNG as text: %v", err)
	}
	if err := SameFormat(filepath.Join(dir, "missing"), "text", isText); err != nil {
		t.Errorf("missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if err := SameFormat(empty, "text", isText); err != nil {
		t.Errorf("empty file: %v", err)
	}
}

// TestLock: a second lock on one output is refused (ErrLocked, naming the lock file and the
// PID) while the first is held; unlock removes the lock; a lock whose process is gone is taken
// over with a line on warn; an empty lock (being created) counts as held.
func TestLock(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.txt")
	unlock, err := Lock(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(out, nil); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), LockPath(out)) ||
		!strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second lock: %v", err)
	}
	unlock()
	unlock2, err := Lock(out, nil)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
		t.Errorf("%d entries left", len(ents))
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "plan9" {
		// a PID that does not exist: Linux's maximum is below 2^22
		os.WriteFile(LockPath(out), []byte("99999999\n"), 0o644)
		var warn strings.Builder
		unlock3, err := Lock(out, &warn)
		if err != nil || !strings.Contains(warn.String(), "taking over the stale lock") {
			t.Fatalf("stale lock: %v, %q", err, warn.String())
		}
		unlock3()
	}
	os.WriteFile(LockPath(out), nil, 0o644)
	if _, err := Lock(out, nil); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "being created") {
		t.Errorf("empty lock: %v", err)
	}
}
