package featureset

import (
	"strings"
	"testing"
)

func FuzzParseOrientation(f *testing.F) {
	for _, s := range []string{"flip", "hm", "abs", "rot", "", "FLIP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if o, ok := ParseOrientation(s); ok && !strings.EqualFold(o.String(), s) {
			t.Fatalf("ParseOrientation(%q) = %v", s, o)
		}
	})
}
