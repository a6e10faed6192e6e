package quant

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// drawThesis draws a small random thesis model whose parameters lie inside the scheme's ranges
// and whose accumulators cannot wrap.
func drawThesis(t *rapid.T) *FloatThesis {
	f := rapid.IntRange(1, 24).Draw(t, "F")
	l1 := rapid.IntRange(1, 12).Draw(t, "L1")
	l2 := rapid.IntRange(1, 6).Draw(t, "L2")
	m := NewFloatThesis("rand", f, l1, l2)
	g := rapid.Float32Range(-1, 1)
	for i := range m.W1 {
		for j := range m.W1[i] {
			m.W1[i][j] = g.Draw(t, "w1")
		}
	}
	for j := range m.B1 {
		m.B1[j] = g.Draw(t, "b1")
	}
	h := rapid.Float32Range(-2.2, 2.2) // a little beyond ±127/64 to exercise clipping
	for j := range m.W2 {
		for i := range m.W2[j] {
			m.W2[j][i] = h.Draw(t, "w2")
		}
		m.B2[j] = g.Draw(t, "b2")
		m.W3[j] = rapid.Float32Range(-1100, 1100).Draw(t, "w3")
	}
	m.B3 = rapid.Float32Range(-500, 500).Draw(t, "b3")
	return m
}

func drawActive(t *rapid.T, f int, label string) []int {
	var a []int
	for i := 0; i < f; i++ {
		if rapid.Bool().Draw(t, label) {
			a = append(a, i)
		}
	}
	return a
}

// TestThesisIntegerMatchesDequantizedFloat: the integer evaluation of a quantized model and the
// float forward pass of its dequantization differ only by the floor shifts: at most
// Σ|W3q|/16 (the L2 floor, ≤ 1/127 per hidden unit) + 1 (the output floor).
func TestThesisIntegerMatchesDequantizedFloat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := drawThesis(t)
		q, _ := quantizeThesis(m, Thesis)
		d := dequantizeThesis(q, Thesis)
		stm, nstm := drawActive(t, m.Features(), "stm"), drawActive(t, m.Features(), "nstm")
		iv, err := q.eval(stm, nstm)
		if err != nil {
			t.Fatal(err)
		}
		fv, err := d.Forward(stm, nstm)
		if err != nil {
			t.Fatal(err)
		}
		bound := 1.0 + 1e-6
		for _, w := range q.w3 {
			bound += math.Abs(float64(w)) / 16
		}
		if math.Abs(float64(iv)-fv) > bound {
			t.Fatalf("int %d vs float %v: |Δ| %v > %v", iv, fv, math.Abs(float64(iv)-fv), bound)
		}
	})
}

// TestThesisRoundTripFixedPoint: Quantize → Dequantize → Quantize gives the same integers, and
// dequantized values are within half a step of the clipped originals.
func TestThesisRoundTripFixedPoint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := drawThesis(t)
		q1, _ := quantizeThesis(m, Thesis)
		d := dequantizeThesis(q1, Thesis)
		q2, rep := quantizeThesis(d, Thesis)
		if rep.TotalClipped() != 0 {
			t.Fatalf("re-quantizing clipped %d values:\n%v", rep.TotalClipped(), rep)
		}
		if !equalThesisInts(q1, q2) {
			t.Fatal("quantize(dequantize(q)) != q")
		}
		for j := range m.W2 {
			for i, w := range m.W2[j] {
				c := math.Max(-Thesis.HiddenClip(), math.Min(Thesis.HiddenClip(), float64(w)))
				if math.Abs(float64(d.W2[j][i])-c) > 0.5/64+1e-7 {
					t.Fatalf("W2 %v → %v, clip %v", w, d.W2[j][i], c)
				}
			}
		}
		// Clip then quantize: nothing clipped.
		m.Clip(Thesis)
		if _, rep := quantizeThesis(m, Thesis); rep.TotalClipped() != 0 {
			t.Fatalf("after Clip, quantize clipped:\n%v", rep)
		}
	})
}

func equalThesisInts(a, b *thesisInts) bool {
	if a.f != b.f || a.l1 != b.l1 || a.l2 != b.l2 || a.b3 != b.b3 {
		return false
	}
	eq16 := func(x, y []int16) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return len(x) == len(y)
	}
	eq8 := func(x, y []int8) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return len(x) == len(y)
	}
	for i := range a.b2 {
		if a.b2[i] != b.b2[i] {
			return false
		}
	}
	return eq16(a.w1, b.w1) && eq16(a.b1, b.b1) && eq8(a.w2, b.w2) && eq8(a.w3, b.w3)
}

func drawCPW(t *rapid.T) *FloatCPW {
	f := rapid.IntRange(1, 24).Draw(t, "F")
	n := rapid.IntRange(1, 12).Draw(t, "N")
	nb := rapid.IntRange(1, 8).Draw(t, "buckets")
	m := NewFloatCPW("rand", f, n, nb)
	m.CReLU = rapid.Bool().Draw(t, "crelu")
	g := rapid.Float32Range(-1, 1)
	for i := range m.W1 {
		for j := range m.W1[i] {
			m.W1[i][j] = g.Draw(t, "w1")
		}
	}
	for j := range m.B1 {
		m.B1[j] = g.Draw(t, "b1")
	}
	for k := range m.WOut {
		for i := range m.WOut[k] {
			m.WOut[k][i] = rapid.Float32Range(-2, 2).Draw(t, "wout")
		}
		m.BOut[k] = g.Draw(t, "bout")
	}
	return m
}

