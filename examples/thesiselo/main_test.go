package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/internal/outfile"
)

// TestReport: merged results from two summaries (all+ph: 10–10–10 for hv, then 2–0–0 for
// all+ph → 12–10–10 from all+ph's view, pairs [0 2 11 2 0] + [0 0 0 0 1]), Elo by the worked example (hv 60/20/20 against h+v: s = 0.7
// → h+v at −147.19, trinomial as there are no pairs), the median nodes/s, the depth per side
// from the PGN comments (book moves skipped) and the Spearman coefficient.
func TestReport(t *testing.T) {
	res, tcs, err := readResults([]string{"testdata/gauntlet.json", "testdata/more.json"}, "hv")
	if err != nil {
		t.Fatal(err)
	}
	if len(tcs) != 1 || tcs[0] != "0.05/move" {
		t.Errorf("time controls %v", tcs)
	}
	hv := res["h+v"]
	if hv.model != "trinomial" || hv.wdl.W != 20 || hv.wdl.L != 60 || math.Abs(hv.est.Elo+147.19) > 0.01 {
		t.Errorf("h+v: %+v", hv)
	}
	ph := res["all+ph"]
	if ph.wdl.W != 12 || ph.wdl.D != 10 || ph.wdl.L != 10 || ph.model != "pentanomial" || ph.penta.Pairs() != 16 ||
		ph.penta != [5]int{0, 2, 11, 2, 1} || math.Abs(ph.est.Elo-21.74) > 0.01 {
		t.Errorf("all+ph: %+v", ph)
	}
	nps, err := readNPS("testdata/nps.txt")
	if err != nil {
		t.Fatal(err)
	}
	if nps["hv"] != 2000 || nps["h+v"] != 500 {
		t.Errorf("nps %v", nps)
	}
	depth, err := readDepths([]string{"testdata/games.pgn"})
	if err != nil {
		t.Fatal(err)
	}
	// White hv: depth 6, 10 → 8, times 0.040 s, 0.01 s; Black h+v: 8 (book skipped)
	if d := depth["hv"]; d.depth != 8 || d.moves != 2 || d.p50 != 0.04 || d.maxSec != 0.04 || depth["h+v"].depth != 8 {
		t.Errorf("depth %v", depth)
	}
	dir := t.TempDir()
	png := filepath.Join(dir, "elo.png")
	var out bytes.Buffer
	o := options{results: []string{"testdata/gauntlet.json", "testdata/more.json"}, pgns: []string{"testdata/games.pgn"},
		nps: "testdata/nps.txt", anchor: "hv", png: png}
	if err := run(o, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"| `h+v.nn` | H ⊕ V (Table 10) | 20–20–60 | −147 [−218, −86] | −384.3 ± 5.1 | 500 | 8.00 |",
		"| `d1+d2.nn` | D1 ⊕ D2 (Table 10) | – | not played |",
		"Spearman's ρ (ours vs thesis, 3 networks including the anchor): **0.500**",
		"| best | 5–0–5 | +0 [",
		"| hv | 2 | 0.040 | 0.040 | 0.040 |"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if b, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("no PNG written: %v", err)
	}
	if err := run(options{results: []string{"testdata/gauntlet.json"}, anchor: "nobody"}, &out); err == nil {
		t.Error("no error for an anchor without pairings")
	}
	// The plot exists now: replaced only with -force, checked before any input is read.
	if err := run(o, &out); !errors.Is(err, outfile.ErrExists) {
		t.Errorf("existing -png without -force: %v", err)
	}
	o.force = true
	if err := run(o, &out); err != nil {
		t.Errorf("-force over the PNG: %v", err)
	}
	notPNG := filepath.Join(dir, "notes.txt")
	os.WriteFile(notPNG, []byte("my notes"), 0o644)
	o.png = notPNG
	if err := run(o, &out); !errors.Is(err, outfile.ErrOtherFormat) {
		t.Errorf("-png -force over a text file: %v", err)
	}
	o.png = png
	md := filepath.Join(dir, "t.md")
	o.force, o.mdPath = true, md
	if err := run(o, &out); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(md); !strings.Contains(string(b), "| `h+v.nn` | H ⊕ V (Table 10) | 20–20–60 |") {
		t.Errorf("-md file:\n%s", b)
	}
}

// TestJSON: -json prints the results as one JSON object on stdout.
func TestJSON(t *testing.T) {
	var out bytes.Buffer
	o := options{results: []string{"testdata/gauntlet.json", "testdata/more.json"}, nps: "testdata/nps.txt", anchor: "hv", json: true}
	if err := run(o, &out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Anchor  string
		Engines []struct {
			Name      string
			W, D, L   int
			Elo       *float64
			ThesisElo *float64 `json:"thesis_elo"`
			NPS       *float64
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	found := false
	for _, e := range got.Engines {
		if e.Name == "h+v" {
			found = true
			if e.W != 20 || e.L != 60 || e.Elo == nil || math.Abs(*e.Elo+147.19) > 0.01 || e.ThesisElo == nil || *e.ThesisElo != -384.3 || e.NPS == nil || *e.NPS != 500 {
				t.Errorf("h+v: %+v", e)
			}
		}
	}
	if got.Anchor != "hv" || !found {
		t.Errorf("%s", out.String())
	}
}
