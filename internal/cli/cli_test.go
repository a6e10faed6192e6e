package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/cmdtest"
)

// testMain is a command built on Parse and Run: -fail makes the run fail after it wrote.
func testMain() {
	fail := flag.Bool("fail", false, "fail the run")
	Parse("clitest", "clitest: a test command.\n\nFlags:\n")
	Run("clitest", func(w io.Writer) error {
		fmt.Fprintln(w, "written")
		if *fail {
			return errors.New("boom")
		}
		return nil
	})
}

func TestMain(m *testing.M) {
	cmdtest.RunMainIfAsked("clitest", testMain)
	os.Exit(m.Run())
}

// TestCommandLine: the output is flushed, a run error is "name: error" with status 1, a
// positional argument "name: unexpected arguments" with status 2 before anything runs,
// -help prints the usage above the flags.
func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
		not  string
	}{
		{[]string{"-fail=false"}, 0, []string{"written"}, "clitest:"},
		{[]string{"-fail"}, 1, []string{"written", "clitest: boom"}, ""},
		{[]string{"extra"}, 2, []string{`clitest: unexpected arguments ["extra"]`}, "written"},
		{[]string{"-help"}, 0, []string{"clitest: a test command.", "-fail"}, "written"},
	} {
		out, code := cmdtest.Run(t, tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d\n%s", tc.args, code, tc.code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", tc.args, w, out)
			}
		}
		if tc.not != "" && strings.Contains(out, tc.not) {
			t.Errorf("%q: output has %q:\n%s", tc.args, tc.not, out)
		}
	}
}