// TestCPWIntegerMatchesDequantizedFloat: the CPW integer forward pass differs from the float
// forward pass of the dequantized model by at most the two truncating divisions:
// Scale/(QA·QB) + 1.
func TestCPWIntegerMatchesDequantizedFloat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := drawCPW(t)
		q, _ := quantizeCPW(m, CPW)
		d := dequantizeCPW(q)
		stm, nstm := drawActive(t, m.Features(), "stm"), drawActive(t, m.Features(), "nstm")
		b := rapid.IntRange(0, m.Buckets()-1).Draw(t, "bucket")
		iv, err := q.eval(stm, nstm, b)
		if err != nil {
			t.Fatal(err)
		}
		fv, err := d.Forward(stm, nstm, b)
		if err != nil {
			t.Fatal(err)
		}
		bound := float64(CPW.Scale)/float64(CPW.QA*CPW.QB) + 1 + 1e-6
		if math.Abs(float64(iv)-fv) > bound {
			t.Fatalf("int %d vs float %v: |Δ| > %v", iv, fv, bound)
		}
		q2, rep := quantizeCPW(d, CPW)
		if rep.TotalClipped() != 0 {
			t.Fatalf("re-quantize clipped:\n%v", rep)
		}
		for i := range q.wout {
			if q.wout[i] != q2.wout[i] {
				t.Fatal("CPW round trip not a fixed point")
			}
		}
		for i := range q.w1 {
			if q.w1[i] != q2.w1[i] {
				t.Fatal("CPW round trip not a fixed point")
			}
		}
	})
}

// TestCPWHand: one feature, N=1, one bucket, computed by hand.
func TestCPWHand(t *testing.T) {
	m := NewFloatCPW("x", 1, 1, 1)
	m.W1[0][0] = 0.5               // ×255 = 127.5 → 128 (half to even)
	m.B1[0] = 0.2                  // ×255 = 51
	m.WOut[0] = []float32{1, -0.5} // ×64 → 64, −32
	m.BOut[0] = 0.1                // ×16320 → 1632
	q, _ := quantizeCPW(m, CPW)
	if q.w1[0] != 128 || q.b1[0] != 51 || q.wout[0] != 64 || q.wout[1] != -32 || q.bout[0] != 1632 {
		t.Fatalf("quantized %v %v %v %v", q.w1, q.b1, q.wout, q.bout)
	}
	// stm {0}: acc 179 → 179²·64 = 2050624; nstm {}: acc 51 → 51²·(−32) = −83232.
	// sum = 1967392; /255 = 7715 (trunc); +1632 = 9347; ·400 = 3738800; /16320 = 229 (trunc).
	got, err := q.eval([]int{0}, nil, 0)
	if err != nil || got != 229 {
		t.Fatalf("eval = %d, %v; want 229", got, err)
	}
	// float: 400·(0.1 + 0.7²·1 + 0.2²·(−0.5)) = 400·(0.1+0.49−0.02) = 228.
	f, err := m.Forward([]int{0}, nil, 0)
	if err != nil || math.Abs(f-228) > 1e-4 {
		t.Fatalf("Forward = %v, %v; want 228", f, err)
	}
	if _, err := m.Forward(nil, nil, 1); err == nil {
		t.Error("bucket 1 of 1 accepted")
	}
}

func TestOutputBucket(t *testing.T) {
	// 8 buckets: divisor 4; pieces 2..5 → 0, 6..9 → 1, 30..32 → 7.
	for _, c := range []struct{ pieces, buckets, want int }{
		{2, 8, 0}, {5, 8, 0}, {6, 8, 1}, {32, 8, 7}, {33, 8, 7}, {0, 8, 0}, {32, 1, 0}, {17, 2, 0}, {18, 2, 1},
	} {
		if got := OutputBucket(c.pieces, c.buckets); got != c.want {
			t.Errorf("OutputBucket(%d, %d) = %d, want %d", c.pieces, c.buckets, got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	m := NewFloatThesis("x", 3, 4, 2)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	m.W2[1] = m.W2[1][:7]
	if err := m.Validate(); err == nil {
		t.Error("short W2 row accepted")
	}
	if _, err := m.Forward(nil, nil); err == nil {
		t.Error("Forward accepted a short W2 row")
	}
	m = NewFloatThesis("x", 3, 4, 2)
	m.W1[2] = nil
	if _, err := m.Forward([]int{2}, nil); err == nil {
		t.Error("Forward accepted an empty W1 row")
	}
	m.W3 = nil
	if _, err := m.Forward(nil, nil); err == nil {
		t.Error("Forward accepted a missing W3")
	}
	c := NewFloatCPW("x", 3, 4, 2)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Scale = 0
	if err := c.Validate(); err == nil {
		t.Error("Scale 0 accepted")
	}
	c.WOut[1] = c.WOut[1][:3]
	if _, err := c.Forward(nil, nil, 1); err == nil {
		t.Error("Forward accepted a short WOut row")
	}
	c.W1[0] = nil
	if _, err := c.Forward([]int{0}, nil, 0); err == nil {
		t.Error("Forward accepted an empty W1 row")
	}
}
