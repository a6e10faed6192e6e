// Command datagen generates training data for NNUE networks by self-play with a UCI engine
// (Stockfish from Debian's stockfish package, /usr/games/stockfish), in the thesis's compact text
// format plus game results (package quant/dataset, doc/datagen.md).
//
// Usage:
//
//	go run ./examples/datagen -out /work/data/train.txt -games 29500 -nodes 800 -workers 2 -seed 1
//	go run ./examples/datagen -stats /work/data/train.txt
//
// Each game starts from a random line of the lichess ECO list (github.com/corentings/chess/v2/
// opening) followed by 2–8 uniformly random legal plies (redrawn when the engine scores the start
// beyond ±300 cp), then the engine plays its best move at a fixed node count ("go nodes N") until
// checkmate, stalemate, insufficient material, threefold repetition, the 50-move rule, or
// adjudication (win: |score| ≥ 1000 cp for 6 plies; draw: |score| ≤ 10 cp for 12 plies after
// ply 80; 400 plies: draw). Every searched position is written, one game per line:
//
//	FEN,score,best(,played,score,best)*,result
//
// Scores are in Stockfish internal units (UCI cp × 3.61). The thesis filters (in check, capture
// best move, |score| > 5000) are applied by readers, not here; the progress bar counts the
// positions that pass them ("quiet").
//
// -out must be given. A new file is written through a temporary file beside it and renamed into
// place when the run ends (also on Ctrl-C or SIGTERM, which drop the games in progress and keep
// the whole ones; a crash leaves the temporary file ".NAME.tmp…", which can be renamed and
// resumed). An existing file is never touched without a flag: -append resumes it — datagen
// checks that it holds datagen's format (its first and last whole lines parse as compact lines
// with a result), cuts a truncated last line (which only a crash can leave), counts the games
// and plays the remaining ones, writing whole lines only; -force replaces it, and the old file
// stays intact until the new one is complete. A lock file ".NAME.lock" beside the output keeps a
// second run off the same output while one runs. An output that is not a regular file (a device,
// a FIFO, a symlink to one) is refused, and so is an output named like another format (.binpack,
// .plain, .bullet): convert the text file afterwards. A write error ends the run with the error.
//
// -json prints the run's summary as one JSON object on stdout; with -stats, the statistics.
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
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

type options struct {
	out      string
	games    int
	nodes    int
	workers  int
	seed     uint64
	engine   string
	hash     int
	progress time.Duration
	quiet    bool
	appendTo bool
	force    bool
	json     bool
}

