package board

import (
	"strings"
	"testing"
)

// TestFENErrorWording: an error about the record as a whole names no field ("bad FEN at
// offset", not "bad FEN fen at offset"); a field's error names the field.
func TestFENErrorWording(t *testing.T) {
	if _, err := ParseFEN("8/8/8/8/8/8/8/8 w - - 0"); err == nil || !strings.HasPrefix(err.Error(), "board: bad FEN at offset 0: ") {
		t.Errorf("record error: %v", err)
	}
	if _, err := ParseFEN("8/8/8/8/8/8/8/7x w - - 0 1"); err == nil || !strings.HasPrefix(err.Error(), "board: bad FEN placement at offset ") {
		t.Errorf("field error: %v", err)
	}
}

// TestEPDErrorWording: an EPD line's error names the package once.
func TestEPDErrorWording(t *testing.T) {
	r := NewEPDReader(strings.NewReader("bad line\n"), "a.epd")
	for r.Next() {
	}
	if err := r.Err(); err == nil || !strings.HasPrefix(err.Error(), "board: a.epd:1: bad FEN at offset 0: ") {
		t.Errorf("EPD error: %v", err)
	}
}
