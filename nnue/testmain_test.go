package nnue

import (
	"os"
	"testing"

	"github.com/nnuekit/nnuekit/internal/testenv"
	"github.com/nnuekit/nnuekit/simd"
)

// TestMain says in one line when the golden tests skipped because ../shared is absent.
func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }

// startLevel is the SIMD level the package starts at: the best one here, or the one
// NNUEKIT_SIMD caps it to.
var startLevel = simd.Level()

// levelStep is the row step of a golden test at the current SIMD level: every row at
// startLevel, and at every level with NNUEKIT_FULL; every 10th row at the other levels.
func levelStep() int {
	if testenv.Full() || simd.Level() == startLevel {
		return 1
	}
	return 10
}
