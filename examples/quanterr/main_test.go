package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/quant"
)

func TestReplaceSection(t *testing.T) {
	p := filepath.Join(t.TempDir(), "q.md")
	if err := os.WriteFile(p, []byte("intro\n"+beginMark+"\nold\n"+endMark+"\ntail\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replaceSection(p, "new table"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "intro\n" + beginMark + "\nnew table\n" + endMark + "\ntail\n"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	os.WriteFile(p, []byte("no markers"), 0o644)
	if err := replaceSection(p, "x"); err == nil {
		t.Error("missing markers accepted")
	}
}

// TestPlotsAndTables renders the tables and both plots from a synthetic result.
func TestPlotsAndTables(t *testing.T) {
	fl := []float64{0, 100, -250, 900, 30}
	in := []float64{1, 104, -240, 880, 30}
	rep, err := quant.NewErrorReport(fl, in, quant.ThesisWDL, binWidth, nbins)
	if err != nil {
		t.Fatal(err)
	}
	r := &result{name: "syn", deq: rep, jit: rep, fl: fl, in: in, roundTripOK: true,
		parts: []partResult{{"output (W3, b3)", rep}}}
	dir := t.TempDir()
	if err := plotHistogram(filepath.Join(dir, "h.png"), []*result{r}); err != nil {
		t.Fatal(err)
	}
	if err := plotScatter(filepath.Join(dir, "s.png"), r); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"h.png", "s.png"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
			t.Errorf("%s: %d bytes, %v", f, len(b), err)
		}
	}
	var b bytes.Buffer
	writeTables(&b, []*result{r}, 0.45, 7, len(fl))
	if !strings.Contains(b.String(), "| `syn` | trainer's (jittered) |") {
		t.Errorf("tables:\n%s", b.String())
	}
}