const usage = `datagen generates NNUE training data by self-play with a UCI engine (thesis text format with
game results, doc/datagen.md).

Usage:
  datagen -out FILE.txt [-games N] [-nodes N] [-workers N] [-seed S] [-engine PATH] [-append | -force] [-json]
  datagen -stats FILE.txt [-json]

Examples:
  go run ./examples/datagen -out /work/data/train.txt -games 29500 -nodes 800 -workers 2 -seed 1
  go run ./examples/datagen -out /work/data/train.txt -games 40000 -append   (resume, play 10500 more)

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.out, "out", "", "output file in the thesis's text format (required; an existing file needs -append or -force)")
	flag.BoolVar(&o.appendTo, "append", false, "resume an existing output: count its games and add the missing ones")
	flag.BoolVar(&o.force, "force", false, "replace an existing output (kept intact until the new one is complete)")
	flag.BoolVar(&o.json, "json", false, "print the summary (or -stats) as one JSON object on stdout")
	flag.IntVar(&o.games, "games", 1000, "total number of games the file should hold")
	flag.IntVar(&o.nodes, "nodes", 5000, "nodes per move (go nodes N); the thesis's data used 5000")
	flag.IntVar(&o.workers, "workers", 2, "engine processes in parallel (one thread each)")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed (openings and random plies)")
	flag.StringVar(&o.engine, "engine", "/usr/games/stockfish", "UCI engine executable")
	flag.IntVar(&o.hash, "hash", 16, "engine hash size in MiB per process")
	flag.DurationVar(&o.progress, "progress", time.Second, "progress update interval (a new line every 30 updates when stderr is not a terminal)")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress output")
	statsPath := flag.String("stats", "", "print statistics of an existing data file (games, positions, quiet positions, results, WDL fit) and exit")
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), usage)
		flag.PrintDefaults()
	}
	flag.Parse()
	if *statsPath != "" {
		st, err := readStats(*statsPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "datagen:", err)
			os.Exit(1)
		}
		if o.json {
			printStatsJSON(os.Stdout, *statsPath, st)
		} else {
			printStats(os.Stdout, *statsPath, st)
		}
		return
	}
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "datagen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	if err := o.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "datagen:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := run(ctx, o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "datagen:", err)
		os.Exit(1)
	}
	if o.json {
		b, _ := json.Marshal(map[string]any{"out": o.out, "total_games": st.total, "games": st.games,
			"positions": st.positions, "quiet": st.quiet, "seconds": st.elapsed.Seconds()})
		fmt.Println(string(b))
		return
	}
	fmt.Fprintf(os.Stderr, "datagen: %s now holds %d games (%d written in this run, %d positions, %d quiet) in %s\n",
		o.out, st.total, st.games, st.positions, st.quiet, st.elapsed.Round(time.Second))
}

// validate checks the flags and the output before any engine starts.
func (o *options) validate() error {
	if o.games < 0 || o.nodes <= 0 || o.workers <= 0 || o.hash <= 0 {
		return errors.New("-games must be ≥ 0 and -nodes, -workers, -hash > 0")
	}
	if o.out == "" {
		return errors.New("-out is required (see -help)")
	}
	if o.appendTo && o.force {
		return errors.New("-append and -force exclude each other")
	}
	switch ext := strings.ToLower(filepath.Ext(o.out)); ext {
	case ".binpack", ".plain", ".bullet":
		return fmt.Errorf("-out %s: datagen writes the thesis's text format, not %s (write a .txt and convert it with examples/convert)", o.out, ext)
	}
	st, err := os.Stat(o.out)
	if err != nil || !o.appendTo {
		err := outfile.Check(o.out, o.force, o.engine)
		if errors.Is(err, outfile.ErrExists) {
			return fmt.Errorf("%w, or -append to add games to it", err)
		}
		if err == nil && o.force {
			if err := checkDatagenFile(o.out); err != nil {
				return fmt.Errorf("-force: %w; refusing to replace it", err)
			}
		}
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("-append %s: not a regular file (%s)", o.out, outfile.Kind(st.Mode()))
	}
	if err := outfile.Check(o.out, true, o.engine); err != nil {
		return err
	}
	if err := checkDatagenFile(o.out); err != nil {
		return fmt.Errorf("-append: %w; refusing to add games to it", err)
	}
	return nil
}

// checkDatagenFile checks that the file at path, if it exists, holds datagen's format: its first
// and last whole lines parse as compact lines with a game result. A missing or empty file passes.
func checkDatagenFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	head = head[:n]
	if n == 0 {
		return nil
	}
	refuse := func(why string) error {
		return fmt.Errorf("%s: not a datagen file (%s)", path, why)
	}
	if bytes.HasPrefix(head, []byte("BINP")) {
		return refuse("it starts with a binpack chunk")
	}
	check := func(line []byte, which string) error {
		samples, err := dataset.ParseLine(string(line), 1, nil)
		if err != nil {
			return refuse(fmt.Sprintf("%s line: %v", which, err))
		}
		if samples[0].Result == dataset.NoResult {
			return refuse(which + " line has no game result")
		}
		return nil
	}
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		if n == len(head) && n < 64<<10 {
			return nil // one partial line, which the resume cuts
		}
		return refuse("no line end in its first 64 KiB")
	}
	if err := check(head[:i], "first"); err != nil {
		return err
	}
	// the last whole line: read the tail
	st, err := f.Stat()
	if err != nil {
		return err
	}
	tailLen := min(st.Size(), int64(dataset.MaxLineBytes)+2)
	tail := make([]byte, tailLen)
	if _, err := f.ReadAt(tail, st.Size()-tailLen); err != nil && err != io.EOF {
		return err
	}
	end := bytes.LastIndexByte(tail, '\n')
	start := bytes.LastIndexByte(tail[:end], '\n') + 1
	if start == 0 && tailLen < st.Size() {
		return refuse("last line longer than the longest line datagen writes")
	}
	return check(tail[start:end], "last")
}

type stats struct {
	total, games, positions, quiet int64
	elapsed                        time.Duration
}

// prepareOutput opens the existing regular file path for appending, cuts a truncated last line, and counts the whole
// games already present.
func prepareOutput(path string, logw io.Writer) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	var lines, end, off int64
	br := bufio.NewReaderSize(f, 1<<20)
	buf := make([]byte, 1<<20)
	for {
		n, err := br.Read(buf)
		lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = off + int64(i) + 1
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return nil, 0, err
		}
	}
	if end != off {
		fmt.Fprintf(logw, "datagen: %s: cutting a truncated last line (%d bytes)\n", path, off-end)
		if err := f.Truncate(end); err != nil {
			f.Close()
			return nil, 0, err
		}
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, lines, nil
}

// appendWriter is what the games of an -append run are written to: the file itself (tests
// replace it to inject write errors).
var appendWriter = func(f *os.File) io.Writer { return f }

// openOutput opens the output as validate allowed it: a temporary file for a new output or with
// -force, the file itself with -append (after counting its games). finish(commit) ends it: a
// temporary file is renamed into place when commit is true and removed otherwise.
func openOutput(o options, logw io.Writer) (w io.Writer, existing int64, finish func(commit bool) error, err error) {
	if o.appendTo {
		if _, err := os.Stat(o.out); err == nil {
			f, n, err := prepareOutput(o.out, logw)
			if err != nil {
				return nil, 0, nil, err
			}
			return appendWriter(f), n, func(bool) error { return f.Close() }, nil
		}
	}
	f, err := outfile.Create(o.out, o.force, o.engine)
	if err != nil {
		return nil, 0, nil, err
	}
	return f, 0, func(commit bool) error {
		if commit {
			return f.Commit()
		}
		return f.Close()
	}, nil
}

// run plays the games o asks for into o.out. A new output is committed at the end of the run,
// also after an interrupt or an engine failure (it holds whole games only); an output replaced
// with -force is committed only after a clean run or an interrupt, so an error keeps the old
// file; a write error commits nothing.
func run(ctx context.Context, o options, logw io.Writer) (st stats, err error) {
	if err := o.validate(); err != nil {
		return st, err
	}
	unlock, err := outfile.Lock(o.out)
	if err != nil {
		return st, err
	}
	defer unlock()
	_, statErr := os.Stat(o.out)
	replacing := statErr == nil && o.force
	f, existing, finish, err := openOutput(o, logw)
	if err != nil {
		return st, err
	}
	writeFailed := false
	defer func() {
		commit := !writeFailed && (err == nil || !replacing)
		if ferr := finish(commit); err == nil {
			err = ferr
		}
		if err != nil && !commit {
			err = fmt.Errorf("%w (nothing written to %s)", err, o.out)
		}
	}()
	st.total = existing
	todo := int64(o.games) - existing
	if todo <= 0 {
		return st, nil
	}
	if existing > 0 {
		fmt.Fprintf(logw, "datagen: resuming %s: %d games present (its first and last lines checked: datagen's format with results), %d to go\n", o.out, existing, todo)
	}
	openings, err := loadOpenings()
	if err != nil {
		return st, err
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan []byte, 4*o.workers)
	var claimed atomic.Int64
	var positions, quiet atomic.Int64
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}

	var wg sync.WaitGroup
	for w := range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			en, err := newEngine(o.engine, o.nodes, o.hash)
			if err != nil {
				fail(fmt.Errorf("starting engine %s: %w", o.engine, err))
				return
			}
			defer en.close()
			// A different stream per resume point and worker, so a resumed run does not
			// replay the games it already wrote.
			rng := rand.New(rand.NewPCG(o.seed, uint64(existing)<<8|uint64(w)))
			cfg := defaultGameConfig
			var buf []byte
			failures := 0
			for {
				if claimed.Add(1) > todo {
					return
				}
				samples, result, err := playGame(ctx, rng, en, openings, &cfg)
				if errors.Is(err, errStopped) {
					return
				}
				if err != nil {
					failures++
					if failures > 5 {
						fail(fmt.Errorf("engine keeps failing: %w", err))
						return
					}
					fmt.Fprintf(logw, "\ndatagen: worker %d: %v; restarting the engine\n", w, err)
					if err := en.restart(); err != nil {
						fail(fmt.Errorf("restarting engine: %w", err))
						return
					}
					claimed.Add(-1)
					continue
				}
				failures = 0
				buf, err = dataset.AppendGame(buf[:0], samples, result)
				if err != nil {
					fail(err)
					return
				}
				q := 0
				for i := range samples {
					if dataset.Quiet(&samples[i]) {
						q++
					}
				}
				line := append([]byte(nil), buf...)
				select {
				case lines <- line:
					positions.Add(int64(len(samples)))
					quiet.Add(int64(q))
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(lines) }()

	start := time.Now()
	tty := false
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && logw == io.Writer(os.Stderr) {
		tty = true
	}
	var tick <-chan time.Time
	if !o.quiet && o.progress > 0 {
		t := time.NewTicker(o.progress)
		defer t.Stop()
		tick = t.C
	}
	ticks := 0
	report := func(final bool) {
		el := time.Since(start).Seconds()
		done := st.games
		pps := float64(positions.Load()) / max(el, 1e-9)
		qps := float64(quiet.Load()) / max(el, 1e-9)
		eta := "?"
		if done > 0 {
			eta = (time.Duration(el/float64(done)*float64(todo-done)) * time.Second).Round(time.Second).String()
		}
		const width = 30
		fill := int(float64(width) * float64(done) / float64(todo))
		bar := strings.Repeat("#", fill) + strings.Repeat(".", width-fill)
		msg := fmt.Sprintf("[%s] %d/%d games  %d pos (%d quiet)  %.0f pos/s (%.0f quiet/s)  ETA %s",
			bar, existing+done, o.games, positions.Load(), quiet.Load(), pps, qps, eta)
		switch {
		case tty:
			fmt.Fprintf(logw, "\r%s\x1b[K", msg)
			if final {
				fmt.Fprintln(logw)
			}
		case final || ticks%30 == 0:
			fmt.Fprintf(logw, "%s %s\n", time.Now().UTC().Format("15:04:05"), msg)
		}
	}
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				st.elapsed = time.Since(start)
				st.total = existing + st.games
				st.positions, st.quiet = positions.Load(), quiet.Load()
				if !o.quiet {
					report(true)
				}
				return st, firstErr
			}
			// One write per whole line: the file never holds a partial game except after a crash
			// in the middle of this call, which prepareOutput repairs.
			if writeFailed {
				continue
			}
			if _, err := f.Write(line); err != nil {
				writeFailed = true
				fail(fmt.Errorf("writing %s: %w", o.out, err))
				continue
			}
			st.games++
		case <-tick:
			ticks++
			report(false)
		}
	}
}
