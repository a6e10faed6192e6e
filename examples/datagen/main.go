// Command datagen generates training data for NNUE networks by self-play — of nnuekit's own
// engine in this process (-engine internal, internal/search, evaluating with -net) or of a UCI
// engine in a subprocess (Stockfish from Debian's stockfish package by default) — in the
// thesis's compact text format with game results (.txt) or Stockfish's .binpack (package
// quant/dataset; doc/datagen.md).
//
// Usage:
//
//	go run ./examples/datagen -out train.binpack -engine internal -nodes 1000 -games 10000 -quiet-only -label-net ../shared/nets/nn-ad9b42354671.nnue
//	go run ./examples/datagen -out /work/data/train.txt -games 29500 -nodes 800 -workers 2 -seed 1
//	go run ./examples/datagen -stats /work/data/train.txt
//
// Each game starts from a random line of the lichess ECO list (github.com/corentings/chess/v2/
// opening) or a random position of a -book file (EPD/FEN lines, or the end of each main line of a
// PGN file), followed by -random-plies
// uniformly random legal plies (default 2–8; redrawn when the engine scores the start beyond
// ±300 cp), then the engine plays its best move at a fixed node count (and, in process, depth)
// until checkmate, stalemate, insufficient material, threefold repetition, the 50-move rule, or
// adjudication (win: |score| ≥ 1000 cp for 6 plies; draw: |score| ≤ 10 cp for 12 plies after
// ply 80; 400 plies: draw).
//
// Scores are in Stockfish internal units (UCI cp × 3.61), side to move. By default a position's
// score is the self-play search's; -label-net NET labels each written position with NET's static
// evaluation converted to internal units (×361/PawnValue: exactly Network.Evaluate for
// Stockfish 15.1 nets and the default net), or with -label-nodes N the score of an N-node search
// with NET. The .txt output holds every searched position, one game per line:
//
//	FEN,score,best(,played,score,best)*,result
//
// A .binpack output holds one game per chunk; with -quiet-only only the positions that pass the
// quiet filter (not in check, best move neither a capture nor a promotion, |score| ≤ 5000) are
// written (the trainer's default filter is the same without the promotion rule).
//
// Game k (0-based) is a function of -seed and k alone (its own random stream), and games are
// written in the order of k, so the output is the same for any -workers, a resumed run writes
// what an uninterrupted one would, and -shard i/n (the i-th of n equal ranges of the -games
// games) lets n machines make parts that concatenate (cat part0 part1 …) to the file of one run.
//
// -out must be given. A new file is written through a temporary file beside it and renamed into
// place when the run ends (also on Ctrl-C or SIGTERM, which keep every finished game up to the
// first unfinished one). An existing file is never touched without a flag: -append resumes it
// (datagen checks that it holds datagen's format, cuts a game a crash left unfinished, counts
// the games and plays the remaining ones); -force replaces it, and the old file stays intact
// until the new one is complete. A lock file ".NAME.lock" beside the output keeps a second run
// off the same output while one runs. An output that is not a regular file is refused, and so is
// an output named .plain or .bullet. A write error ends the run with the error.
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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/epdfile"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

type options struct {
	out         string
	games       int
	nodes       int
	depth       int
	workers     int
	seed        uint64
	engine      string
	net         string
	hash        int
	book        string
	randomPlies string
	quietOnly   bool
	labelNet    string
	arch        string
	labelArch   string
	labelNodes  int
	shard       string
	progress    time.Duration
	quiet       bool
	appendTo    bool
	force       bool
	json        bool
}

const usage = `datagen generates NNUE training data by self-play, of nnuekit's own engine in process
(-engine internal) or of a UCI engine, into the thesis text format with game results (.txt) or
Stockfish's .binpack, optionally labelled by any network (doc/datagen.md).

Usage:
  datagen -out FILE.binpack|FILE.txt [-engine internal|PATH] [-net NET [-arch SPEC]] [-nodes N] [-depth D]
          [-games N] [-workers N] [-seed S] [-shard I/N] [-book FILE.epd|.pgn] [-random-plies MIN-MAX]
          [-quiet-only] [-label-net NET [-label-arch SPEC] [-label-nodes N]] [-append | -force] [-json]
  datagen -stats FILE.txt|FILE.binpack [-json]

Examples:
  go run ./examples/datagen -out d.binpack -engine internal -nodes 1000 -games 10000 -quiet-only -label-net ../shared/nets/nn-ad9b42354671.nnue
  go run ./examples/datagen -out d.binpack -engine internal -nodes 1000 -games 10000 -quiet-only -shard 0/2   (first half; -shard 1/2 on another machine)
  go run ./examples/datagen -out /work/data/train.txt -games 29500 -nodes 800 -workers 2 -seed 1
  go run ./examples/datagen -out /work/data/train.txt -games 40000 -append   (resume, play 10500 more)

Flags:
`

