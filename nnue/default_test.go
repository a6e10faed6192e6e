package nnue

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

func TestDefault(t *testing.T) {
	n, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := Default(); m != n {
		t.Error("Default returned two different networks")
	}
	if len(defaultNet) > 1<<20 {
		t.Errorf("embedded network is %d bytes, more than 1 MiB", len(defaultNet))
	}
	if got := n.FeatureSet().String(); got != "all" {
		t.Errorf("feature set %q, want all", got)
	}
	if n.FeatureTransformer().Features() != 768 {
		t.Errorf("%d features, want 768", n.FeatureTransformer().Features())
	}
	// symmetric positions: the side to move's evaluation is the same after flipping colours
	start := board.StartPosition()
	flipped := start.Flip()
	if a, b := n.Evaluate(&start), n.Evaluate(&flipped); a != b {
		t.Errorf("start %d, colour-flipped start %d", a, b)
	}
	// a queen up is clearly winning for the side that has it
	up, _ := board.ParseFEN("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
	down, _ := board.ParseFEN("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
	if e, f := n.Evaluate(&up), n.Evaluate(&down); e < 300 || f > -300 {
		t.Errorf("KQ vs K: %d for the queen's side, %d for the lone king's (units of %d per pawn)", e, f, n.Architecture().PawnValue)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); m, _ := Default(); m.Evaluate(&start) }()
	}
	wg.Wait()
}

// pearsonVsStockfish returns the Pearson correlation of n's evaluations with Stockfish 15.1's
// NNUE evaluation (sf15.1-eval.csv, nnue_white turned to the side to move) over the rows present.
func pearsonVsStockfish(t *testing.T, n *Network, rows [][]string) (float64, int) {
	var xs, ys []float64
	for _, r := range rows[1:] {
		pos, err := board.ParseFEN(r[0])
		if err != nil {
			t.Fatal(err)
		}
		sf, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		if pos.SideToMove() == board.Black {
			sf = -sf
		}
		xs = append(xs, float64(n.Evaluate(&pos)))
		ys = append(ys, sf)
	}
	return defaultPearson(xs, ys), len(xs)
}

func defaultPearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestDefaultCorrelation measures the default network against Stockfish 15.1's NNUE evaluation
// on ../shared/data/positions.epd (the rows of sf15.1-eval.csv), next to the thesis's hv.nn.
// doc/default-network.md reports the figures.
func TestDefaultCorrelation(t *testing.T) {
	f, err := os.Open("../../shared/data/sf15.1-eval.csv")
	if err != nil {
		t.Skip("sf15.1-eval.csv: ../shared absent")
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	r, cnt := pearsonVsStockfish(t, n, rows)
	t.Logf("default network: Pearson r = %.4f over %d positions", r, cnt)
	if r < 0.85 {
		t.Errorf("default network: Pearson r = %.4f < %.2f", r, 0.85)
	}
	if hv, err := LoadFile("../../shared/thesis-models/hv.nn"); err == nil {
		rh, _ := pearsonVsStockfish(t, hv, rows)
		t.Logf("thesis hv.nn:    Pearson r = %.4f", rh)
	}
}

// TestDefaultEvaluationsUnchanged: the embedded network evaluates the 6,000 positions of
// ../shared/data/positions.epd exactly as when it was embedded (FNV-64a of the
// comma-separated evaluations, computed then with the trainer's output file), and the start
// position as 121.
func TestDefaultEvaluationsUnchanged(t *testing.T) {
	n, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	start := board.StartPosition()
	if v := n.Evaluate(&start); v != 121 {
		t.Errorf("start position: %d, want 121", v)
	}
	f, err := os.Open(filepath.Join(sharedDir, "data", "positions.epd"))
	if err != nil {
		t.Skip("positions.epd: ../shared absent")
	}
	defer f.Close()
	h := fnv.New64a()
	cnt := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pos, err := board.ParseFEN(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%d,", n.Evaluate(&pos))
		cnt++
	}
	if cnt != 6000 || h.Sum64() != 0xa77ef13964575d0c {
		t.Errorf("%d positions, FNV-64a %#x; want 6000, 0xa77ef13964575d0c", cnt, h.Sum64())
	}
}
