package main

import (
	"fmt"
	"io"
	"os"

	"github.com/nnuekit/nnuekit/simd"
)

// A bad NNUEKIT_SIMD value is not fatal (simd falls back, see simd.LevelReason) but is
// always reported, -info or not.
func init() {
	if err := simd.EnvError(); err != nil {
		fmt.Fprintln(os.Stderr, "evaluate: warning:", err)
	}
}

// printSIMDInfo writes the kernel level in use and why it was chosen (part of -info).
func printSIMDInfo(w io.Writer) {
	fmt.Fprintf(w, "simd: %v (%s)\n", simd.Level(), simd.LevelReason())
}
