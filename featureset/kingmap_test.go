package featureset

import (
	"slices"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// Input-bucket maps of real bullet-trained nets (../shared/nets/bullet/README.md): Stormphrax
// net013's 4 buckets and a 16-bucket map of the shape mirrored nets use (distinct buckets on
// files e–h only).
var (
	stormphraxKings = "kings(" + strings.Join(strings.Fields(strings.Repeat("0 0 0 0 1 1 1 1 ", 2)+
		strings.Repeat("2 2 2 2 3 3 3 3 ", 6)), ".") + ")"
	alexandriaKings = func() string {
		var b [64]int
		for sq := range b {
			f, r := sq%8, sq/8
			if f < 4 {
				f = 7 - f
			}
			b[sq] = (f-4)*4 + min(r/2, 3)
		}
		return kingMapName(b)
	}()
)

// TestKingBucketMap checks the parsed map: its size, its String, and that the active
// features of kings(map)@o*all are those of all@o shifted by 768 · map[o(own king)].
func TestKingBucketMap(t *testing.T) {
	s := MustParse(stormphraxKings + "*all")
	if s.Size() != 4*768 || s.String() != stormphraxKings+"*all" {
		t.Fatalf("Stormphrax set: size %d, %s", s.Size(), s)
	}
	m := MustParse(alexandriaKings + "@hm*all@hm")
	if m.Size() != 16*768 || m.String() != alexandriaKings+"@hm*all@hm" {
		t.Fatalf("mirrored set: size %d, %s", m.Size(), m)
	}
	pos, err := board.ParseFEN("r3k2r/pp3ppp/8/8/8/8/PP3PPP/1K1R3R b kq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	// White king b1: flip keeps b1 (bucket 0 of Stormphrax's map); Black king e8 is seen
	// from Black on e1 (bucket 1).
	for _, c := range []struct {
		persp  board.Color
		bucket int
	}{{board.White, 0}, {board.Black, 1}} {
		all := MustParse("all").Active(&pos, c.persp, nil)
		want := make([]int, len(all))
		for i, f := range all {
			want[i] = 768*c.bucket + f
		}
		if got := s.Active(&pos, c.persp, nil); !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("persp %v: active %v, want %v", c.persp, got, want)
		}
	}
}

// TestKingBucketMapRoundTrip: any surjective map with any orientation, alone or times a
// block, parses back from its String to an equal set of the right size.
func TestKingBucketMapRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 64).Draw(t, "n")
		var table [64]int
		perm := rapid.Permutation(make64()).Draw(t, "perm")
		for sq := range table {
			if sq < n {
				table[perm[sq]] = sq
			} else {
				table[perm[sq]] = rapid.IntRange(0, n-1).Draw(t, "b")
			}
		}
		spec := kingMapName(table)
		if o := rapid.SampledFrom([]string{"", "@flip", "@hm", "@rotate", "@abs"}).Draw(t, "o"); o != "" {
			spec += o
		}
		factor := rapid.SampledFrom([]string{"", "*all", "*nk@hm", "*(all+h)"}).Draw(t, "factor")
		s, err := Parse(spec + factor)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec+factor, err)
		}
		size := n
		if factor != "" {
			size *= MustParse(strings.TrimPrefix(factor, "*")).Size()
		}
		if s.Size() != size {
			t.Fatalf("%s: size %d, want %d", s, s.Size(), size)
		}
		s2, err := Parse(s.String())
		if err != nil || !s.Equal(s2) || s2.String() != s.String() {
			t.Fatalf("%q → %q: round trip failed: %v", spec+factor, s, err)
		}
	})
}

func make64() []int {
	x := make([]int, 64)
	for i := range x {
		x[i] = i
	}
	return x
}

// TestKingBucketMapErrors: malformed maps are *ParseError values, never panics.
func TestKingBucketMapErrors(t *testing.T) {
	ones := "1" + strings.Repeat(".1", 63)
	for _, spec := range []string{
		"kings(", "kings()", "kings(0.1)*all", "kings(" + ones + ")", // bucket 0 unused
		"kings(" + strings.Repeat("0.", 63) + "64)", "kings(" + strings.Repeat("0.", 63) + "00)",
		"kings(" + strings.Repeat("0.", 64) + "0)", "kings(" + strings.Repeat("0.", 63) + "0",
		"kings(" + strings.Repeat("0.", 63) + "0)@up", "kings(" + strings.Repeat("0.", 63) + "-1)",
		"kings(" + strings.Repeat("0.", 63) + "1000000000000000000000)",
	} {
		if s, err := Parse(spec); err == nil {
			t.Errorf("Parse(%q) = %s, want error", spec, s)
		} else if _, ok := err.(*ParseError); !ok {
			t.Errorf("Parse(%q): error %T, want *ParseError", spec, err)
		}
	}
	if _, err := Parse("kings(" + strings.Repeat("0.", 63) + "0)*(all+h)"); err != nil {
		t.Errorf("one-bucket map times a sum: %v", err)
	}
	// The error names the orientation it rejects (it printed "" before).
	for _, spec := range []string{"all@up", "kings(" + strings.Repeat("0.", 63) + "0)@up*all"} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), `unknown orientation "up"`) {
			t.Errorf("Parse(%q): %v, want unknown orientation \"up\"", spec, err)
		}
	}
}
