package quant

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestRoundHalfEven(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{0.5, 0}, {1.5, 2}, {2.5, 2}, {-0.5, 0}, {-1.5, -2}, {-2.5, -2}, {0.49, 0}, {0.51, 1}, {126.5, 126}, {127.5, 128},
	} {
		if got := Round(c.in); got != c.want {
			t.Errorf("Round(%v) = %v, want %v (torch.round is half to even)", c.in, got, c.want)
		}
	}
}

func TestThesisSchemeConstants(t *testing.T) {
	s := Thesis
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"FTScale", s.FTScale(), 127},
		{"L2WeightScale", s.L2WeightScale(), 64},
		{"L2BiasScale", s.L2BiasScale(), 8128},
		{"OutWeightScale", s.OutWeightScale(), 16.0 / 127},
		{"OutBiasScale", s.OutBiasScale(), 16},
		{"HiddenClip", s.HiddenClip(), 1.984375},
		{"OutputClip", s.OutputClip(), 1008.0625},
		{"HiddenShift", float64(s.HiddenShift()), 6},
		{"OutputShift", float64(s.OutputShift()), 4},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, bad := range []ThesisScheme{{0, 64, 16}, {128, 64, 16}, {127, 63, 16}, {127, 64, 15}} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
	if err := CPW.Validate(); err != nil {
		t.Fatal(err)
	}
	if (CPWScheme{QA: 255, QB: 0, Scale: 400}).Validate() == nil {
		t.Error("QB=0 validated")
	}
	if got := CPW.OutputClip(); got != 2 || CPW.OutputLimit() != 128 {
		t.Errorf("CPW.OutputClip = %v", got)
	}
}

// TestQuantizeThesisHand checks a 2-feature, L1=2, L2=1 model against values computed by hand.
func TestQuantizeThesisHand(t *testing.T) {
	m := NewFloatThesis("test", 2, 2, 1)
	m.W1[0] = []float32{0.5, -0.25}            // ×127 → 63.5→64 (even), −31.75→−32
	m.W1[1] = []float32{1.0 / 127, 300}        // → 1, 38100 → clipped to 32767
	m.B1 = []float32{0.1, -0.1}                // → 12.7→13, −13
	m.W2[0] = []float32{1, -1, 2.5, 0.0078125} // ×64 → 64, −64, 160→127 (clipped), 0.5→0
	m.B2[0] = 0.5                              // ×8128 → 4064
	m.W3[0] = 127                              // ×16/127 → 16
	m.B3 = 10.03                               // ×16 → 160.48 → 160
	q, rep := quantizeThesis(m, Thesis)
	wantW1 := []int16{64, -32, 1, 32767}
	for i, w := range wantW1 {
		if q.w1[i] != w {
			t.Errorf("w1[%d] = %d, want %d", i, q.w1[i], w)
		}
	}
	if q.b1[0] != 13 || q.b1[1] != -13 {
		t.Errorf("b1 = %v, want [13 -13]", q.b1)
	}
	wantW2 := []int8{64, -64, 127, 0}
	for i, w := range wantW2 {
		if q.w2[i] != w {
			t.Errorf("w2[%d] = %d, want %d", i, q.w2[i], w)
		}
	}
	if q.b2[0] != 4064 || q.w3[0] != 16 || q.b3 != 160 {
		t.Errorf("b2=%d w3=%d b3=%d, want 4064 16 160", q.b2[0], q.w3[0], q.b3)
	}
	// clip report: ft.weight 1 clipped (300 − 32767/127), l2.weight 1 (2.5 − 127/64)
	byName := map[string]LayerClip{}
	for _, l := range rep.Layers {
		byName[l.Name] = l
	}
	if l := byName["ft.weight"]; l.Clipped != 1 || l.Total != 4 || math.Abs(l.MaxExcess-(300-32767.0/127)) > 1e-9 {
		t.Errorf("ft.weight clip = %+v", l)
	}
	if l := byName["l2.weight"]; l.Clipped != 1 || math.Abs(l.MaxExcess-(2.5-1.984375)) > 1e-9 {
		t.Errorf("l2.weight clip = %+v", l)
	}
	if rep.TotalClipped() != 2 {
		t.Errorf("TotalClipped = %d, want 2", rep.TotalClipped())
	}
	// Integer evaluation by hand, stm = {0}, nstm = {1}:
	// acc_stm = [13+64, −13−32] = [77, −45] → [77, 0]; acc_nstm = [13+1, −13+32767] wraps to
	// [14, 32754] → [14, 127]. L2: 4064 + 77·64 + 0·(−64) + 14·127 + 127·0 = 4064+4928+1778 = 10770
	// >> 6 = 168 → clamp 127. out = (160 + 127·16) >> 4 = 2192 >> 4 = 137.
	got, err := q.eval([]int{0}, []int{1})
	if err != nil || got != 137 {
		t.Errorf("eval = %d, %v; want 137", got, err)
	}
	// The float model on the same input: acc_stm=[0.6, −0.35]→[0.6,0]; acc_nstm=[0.1+1/127, 299.9]
	// → [0.10787, 1]; h = 0.5 + 0.6 − 0 + 2.5·0.10787 + 0.0078125 → clamp 1; out = 10.03 + 127.
	f, err := m.Forward([]int{0}, []int{1})
	if err != nil || math.Abs(f-137.03) > 1e-4 {
		t.Errorf("Forward = %v, %v; want 137.03", f, err)
	}
	if _, err := m.Forward([]int{2}, nil); err == nil {
		t.Error("Forward accepted feature 2 of 2")
	}
}

