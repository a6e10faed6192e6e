// Command convert converts NNUE training data between formats, chosen by file extension:
//
//	.binpack  Stockfish's binpack (read and write)
//	.plain    Stockfish's plain text: fen, move, score, ply, result, e (read and write)
//	.txt      the thesis's text formats, written as compact lines with results (read and write)
//	.bullet   bullet's ChessBoard records, 32 bytes each (write only)
//	.vf       viriformat games, bullet's recommended format (read and write; scores are read in
//	          the file's units and written × -bullet-scale)
//
// and converts networks to nnuekit's native format (-net): any file nnue.Load reads (thesis .nn,
// Stockfish .nnue, bullet, native) is loaded and written with nnue.WriteNative, then read back.
//
// Usage:
//
//	go run ./examples/convert -in data.txt -out data.binpack
//	go run ./examples/convert -in sf.binpack -out sf.bullet -quiet-only -bullet-scale 0.277
//	go run ./examples/convert -net ../shared/nets/nn-62ef826d1a6d.nnue -out sf15.nnue
//
// The output is written to a temporary file beside it and renamed into place only when the
// whole input was converted, so an error or an interrupt (Ctrl-C, SIGTERM) leaves no output and
// an existing file untouched; -partial keeps the records converted before the error instead.
// An existing output is replaced only with -force and only when it holds the format being
// written, and never when it is the input itself (the same file by device and inode, however it
// is spelled). -checksum ends every chunk of a binpack output with a CRC-32C trailer that
// Stockfish's readers skip; a binpack input is checked a whole chunk at a time (its trailer if
// it has one, then every record) before any of its samples is written. Input errors are reported with their
// byte offset (binpack, plain) or line (text). Progress goes to stderr: a redrawn bar on a
// terminal, one line every 10 updates otherwise. -json prints the summary as one JSON object on
// stdout:
//
//	{"in": "...", "out": "...", "read": N, "written": M}                      (data)
//	  + "chunks_checksummed": C, "chunks_without_checksum": P                 (binpack input)
//	{"in": "...", "out": "...", "bytes": B, "description": "...", "arch": "..."} (-net)
//
// See doc/datagen.md ("Converting").
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/cli"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

type options struct {
	in, out, net string
	bulletScale  float64
	quietOnly    bool
	force        bool
	partial      bool
	checksum     bool
	json         bool
	progress     time.Duration
	noProgress   bool
	tty          bool // progress goes to a terminal: redraw one line
}

