package main

import (
	"testing"

	"github.com/nnuekit/nnuekit/internal/cmdtest"
)

// runMain runs the program with args in a child process (cmdtest.Run; TestMain calls
// cmdtest.RunMainIfAsked).
func runMain(t *testing.T, args ...string) (string, int) {
	t.Helper()
	return cmdtest.Run(t, args...)
}

// TestHelp: -help prints what the program does, a synopsis, an example and the flags, and exits
// with 0; an unknown flag exits with 2.
func TestHelp(t *testing.T) { cmdtest.CheckHelp(t, "datagen") }