func TestQuantizeNaNInf(t *testing.T) {
	m := NewFloatThesis("x", 1, 1, 1)
	m.W1[0][0] = float32(math.NaN())
	m.W3[0] = float32(math.Inf(-1))
	q, rep := quantizeThesis(m, Thesis)
	if q.w1[0] != 0 || q.w3[0] != -127 {
		t.Errorf("NaN→%d, −Inf→%d; want 0, −127", q.w1[0], q.w3[0])
	}
	if rep.Layers[0].NaN != 1 || rep.Layers[0].Clipped != 1 || rep.Layers[4].Clipped != 1 {
		t.Errorf("report %v", rep)
	}
}

// TestQuantizeBoundsProperty: |dequant(quant(w)) − clip(w)| ≤ 0.5/scale for every tensor kind.
func TestQuantizeBoundsProperty(t *testing.T) {
	scales := []struct {
		scale float64
		limit int64
	}{
		{127, MaxInt16}, {64, MaxInt8}, {8128, MaxInt32}, {16.0 / 127, MaxInt8}, {16, MaxInt32},
		{255, MaxInt16}, {64 * 255, MaxInt32},
	}
	rapid.Check(t, func(t *rapid.T) {
		sc := scales[rapid.IntRange(0, len(scales)-1).Draw(t, "scale")]
		w := rapid.Float32Range(-4000, 4000).Draw(t, "w")
		q, clipped, _ := quantizeValue(w, sc.scale, sc.limit)
		lim := float64(sc.limit) / sc.scale
		c := math.Max(-lim, math.Min(lim, float64(w)))
		d := float64(dequantizeValue(q, sc.scale))
		// float32 product and float32 storage add a relative error of a few ulps.
		tol := 0.5/sc.scale + 4e-7*math.Abs(float64(w)) + 1e-7*math.Abs(d)
		if math.Abs(d-c) > tol {
			t.Fatalf("w=%v scale=%v: q=%d dequant=%v clip=%v |Δ|=%v > %v", w, sc.scale, q, d, c, math.Abs(d-c), tol)
		}
		if q > sc.limit || q < -sc.limit {
			t.Fatalf("q=%d outside ±%d", q, sc.limit)
		}
		if clipped != (math.Abs(Round(float64(w*float32(sc.scale)))) > float64(sc.limit)) {
			t.Fatalf("clipped flag %v wrong for w=%v", clipped, w)
		}
		// fixed point: quantizing the dequantized value gives q back.
		if q2, _, _ := quantizeValue(dequantizeValue(q, sc.scale), sc.scale, sc.limit); q2 != q {
			t.Fatalf("quant(dequant(%d)) = %d", q, q2)
		}
	})
}
