package search

import (
	"os"
	"testing"

	"github.com/nnuekit/nnuekit/internal/testenv"
)

// TestMain says in one line when the golden tests skipped because ../shared is absent.
func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) }
