package main

import (
	"os"
	"testing"

	"github.com/nnuekit/nnuekit/internal/cmdtest"
)

func TestMain(m *testing.M) {
	cmdtest.RunMainIfAsked("thesiselo", main)
	os.Exit(m.Run())
}

// TestHelp: -help prints what the program does, a synopsis, an example and the flags, and exits
// with 0; an unknown flag exits with 2.
func TestHelp(t *testing.T) { cmdtest.CheckHelp(t, "thesiselo") }
