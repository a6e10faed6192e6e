package dataset

import (
	"errors"
	"strings"
	"testing"
)

// FuzzReader feeds multi-line text to Reader: every sample it yields has a valid position and
// a line number within the input; an error is a *ParseError naming a line, or a read error.
func FuzzReader(f *testing.F) {
	f.Add(startFEN + ",25,e2e4\n# comment\n\n" + startFEN + ",30,e2e4,,-20,c7c5,e7e5,35,g1f3,0-1\r\n")
	f.Add("8/8/8/1k6/8/B2K4/3b4/8 w - - 8 91,0,a3c5,1/2-1/2\n" + startFEN + ",1,e2e4,,\n,,")
	f.Add(startFEN + ",25,e2e4")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		r := NewReader(strings.NewReader(s))
		r.SetName("f")
		for r.Next() {
			smp := r.Sample()
			if smp.Line < 1 || smp.Line > lines {
				t.Fatalf("sample on line %d of %d", smp.Line, lines)
			}
			if err := smp.Pos.Validate(); err != nil {
				t.Fatalf("line %d: invalid position: %v", smp.Line, err)
			}
		}
		if err := r.Err(); err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Line > lines || pe.File != "f" {
				t.Fatalf("error %v does not name the file and a line", err)
			}
		}
	})
}

func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"1-0", "0-1", "1/2-1/2", "*", "", "1", "2-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseResult(s)
		if err == nil && r.String() != s {
			t.Logf("ParseResult(%q) = %v", s, r) // aliases allowed; must not panic
		}
	})
}
