// Command convert converts NNUE training data between formats, chosen by file extension:
//
//	.binpack  Stockfish's binpack (read and write)
//	.plain    Stockfish's plain text: fen, move, score, ply, result, e (read and write)
//	.txt      the thesis's text formats, written as compact lines with results (read and write)
//	.bullet   bullet's ChessBoard records, 32 bytes each (write only)
//	.vf       viriformat games, bullet's recommended format (read and write; scores are read in
//	          the file's units and written × -bullet-scale)
//
// Usage:
//
//	go run ./examples/convert -in data.txt -out data.binpack
//	go run ./examples/convert -in sf.binpack -out sf.bullet -quiet-only -bullet-scale 0.277
//
// A progress bar on stderr shows the share of the input read. Interrupting (Ctrl-C, SIGTERM)
// stops at the next sample, writes what is buffered and leaves an output that is valid up to
// its last whole record; so does an error in the input, which is reported with its byte
// offset (binpack, plain) or line (text). See doc/datagen.md ("Converting").
package main

import (
	"context"
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

	"github.com/nnuekit/nnuekit/quant/dataset"
)

type options struct {
	in, out     string
	bulletScale float64
	quietOnly   bool
	progress    time.Duration
	noProgress  bool
}

func main() {
	var o options
	flag.StringVar(&o.in, "in", "", "input file (.binpack, .plain, .txt or .vf)")
	flag.StringVar(&o.out, "out", "", "output file (.binpack, .plain, .txt, .bullet or .vf); overwritten")
	flag.Float64Var(&o.bulletScale, "bullet-scale", 100.0/361, "for .bullet and .vf: score multiplier from internal units to the trainer's units (default: Stockfish 15.1 internal units → UCI centipawns)")
	flag.BoolVar(&o.quietOnly, "quiet-only", false, "keep only samples that pass the thesis filter (not in check, best move not a capture, |score| ≤ 5000)")
	flag.DurationVar(&o.progress, "progress", time.Second, "progress update interval")
	flag.BoolVar(&o.noProgress, "no-progress", false, "no progress bar")
	flag.Parse()
	if o.in == "" || o.out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := run(ctx, o, os.Stderr)
	fmt.Fprintf(os.Stderr, "convert: %d samples read, %d written to %s\n", st.read, st.written, o.out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		if errors.Is(err, context.Canceled) {
			os.Exit(130)
		}
		os.Exit(1)
	}
}

type stats struct{ read, written int64 }

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
		return dataset.NewBinpackWriter(w), nil
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

// run converts o.in into o.out. It stops when ctx is cancelled, returning ctx's error after
// closing the output (valid up to its last whole record).
func run(ctx context.Context, o options, progress io.Writer) (st stats, err error) {
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
	r, err := newReader(o.in, cr)
	if err != nil {
		return st, err
	}
	if _, err := newWriter(o.out, io.Discard, o); err != nil {
		return st, err
	}
	if filepath.Clean(o.in) == filepath.Clean(o.out) {
		return st, errors.New("input and output are the same file")
	}
	out, err := os.Create(o.out)
	if err != nil {
		return st, err
	}
	w, _ := newWriter(o.out, out, o)
	defer func() {
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()

	var done chan struct{}
	if !o.noProgress && progress != nil {
		done = make(chan struct{})
		start := time.Now()
		bar := func(final bool) {
			n := cr.n.Load()
			frac := 1.0
			if size > 0 {
				frac = min(float64(n)/float64(size), 1)
			}
			const width = 30
			fill := int(frac * width)
			end := "\r"
			if final {
				end = "\n"
			}
			el := time.Since(start).Seconds()
			fmt.Fprintf(progress, "[%s%s] %5.1f%%  %d samples  %.1f MB/s%s", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
				100*frac, atomic.LoadInt64(&st.read), float64(n)/1e6/max(el, 1e-9), end)
		}
		go func() {
			t := time.NewTicker(max(o.progress, 10*time.Millisecond))
			defer t.Stop()
			for {
				select {
				case <-t.C:
					bar(false)
				case <-done:
					bar(true)
					close(done)
					return
				}
			}
		}()
		defer func() { done <- struct{}{}; <-done }()
	}

	for r.Next() {
		if atomic.AddInt64(&st.read, 1)&1023 == 0 && ctx.Err() != nil {
			return st, fmt.Errorf("interrupted after %d samples; %s holds every whole record written: %w", st.read, o.out, ctx.Err())
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
	if err := r.Err(); err != nil {
		return st, fmt.Errorf("%s: %w (output holds the %d samples before it)", o.in, err, st.written)
	}
	return st, ctx.Err()
}
