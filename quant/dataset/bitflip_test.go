package dataset

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// flipOutcome classifies how the binpack reader handles one flipped bit.
type flipOutcome int

const (
	flipHarmless flipOutcome = iota // no error, the decoded samples equal the original's
	flipDetected                    // an error, and every sample delivered before it is the original's
	flipLate                        // an error, but corrupt samples were delivered before it
	flipSilent                      // no error, and the decoded samples differ
	flipOutcomes
)

var flipNames = [flipOutcomes]string{"harmless", "detected", "detected late", "silent"}

// sampleContent is what a trainer takes from a sample: chain numbering (Line, Index) aside.
type sampleContent struct {
	pos          board.Position
	score        int32
	best, played board.Move
	result       Result
}

func contentOf(s *Sample) sampleContent {
	return sampleContent{pos: s.Pos, score: s.Score, best: s.Best, played: s.Played, result: s.Result}
}

func decodeAll(data []byte) ([]sampleContent, error) {
	r := NewBinpackReader(bytes.NewReader(data))
	var out []sampleContent
	for r.Next() {
		out = append(out, contentOf(r.Sample()))
	}
	return out, r.Err()
}

// classifyFlip flips bit i of data (restoring it afterwards) and classifies the outcome against
// the original samples want; for a silent flip, what differs first (silentWhat).
func classifyFlip(data []byte, i int, want []sampleContent, silentWhat map[string]int) flipOutcome {
	data[i/8] ^= 1 << (i % 8)
	got, err := decodeAll(data)
	data[i/8] ^= 1 << (i % 8)
	if err == nil && silentWhat != nil {
		for k := range min(len(got), len(want)) {
			g, w := got[k], want[k]
			switch {
			case g.pos != w.pos:
				silentWhat["position"]++
			case g.best != w.best || g.played != w.played:
				silentWhat["move"]++
			case g.score != w.score:
				silentWhat["score"]++
			case g.result != w.result:
				silentWhat["result"]++
			default:
				continue
			}
			break
		}
	}
	prefixOK := len(got) <= len(want)
	for k := 0; prefixOK && k < len(got); k++ {
		prefixOK = got[k] == want[k]
	}
	switch {
	case err != nil && prefixOK:
		return flipDetected
	case err != nil:
		return flipLate
	case prefixOK && len(got) == len(want):
		return flipHarmless
	}
	return flipSilent
}

// flipCounts flips every stride-th bit of data and counts the outcomes.
func flipCounts(t *testing.T, data []byte, stride int) (counts [flipOutcomes]int, total int) {
	t.Helper()
	want, err := decodeAll(data)
	if err != nil {
		t.Fatal(err)
	}
	silent := map[string]int{}
	for i := 0; i < 8*len(data); i += stride {
		counts[classifyFlip(data, i, want, silent)]++
		total++
	}
	if counts[flipSilent] > 0 {
		t.Logf("silent flips by the first field that differs: %v", silent)
	}
	return counts, total
}

// flipStride is the distance between the bits flipped: a deterministic sample of every 127th
// bit (about 600 flips per file; every 509th with -short) by default, NNUEKIT_FLIP_STRIDE
// otherwise (doc/datagen.md's figures: 7).
func flipStride() int {
	if v, err := strconv.Atoi(os.Getenv("NNUEKIT_FLIP_STRIDE")); err == nil && v > 0 {
		return v
	}
	if testing.Short() {
		return 509
	}
	return 127
}

// TestBinpackBitFlipsStockfish flips bits of Stockfish's binpack files (no checksum): every
// flip the sanity pass detects is detected before any sample of its chunk is delivered (no
// "detected late"); the rest are harmless or silent, counted.
func TestBinpackBitFlipsStockfish(t *testing.T) {
	for _, f := range []string{"datagen-sf.binpack", "sfgen.binpack"} {
		c, n := flipCounts(t, readFixture(t, f), flipStride())
		t.Logf("%s: %d flips: harmless %d, detected %d, detected late %d, silent %d", f, n, c[flipHarmless], c[flipDetected], c[flipLate], c[flipSilent])
		if c[flipLate] != 0 {
			t.Errorf("%s: %d flips delivered corrupt samples before their error", f, c[flipLate])
		}
		if c[flipDetected] == 0 || c[flipHarmless]+c[flipDetected]+c[flipSilent] != n {
			t.Errorf("%s: counts %v of %d", f, c, n)
		}
	}
}

