package dataset

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/nnuekit/nnuekit/board"
)

const startFEN = board.StartFEN

func mustFEN(t testing.TB, fen string) board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustMove(t testing.TB, p board.Position, s string) board.Move {
	t.Helper()
	m, err := board.ParseUCIMove(&p, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseLinePlain(t *testing.T) {
	got, err := ParseLine(startFEN+",25,e2e4", 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d samples, want 1", len(got))
	}
	s := got[0]
	if s.Pos.FEN() != startFEN || s.Score != 25 || s.Best.String() != "e2e4" || s.Played != board.NullMove ||
		s.Result != NoResult || s.Line != 7 || s.Index != 0 {
		t.Errorf("sample = %+v", s)
	}
	if s.ResultFor() != -1 {
		t.Errorf("ResultFor = %v, want -1 (unknown)", s.ResultFor())
	}
}

func TestParseLineCompact(t *testing.T) {
	// Start, e2e4 best and played (empty field); then Black's best is c7c5 but e7e5 is played;
	// then Nf3 best; trailing result: Black won.
	line := startFEN + ",30,e2e4,,-20,c7c5,e7e5,35,g1f3,0-1"
	got, err := ParseLine(line, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantFEN := []string{
		startFEN,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
	}
	wantScore := []int32{30, -20, 35}
	wantBest := []string{"e2e4", "c7c5", "g1f3"}
	wantPlayed := []string{"e2e4", "e7e5", "0000"}
	wantResultFor := []float64{0, 1, 0}
	if len(got) != 3 {
		t.Fatalf("got %d samples, want 3", len(got))
	}
	for i, s := range got {
		played := "0000"
		if s.Played != board.NullMove {
			played = s.Played.String()
		}
		if s.Pos.FEN() != wantFEN[i] || s.Score != wantScore[i] || s.Best.String() != wantBest[i] ||
			played != wantPlayed[i] || s.Result != BlackWins || s.Index != i || s.Line != 1 {
			t.Errorf("sample %d = %s %d %s played %s result %v index %d", i, s.Pos.FEN(), s.Score, s.Best, played, s.Result, s.Index)
		}
		if s.ResultFor() != wantResultFor[i] {
			t.Errorf("sample %d: ResultFor = %v, want %v", i, s.ResultFor(), wantResultFor[i])
		}
	}
	// Writing the samples back gives the same line.
	out, err := AppendGame(nil, got, BlackWins)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != line+"\n" {
		t.Errorf("AppendGame =\n%s\nwant\n%s", out, line)
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct {
		name        string
		line        string
		field, col  int
		is          error
		textContain string
	}{
		{"two fields", startFEN + ",1", 2, len(startFEN) + 3, ErrSyntax, ""},
		{"incomplete group", startFEN + ",1,e2e4,,5", 5, len(startFEN) + 11, ErrSyntax, ""},
		{"bad score", startFEN + ",1x,e2e4", 2, len(startFEN) + 2, ErrSyntax, "1x"},
		{"huge score", startFEN + ",40000,e2e4", 2, len(startFEN) + 2, ErrSyntax, "40000"},
		{"illegal best", startFEN + ",1,e2e5", 3, len(startFEN) + 4, board.ErrIllegalMove, "e2e5"},
		{"bad move syntax", startFEN + ",1,zz", 3, len(startFEN) + 4, board.ErrSyntax, "zz"},
		{"bad FEN", "rnbqkbnr/pppppppp/8/8 w - - 0 1,1,e2e4", 1, 1, board.ErrSyntax, "rnbqkbnr"},
		{"illegal played", startFEN + ",1,e2e4,e7e5,2,e7e5", 4, len(startFEN) + 9, board.ErrIllegalMove, "e7e5"},
		{"bad result", startFEN + ",1,e2e4,2-0", 4, len(startFEN) + 9, ErrSyntax, "2-0"},
		{"second best illegal", startFEN + ",1,e2e4,,2,e2e4", 6, len(startFEN) + 12, board.ErrIllegalMove, "e2e4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := []Sample{{Score: 99}}
			got, err := ParseLine(tc.line, 42, dst)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Line != 42 || pe.Field != tc.field || pe.Column != tc.col || !errors.Is(err, tc.is) ||
				!strings.Contains(pe.Text, tc.textContain) {
				t.Errorf("err = %v (field %d col %d), want field %d col %d wrapping %v", err, pe.Field, pe.Column, tc.field, tc.col, tc.is)
			}
			if !strings.Contains(err.Error(), "line 42") {
				t.Errorf("error %q does not name the line", err)
			}
			if len(got) != 1 || got[0].Score != 99 {
				t.Errorf("dst not restored: %+v", got)
			}
		})
	}
}

func TestReader(t *testing.T) {
	in := "# comment\n\n" + startFEN + ",1,e2e4\r\n" + startFEN + ",2,d2d4,,-3,d7d5,1/2-1/2\n" + startFEN + ",3,g1f3"
	r := NewReader(strings.NewReader(in))
	var scores []int32
	var lines []int
	for r.Next() {
		s := r.Sample()
		scores = append(scores, s.Score)
		lines = append(lines, s.Line)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if want := []int32{1, 2, -3, 3}; !equalInts(scores, want) {
		t.Errorf("scores = %v, want %v", scores, want)
	}
	if want := []int{3, 4, 4, 5}; !equalInts(lines, want) {
		t.Errorf("lines = %v, want %v", lines, want)
	}
	if r.Next() {
		t.Error("Next after the end")
	}

	// An error on line 2 stops the stream after line 1's sample and names line 2.
	r = NewReader(strings.NewReader(startFEN + ",1,e2e4\n" + startFEN + ",1,e2e5\n" + startFEN + ",1,e2e4\n"))
	n := 0
	for r.Next() {
		n++
	}
	var pe *ParseError
	if n != 1 || !errors.As(r.Err(), &pe) || pe.Line != 2 || pe.Field != 3 {
		t.Errorf("n = %d, err = %v", n, r.Err())
	}
}

func TestReaderPartialLastLine(t *testing.T) {
	in := startFEN + ",1,e2e4\n" + startFEN + ",2,d2d4,,-3"
	for _, ignore := range []bool{false, true} {
		r := NewReader(strings.NewReader(in))
		r.IgnorePartialLastLine(ignore)
		n := 0
		for r.Next() {
			n++
		}
		if ignore && (n != 1 || r.Err() != nil) {
			t.Errorf("ignore: n = %d, err = %v", n, r.Err())
		}
		if !ignore && (n != 1 || !errors.Is(r.Err(), ErrSyntax)) {
			t.Errorf("strict: n = %d, err = %v", n, r.Err())
		}
	}
}

func TestReaderLineTooLong(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes+10)
	r := NewReader(strings.NewReader(startFEN + ",1,e2e4\n" + long + "\n" + startFEN + ",1,e2e4\n"))
	n := 0
	for r.Next() {
		n++
	}
	var pe *ParseError
	if n != 1 || !errors.As(r.Err(), &pe) || pe.Line != 2 || !errors.Is(r.Err(), ErrLineTooLong) {
		t.Errorf("n = %d, err = %v", n, r.Err())
	}
}

func equalInts[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGeneratedFixture reads three games generated by examples/datagen (Stockfish 15.1, 800
// nodes): the first game has 19 positions and White won.
func TestGeneratedFixture(t *testing.T) {
	f, err := os.Open("testdata/games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	var games, samples, quiet int
	var results []Result
	for {
		g, err := r.NextLine()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatal(err)
			}
			break
		}
		games++
		samples += len(g)
		results = append(results, g[0].Result)
		for i := range g {
			if Quiet(&g[i]) {
				quiet++
			}
			if i+1 < len(g) {
				next, _ := g[i].Pos.Play(g[i].Played)
				if next != g[i+1].Pos {
					t.Fatalf("game %d sample %d: Played does not lead to the next sample", games, i)
				}
			}
		}
		if games == 1 {
			if len(g) != 19 || g[0].Score != 440 || g[0].Best.String() != "e4f5" ||
				g[0].Pos.FEN() != "rnbqkbnr/pp1p3p/2p3p1/4pp2/2P1P2P/P7/1P1P1PP1/RNBQKBNR w KQkq - 0 5" {
				t.Errorf("first game: %d samples, first %s %d %s", len(g), g[0].Pos.FEN(), g[0].Score, g[0].Best)
			}
		}
	}
	if games != 3 || samples != 19+94+98 {
		t.Errorf("games = %d, samples = %d", games, samples)
	}
	if !equalInts(results, []Result{WhiteWins, WhiteWins, WhiteWins}) {
		t.Errorf("results = %v", results)
	}
	t.Logf("%d games, %d samples, %d quiet", games, samples, quiet)
}

// TestRoundTripRandomGames writes random legal games with AppendGame and parses them back.
func TestRoundTripRandomGames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := board.StartPosition()
		n := rapid.IntRange(1, 60).Draw(t, "plies")
		var samples []Sample
		for i := 0; i < n; i++ {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			best := ms[rapid.IntRange(0, len(ms)-1).Draw(t, "best")]
			played := best
			if rapid.Bool().Draw(t, "other") {
				played = ms[rapid.IntRange(0, len(ms)-1).Draw(t, "played")]
			}
			score := int32(rapid.IntRange(-MaxScore, MaxScore).Draw(t, "score"))
			samples = append(samples, Sample{Pos: p, Score: score, Best: best, Played: played, Index: i, Line: 3})
			p, _ = p.Play(played)
		}
		if len(samples) == 0 {
			return
		}
		samples[len(samples)-1].Played = board.NullMove
		res := Result(rapid.IntRange(0, 3).Draw(t, "result"))
		for i := range samples {
			samples[i].Result = res
		}
		line, err := AppendGame(nil, samples, res)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseLine(strings.TrimSuffix(string(line), "\n"), 3, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		if len(got) != len(samples) {
			t.Fatalf("%d samples back, want %d", len(got), len(samples))
		}
		for i := range got {
			if got[i] != samples[i] {
				t.Fatalf("sample %d: got %+v want %+v", i, got[i], samples[i])
			}
		}
	})
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	p := board.StartPosition()
	s := Sample{Pos: p, Score: -7, Best: mustMove(t, p, "g1f3"), Result: Draw}
	if err := w.WritePlain(&s); err != nil {
		t.Fatal(err)
	}
	q, _ := p.Play(s.Best)
	g := []Sample{{Pos: p, Score: 3, Best: s.Best, Played: mustMove(t, p, "e2e4")}, {Pos: mustFEN(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), Score: 4, Best: mustMove(t, q, "e7e5")}}
	// Best of the second sample is checked against its own position, so use a move legal there.
	g[1].Best = mustMove(t, g[1].Pos, "e7e5")
	if err := w.WriteGame(g, NoResult); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteGame(nil, NoResult); err == nil {
		t.Error("WriteGame(nil) succeeded")
	}
	if err := w.WritePlain(&Sample{Pos: p}); err == nil {
		t.Error("WritePlain without a best move succeeded")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := startFEN + ",-7,g1f3,1/2-1/2\n" + startFEN + ",3,g1f3,e2e4,4,e7e5\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestResultStrings(t *testing.T) {
	for _, r := range []Result{WhiteWins, Draw, BlackWins} {
		got, err := ParseResult(r.String())
		if err != nil || got != r {
			t.Errorf("ParseResult(%q) = %v, %v", r.String(), got, err)
		}
	}
	if _, err := ParseResult("*"); err == nil {
		t.Error(`ParseResult("*") succeeded`)
	}
	if NoResult.String() != "" || WhiteWins.For(board.Black) != 0 || BlackWins.For(board.Black) != 1 || Draw.For(board.White) != 0.5 {
		t.Error("Result.For / String")
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add(startFEN + ",25,e2e4")
	f.Add(startFEN + ",30,e2e4,,-20,c7c5,e7e5,35,g1f3,0-1")
	f.Add("8/8/8/1k6/8/B2K4/3b4/8 w - - 8 91,0,a3c5,1/2-1/2")
	f.Add("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3,100,e5f6")
	f.Add(startFEN + ",1,e2e4,,")
	f.Add(",,")
	f.Add("")
	if b, err := os.ReadFile("testdata/games.txt"); err == nil {
		for _, ln := range strings.Split(string(b), "\n") {
			if ln != "" {
				f.Add(ln)
			}
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, err := ParseLine(line, 1, nil)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 1 || pe.Field < 1 || pe.Column < 1 {
				t.Fatalf("error %v is not a well-formed *ParseError", err)
			}
			if len(got) != 0 {
				t.Fatal("samples returned with an error")
			}
			return
		}
		if len(got) == 0 {
			t.Fatal("no samples and no error")
		}
		// What parsed writes back and parses to the same samples.
		out, err := AppendGame(nil, got, got[0].Result)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseLine(strings.TrimSuffix(string(out), "\n"), 1, nil)
		if err != nil {
			t.Fatalf("re-parse of %q: %v", out, err)
		}
		if len(again) != len(got) {
			t.Fatalf("re-parse gives %d samples, want %d", len(again), len(got))
		}
		for i := range got {
			if again[i] != got[i] {
				t.Fatalf("sample %d differs after round trip", i)
			}
		}
	})
}
