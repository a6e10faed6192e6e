// Package cmdtest runs an example program's main in a child process of its own test binary,
// so that the programs' command lines (flags, -help, exit codes) are tested as users meet
// them, without building a separate binary.
//
// A package's TestMain calls RunMainIfAsked first; a test then calls Run with the
// arguments. It is internal to nnuekit's examples, not public API.
package cmdtest

import (
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runMainEnv, when set, makes the test binary run main with the arguments it holds
// (separated by 0x1f) instead of the tests.
const runMainEnv = "NNUEKIT_RUN_MAIN"

// RunMainIfAsked runs main as the program name, with a fresh flag.CommandLine, and exits
// with status 0 when main returns — if the test binary was started by Run; otherwise it
// returns at once.
func RunMainIfAsked(name string, main func()) {
	args, ok := os.LookupEnv(runMainEnv)
	if !ok {
		return
	}
	os.Unsetenv(runMainEnv) // processes main starts are not to run main again
	os.Args = append([]string{name}, strings.Split(args, "\x1f")...)
	flag.CommandLine = flag.NewFlagSet(name, flag.ExitOnError)
	flag.CommandLine.Usage = func() { flag.Usage() } // as the standard CommandLine does
	main()
	os.Exit(0)
}

// Run runs the program with args in a child process of the test binary and returns its
// combined output and exit code. The test binary's TestMain must call RunMainIfAsked.
func Run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runMainEnv+"="+strings.Join(args, "\x1f"))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// CheckHelp checks that `name -help` prints what the program does, a synopsis
// ("Usage:\n  name "), an example ("go run ./examples/name "), the flags, and exits with 0,
// and that an unknown flag exits with 2.
func CheckHelp(t *testing.T, name string) {
	t.Helper()
	out, code := Run(t, "-help")
	for _, want := range []string{"Usage:\n  " + name + " ", "Example", "go run ./examples/" + name + " ", "Flags:\n", "\n  -"} {
		if !strings.Contains(out, want) {
			t.Errorf("-help output lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("-help exit code %d", code)
	}
	if _, code := Run(t, "-no-such-flag"); code != 2 {
		t.Errorf("unknown flag: exit code %d, want 2", code)
	}
}