func main() {
	var o options
	flag.StringVar(&o.out, "out", "", "output file: .binpack (Stockfish's format, one game per chunk) or the thesis's text format (required; an existing file needs -append or -force)")
	flag.BoolVar(&o.appendTo, "append", false, "resume an existing output: count its games and add the missing ones")
	flag.BoolVar(&o.force, "force", false, "replace an existing output (kept intact until the new one is complete)")
	flag.BoolVar(&o.json, "json", false, "print the summary (or -stats) as one JSON object on stdout")
	flag.IntVar(&o.games, "games", 1000, "total number of games the file should hold (with -shard: of all shards together)")
	flag.IntVar(&o.nodes, "nodes", 5000, "nodes per move (0 with -depth: no node limit); the thesis's data used 5000")
	flag.IntVar(&o.depth, "depth", 0, "search depth per move (-engine internal only; 0: none)")
	flag.IntVar(&o.workers, "workers", 2, "games played in parallel (engine processes or in-process searches, one thread each)")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed (openings and random plies); game k depends on the seed and k only")
	flag.StringVar(&o.engine, "engine", "/usr/games/stockfish", `"internal" (nnuekit's own search in this process) or a UCI engine executable (a file named internal: ./internal)`)
	flag.StringVar(&o.net, "net", netDefault, "network the internal engine evaluates with (any file nnue.Load reads; "+netDefault+": the embedded one)")
	flag.StringVar(&o.arch, "arch", "", "with -net: the file is bullet's weights for this declared architecture string (doc/bullet.md)")
	flag.StringVar(&o.labelArch, "label-arch", "", "with -label-net: the file is bullet's weights for this declared architecture string")
	flag.IntVar(&o.hash, "hash", 16, "hash size in MiB per engine (process or in-process search)")
	flag.StringVar(&o.book, "book", "", "start positions instead of the ECO list: an EPD/FEN file (one per line) or a .pgn (the end of each game's main line)")
	flag.StringVar(&o.randomPlies, "random-plies", "2-8", "uniformly random legal plies after the opening: MIN-MAX")
	flag.BoolVar(&o.quietOnly, "quiet-only", false, "write only quiet positions: not in check, best move neither a capture nor a promotion, |score| ≤ 5000 (.binpack only)")
	flag.StringVar(&o.labelNet, "label-net", "", "label every written position with this network's evaluation, in internal units ("+netDefault+": the embedded one)")
	flag.IntVar(&o.labelNodes, "label-nodes", 0, "with -label-net: label by a search of this many nodes with it instead of its static evaluation")
	flag.StringVar(&o.shard, "shard", "", "I/N: play only the I-th (0-based) of N equal ranges of the -games games")
	flag.DurationVar(&o.progress, "progress", time.Second, "progress update interval (a new line every 30 updates when stderr is not a terminal)")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress output")
	statsPath := flag.String("stats", "", "print statistics of a datagen file, .txt or .binpack (games, positions, quiet positions, results, WDL fit) and exit")
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
			"positions": st.positions, "quiet": st.quiet, "written": st.written, "seconds": st.elapsed.Seconds(),
			"first_game": st.first, "end_game": st.end})
		fmt.Println(string(b))
		return
	}
	fmt.Fprintf(os.Stderr, "datagen: %s now holds %d games (%d written in this run: %d positions played, %d quiet, %d written) in %s\n",
		o.out, st.total, st.games, st.positions, st.quiet, st.written, st.elapsed.Round(time.Second))
}

