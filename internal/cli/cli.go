// Package cli is the command-line scaffolding the example commands share: the usage text
// printed above the flag list, no positional arguments, standard output buffered, and a
// failure reported as "name: message" on standard error with exit status 2 (a usage error)
// or 1 (the run failed). It is not public API (internal/, doc/DESIGN layout).
package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

// Parse parses the command line. usage is printed by -help (and on a flag error) above the
// flag defaults. Positional arguments left over are a usage error: "name: unexpected
// arguments [...]", exit status 2.
func Parse(name, usage string) {
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		Fail(name, fmt.Errorf("unexpected arguments %q", flag.Args()), 2)
	}
}

// Run calls run with standard output buffered, flushes it, and on an error of run or of the
// flush exits with status 1 after "name: error" on standard error.
func Run(name string, run func(w io.Writer) error) {
	w := bufio.NewWriter(os.Stdout)
	err := run(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		Fail(name, err, 1)
	}
}

// Fail prints "name: err" to standard error and exits with status code.
func Fail(name string, err error, code int) {
	fmt.Fprintln(os.Stderr, name+":", err)
	os.Exit(code)
}
