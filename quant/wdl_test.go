package quant

import (
	"math"
	"strings"
	"testing"
)

func TestWDL(t *testing.T) {
	w := ThesisWDL
	if got := w.Win(1.28); got != 0.5 {
		t.Errorf("W(a) = %v, want 0.5", got)
	}
	// σ(297.21/297.21) = σ(1) = 0.7310585786
	if got := w.Win(1.28 + 297.21); math.Abs(got-0.7310585786300049) > 1e-12 {
		t.Errorf("W(a+b) = %v", got)
	}
	if got := w.Win(-1e6); got != 0 {
		t.Errorf("W(-1e6) = %v", got)
	}
}

func TestErrorReport(t *testing.T) {
	f := []float64{0, 100, 1000, -50}
	q := []float64{0, 101, 1100, -60}
	r, err := NewErrorReport(f, q, ThesisWDL, 0.005, 4)
	if err != nil {
		t.Fatal(err)
	}
	e1 := ThesisWDL.Win(101) - ThesisWDL.Win(100)
	if math.Abs(r.Errors[1]-e1) > 1e-15 || r.Errors[0] != 0 {
		t.Errorf("errors %v", r.Errors)
	}
	if r.Within != 1 || r.MaxAbsScore != 100 || r.MeanAbsScore != 27.75 {
		t.Errorf("within %v max %v mean %v", r.Within, r.MaxAbsScore, r.MeanAbsScore)
	}
	total := 0
	for _, c := range r.Bins {
		total += c
	}
	if total != 4 {
		t.Errorf("bins %v", r.Bins)
	}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| within 0.03 | 100.00% |") {
		t.Errorf("markdown:\n%s", b.String())
	}
	if _, err := NewErrorReport(f, q[:3], ThesisWDL, 0.01, 3); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := NewErrorReport(nil, nil, ThesisWDL, 0.01, 3); err == nil {
		t.Error("empty accepted")
	}
}
