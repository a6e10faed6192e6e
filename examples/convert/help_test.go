package main

import (
	"os"
	"testing"

	"github.com/nnuekit/nnuekit/internal/cmdtest"
)

func TestMain(m *testing.M) {
	cmdtest.RunMainIfAsked("convert", main)
	os.Exit(m.Run())
}

// runMain runs the program with args in a child process (cmdtest.Run).
func runMain(t *testing.T, args ...string) (string, int) {
	t.Helper()
	return cmdtest.Run(t, args...)
}

// TestHelp: -help prints what the program does, a synopsis, an example and the flags, and exits
// with 0; an unknown flag exits with 2.
func TestHelp(t *testing.T) { cmdtest.CheckHelp(t, "convert") }
