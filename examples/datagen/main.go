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
// The output is appended to: on restart datagen counts the games already in the file (cutting a
// truncated last line, which only a crash can leave) and plays the remaining ones. SIGINT and
// SIGTERM drop the games in progress, flush, and exit; every line in the file is a whole game.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

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
}

func main() {
	var o options
	flag.StringVar(&o.out, "out", "train.txt", "output file (appended to; resumable)")
	flag.IntVar(&o.games, "games", 1000, "total number of games the file should hold")
	flag.IntVar(&o.nodes, "nodes", 5000, "nodes per move (go nodes N); the thesis's data used 5000")
	flag.IntVar(&o.workers, "workers", 2, "engine processes in parallel (one thread each)")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed (openings and random plies)")
	flag.StringVar(&o.engine, "engine", "/usr/games/stockfish", "UCI engine executable")
	flag.IntVar(&o.hash, "hash", 16, "engine hash size in MiB per process")
	flag.DurationVar(&o.progress, "progress", time.Second, "progress update interval (a new line every 30 updates when stderr is not a terminal)")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress output")
	statsPath := flag.String("stats", "", "print statistics of an existing data file (games, positions, quiet positions, results, WDL fit) and exit")
	flag.Parse()
	if *statsPath != "" {
		st, err := readStats(*statsPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "datagen:", err)
			os.Exit(1)
		}
		printStats(os.Stdout, *statsPath, st)
		return
	}
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "datagen: unexpected arguments:", flag.Args())
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := run(ctx, o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "datagen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "datagen: %s now holds %d games (%d written in this run, %d positions, %d quiet) in %s\n",
		o.out, st.total, st.games, st.positions, st.quiet, st.elapsed.Round(time.Second))
}

type stats struct {
	total, games, positions, quiet int64
	elapsed                        time.Duration
}

// prepareOutput opens path for appending, cuts a truncated last line, and counts the whole
// games already present.
func prepareOutput(path string) (*os.File, int64, error) {
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
		fmt.Fprintf(os.Stderr, "datagen: %s: cutting a truncated last line (%d bytes)\n", path, off-end)
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

func run(ctx context.Context, o options, logw io.Writer) (stats, error) {
	var st stats
	if o.games < 0 || o.nodes <= 0 || o.workers <= 0 || o.hash <= 0 {
		return st, errors.New("-games must be ≥ 0 and -nodes, -workers, -hash > 0")
	}
	f, existing, err := prepareOutput(o.out)
	if err != nil {
		return st, err
	}
	defer f.Close()
	st.total = existing
	todo := int64(o.games) - existing
	if todo <= 0 {
		return st, nil
	}
	if existing > 0 {
		fmt.Fprintf(logw, "datagen: resuming %s: %d games present, %d to go\n", o.out, existing, todo)
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
			if _, err := f.Write(line); err != nil {
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
