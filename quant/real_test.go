package quant

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
)

// sharedDir returns ../shared relative to the repository root, or skips the test.
func sharedDir(t testing.TB) string {
	d := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(filepath.Join(d, "thesis-models", "hv.nn")); err != nil {
		t.Skip("quant: ../shared absent")
	}
	return d
}

func loadPositions(t testing.TB, dir string) []board.Position {
	f, err := os.Open(filepath.Join(dir, "data", "positions.epd"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []board.Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p, err := board.ParseFEN(sc.Text())
		if err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		ps = append(ps, p)
	}
	if len(ps) != 6000 {
		t.Fatalf("%d positions, want 6000", len(ps))
	}
	if raceEnabled || testing.Short() {
		// every 10th position keeps -race and -short runs fast
		sub := ps[:0:0]
		for i := 0; i < len(ps); i += 10 {
			sub = append(sub, ps[i])
		}
		ps = sub
	}
	return ps
}

// compareReal evaluates every position with the integer network and the float model and
// returns the two eval lists.
func compareReal(t testing.TB, n *nnue.Network, m *FloatThesis, ps []board.Position) (fl, in []float64) {
	set, err := featureset.Parse(m.FeatureSet)
	if err != nil {
		t.Fatal(err)
	}
	e := n.NewEvaluator()
	for i := range ps {
		v := e.Evaluate(&ps[i])
		f, err := m.EvaluatePosition(set, &ps[i])
		if err != nil {
			t.Fatal(err)
		}
		fl = append(fl, f)
		in = append(in, float64(v))
	}
	return fl, in
}

func TestRealThesisNetworks(t *testing.T) {
	dir := sharedDir(t)
	ps := loadPositions(t, dir)
	for _, c := range []struct {
		name string
		// minimum fraction of positions whose WDL error is ≤ 0.03, dequantized and jittered model
		minDeq, minJit float64
	}{
		{"hv", 0.999, 0.985},
		{"all+ph+pv", 0.999, 0.99},
	} {
		if (raceEnabled || testing.Short()) && c.name != "hv" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "thesis-models", c.name+".nn")
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n, err := nnue.Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			d, err := DequantizeThesis(n, Thesis)
			if err != nil {
				t.Fatal(err)
			}
			// Round trip: quantizing the dequantized model reproduces the file byte for byte.
			n2, rep, err := QuantizeThesis(d, Thesis)
			if err != nil {
				t.Fatal(err)
			}
			if rep.TotalClipped() != 0 {
				t.Errorf("re-quantizing clipped:\n%v", rep)
			}
			t.Logf("%s warnings: %q", c.name, rep.Warnings)
			var buf bytes.Buffer
			if err := nnue.WriteThesis(&buf, n2); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), raw) {
				t.Fatalf("Quantize(Dequantize(%s)) differs from the file", c.name)
			}
			// A float model within ±0.45 step of the integers also quantizes to the same bytes.
			j := d.Jitter(Thesis, 0.45, 7)
			n3, _, err := QuantizeThesis(j, Thesis)
			if err != nil {
				t.Fatal(err)
			}
			buf.Reset()
			if err := nnue.WriteThesis(&buf, n3); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), raw) {
				t.Fatalf("Quantize(jittered %s) differs from the file", c.name)
			}

			fl, in := compareReal(t, n, d, ps)
			bound := 1.0
			for _, w := range d.W3 {
				bound += math.Abs(float64(w)) * Thesis.OutWeightScale() / 16
			}
			rd, err := NewErrorReport(fl, in, ThesisWDL, 0.0025, 16)
			if err != nil {
				t.Fatal(err)
			}
			if rd.MaxAbsScore > bound+1e-6 {
				t.Errorf("dequantized: max |float − int| = %.3f cp > analytic bound %.3f", rd.MaxAbsScore, bound)
			}
			// measured: max 0.00298 (hv), 0.00308 (all+ph+pv) over the 6,000 positions
			if rd.Max > 0.0035 {
				t.Errorf("dequantized: max WDL error %.5f > 0.0035", rd.Max)
			}
			if rd.Within < c.minDeq {
				t.Errorf("dequantized: %.4f of positions within 0.03, want ≥ %v", rd.Within, c.minDeq)
			}
			fj, _ := compareReal(t, n, j, ps)
			rj, err := NewErrorReport(fj, in, ThesisWDL, 0.0025, 16)
			if err != nil {
				t.Fatal(err)
			}
			if rj.Within < c.minJit {
				t.Errorf("jittered: %.4f of positions within 0.03, want ≥ %v", rj.Within, c.minJit)
			}
			t.Logf("%s dequantized: mean %.5f max %.5f within %.4f, mean|Δ| %.3f cp max %.3f (bound %.2f)",
				c.name, rd.Mean, rd.Max, rd.Within, rd.MeanAbsScore, rd.MaxAbsScore, bound)
			t.Logf("%s jittered:    mean %.5f max %.5f within %.4f, mean|Δ| %.3f cp max %.3f",
				c.name, rj.Mean, rj.Max, rj.Within, rj.MeanAbsScore, rj.MaxAbsScore)
		})
	}
}

