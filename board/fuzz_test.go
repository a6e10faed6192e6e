package board

import (
	"errors"
	"strings"
	"testing"
)

// Fuzz targets for the move and square parsers and the EPD reader (seed corpora in
// testdata/fuzz; doc/reliability.md lists every target with its execution rate).

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"e4", "a1", "h8", "i1", "a9", "", "e", "e44", "E4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := ParseSquare(s)
		if err != nil {
			if sq != NoSquare {
				t.Fatalf("ParseSquare(%q) = %v with error %v", s, sq, err)
			}
			return
		}
		if !sq.Valid() || sq.String() != s {
			t.Fatalf("ParseSquare(%q) = %v (%d)", s, sq, sq)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "a2a1n", "e1g1", "0000", "e2e2", "e7e8k", "e2e4 ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, ErrSyntax) || m != NullMove {
				t.Fatalf("ParseMove(%q): %v, %v", s, m, err)
			}
			return
		}
		if m.String() != s {
			t.Fatalf("ParseMove(%q) = %v", s, m)
		}
	})
}

func FuzzParseUCIMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e1g1", "e5f6", "a7a8q", "b7b8n", "e1c1", "0000", "h1h8"} {
		f.Add(s)
	}
	// castling both ways, an en-passant capture and promotions are legal here
	p := mustFEN(f, "r3k2r/pP4pp/8/4Pp2/8/8/P4PPP/R3K2R w KQkq f6 0 2")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseUCIMove(&p, s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrIllegalMove) {
				t.Fatalf("ParseUCIMove(%q): error of no kind: %v", s, err)
			}
			return
		}
		if !p.IsLegal(m) || m.String() != s {
			t.Fatalf("ParseUCIMove(%q) = %v", s, m)
		}
		if c, _ := p.Play(m); c.Validate() != nil {
			t.Fatalf("%v leads to an invalid position: %v", m, c.Validate())
		}
	})
}

func FuzzEPDReader(f *testing.F) {
	f.Add(StartFEN + "\n# c\n\n" + "8/8/8/8/8/8/k7/7K w - - bm Kg1; id \"x\";\n")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -\r\n8/8/8 w - -")
	f.Fuzz(func(t *testing.T, s string) {
		r := NewEPDReader(strings.NewReader(s), "f")
		n := 0
		for r.Next() {
			n++
			if p := r.Position(); p.Validate() != nil {
				t.Fatalf("line %d: invalid position %s", r.Line(), p.FEN())
			}
		}
		if err := r.Err(); err != nil {
			var e *EPDError
			if !errors.As(err, &e) || e.File != "f" || e.Line < 1 {
				t.Fatalf("error %v does not name file and line", err)
			}
		}
		if n > strings.Count(s, "\n")+1 {
			t.Fatalf("%d positions from %d lines", n, strings.Count(s, "\n")+1)
		}
	})
}
