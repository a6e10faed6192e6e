package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"testing"

	"pgregory.net/rapid"

	"github.com/nnuekit/nnuekit/board"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/binpack/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasSuffix([]byte(name), []byte(".gz")) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// convert copies every sample of r into w and returns the count.
func convert(t testing.TB, r SampleReader, w SampleWriter) int {
	t.Helper()
	n := 0
	for r.Next() {
		if err := w.Write(r.Sample()); err != nil {
			t.Fatalf("sample %d: %v", n, err)
		}
		n++
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestBinpackAgainstStockfish compares nnuekit's binpack and plain readers and writers with the
// output of Stockfish's own `convert` (testdata/binpack/README.md), byte for byte.
func TestBinpackAgainstStockfish(t *testing.T) {
	cases := []struct {
		name           string
		src            SampleReader
		binpack, plain string
		n              int
	}{
		{"datagen", NewReader(bytes.NewReader(readFixture(t, "datagen.txt"))), "datagen-sf.binpack", "datagen-sf.plain.gz", 3685},
		{"sfgen", NewStockfishPlainReader(bytes.NewReader(readFixture(t, "sfgen.plain.gz"))), "sfgen.binpack", "sfgen.plain.gz", 3000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantBin := readFixture(t, tc.binpack)
			wantPlain := readFixture(t, tc.plain)
			// Our writer, from our reader of the source, writes Stockfish's binpack.
			var bin bytes.Buffer
			if n := convert(t, tc.src, NewBinpackWriter(&bin)); n != tc.n {
				t.Errorf("%d samples, want %d", n, tc.n)
			}
			if !bytes.Equal(bin.Bytes(), wantBin) {
				t.Errorf("binpack: %d bytes, Stockfish %d; first difference at byte %d", bin.Len(), len(wantBin), firstDiff(bin.Bytes(), wantBin))
			}
			// Our binpack reader plus plain writer write Stockfish's plain output of its binpack.
			var plain bytes.Buffer
			if n := convert(t, NewBinpackReader(bytes.NewReader(wantBin)), NewStockfishPlainWriter(&plain)); n != tc.n {
				t.Errorf("%d samples read from the binpack, want %d", n, tc.n)
			}
			if !bytes.Equal(plain.Bytes(), wantPlain) {
				i := firstDiff(plain.Bytes(), wantPlain)
				t.Errorf("plain differs at byte %d: %q vs Stockfish %q", i, snippet(plain.Bytes(), i), snippet(wantPlain, i))
			}
		})
	}
}

func snippet(b []byte, i int) string {
	lo := max(0, i-40)
	return string(b[lo:min(len(b), i+40)])
}

// TestBinpackChains checks what the reader reports beyond the plain fields: chains, Played,
// results in White's view and the Index within a chain.
func TestBinpackChains(t *testing.T) {
	r := NewBinpackReader(bytes.NewReader(readFixture(t, "datagen-sf.binpack")))
	text := NewReader(bytes.NewReader(readFixture(t, "datagen.txt")))
	n := 0
	for r.Next() {
		if !text.Next() {
			t.Fatal("binpack has more samples than the text")
		}
		a, b := r.Sample(), text.Sample()
		if a.Pos.FEN() != b.Pos.FEN() || a.Score != b.Score || a.Best != b.Best || a.Result != b.Result {
			t.Fatalf("sample %d: %s %d %v %v, text %s %d %v %v", n, a.Pos.FEN(), a.Score, a.Best, a.Result, b.Pos.FEN(), b.Score, b.Best, b.Result)
		}
		// datagen plays the best move after the opening, so chains follow the games.
		if a.Played != b.Played && !(a.Played == board.NullMove && b.Played != b.Best) {
			t.Fatalf("sample %d: played %v, text %v (best %v)", n, a.Played, b.Played, b.Best)
		}
		n++
	}
	if r.Err() != nil || text.Next() {
		t.Fatalf("err %v, or the text has more samples", r.Err())
	}
	if r.Offset() != int64(len(readFixture(t, "datagen-sf.binpack"))) {
		t.Errorf("offset %d at the end", r.Offset())
	}
}

// TestBinpackRoundTrip: random games (with random scores, results, clocks) survive the
// binpack writer and reader.
func TestBinpackRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in []Sample
		games := rapid.IntRange(1, 4).Draw(t, "games")
		for range games {
			p := board.StartPosition()
			res := Result(rapid.IntRange(1, 3).Draw(t, "result"))
			plies := rapid.IntRange(1, 120).Draw(t, "plies")
			for range plies {
				ms := p.LegalMoves()
				if len(ms) == 0 {
					break
				}
				best := ms[rapid.IntRange(0, len(ms)-1).Draw(t, "best")]
				played := best
				if rapid.IntRange(0, 9).Draw(t, "deviate") == 0 {
					played = ms[rapid.IntRange(0, len(ms)-1).Draw(t, "played")]
				}
				s := Sample{Pos: p, Score: int32(rapid.IntRange(-BinpackMaxScore, BinpackMaxScore).Draw(t, "score")), Best: best, Played: played, Result: res}
				in = append(in, s)
				p, _ = p.Play(played)
			}
		}
		var buf bytes.Buffer
		w := NewBinpackWriter(&buf)
		for i := range in {
			if err := w.Write(&in[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := NewBinpackReader(&buf)
		i := 0
		for ; r.Next(); i++ {
			got, want := r.Sample(), &in[i]
			wp := sfNormalize(want.Pos)
			if got.Pos.FEN() != wp.FEN() || got.Score != want.Score || got.Best != want.Best || got.Result != want.Result {
				t.Fatalf("sample %d: %s %d %v %v, want %s %d %v %v", i, got.Pos.FEN(), got.Score, got.Best, got.Result, wp.FEN(), want.Score, want.Best, want.Result)
			}
			if got.Played != board.NullMove && got.Played != want.Played {
				t.Fatalf("sample %d: played %v, want %v", i, got.Played, want.Played)
			}
		}
		if r.Err() != nil || i != len(in) {
			t.Fatalf("read %d of %d: %v", i, len(in), r.Err())
		}
	})
}

// TestBinpackBadInput: every truncation and a few corruptions give a *FormatError with a
// plausible offset, never a panic.
func TestBinpackBadInput(t *testing.T) {
	good := readFixture(t, "datagen-sf.binpack")
	// Every cut in the first chain, then every 211th byte (each cut re-reads the prefix).
	step := 211
	if testing.Short() {
		step = 1009
	}
	for cut := 1; cut < len(good); cut = next(cut, step) {
		r := NewBinpackReader(bytes.NewReader(good[:cut]))
		for r.Next() {
		}
		var fe *FormatError
		if !errors.As(r.Err(), &fe) {
			t.Fatalf("cut at %d: error %v, want *FormatError", cut, r.Err())
		}
		if fe.Offset < 0 || fe.Offset > int64(cut) {
			t.Fatalf("cut at %d: offset %d", cut, fe.Offset)
		}
		if !errors.Is(fe, ErrTruncated) && !errors.Is(fe, ErrCorrupt) {
			t.Fatalf("cut at %d: %v wraps neither ErrTruncated nor ErrCorrupt", cut, fe)
		}
	}
	// A truncated chunk header and a truncated stem.
	for _, tc := range []struct {
		data []byte
		off  int64
		want error
	}{
		{good[:5], 0, ErrTruncated},
		{good[:8+20], 8, ErrTruncated},
		{append([]byte("BINQ"), good[4:]...), 0, ErrCorrupt},
		{[]byte("BINP\xff\xff\xff\xff"), 0, ErrCorrupt},
	} {
		r := NewBinpackReader(bytes.NewReader(tc.data))
		for r.Next() {
		}
		var fe *FormatError
		if !errors.As(r.Err(), &fe) || fe.Offset != tc.off || !errors.Is(fe, tc.want) {
			t.Errorf("%q…: error %v, want offset %d wrapping %v", tc.data[:min(8, len(tc.data))], r.Err(), tc.off, tc.want)
		}
	}
	// An illegal stem move: e2e5 in the start position.
	var buf bytes.Buffer
	w := NewBinpackWriter(&buf)
	s := Sample{Pos: board.StartPosition(), Score: 10, Best: board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3))}
	if err := w.Write(&s); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b := buf.Bytes()
	e2 := board.NewSquare(4, 1)
	mv := uint16(e2)<<8 | uint16(e2+24)<<2
	b[8+24], b[8+25] = byte(mv>>8), byte(mv)
	r := NewBinpackReader(bytes.NewReader(b))
	if r.Next() || !errors.Is(r.Err(), ErrCorrupt) {
		t.Errorf("illegal stem move: %v", r.Err())
	}
	// Empty input is an empty stream.
	if r := NewBinpackReader(bytes.NewReader(nil)); r.Next() || r.Err() != nil {
		t.Errorf("empty input: %v", r.Err())
	}
}

