package main

import (
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runMainEnv, when set, makes the test binary run main with the arguments it holds (separated
// by 0x1f) instead of the tests, so the programs' command lines are tested as users meet them.
const runMainEnv = "NNUEKIT_RUN_MAIN"

func TestMain(m *testing.M) {
	runMainIfAsked()
	os.Exit(m.Run())
}

// runMainIfAsked runs main and exits when runMainEnv is set.
func runMainIfAsked() {
	args, ok := os.LookupEnv(runMainEnv)
	if !ok {
		return
	}
	os.Unsetenv(runMainEnv) // processes main starts are not to run main again
	os.Args = append([]string{"diff"}, strings.Split(args, "\x1f")...)
	flag.CommandLine = flag.NewFlagSet("diff", flag.ExitOnError)
	flag.CommandLine.Usage = func() { flag.Usage() } // as the standard CommandLine does
	main()
	os.Exit(0)
}

// runMain runs the program with args in a child process and returns its combined output and
// exit code.
func runMain(t *testing.T, args ...string) (string, int) {
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

// TestHelp: -help prints what the program does, a synopsis, an example and the flags, and exits
// with 0; an unknown flag exits with 2.
func TestHelp(t *testing.T) {
	out, code := runMain(t, "-help")
	for _, want := range []string{"Usage:\n  diff ", "Example", "go run ./examples/diff ", "Flags:\n", "\n  -"} {
		if !strings.Contains(out, want) {
			t.Errorf("-help output lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("-help exit code %d", code)
	}
	if _, code := runMain(t, "-no-such-flag"); code != 2 {
		t.Errorf("unknown flag: exit code %d, want 2", code)
	}
}
