package dataset

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// viriSpecGame is the example game of the viriformat specification, written out from its
// field list: the start position (fullmove 1, White wins), then 1. e4 (+10) e5 (+20)
// 2. Qh5 (−30) Ke7 (+32767) 3. Qxe5# (+32767), scores from White's view, and the terminator.
const viriSpecGame = "ffff00000000ffff" + "1642256100000000888888889ecaade9" + "40" + "00" + "0100" + "0000" + "02" + "00" +
	"0c070a00" + "34091400" + "c309e2ff" + "3c0dff7f" + "2709ff7f" + "00000000"

func TestViriformatSpecExample(t *testing.T) {
	data, _ := hex.DecodeString(viriSpecGame)
	r := NewViriformatReader(bytes.NewReader(data))
	var got []Sample
	for r.Next() {
		got = append(got, *r.Sample())
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		move  string
		score int32 // side to move's view
	}{{"e2e4", 10}, {"e7e5", -20}, {"d1h5", -30}, {"e8e7", -32767}, {"h5e5", 32767}}
	if len(got) != len(want) {
		t.Fatalf("%d samples, want %d", len(got), len(want))
	}
	pos := board.StartPosition()
	for i, w := range want {
		s := got[i]
		if s.Pos.FEN() != pos.FEN() || s.Best.String() != w.move || s.Played != s.Best || s.Score != w.score ||
			s.Result != WhiteWins || s.Line != 1 || s.Index != i {
			t.Errorf("sample %d: %s %v %d %v line %d index %d, want %s %s %d 1-0", i, s.Pos.FEN(), s.Best, s.Score, s.Result, s.Line, s.Index, pos.FEN(), w.move, w.score)
		}
		pos, _ = pos.Play(s.Best)
	}
	if !pos.IsCheckmate() {
		t.Error("the game does not end in mate")
	}
	// Writing the samples back gives the specification's bytes.
	var buf bytes.Buffer
	w := NewViriformatWriter(&buf, 1)
	for i := range got {
		if err := w.Write(&got[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(buf.Bytes()) != viriSpecGame {
		t.Errorf("written\n%x\nwant\n%s", buf.Bytes(), viriSpecGame)
	}
}

// viriGame plays a random game and returns its samples (moves played, random scores).
func viriGame(t *rapid.T, label string) []Sample {
	pos := board.StartPosition()
	if rapid.Bool().Draw(t, label+" fen") {
		p, err := board.ParseFEN("r3k2r/1P4P1/8/3pP3/8/8/p6p/R3K2R w KQkq d6 0 40")
		if err != nil {
			t.Fatal(err)
		}
		pos = p
	}
	result := []Result{WhiteWins, Draw, BlackWins}[rapid.IntRange(0, 2).Draw(t, label+" result")]
	n := rapid.IntRange(1, 60).Draw(t, label+" plies")
	var out []Sample
	for i := range n {
		ms := pos.LegalMoves()
		if len(ms) == 0 {
			break
		}
		m := ms[rapid.IntRange(0, len(ms)-1).Draw(t, label+" move")]
		score := int32(rapid.IntRange(-32767, 32767).Draw(t, label+" score"))
		out = append(out, Sample{Pos: pos, Score: score, Best: m, Played: m, Result: result, Index: i})
		pos, _ = pos.Play(m)
	}
	return out
}

// TestViriformatRoundTrip: random games (castling, en passant, promotions, both sides to
// move, extension records between games) written and read back give the same samples.
func TestViriformatRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var all []Sample
		var buf bytes.Buffer
		games := rapid.IntRange(1, 4).Draw(t, "games")
		for g := range games {
			gs := viriGame(t, "g")
			w := NewViriformatWriter(&buf, 1)
			for i := range gs {
				gs[i].Line = g + 1
				if err := w.Write(&gs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			all = append(all, gs...)
			if rapid.Bool().Draw(t, "extension") {
				ext := make([]byte, 8, 32)
				ext = binary.LittleEndian.AppendUint16(ext, 7)
				ext = binary.LittleEndian.AppendUint16(ext, 3)
				ext = append(ext, 1, 2, 3, 0, 0, 0, 0)
				buf.Write(ext)
			}
		}
		r := NewViriformatReader(bytes.NewReader(buf.Bytes()))
		i := 0
		for ; r.Next(); i++ {
			s, w := r.Sample(), all[i]
			if s.Pos.FEN() != w.Pos.FEN() || s.Best != w.Best || s.Played != w.Played || s.Score != w.Score ||
				s.Result != w.Result || s.Line != w.Line || s.Index != w.Index {
				t.Fatalf("sample %d: %s %v %d %v %d/%d, want %s %v %d %v %d/%d", i, s.Pos.FEN(), s.Best, s.Score, s.Result, s.Line, s.Index,
					w.Pos.FEN(), w.Best, w.Score, w.Result, w.Line, w.Index)
			}
		}
		if err := r.Err(); err != nil || i != len(all) || r.Offset() != int64(buf.Len()) {
			t.Fatalf("read %d of %d samples, offset %d of %d: %v", i, len(all), r.Offset(), buf.Len(), err)
		}
	})
}

// TestViriformatWriterChains: one writer joins samples that continue each other into one game
// and starts a new game otherwise.
func TestViriformatWriterChains(t *testing.T) {
	p := board.StartPosition()
	e4, _ := board.ParseUCIMove(&p, "e2e4")
	q, _ := p.Play(e4)
	e5, _ := board.ParseUCIMove(&q, "e7e5")
	var buf bytes.Buffer
	w := NewViriformatWriter(&buf, 2)
	for _, s := range []Sample{
		{Pos: p, Best: e4, Score: 5, Result: Draw},      // game 1
		{Pos: q, Best: e5, Score: 7, Result: Draw},      // continues game 1 (Played empty: Best is the move)
		{Pos: p, Best: e4, Score: 1, Result: Draw},      // not the position after e5: game 2
		{Pos: q, Best: e5, Score: 1, Result: WhiteWins}, // another result: game 3
	} {
		if err := w.Write(&s); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if want := 3*ViriformatBoardSize + 4*4 + 3*4; buf.Len() != want {
		t.Fatalf("%d bytes, want %d (3 games, 4 pairs)", buf.Len(), want)
	}
	r := NewViriformatReader(&buf)
	var lines, scores []int
	for r.Next() {
		lines = append(lines, r.Sample().Line)
		scores = append(scores, int(r.Sample().Score))
	}
	if r.Err() != nil || len(lines) != 4 || lines[1] != 1 || lines[2] != 2 || lines[3] != 3 || scores[0] != 10 || scores[1] != 14 {
		t.Fatalf("lines %v scores %v: %v", lines, scores, r.Err())
	}
}

func TestViriformatWriterErrors(t *testing.T) {
	p := board.StartPosition()
	e4, _ := board.ParseUCIMove(&p, "e2e4")
	var buf bytes.Buffer
	w := NewViriformatWriter(&buf, 1)
	for _, s := range []Sample{
		{Pos: p, Best: e4},     // no result
		{Pos: p, Result: Draw}, // no move
		{Pos: p, Best: board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 4)), Result: Draw}, // illegal
	} {
		if err := w.Write(&s); err == nil {
			t.Errorf("%v accepted", s)
		}
	}
	if err := w.Close(); err != nil || buf.Len() != 0 {
		t.Errorf("%d bytes written after errors: %v", buf.Len(), err)
	}
}

// TestViriformatHostile: truncations of a valid stream and corrupted fields each give a
// *FormatError with the offset of the bad record, wrapping ErrTruncated or ErrCorrupt.
func TestViriformatHostile(t *testing.T) {
	good, _ := hex.DecodeString(viriSpecGame)
	check := func(name string, data []byte, want error, off int64) {
		t.Helper()
		r := NewViriformatReader(bytes.NewReader(data))
		for r.Next() {
			if err := r.Sample().Pos.Validate(); err != nil {
				t.Fatalf("%s: invalid position yielded: %v", name, err)
			}
		}
		var fe *FormatError
		if err := r.Err(); !errors.As(err, &fe) || !errors.Is(err, want) || fe.Offset != off || fe.Format != "viriformat" {
			t.Errorf("%s: error %v, want %v at offset %d", name, err, want, off)
		}
	}
	for n := 1; n < len(good); n++ {
		off := int64(0)
		if n >= ViriformatBoardSize {
			off = int64(ViriformatBoardSize + (n-ViriformatBoardSize)/4*4)
		}
		check("truncated", good[:n], ErrTruncated, off)
	}
	mod := func(i int, b byte) []byte {
		d := append([]byte(nil), good...)
		d[i] = b
		return d
	}
	check("piece type 7", mod(8, 0x17), ErrCorrupt, 0)
	check("result 3", mod(30, 3), ErrCorrupt, 0)
	check("en passant 65", mod(24, 65), ErrCorrupt, 0)
	check("en passant e4", mod(24, 28), ErrCorrupt, 0)
	check("black castling rook for white", mod(8, 0x1e), ErrCorrupt, 0)
	check("two white kings", mod(9, 0x55), ErrCorrupt, 0)
	check("illegal move e2e5", mod(33, 0x09), ErrCorrupt, 32)
	check("e4 typed en passant", mod(33, 0x47), ErrCorrupt, 32)
	check("zero move with a score", append(append([]byte(nil), good[:32]...), 0, 0, 1, 0), ErrCorrupt, 32)
	ext := append(make([]byte, 8), 1, 0, 2, 0, 9, 9, 0, 0, 0, 1)
	check("extension without terminator", ext, ErrCorrupt, 0)
	check("truncated extension", ext[:11], ErrTruncated, 0)
	// A Chess960 castling rook (b1) is refused.
	d := append([]byte(nil), good...)
	d[8] = 0x63 // a1 plain rook, b1 castling rook
	check("chess960 rook", d, ErrCorrupt, 0)
	// A game that ends without its terminator.
	check("no terminator", good[:len(good)-4], ErrTruncated, int64(len(good)-4))
	if !strings.Contains(NewViriformatReader(bytes.NewReader(mod(30, 3))).errText(), "game result 3") {
		t.Error("result error does not name the value")
	}
}

// errText reads r to its end and returns its error's text.
func (r *ViriformatReader) errText() string {
	for r.Next() {
	}
	if r.Err() == nil {
		return ""
	}
	return r.Err().Error()
}

// FuzzViriformatReader: any input reads as valid samples or stops with a *FormatError inside
// the input; what reads without error writes back and reads again as the same samples.
func FuzzViriformatReader(f *testing.F) {
	good, _ := hex.DecodeString(viriSpecGame)
	f.Add(good)
	f.Add(append(make([]byte, 8), 1, 0, 0, 0, 0, 0, 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewViriformatReader(bytes.NewReader(data))
		var got []Sample
		for r.Next() {
			s := *r.Sample()
			if err := s.Pos.Validate(); err != nil {
				t.Fatalf("invalid position %s: %v", s.Pos.FEN(), err)
			}
			got = append(got, s)
		}
		if err := r.Err(); err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error %v", err)
			}
			return
		}
		var buf bytes.Buffer
		w := NewViriformatWriter(&buf, 1)
		for i := range got {
			if err := w.Write(&got[i]); err != nil {
				t.Fatalf("sample %d (%s %v): %v", i, got[i].Pos.FEN(), got[i].Best, err)
			}
		}
		w.Close()
		r2 := NewViriformatReader(&buf)
		for i := 0; r2.Next(); i++ {
			s := r2.Sample()
			if i >= len(got) || s.Pos.FEN() != got[i].Pos.FEN() || s.Best != got[i].Best || s.Score != got[i].Score {
				t.Fatalf("sample %d differs after a rewrite", i)
			}
		}
		if r2.Err() != nil {
			t.Fatal(r2.Err())
		}
	})
}