func next(cut, step int) int {
	if cut < 120 {
		return cut + 1
	}
	return cut + step
}

func TestSignedToUnsigned(t *testing.T) {
	for _, tc := range []struct {
		s int16
		u uint16
	}{{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4}, {32767, 0xFFFE}, {-32768, 0xFFFF}} {
		if got := signedToUnsigned(tc.s); got != tc.u {
			t.Errorf("signedToUnsigned(%d) = %d, want %d", tc.s, got, tc.u)
		}
		if got := unsignedToSigned(tc.u); got != tc.s {
			t.Errorf("unsignedToSigned(%d) = %d, want %d", tc.u, got, tc.s)
		}
	}
}

func TestStockfishPlainReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		text string
		off  int64
		want error
	}{
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore 3\n", 0, ErrTruncated},
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e5\nscore 3\ne\n", 61, board.ErrIllegalMove},
		{"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore x\ne\n", 71, ErrCorrupt},
		{"fen 8/8/8 w - - 0 1\n", 0, ErrCorrupt},
		{"move e2e4\ne\n", 0, ErrCorrupt},
	} {
		r := NewStockfishPlainReader(bytes.NewReader([]byte(tc.text)))
		for r.Next() {
		}
		var fe *FormatError
		if !errors.As(r.Err(), &fe) || fe.Offset != tc.off || !errors.Is(fe, tc.want) {
			t.Errorf("%q: error %v, want offset %d wrapping %v", tc.text, r.Err(), tc.off, tc.want)
		}
	}
	// Unknown keys and blank lines are ignored; a missing result is NoResult; the ply sets the
	// fullmove number.
	r := NewStockfishPlainReader(bytes.NewReader([]byte("\nfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\r\nmove e2e4\nfoo bar\nscore -7\nply 20\ne\n")))
	if !r.Next() {
		t.Fatal(r.Err())
	}
	s := r.Sample()
	if s.Score != -7 || s.Result != NoResult || s.Pos.FullmoveNumber() != 11 || s.Best.String() != "e2e4" || s.Line != 2 {
		t.Errorf("sample %+v", s)
	}
	if r.Next() || r.Err() != nil {
		t.Errorf("second record or error %v", r.Err())
	}
}

