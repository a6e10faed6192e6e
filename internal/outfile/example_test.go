package outfile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nnuekit/nnuekit/internal/outfile"
)

// A program writes its output through a temporary file: an error before Commit leaves no
// half-written file, and an existing file is replaced only with force.
func Example() {
	dir, _ := os.MkdirTemp("", "outfile")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "result.txt")

	f, err := outfile.Create(out, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, "42")
	if err := f.Commit(); err != nil {
		fmt.Println(err)
	}
	b, _ := os.ReadFile(out)
	fmt.Printf("%q\n", b)
	// A second run without force is refused before any work is done.
	fmt.Println(outfile.Check(out, false) != nil)
	// Output:
	// "42\n"
	// true
}
