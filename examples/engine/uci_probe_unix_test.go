//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUCIEvalFileNotRegular: a FIFO, a directory or a device as EvalFile is refused at
// once (a FIFO hung the engine, quit included); a file that is not a network is an
// error that keeps the network.
func TestUCIEvalFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.nnue")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("engine: mkfifo: %v", err)
	}
	epd := filepath.Join(dir, "positions.epd")
	if err := os.WriteFile(epd, []byte("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := readySession(t)
	for _, path := range []string{fifo, dir, "/dev/null", "/dev/zero", epd} {
		s.send("setoption name EvalFile value " + path)
		line, _, ok := s.expect(regexp.MustCompile(`^info string error: EvalFile[ :]`), margin+time.Second)
		if !ok {
			t.Fatalf("EvalFile %s: no error; output:\n%s", path, s.out.String())
		}
		t.Log(line)
		if path != epd && !strings.Contains(line, "not a regular file") {
			t.Errorf("EvalFile %s: %q, want 'not a regular file'", path, line)
		}
	}
	s.send("eval") // the default network stayed
	if _, _, ok := s.expect(regexp.MustCompile(`^info string NNUE evaluation .*\[<default>\]$`), 5*time.Second); !ok {
		t.Errorf("after the refused EvalFiles the default network is gone; output:\n%s", s.out.String())
	}
	s.send("quit")
	select {
	case <-s.done:
	case <-time.After(margin):
		t.Fatal("quit not answered")
	}
}
