// Package testenv holds what the module's tests share: where the golden data directory
// ../shared is, whether the full test tier is on (NNUEKIT_FULL), and a TestMain body that
// says in one line when a package's golden tests skipped because ../shared is absent.
//
// Only _test.go files import it; it imports nothing of the module, so any package's tests
// may use it.
package testenv

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// FullEnv is the environment variable that turns on the full test tier: every golden
// row at every SIMD level, every network, every file re-encoding. CI (.ci/run) sets it
// to 1 for its go test steps; without it `go test ./...` runs the same tests on samples
// (README "Testing" lists which).
const FullEnv = "NNUEKIT_FULL"

// Full reports whether the full test tier is on: NNUEKIT_FULL is set to anything but ""
// or "0".
func Full() bool {
	v := os.Getenv(FullEnv)
	return v != "" && v != "0"
}

// moduleRoot returns the nearest directory at or above dir that holds a go.mod file, or
// "" when there is none.
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// SharedDir returns the absolute path of the golden data directory, ../shared beside the
// root of the module that holds the working directory (go test runs each package's tests
// in its directory), and whether it exists as a directory.
func SharedDir() (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "../shared", false
	}
	root := moduleRoot(wd)
	if root == "" {
		root = wd
	}
	dir := filepath.Join(filepath.Dir(root), "shared")
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// skipLine is the one-line summary printed for package pkg when dir is absent.
func skipLine(pkg, dir string) string {
	return fmt.Sprintf("%s: golden tests skipped: %s not found (README.md, \"Networks and data\")\n", pkg, dir)
}

// packageLabel names the package under test by its directory relative to the module
// root ("nnue", "examples/evaluate").
func packageLabel() string {
	wd, err := os.Getwd()
	if err != nil {
		return "nnuekit"
	}
	if root := moduleRoot(wd); root != "" {
		if rel, err := filepath.Rel(root, wd); err == nil && rel != "." {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(wd)
}

// isTerminal reports whether f is a character device (a terminal), where whatever the
// test binary prints is already shown.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// reportOnce makes the missing-data line appear once per test binary, whether Run or
// SkipNoShared prints it.
var reportOnce sync.Once

// report prints the missing-data line for dir: to standard error, and to the controlling
// terminal when toTerminal holds and a terminal exists.
func report(dir string, toTerminal bool) {
	reportOnce.Do(func() {
		line := skipLine(packageLabel(), dir)
		io.WriteString(os.Stderr, line)
		if toTerminal {
			if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
				io.WriteString(tty, line)
				tty.Close()
			}
		}
	})
}

// SkipNoShared skips t with the message why, first printing the missing-data line once per
// test binary as Run does (to the terminal too unless -v is given or standard error is a
// terminal already). It is for packages whose TestMain does something else; packages that
// can call Run from their TestMain need not use it.
func SkipNoShared(t testing.TB, why string) {
	t.Helper()
	dir, _ := SharedDir()
	report(dir, !testing.Verbose() && !isTerminal(os.Stderr))
	t.Skip(why)
}

// Run runs the package's tests and returns their exit code, for TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
//
// When ../shared is absent it prints one line naming the package and the directory it
// looked for to standard error (shown with -v, -json, on failure and when the test binary
// writes to a terminal). `go test ./...` discards everything a passing package printed
// unless -v is given, so in that case the line also goes to the controlling terminal
// (/dev/tty) when there is one; without a terminal (CI) nothing more is printed — .ci/run
// says once whether ../shared is present.
func Run(m *testing.M) int {
	code := m.Run()
	dir, ok := SharedDir()
	if ok {
		return code
	}
	report(dir, code == 0 && !testing.Verbose() && !isTerminal(os.Stderr))
	return code
}