const usage = `convert converts NNUE training data between formats (by extension: .binpack, .plain, .txt;
.bullet for output only), or a network to nnuekit's native format.

Usage:
  convert -in IN -out OUT [-force] [-partial] [-checksum] [-quiet-only] [-bullet-scale S] [-json]
  convert -net NET -out OUT.nnue [-force] [-json]

Examples:
  go run ./examples/convert -in data.txt -out data.binpack
  go run ./examples/convert -net ../shared/nets/nn-62ef826d1a6d.nnue -out sf15-native.nnue

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.in, "in", "", "input data file (.binpack, .plain, .txt or .vf)")
	flag.StringVar(&o.out, "out", "", "output file (.binpack, .plain, .txt, .bullet or .vf; with -net any name); never the input")
	flag.StringVar(&o.net, "net", "", "convert this network (any format nnue.Load reads) to nnuekit's native format instead of data")
	flag.BoolVar(&o.force, "force", false, "replace an existing output file")
	flag.BoolVar(&o.checksum, "checksum", false, "for .binpack output: end every chunk with nnuekit's checksum trailer (Stockfish's readers skip it; doc/datagen.md)")
	flag.BoolVar(&o.partial, "partial", false, "on an input error or interrupt keep the records converted before it (default: write nothing)")
	flag.Float64Var(&o.bulletScale, "bullet-scale", 100.0/361, "for .bullet and .vf: score multiplier from internal units to the trainer's units (default: Stockfish 15.1 internal units → UCI centipawns)")
	flag.BoolVar(&o.quietOnly, "quiet-only", false, "keep only samples that pass the thesis filter (not in check, best move not a capture, |score| ≤ 5000)")
	flag.BoolVar(&o.json, "json", false, "print the summary as one JSON object on stdout")
	flag.DurationVar(&o.progress, "progress", time.Second, "progress update interval")
	flag.BoolVar(&o.noProgress, "no-progress", false, "no progress output")
	cli.Parse("convert", usage)
	if err := o.validate(); err != nil {
		cli.Fail("convert", err, 2)
	}
	o.tty = isTerminal(os.Stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.net != "" {
		sum, err := convertNet(o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "convert:", err)
			os.Exit(1)
		}
		report(o, sum, fmt.Sprintf("%s → %s: %d bytes in nnuekit's native format (%s), read back, same evaluation of %d positions", o.net, o.out, sum.Bytes, sum.Arch, len(checkFENs)))
		return
	}
	st, err := run(ctx, o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		if errors.Is(err, context.Canceled) {
			os.Exit(130)
		}
		os.Exit(1)
	}
	checked := ""
	if format(o.in) == ".binpack" {
		checked = fmt.Sprintf(" (every record passed the sanity pass; %d chunks verified by their checksum, %d without one)", st.checksummed, st.nosum)
	}
	sum := summary{In: o.in, Out: o.out, Read: &st.read, Written: &st.written}
	if format(o.in) == ".binpack" {
		sum.ChunksChecksummed, sum.ChunksPlain = &st.checksummed, &st.nosum
	}
	report(o, sum,
		fmt.Sprintf("%s → %s: %d samples read, %d written%s", o.in, o.out, st.read, st.written, checked))
}

// summary is the -json output.
type summary struct {
	In      string `json:"in"`
	Out     string `json:"out"`
	Read    *int64 `json:"read,omitempty"`
	Written *int64 `json:"written,omitempty"`
	// binpack input: chunks verified by a checksum trailer and chunks without one (every record
	// of both passed the reader's sanity pass)
	ChunksChecksummed *int   `json:"chunks_checksummed,omitempty"`
	ChunksPlain       *int   `json:"chunks_without_checksum,omitempty"`
	Bytes             int64  `json:"bytes,omitempty"`
	Description       string `json:"description,omitempty"`
	Arch              string `json:"arch,omitempty"`
}

func report(o options, s summary, text string) {
	if o.json {
		b, _ := json.Marshal(s)
		fmt.Println(string(b))
		return
	}
	fmt.Fprintln(os.Stderr, "convert:", text)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// validate checks the flags before any work: the mode, the formats, and that the output may be
// written (not an input, not existing unless -force).
func (o *options) validate() error {
	if o.out == "" {
		return errors.New("-out is required (see -help)")
	}
	if o.net != "" {
		if o.in != "" {
			return errors.New("-net and -in exclude each other: -net converts a network, -in training data")
		}
		if o.partial || o.quietOnly {
			return errors.New("-partial and -quiet-only apply to data, not to -net")
		}
		if err := outfile.Check(o.out, o.force, o.net); err != nil {
			return err
		}
		return outfile.SameFormat(o.out, "an nnuekit native network", func(h []byte, _ int64) bool {
			return bytes.HasPrefix(h, []byte(nnue.NativeMagic))
		})
	}
	if o.in == "" {
		return errors.New("-in (data) or -net (network) is required (see -help)")
	}
	if _, err := newReader(o.in, nil); err != nil {
		return err
	}
	if _, err := newWriter(o.out, io.Discard, *o); err != nil {
		return err
	}
	if o.checksum && format(o.out) != ".binpack" {
		return fmt.Errorf("-checksum applies to .binpack output, not %s", format(o.out))
	}
	if (format(o.out) == ".bullet" || format(o.out) == ".vf") && (o.bulletScale <= 0 || o.bulletScale != o.bulletScale) {
		return fmt.Errorf("-bullet-scale %v: must be > 0", o.bulletScale)
	}
	if _, err := os.Stat(o.in); err != nil {
		return err
	}
	if err := outfile.Check(o.out, o.force, o.in); err != nil {
		return err
	}
	what, is := looksLike(format(o.out))
	return outfile.SameFormat(o.out, what, is)
}

// looksLike describes the data format of extension ext and recognizes it from the first bytes of
// a file of size bytes, so that -force replaces only a file of the format being written.
func looksLike(ext string) (string, func(head []byte, size int64) bool) {
	firstLine := func(h []byte) []byte {
		for len(h) > 0 {
			line := h
			if i := bytes.IndexByte(h, '\n'); i >= 0 {
				line, h = h[:i], h[i+1:]
			} else {
				h = nil
			}
			line = bytes.TrimSpace(line)
			if len(line) > 0 && line[0] != '#' {
				return line
			}
		}
		return nil
	}
	switch ext {
	case ".binpack":
		return "a binpack (\"BINP\" chunks)", func(h []byte, _ int64) bool { return bytes.HasPrefix(h, []byte("BINP")) }
	case ".plain":
		return "Stockfish plain text (\"fen …\" records)", func(h []byte, _ int64) bool { return bytes.HasPrefix(firstLine(h), []byte("fen ")) }
	case ".txt":
		return "thesis text lines (FEN,score,move…)", func(h []byte, _ int64) bool {
			fen, _, _ := bytes.Cut(firstLine(h), []byte(","))
			_, err := board.ParseFEN(string(fen))
			return err == nil
		}
	case ".vf":
		return "viriformat games", func(h []byte, _ int64) bool {
			return dataset.NewViriformatReader(bytes.NewReader(h)).Next()
		}
	}
	return "bullet records (32 bytes each)", func(_ []byte, size int64) bool { return size%32 == 0 }
}

// stats counts a conversion's samples and, for binpack input, its chunks with and without a
// checksum trailer.
type stats struct {
	read, written      int64
	checksummed, nosum int
}

// countingReader counts the bytes read for the progress bar.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func format(path string) string { return strings.ToLower(filepath.Ext(path)) }

func newReader(path string, r io.Reader) (dataset.SampleReader, error) {
	switch format(path) {
	case ".binpack":
		return dataset.NewBinpackReader(r), nil
	case ".plain":
		return dataset.NewStockfishPlainReader(r), nil
	case ".txt":
		return dataset.NewReader(r), nil
	case ".vf":
		return dataset.NewViriformatReader(r), nil
	case ".bullet":
		return nil, fmt.Errorf("%s: .bullet is write-only (bullet's records drop the moves nnuekit needs)", path)
	}
	return nil, fmt.Errorf("%s: unknown input format %q (want .binpack, .plain, .txt or .vf)", path, format(path))
}

func newWriter(path string, w io.Writer, o options) (dataset.SampleWriter, error) {
	switch format(path) {
	case ".binpack":
		bw := dataset.NewBinpackWriter(w)
		bw.SetChecksums(o.checksum)
		return bw, nil
	case ".plain":
		return dataset.NewStockfishPlainWriter(w), nil
	case ".txt":
		return dataset.NewTextWriter(w), nil
	case ".bullet":
		return dataset.NewBulletWriter(w, o.bulletScale), nil
	case ".vf":
		return dataset.NewViriformatWriter(w, o.bulletScale), nil
	}
	return nil, fmt.Errorf("%s: unknown output format %q (want .binpack, .plain, .txt, .bullet or .vf)", path, format(path))
}

// convertNet loads o.net, writes it to o.out in the native format, and loads the written file
// back, checking that it evaluates the start position as the original does.
func convertNet(o options) (summary, error) {
	sum := summary{In: o.net, Out: o.out}
	if err := o.validate(); err != nil {
		return sum, err
	}
	nw, err := nnue.LoadFile(o.net)
	if err != nil {
		return sum, err
	}
	f, err := outfile.Create(o.out, o.force, o.net)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := nnue.WriteNative(bw, nw); err != nil {
		return sum, fmt.Errorf("%s: %w", o.net, err)
	}
	if err := bw.Flush(); err != nil {
		return sum, fmt.Errorf("%s: %w", o.out, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return sum, err
	}
	back, err := nnue.Load(f)
	if err != nil {
		return sum, fmt.Errorf("%s: the written network does not load back: %w", o.out, err)
	}
	if err := sameNetwork(nw, back); err != nil {
		return sum, fmt.Errorf("%s: the written network differs from %s: %w", o.out, o.net, err)
	}
	if fi, err := f.Stat(); err == nil {
		sum.Bytes = fi.Size()
	}
	if err := f.Commit(); err != nil {
		return sum, err
	}
	sum.Description = nw.Description()
	sum.Arch = nw.FeatureSet().String()
	return sum, nil
}

// run converts o.in into o.out after validating the options. On an input error or when ctx is
// cancelled nothing is written (with o.partial: the records converted so far are kept, valid
// up to the last whole record).
func run(ctx context.Context, o options, progress io.Writer) (st stats, err error) {
	if err := o.validate(); err != nil {
		return st, err
	}
	in, err := os.Open(o.in)
	if err != nil {
		return st, err
	}
	defer in.Close()
	var size int64
	if fi, err := in.Stat(); err == nil {
		size = fi.Size()
	}
	cr := &countingReader{r: in}
	r, _ := newReader(o.in, cr)
	out, err := outfile.Create(o.out, o.force, o.in)
	if err != nil {
		return st, err
	}
	defer out.Close()
	bw := bufio.NewWriterSize(out, 1<<20)
	w, _ := newWriter(o.out, bw, o)
	// finish closes the sample writer and commits the output.
	finish := func() error {
		if err := w.Close(); err != nil {
			return fmt.Errorf("%s: %w", o.out, err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("%s: %w", o.out, err)
		}
		return out.Commit()
	}

	if !o.noProgress && progress != nil {
		stop := startProgress(o, progress, cr, size, &st.read)
		defer stop()
	}

	for r.Next() {
		if atomic.AddInt64(&st.read, 1)&1023 == 0 && ctx.Err() != nil {
			st.read--
			break
		}
		s := r.Sample()
		if o.quietOnly && !dataset.Quiet(s) {
			continue
		}
		if err := w.Write(s); err != nil {
			return st, fmt.Errorf("%s: sample %d: %w", o.out, st.read, err)
		}
		st.written++
	}
	if br, ok := r.(*dataset.BinpackReader); ok {
		st.checksummed, st.nosum = br.Chunks()
	}
	cause := r.Err()
	if cause != nil {
		cause = fmt.Errorf("%s: %w", o.in, cause)
	} else if ctx.Err() != nil {
		cause = fmt.Errorf("interrupted after %d samples: %w", st.read, ctx.Err())
	}
	if cause == nil {
		return st, finish()
	}
	if !o.partial {
		return st, fmt.Errorf("%w; nothing written to %s (-partial keeps the %d samples before it)", cause, o.out, st.written)
	}
	if err := finish(); err != nil {
		return st, errors.Join(cause, err)
	}
	return st, fmt.Errorf("%w; %s holds the %d samples before it (-partial)", cause, o.out, st.written)
}

// startProgress shows the share of the input read: a bar redrawn in place on a terminal, one
// line every 10 updates otherwise, and a final line. The returned function stops it.
func startProgress(o options, w io.Writer, cr *countingReader, size int64, read *int64) func() {
	done := make(chan struct{})
	start := time.Now()
	ticks := 0
	bar := func(final bool) {
		n := cr.n.Load()
		frac := 1.0
		if size > 0 {
			frac = min(float64(n)/float64(size), 1)
		}
		const width = 30
		fill := int(frac * width)
		el := time.Since(start).Seconds()
		msg := fmt.Sprintf("[%s%s] %5.1f%%  %d samples  %.1f MB/s", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
			100*frac, atomic.LoadInt64(read), float64(n)/1e6/max(el, 1e-9))
		switch {
		case o.tty:
			end := "\r"
			if final {
				end = "\n"
			}
			fmt.Fprintf(w, "%s%s", msg, end)
		case final || ticks%10 == 0:
			fmt.Fprintf(w, "convert: %s\n", msg)
		}
	}
	go func() {
		t := time.NewTicker(max(o.progress, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-t.C:
				ticks++
				bar(false)
			case <-done:
				bar(true)
				close(done)
				return
			}
		}
	}()
	return func() { done <- struct{}{}; <-done }
}

// checkFENs are the positions on which a converted network must evaluate as the original.
var checkFENs = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
	"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
}

// sameNetwork reports an error unless a and b have the same feature set and evaluate every
// position of checkFENs identically.
func sameNetwork(a, b *nnue.Network) error {
	if a.FeatureSet().String() != b.FeatureSet().String() {
		return fmt.Errorf("feature set %s, want %s", b.FeatureSet(), a.FeatureSet())
	}
	for _, fen := range checkFENs {
		pos, err := board.ParseFEN(fen)
		if err != nil {
			return err
		}
		if va, vb := a.Evaluate(&pos), b.Evaluate(&pos); va != vb {
			return fmt.Errorf("evaluates %s as %d, want %d", fen, vb, va)
		}
	}
	return nil
}
