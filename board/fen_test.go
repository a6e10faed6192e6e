package board

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedPath returns ../shared/<rel> relative to the repository root, or skips the test.
func sharedPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s: ../shared absent", rel)
	}
	return p
}

// loadEPDLines returns the lines of ../shared/data/positions.epd, nil if it is absent.
func loadEPDLines() ([]string, error) {
	f, err := os.Open(filepath.Join("..", "..", "shared", "data", "positions.epd"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}

func readEPDLines(t testing.TB) []string {
	t.Helper()
	sharedPath(t, "data/positions.epd")
	lines, err := loadEPDLines()
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// tb is the part of testing.TB and *rapid.T the helpers need.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func mustFEN(t tb, s string) Position {
	t.Helper()
	p, err := ParseFEN(s)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", s, err)
	}
	return p
}

func TestParseFENStart(t *testing.T) {
	p := mustFEN(t, StartFEN)
	if got := p.FEN(); got != StartFEN {
		t.Fatalf("FEN() = %q", got)
	}
	checks := []struct {
		sq Square
		pc Piece
	}{
		{A1, MakePiece(White, Rook)}, {E1, MakePiece(White, King)}, {D8, MakePiece(Black, Queen)},
		{NewSquare(4, 1), MakePiece(White, Pawn)}, {NewSquare(4, 6), MakePiece(Black, Pawn)},
		{NewSquare(4, 3), NoPiece}, {G8, MakePiece(Black, Knight)},
	}
	for _, c := range checks {
		if got := p.PieceAt(c.sq); got != c.pc {
			t.Errorf("PieceAt(%v) = %v, want %v", c.sq, got, c.pc)
		}
	}
	if p.SideToMove() != White || p.Castling() != AllCastling || p.EnPassant() != NoSquare ||
		p.HalfmoveClock() != 0 || p.FullmoveNumber() != 1 || p.PieceCount() != 32 {
		t.Errorf("state wrong: %v %v %v %d %d %d", p.SideToMove(), p.Castling(), p.EnPassant(),
			p.HalfmoveClock(), p.FullmoveNumber(), p.PieceCount())
	}
	if p.Occupied() != 0xffff00000000ffff || p.ByRole(Pawn) != 0x00ff00000000ff00 {
		t.Errorf("bitboards wrong: %x %x", p.Occupied(), p.ByRole(Pawn))
	}
	if StartPosition() != p {
		t.Error("StartPosition() differs from ParseFEN(StartFEN)")
	}
}

func TestParseFENRoundTripTable(t *testing.T) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Kq d3 0 3",
		"4k3/8/8/8/8/8/8/4K3 b - - 123 1",
		"7k/8/8/8/8/8/8/K7 w - - 99999 999999999",
	} {
		p := mustFEN(t, s)
		if got := p.FEN(); got != s {
			t.Errorf("round trip:\n got %q\nwant %q", got, s)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%q: Validate: %v", s, err)
		}
	}
	// four fields: clocks default to 0 1; surrounding white space is ignored
	p := mustFEN(t, "  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n")
	if p.HalfmoveClock() != 0 || p.FullmoveNumber() != 1 || p.SideToMove() != Black {
		t.Errorf("4-field defaults: %s", p.FEN())
	}
}