// TestCPWEndToEnd quantizes a random 768→32→1×8-bucket model, SCReLU with the CPW bucket
// formula and CReLU with Alexandria's bucket table, and checks nnue's integer evaluation
// against the float forward pass on every position: within the two truncating divisions,
// SCALE/(QA·QB) + 1 centipawns, for the dequantized model.
func TestCPWEndToEnd(t *testing.T) {
	for _, v := range []struct {
		crelu bool
		rule  string
	}{{false, ""}, {true, "table(7,7,7,7,7,6,6,6,5,5,5,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0,0,0,0)"}} {
		t.Run(fmt.Sprintf("crelu=%v", v.crelu), func(t *testing.T) { testCPWEndToEnd(t, v.crelu, v.rule) })
	}
}

func testCPWEndToEnd(t *testing.T, crelu bool, rule string) {
	dir := sharedDir(t)
	ps := loadPositions(t, dir)
	r := rand.New(rand.NewPCG(3, 4))
	m := NewFloatCPW("all", 768, 32, 8)
	m.CReLU = crelu
	var err error
	if m.BucketRule, err = nnue.ParseBucketRule(rule); err != nil {
		t.Fatal(err)
	}
	for f := range m.W1 {
		for j := range m.W1[f] {
			m.W1[f][j] = float32(r.Float64()*0.16 - 0.08)
		}
	}
	for j := range m.B1 {
		m.B1[j] = float32(r.Float64() * 0.6)
	}
	for k := range m.WOut {
		for i := range m.WOut[k] {
			m.WOut[k][i] = float32(r.Float64()*4.2 - 2.1) // some beyond ±2: clipped
		}
		m.BOut[k] = float32(r.Float64()*0.4 - 0.2)
	}
	n, rep, err := QuantizeCPW(m, CPW)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := n.Architecture().Stacks[0][1].(*nnue.BulletCReLU); ok != crelu {
		t.Fatalf("CReLU %v: output layer %v", crelu, n.Architecture().Stacks[0][1])
	}
	if l := rep.Layers[2]; l.Name != "out.weight" || l.Clipped == 0 || l.MaxExcess > 0.1 {
		t.Errorf("out.weight clip record %+v", l)
	}
	d, err := DequantizeCPW(n, CPW)
	if err != nil {
		t.Fatal(err)
	}
	if d.CReLU != crelu || d.BucketRule.String() != rule {
		t.Fatalf("dequantized CReLU %v, rule %q; want %v, %q", d.CReLU, d.BucketRule, crelu, rule)
	}
	n2, rep2, err := QuantizeCPW(d, CPW)
	if err != nil || rep2.TotalClipped() != 0 {
		t.Fatalf("re-quantize: %v\n%v", err, rep2)
	}
	// Through nnue's native format and back: the same float model.
	var nb bytes.Buffer
	if err := nnue.WriteNative(&nb, n); err != nil {
		t.Fatal(err)
	}
	n3, err := nnue.Decode(nb.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	d3, err := DequantizeCPW(n3, CPW)
	if err != nil {
		t.Fatal(err)
	}
	for k := range d.WOut {
		for i := range d.WOut[k] {
			if d3.WOut[k][i] != d.WOut[k][i] {
				t.Fatalf("native round trip changed WOut[%d][%d]", k, i)
			}
		}
		if d3.BOut[k] != d.BOut[k] {
			t.Fatalf("native round trip changed BOut[%d]", k)
		}
	}
	set := n.FeatureSet()
	e, e2, e3 := n.NewEvaluator(), n2.NewEvaluator(), n3.NewEvaluator()
	bound := float64(CPW.Scale)/float64(CPW.QA*CPW.QB) + 1 + 1e-9
	var fl, in []float64
	buckets := map[int]bool{}
	for i := range ps {
		v := e.Evaluate(&ps[i])
		if v2, v3 := e2.Evaluate(&ps[i]), e3.Evaluate(&ps[i]); v2 != v || v3 != v {
			t.Fatalf("position %d: re-quantized network %d, native round trip %d, original %d", i, v2, v3, v)
		}
		f, err := d.EvaluatePosition(set, &ps[i])
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f-float64(v)) > bound {
			t.Fatalf("position %d (%s): int %d, float %.3f", i, ps[i].FEN(), v, f)
		}
		fl, in = append(fl, f), append(in, float64(v))
		buckets[m.Bucket(ps[i].PieceCount())] = true
	}
	if len(buckets) != 8 {
		t.Errorf("positions used %d buckets, want all 8", len(buckets))
	}
	fm, _ := m.EvaluatePosition(set, &ps[0])
	t.Logf("CPW 768→32→1×8: first position float %.2f (original model %.2f), int %v", fl[0], fm, in[0])
}