// TestTextWriterGroups: the TextWriter rebuilds the compact lines of datagen.txt from its
// sample stream (and from the binpack's, which carries Played inside chains).
func TestTextWriterGroups(t *testing.T) {
	want := readFixture(t, "datagen.txt")
	var out bytes.Buffer
	convert(t, NewReader(bytes.NewReader(want)), NewTextWriter(&out))
	if !bytes.Equal(out.Bytes(), want) {
		i := firstDiff(out.Bytes(), want)
		t.Errorf("text differs at byte %d: %q vs %q", i, snippet(out.Bytes(), i), snippet(want, i))
	}
}

func BenchmarkBinpackRead(b *testing.B) {
	data := readFixture(b, "sfgen.binpack")
	n := 0
	for b.Loop() {
		r := NewBinpackReader(bytes.NewReader(data))
		for r.Next() {
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "samples/s")
}

// FuzzBinpackReader: any input gives samples with legal best moves or a *FormatError, never a
// panic. Seed corpus: testdata/fuzz/FuzzBinpackReader (the first chains of the fixtures, cut
// and corrupted).
func FuzzBinpackReader(f *testing.F) {
	f.Add(readFixture(f, "sfgen.binpack")[:400])
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewBinpackReader(bytes.NewReader(data))
		n := 0
		for r.Next() {
			s := r.Sample()
			if !s.Pos.IsLegal(s.Best) {
				t.Fatalf("sample %d: illegal best move %v in %s", n, s.Best, s.Pos.FEN())
			}
			n++
		}
		if err := r.Err(); err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error %v", err)
			}
		}
	})
}