// parseRange parses "A-B" (or "A") into A ≤ B; "" is the default, 2-8.
func parseRange(s string) (lo, hi int, err error) {
	if s == "" {
		return defaultGameConfig.randomPliesMin, defaultGameConfig.randomPliesMax, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || lo < 0 || hi < lo || hi > 1000 {
		return 0, 0, fmt.Errorf("-random-plies %q: want MIN-MAX with 0 ≤ MIN ≤ MAX ≤ 1000", s)
	}
	return lo, hi, nil
}

// shardRange returns the game indices [first, end) this run plays: all -games, or the I-th of N
// equal ranges of them with -shard I/N.
func (o *options) shardRange() (first, end int64, err error) {
	if o.shard == "" {
		return 0, int64(o.games), nil
	}
	a, b, ok := strings.Cut(o.shard, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("-shard %q: want I/N with 0 ≤ I < N", o.shard)
	}
	g := int64(o.games)
	return g * int64(i) / int64(n), g * int64(i+1) / int64(n), nil
}

func (o *options) internal() bool { return o.engine == engineInternal }

// inputs are the files the run reads, none of which may be the output.
func (o *options) inputs() []string {
	var in []string
	if !o.internal() {
		in = append(in, o.engine)
	}
	for _, p := range []string{o.net, o.labelNet, o.book} {
		if p != "" && p != netDefault {
			in = append(in, p)
		}
	}
	return in
}

// validate checks the flags and the output before any engine starts.
func (o *options) validate() error {
	if o.games < 0 || o.nodes < 0 || o.depth < 0 || o.workers <= 0 || o.hash <= 0 || o.labelNodes < 0 {
		return errors.New("-games, -nodes, -depth, -label-nodes must be ≥ 0 and -workers, -hash > 0")
	}
	if o.internal() {
		if o.nodes == 0 && o.depth == 0 {
			return errors.New("-engine internal needs -nodes or -depth > 0")
		}
	} else {
		if o.nodes == 0 {
			return errors.New("-nodes must be > 0 for a UCI engine")
		}
		if o.depth != 0 {
			return errors.New("-depth needs -engine internal (a UCI engine plays at -nodes)")
		}
		if o.net != netDefault && o.net != "" {
			return errors.New("-net needs -engine internal (a UCI engine loads its own network)")
		}
	}
	if o.arch != "" && !o.internal() {
		return errors.New("-arch needs -engine internal and -net")
	}
	if o.labelArch != "" && o.labelNet == "" {
		return errors.New("-label-arch needs -label-net")
	}
	if o.labelNodes > 0 && o.labelNet == "" {
		return errors.New("-label-nodes needs -label-net (the network to search with)")
	}
	if _, _, err := parseRange(o.randomPlies); err != nil {
		return err
	}
	if _, _, err := o.shardRange(); err != nil {
		return err
	}
	if o.out == "" {
		return errors.New("-out is required (see -help)")
	}
	if o.appendTo && o.force {
		return errors.New("-append and -force exclude each other")
	}
	switch ext := strings.ToLower(filepath.Ext(o.out)); ext {
	case ".plain", ".bullet":
		return fmt.Errorf("-out %s: datagen writes .binpack or the thesis's text format, not %s (convert it with examples/convert)", o.out, ext)
	}
	if o.quietOnly && !isBinpack(o.out) {
		return fmt.Errorf("-quiet-only needs a .binpack output (a text line holds every position of its game)")
	}
	checkFormat := checkDatagenFile
	if isBinpack(o.out) {
		checkFormat = checkDatagenBinpack
	}
	st, err := os.Stat(o.out)
	if err != nil || !o.appendTo {
		err := outfile.Check(o.out, o.force, o.inputs()...)
		if errors.Is(err, outfile.ErrExists) {
			return fmt.Errorf("%w, or -append to add games to it", err)
		}
		if err == nil && o.force {
			if err := checkFormat(o.out); err != nil {
				return fmt.Errorf("-force: %w; refusing to replace it", err)
			}
		}
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("-append %s: not a regular file (%s)", o.out, outfile.Kind(st.Mode()))
	}
	if err := outfile.Check(o.out, true, o.inputs()...); err != nil {
		return err
	}
	if err := checkFormat(o.out); err != nil {
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
	total, games, positions, quiet, written int64
	first, end                              int64 // the game indices of the run's range
	elapsed                                 time.Duration
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
	if err := cutTail(f, end, off, logw, path, "a truncated last line"); err != nil {
		return nil, 0, err
	}
	return f, lines, nil
}

// cutTail prepares a resumed output for appending: when the whole records end at end before
// the file's size, the rest (what, left by a crash) is cut with a message on logw; then f is
// positioned at end. On error f is closed.
func cutTail(f *os.File, end, size int64, logw io.Writer, path, what string) error {
	if end != size {
		fmt.Fprintf(logw, "datagen: %s: cutting %s (%d bytes)\n", path, what, size-end)
		if err := f.Truncate(end); err != nil {
			f.Close()
			return err
		}
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	return nil
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
			prep := prepareOutput
			if isBinpack(o.out) {
				prep = prepareBinpack
			}
			f, n, err := prep(o.out, logw)
			if err != nil {
				return nil, 0, nil, err
			}
			return appendWriter(f), n, func(bool) error { return f.Close() }, nil
		}
	}
	f, err := outfile.Create(o.out, o.force, o.inputs()...)
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

// sources are what the workers share: the openings and the networks, loaded before the output
// is opened so that a bad input writes nothing.
type sources struct {
	ops      *openings
	net      *nnue.Network // the internal engine's (nil for a UCI engine)
	labelNet *nnue.Network // nil: the self-play search's scores
}

func loadSources(o options) (*sources, error) {
	var s sources
	var err error
	if o.internal() {
		if s.net, err = loadNet("-net", o.net, o.arch); err != nil {
			return nil, err
		}
	}
	if o.labelNet != "" {
		if s.labelNet, err = loadNet("-label-net", o.labelNet, o.labelArch); err != nil {
			return nil, err
		}
	}
	s.ops = &openings{}
	if o.book != "" {
		ps, err := readBook(o.book)
		if err != nil {
			return nil, fmt.Errorf("-book: %w", err)
		}
		for _, p := range ps {
			if p.HasLegalMove() {
				s.ops.positions = append(s.ops.positions, p)
			}
		}
		if len(s.ops.positions) == 0 {
			return nil, fmt.Errorf("-book %s: no position with a legal move", o.book)
		}
	} else if s.ops.lines, err = loadOpenings(); err != nil {
		return nil, err
	}
	return &s, nil
}

// readBook returns the start positions of a book: every position of an EPD/FEN file, or for
// a name ending in .pgn the position at the end of each game's main line (board.ReadPGN).
func readBook(path string) ([]board.Position, error) {
	if !strings.EqualFold(filepath.Ext(path), ".pgn") {
		return epdfile.ReadAll(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	games, err := board.ReadPGN(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ps := make([]board.Position, 0, len(games))
	for _, g := range games {
		p := g.Start
		for _, m := range g.Moves {
			p, _ = p.Play(m)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// newPlayer starts the position source of one worker.
func newPlayer(o options, src *sources) (player, error) {
	if o.internal() {
		return newInproc(src.net, o.depth, int64(o.nodes), o.hash)
	}
	en, err := newEngine(o.engine, o.nodes, o.hash)
	if err != nil {
		return nil, fmt.Errorf("starting engine %s: %w", o.engine, err)
	}
	return en, nil
}

// quietPosition is the position part of -quiet-only: not in check, best move neither a capture
// nor a promotion. The score part (|score| ≤ 5000) is checked on the label.
func quietPosition(s *dataset.Sample) bool {
	_, promo := s.Best.Promotion()
	return !promo && !s.BestIsCapture() && !s.Pos.InCheck()
}

// finished is one game ready to be written.
type finished struct {
	index                     int64
	data                      []byte
	positions, quiet, written int64
}

// gameStream returns game index's random stream for attempt (attempts > 0 replace a game of
// which -quiet-only kept nothing, so that every game index is one unit of the output).
func gameStream(seed uint64, index int64, attempt int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(index)<<8|uint64(attempt)))
}

// maxAttempts bounds the replays of a game of which -quiet-only keeps nothing.
const maxAttempts = 64

// encodeGame labels and filters the samples of a game and encodes what is kept: a text line
// (every position) or a binpack chunk (with -quiet-only the quiet positions only). It returns
// the bytes and the number of positions written.
func encodeGame(o *options, lab *labeller, samples []dataset.Sample, result dataset.Result) ([]byte, int64, error) {
	if lab != nil {
		lab.newGame()
	}
	kept := samples[:0:0]
	for i := range samples {
		s := samples[i]
		s.Result = result
		if o.quietOnly && !quietPosition(&s) {
			continue
		}
		if lab != nil {
			v, err := lab.label(&s.Pos)
			if err != nil {
				return nil, 0, err
			}
			s.Score = v
		}
		if o.quietOnly && (s.Score > dataset.ThesisMaxScore || s.Score < -dataset.ThesisMaxScore) {
			continue
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		return nil, 0, nil
	}
	if !isBinpack(o.out) {
		b, err := dataset.AppendGame(nil, kept, result)
		return b, int64(len(kept)), err
	}
	var buf bytes.Buffer
	if err := binpackGame(&buf, kept); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), int64(len(kept)), nil
}

// run plays the games o asks for into o.out. A new output is committed at the end of the run,
// also after an interrupt or an engine failure (it holds whole games only); an output replaced
// with -force is committed only after a clean run or an interrupt, so an error keeps the old
// file; a write error commits nothing.
func run(ctx context.Context, o options, logw io.Writer) (st stats, err error) {
	if err := o.validate(); err != nil {
		return st, err
	}
	first, end, _ := o.shardRange()
	st.first, st.end = first, end
	minPlies, maxPlies, _ := parseRange(o.randomPlies)
	src, err := loadSources(o)
	if err != nil {
		return st, err
	}
	unlock, err := outfile.Lock(o.out, logw)
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
	todo := end - first - existing
	if todo <= 0 {
		return st, nil
	}
	if existing > 0 {
		fmt.Fprintf(logw, "datagen: resuming %s: %d games present (datagen's format checked), %d to go\n", o.out, existing, todo)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := first + existing // the next game index to write
	// A worker takes a token before it claims the next game index and the writer returns it
	// after writing that game, so games finished ahead of an unfinished one wait in memory
	// for at most len(tokens) games.
	tokens := make(chan struct{}, 4*o.workers)
	results := make(chan finished, 4*o.workers)
	var claimed atomic.Int64
	claimed.Store(next)
	var positions, quiet atomic.Int64
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel() })
	}
	cfg := defaultGameConfig
	cfg.randomPliesMin, cfg.randomPliesMax = minPlies, maxPlies

	var wg sync.WaitGroup
	for w := range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pl, err := newPlayer(o, src)
			if err != nil {
				fail(err)
				return
			}
			defer pl.close()
			var lab *labeller
			if src.labelNet != nil {
				if lab, err = newLabeller(src.labelNet, int64(o.labelNodes), o.hash); err != nil {
					fail(err)
					return
				}
				defer lab.close()
			}
			failures := 0
			for {
				select {
				case tokens <- struct{}{}:
				case <-ctx.Done():
					return
				}
				idx := claimed.Add(1) - 1
				if idx >= end {
					return
				}
				var g finished
				for attempt := 0; ; {
					samples, result, err := playGame(ctx, gameStream(o.seed, idx, attempt), pl, src.ops, &cfg)
					if errors.Is(err, errStopped) {
						return
					}
					if err != nil {
						failures++
						if failures > 5 || o.internal() {
							fail(fmt.Errorf("engine keeps failing: %w", err))
							return
						}
						fmt.Fprintf(logw, "\ndatagen: worker %d: %v; restarting the engine\n", w, err)
						if err := pl.restart(); err != nil {
							fail(fmt.Errorf("restarting engine: %w", err))
							return
						}
						continue // the same game again
					}
					failures = 0
					data, n, err := encodeGame(&o, lab, samples, result)
					if err != nil {
						fail(err)
						return
					}
					g.positions += int64(len(samples))
					for i := range samples {
						if dataset.Quiet(&samples[i]) {
							g.quiet++
						}
					}
					if n > 0 {
						g.index, g.data, g.written = idx, data, n
						break
					}
					if attempt++; attempt >= maxAttempts {
						fail(fmt.Errorf("game %d: -quiet-only kept no position in %d games", idx, maxAttempts))
						return
					}
				}
				select {
				case results <- g:
					positions.Add(g.positions)
					quiet.Add(g.quiet)
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

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
		msg := fmt.Sprintf("[%s] %d/%d games  %d pos (%d quiet, %d written)  %.0f pos/s (%.0f quiet/s)  ETA %s",
			bar, existing+done, end-first, positions.Load(), quiet.Load(), st.written, pps, qps, eta)
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
	pending := map[int64]finished{}
	for {
		select {
		case g, ok := <-results:
			if !ok {
				// Games finished after one that was not (an interrupt) are dropped: the file
				// holds games first … next−1, so that a resume continues at next.
				st.elapsed = time.Since(start)
				st.total = existing + st.games
				st.positions, st.quiet = positions.Load(), quiet.Load()
				if !o.quiet {
					report(true)
				}
				return st, firstErr
			}
			pending[g.index] = g
			for {
				g, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				<-tokens
				// One write per game: the file never holds a partial game except after a
				// crash in the middle of this call, which the resume repairs.
				if writeFailed {
					continue
				}
				if _, err := f.Write(g.data); err != nil {
					writeFailed = true
					fail(fmt.Errorf("writing %s: %w", o.out, err))
					continue
				}
				st.games++
				st.written += g.written
			}
		case <-tick:
			ticks++
			report(false)
		}
	}
}