// TestQuantizedThesisMatchesReference: nnue's evaluation of a QuantizeThesis network equals the
// package's integer reference arithmetic (thesisInts.eval) on real positions.
func TestQuantizedThesisMatchesReference(t *testing.T) {
	dir := sharedDir(t)
	ps := loadPositions(t, dir)
	r := rand.New(rand.NewPCG(5, 6))
	m := NewFloatThesis("h+v", 192, 32, 8)
	for f := range m.W1 {
		for j := range m.W1[f] {
			m.W1[f][j] = float32(r.Float64()*0.4 - 0.2)
		}
	}
	for j := range m.B1 {
		m.B1[j] = float32(r.Float64())
	}
	for o := range m.W2 {
		for i := range m.W2[o] {
			m.W2[o][i] = float32(r.Float64()*0.6 - 0.3)
		}
		m.B2[o] = float32(r.Float64()*0.5 - 0.1)
		m.W3[o] = float32(r.Float64()*400 - 200)
	}
	m.B3 = 12.5
	n, rep, err := QuantizeThesis(m, Thesis)
	if err != nil || rep.TotalClipped() != 0 {
		t.Fatalf("%v\n%v", err, rep)
	}
	q, _ := quantizeThesis(m, Thesis)
	set := n.FeatureSet()
	e := n.NewEvaluator()
	nonzero := 0
	for i := range ps {
		stm := ps[i].SideToMove()
		a := set.Active(&ps[i], stm, nil)
		b := set.Active(&ps[i], stm.Other(), nil)
		want, err := q.eval(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Evaluate(&ps[i]); got != want {
			t.Fatalf("position %d: nnue %d, reference %d", i, got, want)
		}
		if want != 0 {
			nonzero++
		}
	}
	if nonzero < len(ps)/2 {
		t.Errorf("only %d of %d evaluations non-zero: the test model is degenerate", nonzero, len(ps))
	}
}

// TestWarnings: a CPW output layer whose worst-case int32 sum overflows is reported, a small
// one is not; an FT whose accumulators can leave int16 is reported.
func TestWarnings(t *testing.T) {
	m := NewFloatCPW("all", 768, 256, 1)
	for i := range m.WOut[0] {
		m.WOut[0][i] = 2
	}
	_, rep, err := QuantizeCPW(m, CPW)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 1 || !bytes.Contains([]byte(rep.Warnings[0]), []byte("4261478400")) {
		t.Errorf("warnings %q, want the SCReLU sum 512·65025·128 = 4261478400", rep.Warnings)
	}
	small := NewFloatThesis("h", 96, 32, 1)
	if _, rep, err := QuantizeThesis(small, Thesis); err != nil || len(rep.Warnings) != 0 {
		t.Errorf("zero model: %v %q", err, rep.Warnings)
	}
	for f := range small.W1 {
		for j := range small.W1[f] {
			small.W1[f][j] = 100 // 12700 per feature: 32 pieces overflow int16
		}
	}
	if _, rep, err := QuantizeThesis(small, Thesis); err != nil || len(rep.Warnings) != 1 {
		t.Errorf("large FT: %v %q", err, rep.Warnings)
	}
}