// FuzzStockfishPlainReader: any input gives samples or a *FormatError, never a panic; what is
// read survives a write and a second read.
func FuzzStockfishPlainReader(f *testing.F) {
	f.Add(readFixture(f, "sfgen.plain.gz")[:600])
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewStockfishPlainReader(bytes.NewReader(data))
		var out bytes.Buffer
		w := NewStockfishPlainWriter(&out)
		n := 0
		for r.Next() {
			if err := w.Write(r.Sample()); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if err := r.Err(); err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error %v", err)
			}
		}
		w.Close()
		r2 := NewStockfishPlainReader(&out)
		m := 0
		for r2.Next() {
			m++
		}
		if r2.Err() != nil || m != n {
			t.Fatalf("re-read %d of %d: %v", m, n, r2.Err())
		}
	})
}

// TestLegalMove: legalMove agrees with board.Position.IsLegal on every move of random
// positions and on random move codes (castling, promotions, en passant included).
func TestLegalMove(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := board.StartPosition()
		if rapid.Bool().Draw(t, "castling") {
			var err error
			// Kiwipete (CPW: Perft Results, position 2): castling both ways, pins, promotions near.
			if p, err = board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"); err != nil {
				t.Fatal(err)
			}
		}
		for range rapid.IntRange(0, 60).Draw(t, "plies") {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Play(ms[rapid.IntRange(0, len(ms)-1).Draw(t, "move")])
		}
		for _, m := range p.LegalMoves() {
			if !legalMove(&p, m) {
				t.Fatalf("%s: legal %v rejected", p.FEN(), m)
			}
		}
		for range 200 {
			from := board.Square(rapid.IntRange(0, 63).Draw(t, "from"))
			if ours := p.ByColor(p.SideToMove()); rapid.Bool().Draw(t, "own piece") {
				from = nthSetBit(ours, rapid.IntRange(0, ours.Count()-1).Draw(t, "piece"))
			}
			to := board.Square(rapid.IntRange(0, 63).Draw(t, "to"))
			m := board.NewMove(from, to)
			if r := rapid.IntRange(0, 6).Draw(t, "promo"); r >= 1 && r <= 4 {
				m = board.NewPromotion(from, to, board.Role(r))
			}
			if got, want := legalMove(&p, m), p.IsLegal(m); got != want {
				t.Fatalf("%s: %v legalMove %v, IsLegal %v", p.FEN(), m, got, want)
			}
		}
	})
}

// TestBinpackChunks: with small chunks (as a big file has every 1 MiB) the file has many
// "BINP" headers, chains never cross them, and it reads back to the same samples.
func TestBinpackChunks(t *testing.T) {
	src := readFixture(t, "datagen.txt")
	var buf bytes.Buffer
	w := NewBinpackWriter(&buf)
	w.chunkSize = 1000
	n := convert(t, NewReader(bytes.NewReader(src)), w)
	if c := bytes.Count(buf.Bytes(), []byte("BINP")); c < 8 {
		t.Errorf("%d chunks", c)
	}
	var a, b bytes.Buffer
	convert(t, NewBinpackReader(bytes.NewReader(buf.Bytes())), NewStockfishPlainWriter(&a))
	convert(t, NewReader(bytes.NewReader(src)), NewStockfishPlainWriter(&b))
	if !bytes.Equal(a.Bytes(), b.Bytes()) || n != 3685 {
		t.Errorf("multi-chunk binpack reads back differently (%d samples)", n)
	}
}
