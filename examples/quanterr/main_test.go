package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/outfile"
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
	if err := plotHistogram(filepath.Join(dir, "h.png"), []*result{r}, false); err != nil {
		t.Fatal(err)
	}
	if err := plotScatter(filepath.Join(dir, "s.png"), r, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"h.png", "s.png"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
			t.Errorf("%s: %d bytes, %v", f, len(b), err)
		}
	}
	// An existing plot is replaced only with force.
	if err := plotScatter(filepath.Join(dir, "s.png"), r, false); !errors.Is(err, outfile.ErrExists) {
		t.Errorf("existing scatter plot without force: %v", err)
	}
	if err := plotScatter(filepath.Join(dir, "s.png"), r, true); err != nil {
		t.Errorf("existing scatter plot with force: %v", err)
	}
	var j bytes.Buffer
	writeJSON(&j, []*result{r}, 0.45, 7, len(fl))
	var parsed struct {
		Positions int
		Networks  []struct {
			Name     string
			Jittered struct{ Mean float64 }
		}
	}
	if err := json.Unmarshal(j.Bytes(), &parsed); err != nil || parsed.Positions != 5 || len(parsed.Networks) != 1 ||
		parsed.Networks[0].Name != "syn" || parsed.Networks[0].Jittered.Mean != rep.Mean {
		t.Errorf("JSON %s: %+v, %v", j.String(), parsed, err)
	}
	var b bytes.Buffer
	writeTables(&b, []*result{r}, 0.45, 7, len(fl))
	if !strings.Contains(b.String(), "| `syn` | trainer's (jittered) |") {
		t.Errorf("tables:\n%s", b.String())
	}
}

// TestDefaultsWriteNothing: with default flags quanterr writes no file (the plots are drawn only
// when -png / -scatter name them).
func TestDefaultsWriteNothing(t *testing.T) {
	var o options
	fs := flag.NewFlagSet("quanterr", flag.ContinueOnError)
	register(fs, &o)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if o.pngPath != "" || o.scatterPath != "" || o.mdPath != "" || o.force {
		t.Errorf("default outputs: -png %q -scatter %q -md %q -force %v", o.pngPath, o.scatterPath, o.mdPath, o.force)
	}
}

// TestValidate: outputs and networks are checked before any measurement.
func TestValidate(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "h.png")
	os.WriteFile(existing, []byte("x"), 0o644)
	realPNG := filepath.Join(dir, "real.png")
	os.WriteFile(realPNG, []byte("\x89PNG\r\n\x1a\n..."), 0o644)
	net := filepath.Join(dir, "n.nn")
	os.WriteFile(net, []byte("not a network"), 0o644)
	base := options{shared: dir, amount: 0.45, nets: []string{net}}
	for _, tc := range []struct {
		mod  func(*options)
		want string
	}{
		{func(o *options) { o.pngPath = existing }, "exists"},
		{func(o *options) { o.pngPath = existing; o.force = true }, "another format"},
		{func(o *options) { o.scatterPath = net; o.force = true }, "same file as an input"},
		{func(o *options) { o.nets = []string{"no-such-net"} }, "neither a network file nor a thesis network name"},
		{func(o *options) { o.amount = 0.5 }, "-amount"},
		{func(o *options) { o.mdPath = existing }, "section"},
		{func(o *options) { o.json = true; o.mdPath = existing }, "exclude"},
	} {
		o := base
		tc.mod(&o)
		_, err := o.validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", o, err, tc.want)
		}
	}
	o := base
	o.pngPath = realPNG
	o.force = true
	if paths, err := o.validate(); err != nil || len(paths) != 1 || paths[0] != net {
		t.Errorf("valid options: %v, %v", paths, err)
	}
}

// TestNetworkFiles: -nets takes a network file in any format; a thesis network measured from
// its path re-quantizes to itself, a network of another architecture is refused with the reason.
func TestNetworkFiles(t *testing.T) {
	thesis := "../../../shared/thesis-models/hv.nn"
	sf := "../../../shared/nets/nn-62ef826d1a6d.nnue"
	if _, err := os.Stat(thesis); err != nil {
		t.Skipf("../shared absent: %v", err)
	}
	ps, err := readPositions("../../../shared/data/positions.epd")
	if err != nil {
		t.Fatal(err)
	}
	ps = ps[:200]
	r, err := measure(thesis, "hv", ps, 0.45, 7)
	if err != nil || !r.roundTripOK || r.jit.N != 200 {
		t.Fatalf("%s: %+v, %v", thesis, r, err)
	}
	if _, err := os.Stat(sf); err == nil {
		if _, err := measure(sf, "sf", ps, 0.45, 7); err == nil || !strings.Contains(err.Error(), "thesis-architecture") {
			t.Errorf("Stockfish network: %v", err)
		}
	}
}
