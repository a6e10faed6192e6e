package nnue

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestBulletFileString: ParseBulletFile(f.String()) == f for every valid layout.
func TestBulletFileString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var f BulletFile
		f.Header = rapid.IntRange(0, maxBulletHeader).Draw(t, "header")
		f.Transposed = rapid.Bool().Draw(t, "transposed")
		if rapid.Bool().Draw(t, "float") {
			f.Float = true
			f.QA = int32(rapid.IntRange(1, 32767).Draw(t, "QA"))
			f.QB = int32(rapid.IntRange(1, 32767).Draw(t, "QB"))
			f.Wrap = rapid.Bool().Draw(t, "wrap")
		}
		got, err := ParseBulletFile(f.String())
		if err != nil || got != f {
			t.Fatalf("ParseBulletFile(%q) = %+v, %v; want %+v", f.String(), got, err, f)
		}
	})
}

func TestParseBulletFileErrors(t *testing.T) {
	for _, s := range []string{"header", "header=-1", "header=2000000", "transposed=1", "float=255", "float=0/64",
		"float=255/99999", "wrap", "header=1,header=2", "mirror", "header=64,,transposed"} {
		if _, err := ParseBulletFile(s); err == nil || !strings.Contains(err.Error(), "bullet layout") {
			t.Errorf("ParseBulletFile(%q) = %v, want a bullet layout error", s, err)
		}
	}
	f, err := ParseBulletFile(" header=64 , transposed ")
	if err != nil || f != (BulletFile{Header: 64, Transposed: true}) {
		t.Errorf("spaces: %+v, %v", f, err)
	}
}

func FuzzParseBulletFile(f *testing.F) {
	for _, s := range []string{"", "header=64", "transposed", "float=255/64,wrap", "header=64,transposed,float=362/64,wrap", "x=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBulletFile(s)
		if err != nil {
			return
		}
		again, err := ParseBulletFile(b.String())
		if err != nil || again != b {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, b, b.String(), again, err)
		}
	})
}
