package nnue

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestBucketRuleRoundTrip: ParseBucketRule(r.String()) == r for valid pieces and table rules,
// and the rule selects the bucket its Buckets do.
func TestBucketRuleRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var r BucketRule
		if rapid.Bool().Draw(t, "table") {
			n := rapid.IntRange(1, 16).Draw(t, "n")
			r.Table = make([]uint8, 33)
			for i := range r.Table {
				r.Table[i] = uint8(rapid.IntRange(0, n-1).Draw(t, "b"))
			}
			for b := range n {
				r.Table[rapid.IntRange(0, 32).Draw(t, "at")] = uint8(b)
			}
			if r.check() != nil {
				t.Skip("a bucket overwritten")
			}
		} else {
			r.Pieces = Buckets{N: rapid.IntRange(2, maxStacks).Draw(t, "n"), Sub: rapid.IntRange(-64, 64).Draw(t, "sub"), Div: rapid.IntRange(1, 64).Draw(t, "div")}
		}
		got, err := ParseBucketRule(r.String())
		if err != nil || got.String() != r.String() || got.Count() != r.Count() {
			t.Fatalf("%s: parsed %s (%v)", r, got, err)
		}
		b := got.Buckets()
		for pieces := range 33 {
			want := 0
			if r.Table != nil {
				want = int(r.Table[pieces])
			} else {
				want = min(max((pieces-r.Pieces.Sub)/r.Pieces.Div, 0), r.Pieces.N-1)
			}
			if b.OfPieces(pieces) != want {
				t.Fatalf("%s: %d pieces → bucket %d, want %d", r, pieces, b.OfPieces(pieces), want)
			}
		}
	})
}

func TestBucketRuleErrors(t *testing.T) {
	for _, s := range []string{"pieces(1,0,1)", "pieces(8,1,0)", "pieces(8,1)", "table(0,1)", "table(" + strings.Repeat("1,", 32) + "1)",
		"pieces(99,1,1)", "foo", "table(" + strings.Repeat("0,", 32) + "64)", "pieces(8,1,4", "pieces(8,1,4) "} {
		if r, err := ParseBucketRule(s); err == nil {
			t.Errorf("ParseBucketRule(%q) = %s, want an error", s, r)
		} else if _, ok := err.(*SpecError); !ok {
			t.Errorf("ParseBucketRule(%q): error %T, want *SpecError", s, err)
		}
	}
	if r, err := ParseBucketRule(""); err != nil || !r.IsZero() || r.Count() != 1 {
		t.Errorf(`ParseBucketRule("") = %v, %v; want the zero rule`, r, err)
	}
}

func FuzzParseBucketRule(f *testing.F) {
	for _, s := range []string{"pieces(8,1,4)", "pieces(8,2,4)", "table(7,7,7,7,7,6,6,6,5,5,5,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0,0,0,0)", "", "table(", "pieces(,,)", "pieces(8,1,-4)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseBucketRule(s)
		if err != nil {
			return
		}
		got, err := ParseBucketRule(r.String())
		if err != nil || got.String() != r.String() {
			t.Fatalf("%q → %q: %v", s, r, err)
		}
		b := r.Buckets()
		for pieces := -1; pieces <= 40; pieces++ {
			if k := b.OfPieces(pieces); k < 0 || k >= r.Count() {
				t.Fatalf("%s: bucket %d of %d pieces outside [0, %d)", r, k, pieces, r.Count())
			}
		}
	})
}