func TestParseFENErrors(t *testing.T) {
	const k = "4k3/8/8/8/8/8/8/4K3"
	tests := []struct {
		fen    string
		field  string
		offset int
		kind   error
		reason string // substring
	}{
		{"", FieldFEN, 0, ErrSyntax, "0 space-separated fields"},
		{k + " w - - 0", FieldFEN, 0, ErrSyntax, "5 space-separated"},
		{k + " w - - 0 1 x", FieldFEN, 0, ErrSyntax, "7 space-separated"},
		{k + " w  - - 0 1", FieldFEN, 0, ErrSyntax, "7 space-separated"},
		{k + " w - -  0", FieldHalfmove, 26, ErrSyntax, "empty field"},
		{"4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", FieldPlacement, 19, ErrSyntax, "more than 8 ranks"},
		{"4k3/8/8/8/8/8/4K3 w - - 0 1", FieldPlacement, 0, ErrSyntax, "7 ranks"},
		{"4k3/8/8/8/8/8/8/4K2 w - - 0 1", FieldPlacement, 19, ErrSyntax, "rank 1 has 7 squares"},
		{"4k3/9/8/8/8/8/8/4K3 w - - 0 1", FieldPlacement, 4, ErrSyntax, "unknown piece letter '9'"},
		{"4k4/8/8/8/8/8/8/4K3 w - - 0 1", FieldPlacement, 2, ErrSyntax, "more than 8 squares"},
		{"4k3/8/8/8/8/44/8/4K3 w - - 0 1", FieldPlacement, 13, ErrSyntax, "adjacent digits"},
		{"4k3/8/8/8/8/8/8/4X3 w - - 0 1", FieldPlacement, 17, ErrSyntax, "unknown piece letter 'X'"},
		{"4k3/7/8/8/8/8/8/4K3 w - - 0 1", FieldPlacement, 5, ErrSyntax, "rank 7 has 7 squares"},
		{k + " x - - 0 1", FieldSide, 20, ErrSyntax, "side to move"},
		{k + " w KX - 0 1", FieldCastling, 23, ErrSyntax, "unknown castling letter 'X'"},
		{k + " w kK - 0 1", FieldCastling, 23, ErrSyntax, "order KQkq"},
		{k + " w KK - 0 1", FieldCastling, 23, ErrSyntax, "order KQkq"},
		{k + " w - e9 0 1", FieldEnPassant, 24, ErrSyntax, "en-passant square"},
		{k + " w - - -1 1", FieldHalfmove, 26, ErrSyntax, "not a non-negative integer"},
		{k + " w - - 01 1", FieldHalfmove, 26, ErrSyntax, "leading zero"},
		{k + " w - - 0 +1", FieldFullmove, 28, ErrSyntax, "not a non-negative integer"},
		{k + " w - - 0 1234567890", FieldFullmove, 28, ErrSyntax, "too large"},
		// illegal positions
		{"8/8/8/8/8/8/8/4K3 w - - 0 1", FieldPlacement, 0, ErrIllegalPosition, "black has no king"},
		{"4k3/8/8/8/8/8/8/4KK2 w - - 0 1", FieldPlacement, 18, ErrIllegalPosition, "white has more than one king"},
		{"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", FieldPlacement, 3, ErrIllegalPosition, "pawn on the first or last rank"},
		{"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", FieldPlacement, 16, ErrIllegalPosition, "pawn on the first or last rank"},
		{"4k3/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1", FieldPlacement, NoOffset, ErrIllegalPosition, "more than"},
		{"4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1", FieldPlacement, 0, ErrIllegalPosition, "promoted pieces"},
		{"4k3/8/8/8/8/8/8/4K3 w K - 0 1", FieldCastling, 22, ErrIllegalPosition, "without the rook"},
		{"4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1", FieldCastling, 25, ErrIllegalPosition, "without the rook"},
		{"r3k3/8/8/8/8/8/8/4K3 w k - 0 1", FieldCastling, 23, ErrIllegalPosition, "k without the rook"},
		{"r2k4/8/8/8/8/8/8/4K3 w q - 0 1", FieldCastling, 23, ErrIllegalPosition, "without the king"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", FieldEnPassant, 27, ErrIllegalPosition, "rank 6"},
		{"4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", FieldEnPassant, 26, ErrIllegalPosition, "no pawn that just double-pushed"},
		{"4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1", FieldEnPassant, 29, ErrIllegalPosition, "came from is occupied"},
		{"4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", FieldEnPassant, 29, ErrIllegalPosition, "occupied"},
		{"4k3/8/8/8/8/8/8/4K2r b - - 0 1", FieldSide, 21, ErrIllegalPosition, "(white) is in check"},
		{"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FieldSide, 22, ErrIllegalPosition, "(black) is in check"},
		{"4k3/8/8/8/1b6/5n2/8/r3K3 w - - 0 1", FieldSide, 25, ErrIllegalPosition, "more than two"},
	}
	for _, tc := range tests {
		_, err := ParseFEN(tc.fen)
		if err == nil {
			t.Errorf("ParseFEN(%q): no error", tc.fen)
			continue
		}
		var fe *FENError
		if !errors.As(err, &fe) {
			t.Errorf("ParseFEN(%q): %T %v, want *FENError", tc.fen, err, err)
			continue
		}
		if fe.Field != tc.field || (tc.offset != NoOffset && fe.Offset != tc.offset) ||
			!errors.Is(err, tc.kind) || !strings.Contains(fe.Reason, tc.reason) {
			t.Errorf("ParseFEN(%q):\n got field=%q offset=%d reason=%q (%v)\nwant field=%q offset=%d reason~%q kind=%v",
				tc.fen, fe.Field, fe.Offset, fe.Reason, err, tc.field, tc.offset, tc.reason, tc.kind)
		}
		if tc.kind == ErrIllegalPosition {
			var pe *PositionError
			if !errors.As(err, &pe) {
				t.Errorf("ParseFEN(%q): no *PositionError inside %v", tc.fen, err)
			}
		}
	}
}

// NoOffset in a test table means "do not check the offset".
const NoOffset = -999

func TestValidateHandFilled(t *testing.T) {
	var p Position
	if err := p.Validate(); !errors.Is(err, ErrIllegalPosition) {
		t.Fatalf("empty board: %v", err)
	}
	p.Put(E1, MakePiece(White, King))
	p.Put(E8, MakePiece(Black, King))
	p.Put(H1, MakePiece(White, Rook))
	p.SetCastling(WhiteKingside)
	p.SetClocks(0, 1)
	if err := p.Validate(); err != nil {
		t.Fatalf("legal hand-filled position: %v", err)
	}
	if got, want := p.FEN(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1"; got != want {
		t.Errorf("FEN() = %q, want %q", got, want)
	}
	p.SetCastling(WhiteQueenside)
	var pe *PositionError
	if err := p.Validate(); !errors.As(err, &pe) || pe.Field != FieldCastling || pe.Square != A1 {
		t.Errorf("missing a1 rook: %v", err)
	}
	p.SetCastling(0)
	p.SetClocks(-1, 1)
	if err := p.Validate(); !errors.As(err, &pe) || pe.Field != FieldHalfmove {
		t.Errorf("negative clock: %v", err)
	}
	p.SetClocks(0, 1)
	p.mailbox[NewSquare(0, 3)] = MakePiece(White, Queen) // corrupt: mailbox without bitboards
	if err := p.Validate(); !errors.As(err, &pe) || !strings.Contains(pe.Reason, "bitboards disagree") {
		t.Errorf("corrupted position: %v", err)
	}
}

func TestParseEPD(t *testing.T) {
	p, ops, err := ParseEPD(`r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "Ruy Lopez; test"; c0 "x y";noop; hmvc 2; fmvn 3`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"bm": "Bb5", "id": "Ruy Lopez; test", "c0": "x y", "noop": "", "hmvc": "2", "fmvn": "3"}
	if len(ops) != len(want) {
		t.Errorf("ops = %q", ops)
	}
	for k, v := range want {
		if ops[k] != v {
			t.Errorf("ops[%q] = %q, want %q", k, ops[k], v)
		}
	}
	if got := p.FEN(); got != "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3" {
		t.Errorf("FEN() = %q", got)
	}
	// six-field FEN lines are EPD too, with or without operations
	p, ops, err = ParseEPD(StartFEN + " id \"start\";")
	if err != nil || p.FEN() != StartFEN || ops["id"] != "start" {
		t.Errorf("FEN+ops: %v %q %v", err, ops, p.FEN())
	}
	p, ops, err = ParseEPD("4k3/8/8/8/8/8/8/4K3\tb -  - ")
	if err != nil || p.FEN() != "4k3/8/8/8/8/8/8/4K3 b - - 0 1" || len(ops) != 0 {
		t.Errorf("bare EPD: %v %q %v", err, ops, p.FEN())
	}
	for _, bad := range []string{
		"4k3/8/8/8/8/8/8/4K3 w -",
		"4k3/8/8/8/8/8/8/4K3 w - - 5 bm e4",
		"4k3/8/8/8/8/8/8/4K3 w - - id \"open",
		"4k3/8/8/8/8/8/8/4K3 w - - 9x y;",
		"4k3/8/8/8/8/8/8/4K3 w - - hmvc x;",
		"4k3/8/8/8/8/8/8/4KK2 w - - id x;",
	} {
		if _, _, err := ParseEPD(bad); err == nil {
			t.Errorf("ParseEPD(%q): no error", bad)
		} else if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrIllegalPosition) {
			t.Errorf("ParseEPD(%q): error kind %v", bad, err)
		}
	}
}

// TestSharedPositionsRoundTrip parses every line of ../shared/data/positions.epd with
// ParseFEN and ParseEPD and checks the exact round trip.
func TestSharedPositionsRoundTrip(t *testing.T) {
	lines := readEPDLines(t)
	if len(lines) != 6000 {
		t.Fatalf("%d lines, want 6000", len(lines))
	}
	for i, line := range lines {
		p, err := ParseFEN(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if got := p.FEN(); got != line {
			t.Fatalf("line %d: FEN() = %q, want %q", i+1, got, line)
		}
		q, ops, err := ParseEPD(line)
		if err != nil || q != p || len(ops) != 0 {
			t.Fatalf("line %d: ParseEPD: %v %v", i+1, err, ops)
		}
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"4k3/8/8/8/8/8/8/4K3 w - -",
		"4k3/8/8/8/8/44/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 w KQkq e3 -1 x",
		"", " ", "/////// w - - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			var fe *FENError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > len(s) {
				t.Fatalf("bad error %T %v", err, err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("parsed but invalid: %v", err)
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil || q != p {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if a, b := trimSpace(s); b-a == len(out) && s[a:b] != out {
			t.Fatalf("six-field round trip: %q -> %q", s[a:b], out)
		}
		_, _, _ = ParseEPD(s)
	})
}

func FuzzParseEPD(f *testing.F) {
	for _, s := range []string{
		StartFEN + " bm e4; id \"x\";",
		"4k3/8/8/8/8/8/8/4K3 w - - hmvc 3; fmvn 7;",
		"4k3/8/8/8/8/8/8/4K3 w - - id \"open",
		"4k3/8/8/8/8/8/8/4K3 w - - 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ops, err := ParseEPD(s)
		if err != nil {
			var fe *FENError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("parsed but invalid: %v", err)
		}
		if len(ops) > len(s) {
			t.Fatalf("%d ops from %d bytes", len(ops), len(s))
		}
	})
}