// TestBinpackBitFlipsChecksummed flips bits of binpack files nnuekit wrote with checksum
// trailers (one chunk, and 1,000-byte chunks): every flip is detected before any corrupt sample
// is delivered, or harmless.
func TestBinpackBitFlipsChecksummed(t *testing.T) {
	samples := readTextSamples(t, "testdata/binpack/datagen.txt")
	for _, chunk := range []int{0, 1000} {
		var buf bytes.Buffer
		w := NewBinpackWriter(&buf)
		w.SetChecksums(true)
		w.chunkSize = chunk
		for i := range samples {
			if err := w.Write(&samples[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r := NewBinpackReader(bytes.NewReader(buf.Bytes()))
		n := 0
		for r.Next() {
			if contentOf(r.Sample()) != contentOf(&samples[n]) {
				t.Fatalf("chunk size %d: sample %d differs", chunk, n)
			}
			n++
		}
		if sums, plain := r.Chunks(); r.Err() != nil || n != len(samples) || sums == 0 || plain != 0 {
			t.Fatalf("chunk size %d: %d samples, %d checksummed and %d plain chunks, %v", chunk, n, sums, plain, r.Err())
		}
		c, total := flipCounts(t, buf.Bytes(), flipStride())
		t.Logf("chunk size %d (%d bytes): %d flips: harmless %d, detected %d, detected late %d, silent %d", chunk, buf.Len(), total, c[flipHarmless], c[flipDetected], c[flipLate], c[flipSilent])
		if c[flipLate] != 0 || c[flipSilent] != 0 {
			t.Errorf("chunk size %d: %d flips detected late, %d silent; want 0", chunk, c[flipLate], c[flipSilent])
		}
	}
}

func readTextSamples(t *testing.T, path string) []Sample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	var out []Sample
	for r.Next() {
		out = append(out, *r.Sample())
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return out
}

// TestBinpackScoreRange: a score beyond ±BinpackMaxScore is refused by the writer and rejected by
// the reader with the record's offset.
func TestBinpackScoreRange(t *testing.T) {
	var buf bytes.Buffer
	w := NewBinpackWriter(&buf)
	s := Sample{Pos: board.StartPosition(), Score: BinpackMaxScore + 1, Best: board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3))}
	if err := w.Write(&s); err == nil {
		t.Error("writer accepted a score beyond BinpackMaxScore")
	}
	s.Score = BinpackMaxScore
	if err := w.Write(&s); err != nil {
		t.Fatal(err)
	}
	w.Close()
	b := buf.Bytes()
	u := signedToUnsigned(BinpackMaxScore + 1)
	b[8+26], b[8+27] = byte(u>>8), byte(u)
	r := NewBinpackReader(bytes.NewReader(b))
	if r.Next() {
		t.Fatal("a sample was delivered from a chunk with an impossible score")
	}
	var fe *FormatError
	if !errors.As(r.Err(), &fe) || fe.Offset != 8 || !errors.Is(fe, ErrCorrupt) {
		t.Errorf("error %v, want a *FormatError at offset 8 wrapping ErrCorrupt", r.Err())
	}
}

// TestBinpackChecksumTrailer: a checksummed chunk is verified; a changed byte is reported as a
// checksum mismatch at the trailer's offset; Stockfish's chunk-skipping rule (fewer than 34
// trailing bytes) covers the trailer.
func TestBinpackChecksumTrailer(t *testing.T) {
	if binpackTrailerBytes >= binpackStemBytes+2 {
		t.Fatalf("the %d-byte trailer would not be skipped by Stockfish's readers", binpackTrailerBytes)
	}
	samples := readTextSamples(t, "testdata/binpack/datagen.txt")[:50]
	var buf bytes.Buffer
	w := NewBinpackWriter(&buf)
	w.SetChecksums(true)
	for i := range samples {
		if err := w.Write(&samples[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	b := buf.Bytes()
	if string(b[len(b)-8:len(b)-4]) != binpackTrailerMagic {
		t.Fatalf("no trailer at the end: % x", b[len(b)-8:])
	}
	b[20] ^= 0x10
	r := NewBinpackReader(bytes.NewReader(b))
	if r.Next() {
		t.Fatal("a sample was delivered from a chunk whose checksum does not match")
	}
	var fe *FormatError
	if !errors.As(r.Err(), &fe) || fe.Offset != int64(len(b)-8) || !errors.Is(fe, ErrCorrupt) {
		t.Errorf("error %v, want a checksum mismatch at offset %d", r.Err(), len(b)-8)
	}
}
