// Command match plays games between UCI engines — a round robin or a gauntlet, openings
// played in pairs with colours reversed — and reports Elo differences with 95 % intervals
// (trinomial and pentanomial), maximum-likelihood ratings of all players, and optionally an
// SPRT (package internal/elo; doc/elo.md).
//
// Usage:
//
//	go run ./examples/match -engine 'name=sf3,cmd=/usr/games/stockfish,option.Skill Level=3' \
//	    -engine 'name=sf6,cmd=/usr/games/stockfish,option.Skill Level=6' \
//	    -each 'option.Threads=1,option.Hash=16' -openings examples/match/openings/balanced.epd \
//	    -games 40 -st 0.1 -concurrency 2 -pgn sf.pgn -json-out sf.json
//
// Time: -st S (fixed seconds per move, "go movetime") or -tc BASE+INC (seconds, a clock per
// side), each with -margin for lateness; or -nodes N / -depth N without a clock. Games end by
// the rules (checkmate, stalemate, threefold repetition, fifty-move rule, insufficient
// material; legality and rules by package board), by optional adjudication (-resign, -draw,
// -maxmoves), or by forfeit: an engine that crashes, hangs, plays an illegal move, breaks the
// protocol or oversteps its time loses the game, is restarted, and the tournament goes on.
// Engine options are checked against the options each engine declares (-lenient: skipped
// with a warning).
//
// With -pgn FILE the games are appended to FILE game by game (.FILE.lock keeps a second run
// off it); running the same command again after an interruption (Ctrl-C, kill, crash) reads
// it back and plays the remaining games only. Without -pgn the games are not saved. A progress
// line follows each game on stderr; the final tables go to stdout (with -json, a JSON summary
// instead; -json-out FILE writes it to a file).
//
// -rate FILE.pgn rates the players of any PGN file (Ordo-like); -build-openings makes the
// balanced opening set (doc/elo.md, "The opening set").
package main

import (
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
	"syscall"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/elo"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/internal/uci"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// options are the command-line settings of a tournament.
type options struct {
	engines     []string
	each        string
	lenient     bool
	gauntlet    bool
	games       int
	openings    string
	shuffle     bool
	seed        uint64
	st          float64
	tc          string
	nodes       int64
	depth       int
	margin      time.Duration
	timeout     time.Duration
	concurrency int
	pgn         string
	cont        bool
	jsonOut     string
	force       bool
	resign      string
	draw        string
	maxMoves    int
	sprt        string
	anchor      string
	anchorElo   float64
	prior       int
	event       string
	quiet       bool
}

const usageText = `match plays games between UCI engines and reports Elo differences (doc/elo.md).

Usage:
  match -engine SPEC -engine SPEC [-engine SPEC …] (-st S | -tc BASE+INC | -nodes N | -depth N) [flags]
  match -rate FILE.pgn [-anchor NAME] [-anchor-elo E] [-prior N]
  match -build-openings -out FILE.epd [-from FILE.epd] [-sf ENGINE] [-depth N] [-force]

Example:
  match -engine 'name=sf3,cmd=/usr/games/stockfish,option.Skill Level=3' \
        -engine 'name=sf6,cmd=/usr/games/stockfish,option.Skill Level=6' \
        -each 'option.Threads=1,option.Hash=16' -openings examples/match/openings/balanced.epd \
        -games 40 -st 0.1 -concurrency 2 -pgn /tmp/sf.pgn -json-out /tmp/sf.json

Flags:
`

// cli holds the command-line flags.
type cli struct {
	o          options
	engines    listFlag
	tournament *string
	jsonStdout *bool
	rate       *string
	build      *bool
	bc         buildConfig
}

// defineFlags defines match's flags on fs, with their defaults, and its usage text.
func defineFlags(fs *flag.FlagSet) *cli {
	c := &cli{}
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	fs.Var(&c.engines, "engine", "an engine: 'name=N,cmd=PATH ARGS,arg=A,dir=D,env.K=V,option.NAME=VALUE' (repeat; at least 2)")
	fs.StringVar(&c.o.each, "each", "", "UCI options for every engine: 'option.Threads=1,option.Hash=16'")
	fs.BoolVar(&c.o.lenient, "lenient", false, "an option an engine does not declare (or a value outside its range) is skipped with a warning instead of an error")
	c.tournament = fs.String("tournament", "roundrobin", "roundrobin, or gauntlet (the first engine against each other one)")
	fs.IntVar(&c.o.games, "games", 2, "games per pairing (even: each opening is played with both colours)")
	fs.StringVar(&c.o.openings, "openings", "", "opening file: EPD (one position a line) or .pgn (each game's moves); empty: the start position")
	fs.BoolVar(&c.o.shuffle, "shuffle", false, "use the openings in an order shuffled by -seed instead of file order")
	fs.Uint64Var(&c.o.seed, "seed", 1, "seed of -shuffle")
	fs.Float64Var(&c.o.st, "st", 0, "fixed time per move in seconds (go movetime)")
	fs.StringVar(&c.o.tc, "tc", "", "clock: BASE+INC in seconds (e.g. 10+0.1)")
	fs.Int64Var(&c.o.nodes, "nodes", 0, "node limit per move (go nodes N)")
	fs.IntVar(&c.o.depth, "depth", 0, "depth limit per move (go depth N)")
	fs.DurationVar(&c.o.margin, "margin", 200*time.Millisecond, "lateness tolerated beyond -st or the clock before a time forfeit")
	fs.DurationVar(&c.o.timeout, "timeout", 60*time.Second, "deadline for answers without a clock (-nodes, -depth, isready); past it an engine is hung")
	fs.IntVar(&c.o.concurrency, "concurrency", 1, "games played at once")
	fs.StringVar(&c.o.pgn, "pgn", "", "PGN output, appended to game by game; a file with games of this tournament is resumed (empty: games are not saved)")
	fs.BoolVar(&c.o.cont, "continue", false, "accept a -pgn whose tournament is finished (all games played or the SPRT decided): play nothing, print its summary")
	c.jsonStdout = fs.Bool("json", false, "print the summary as JSON on stdout (instead of the tables)")
	fs.StringVar(&c.o.jsonOut, "json-out", "", "write the JSON summary to this file (an existing file needs -force, unless it is this tournament's summary being resumed)")
	fs.BoolVar(&c.o.force, "force", false, "overwrite an existing -json-out or -build-openings -out")
	fs.StringVar(&c.o.resign, "resign", "", "resign adjudication: 'movecount=N,score=CP[,twosided=0]'")
	fs.StringVar(&c.o.draw, "draw", "", "draw adjudication: 'movenumber=N,movecount=M,score=CP'")
	fs.IntVar(&c.o.maxMoves, "maxmoves", 0, "adjudicate a draw after this many moves per side after the opening (0: never)")
	fs.StringVar(&c.o.sprt, "sprt", "", "SPRT of the first engine against the second: 'elo0=0,elo1=5,alpha=0.05,beta=0.05' (stops when decided)")
	fs.StringVar(&c.o.anchor, "anchor", "", "engine whose ML rating is fixed (default: the first)")
	fs.Float64Var(&c.o.anchorElo, "anchor-elo", 0, "the anchor's rating")
	fs.IntVar(&c.o.prior, "prior", 0, "virtual draws added to each pairing for the ML ratings (BayesElo-style prior; makes 100 % and 0 % scores finite)")
	fs.StringVar(&c.o.event, "event", "nnuekit match", "PGN Event tag")
	fs.BoolVar(&c.o.quiet, "quiet", false, "no progress lines")

	c.rate = fs.String("rate", "", "rate the players of a PGN file (any PGN with White, Black, Result tags; Ordo-like; uses -anchor, -anchor-elo, -prior) and exit")
	c.build = fs.Bool("build-openings", false, "build a balanced opening set (-from, -out, -sf, -depth, -maxcp, …) and exit")
	fs.StringVar(&c.bc.in, "from", "../shared/data/positions.epd", "-build-openings: source positions (EPD)")
	fs.StringVar(&c.bc.out, "out", "", "-build-openings: output EPD (required; an existing file needs -force)")
	fs.StringVar(&c.bc.engine, "sf", "/usr/games/stockfish", "-build-openings: the engine that scores the positions")
	fs.IntVar(&c.bc.maxCP, "maxcp", 100, "-build-openings: keep |score| ≤ maxcp centipawns")
	fs.IntVar(&c.bc.minMove, "minmove", 4, "-build-openings: minimum fullmove number")
	fs.IntVar(&c.bc.maxMove, "maxmove", 16, "-build-openings: maximum fullmove number")
	fs.IntVar(&c.bc.minPieces, "minpieces", 26, "-build-openings: minimum number of pieces (kings and pawns included)")
	fs.IntVar(&c.bc.maxHalfmove, "maxhalfmove", 20, "-build-openings: maximum halfmove clock")
	return c
}

func main() {
	c := defineFlags(flag.CommandLine)
	flag.Parse()
	o, bc, tournament, jsonStdout, rate, build := c.o, c.bc, c.tournament, c.jsonStdout, c.rate, c.build
	engines := c.engines
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "match: unexpected arguments:", flag.Args())
		os.Exit(2)
	}
	// Ctrl-C and SIGTERM cancel ctx: the games in progress are dropped, the engines killed,
	// and the summary printed. The signals stay caught until the program ends.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *rate != "" {
		if err := ratePGN(*rate, o.anchor, o.anchorElo, o.prior, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "match:", err)
			os.Exit(1)
		}
		return
	}
	if *build {
		bc.depth = o.depth
		if bc.depth == 0 {
			bc.depth = 14
		}
		bc.force = o.force
		if err := buildOpenings(ctx, bc, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "match:", err)
			os.Exit(1)
		}
		return
	}
	o.engines = engines
	switch *tournament {
	case "roundrobin", "rr":
	case "gauntlet":
		o.gauntlet = true
	default:
		fmt.Fprintf(os.Stderr, "match: -tournament %q: roundrobin or gauntlet\n", *tournament)
		os.Exit(2)
	}
	os.Exit(runMain(ctx, o, *jsonStdout, os.Stdout, os.Stderr))
}

// runMain sets up and plays the tournament of o and prints its summary (as tables, or with
// jsonStdout as JSON) to stdout; errors and progress go to stderr. It returns the exit
// status: 0 done, 1 a run error (the summary is printed first), 2 bad settings, 130
// interrupted (ctx).
func runMain(ctx context.Context, o options, jsonStdout bool, stdout, stderr io.Writer) int {
	t, err := setup(o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "match:", err)
		return 2
	}
	defer t.release()
	var runErr error
	if t.finished() {
		fmt.Fprintf(stderr, "match: %s: the tournament is finished (-continue): nothing to play\n", o.pgn)
	} else {
		runErr = t.run(ctx)
	}
	s := t.summarize()
	if jsonStdout {
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "match:", err)
			return 1
		}
		stdout.Write(append(b, '\n'))
	} else {
		t.printSummary(stdout, s)
	}
	status := 0
	if o.jsonOut != "" {
		if err := t.writeJSON(s); err != nil {
			fmt.Fprintln(stderr, "match:", err)
			status = 1
		}
	}
	if runErr != nil {
		fmt.Fprintln(stderr, "match:", runErr)
		return 1
	}
	if ctx.Err() != nil {
		again := "run the same command again to continue"
		if o.pgn == "" {
			again = "the games were not saved (no -pgn)"
		}
		fmt.Fprintf(stderr, "match: interrupted after %d of %d games; %s\n", s.GamesPlayed, s.GamesPlanned, again)
		return 130
	}
	return status
}

// setup validates the options and the output paths, loads the openings, starts every engine
// once (to check it and its options, and learn its id name), builds the schedule, takes the
// lock of the PGN file and reads it back for resuming. The caller releases the lock
// (tournament.release). Errors: bad options, an engine that does not start or rejects an
// option (unless -lenient), a PGN that is locked, unreadable, from other settings, or
// finished (unless -continue), an existing -json-out (unless -force or resumed).
func setup(o options, logw io.Writer) (*tournament, error) {
	if len(o.engines) < 2 {
		return nil, errors.New("at least two -engine are needed")
	}
	if o.games <= 0 || o.games%2 != 0 {
		return nil, fmt.Errorf("-games %d: a positive even number (openings are played in pairs)", o.games)
	}
	if o.prior < 0 {
		return nil, errors.New("-prior must be ≥ 0")
	}
	if o.concurrency < 1 {
		return nil, errors.New("-concurrency must be ≥ 1")
	}
	t := &tournament{gauntlet: o.gauntlet, event: o.event, pgnPath: o.pgn, jsonPath: o.jsonOut, force: o.force, concurrency: o.concurrency,
		quiet: o.quiet, logw: logw, maxMoves: o.maxMoves, anchorElo: o.anchorElo, prior: o.prior}
	tc := timeControl{margin: o.margin, timeout: o.timeout, nodes: o.nodes, depth: o.depth}
	if o.st < 0 || o.nodes < 0 || o.depth < 0 || o.margin < 0 || o.timeout <= 0 {
		return nil, errors.New("-st, -nodes, -depth, -margin must be ≥ 0 and -timeout > 0")
	}
	if o.st > 0 && o.tc != "" {
		return nil, errors.New("-st and -tc exclude each other")
	}
	tc.moveTime = time.Duration(o.st * float64(time.Second))
	if o.tc != "" {
		var err error
		if tc.base, tc.inc, err = parseTC(o.tc); err != nil {
			return nil, err
		}
	}
	if tc.moveTime == 0 && tc.base == 0 && tc.nodes == 0 && tc.depth == 0 {
		return nil, errors.New("no time control: give -st, -tc, -nodes or -depth")
	}
	t.tc = tc
	var err error
	if t.resign, err = parseResign(o.resign); err != nil {
		return nil, err
	}
	if t.draw, err = parseDraw(o.draw); err != nil {
		return nil, err
	}
	if t.sprt, err = parseSPRT(o.sprt); err != nil {
		return nil, err
	}
	if t.sprt != nil && len(o.engines) != 2 {
		return nil, errors.New("-sprt needs exactly two engines")
	}
	each, err := parseEach(o.each)
	if err != nil {
		return nil, err
	}
	var specs []uci.Spec
	for _, es := range o.engines {
		spec, err := parseEngine(es, each)
		if err != nil {
			return nil, err
		}
		spec.StartTimeout = max(o.timeout, 10*time.Second)
		spec.Lenient = o.lenient
		specs = append(specs, spec)
	}
	if o.openings != "" {
		if t.openings, err = loadOpenings(o.openings); err != nil {
			return nil, err
		}
	} else {
		t.openings = []opening{{start: board.StartPosition(), name: "start position"}}
	}
	if err := checkPGNPath(o.pgn, o.openings, o.jsonOut); err != nil {
		return nil, err
	}
	if o.pgn != "" && o.jsonOut != "" && samePath(o.pgn, o.jsonOut) {
		return nil, fmt.Errorf("-pgn and -json-out are the same file %s", o.pgn)
	}
	if o.jsonOut != "" {
		// An existing summary is checked again against the resumed games below.
		if err := outfile.Check(o.jsonOut, true, o.openings, o.pgn); err != nil {
			return nil, fmt.Errorf("-json-out: %w", err)
		}
	}
	seen := map[string]bool{}
	for i, spec := range specs {
		e, err := uci.Start(spec)
		if err != nil {
			return nil, fmt.Errorf("engine %q: %w", o.engines[i], err)
		}
		id := e.IDName
		// Later starts set exactly what this one accepted.
		spec.Options, spec.Lenient = e.Accepted, false
		for _, r := range e.Rejected {
			fmt.Fprintf(logw, "match: warning: engine %q: option %s=%s not set (-lenient): %v\n", o.engines[i], r.Name, r.Value, r.Err)
		}
		e.Close()
		t.rejected = append(t.rejected, e.Rejected)
		if spec.Name == "" {
			spec.Name = defaultName(spec, id)
			for n := 2; seen[spec.Name]; n++ {
				spec.Name = fmt.Sprintf("%s #%d", defaultName(spec, id), n)
			}
		}
		if seen[spec.Name] {
			return nil, fmt.Errorf("two engines are named %q; give name=", spec.Name)
		}
		seen[spec.Name] = true
		t.specs = append(t.specs, spec)
		t.names = append(t.names, spec.Name)
	}
	if o.anchor != "" {
		t.anchor = -1
		for i, n := range t.names {
			if n == o.anchor {
				t.anchor = i
			}
		}
		if t.anchor < 0 {
			return nil, fmt.Errorf("-anchor %q is not an engine name (%s)", o.anchor, strings.Join(t.names, ", "))
		}
	}
	t.makeSchedule(o.games, o.shuffle, o.seed)
	if o.pgn == "" {
		if o.jsonOut != "" {
			if err := t.checkJSONOut(false); err != nil {
				return nil, err
			}
		}
		fmt.Fprintln(logw, "match: no -pgn: the games are not saved and the run cannot be resumed")
		return t, nil
	}
	if st, err := os.Stat(o.pgn); err != nil || st.Mode().IsRegular() { // a device or FIFO is not locked
		if t.unlock, err = outfile.Lock(o.pgn, logw); err != nil {
			return nil, fmt.Errorf("-pgn: %w", err)
		}
	}
	ok := false
	defer func() {
		if !ok {
			t.release()
		}
	}()
	played, endsInNewline, err := readPGNFile(o.pgn, logw)
	if err != nil {
		return nil, err
	}
	t.pgnNeedsNewline = !endsInNewline
	if err := t.resume(played); err != nil {
		return nil, err
	}
	if len(played) > 0 {
		fmt.Fprintf(logw, "match: resumed %d games from %s (%d of %d games of this tournament played, %d to play)\n",
			len(played), o.pgn, t.playedCount(), len(t.games), len(t.games)-t.playedCount())
		if t.finished() && !o.cont {
			why := fmt.Sprintf("all %d games of this tournament are played", len(t.games))
			if t.sprtDecision != elo.Continue {
				why = fmt.Sprintf("its SPRT is decided (%v)", t.sprtDecision)
			}
			return nil, fmt.Errorf("%s: %s; pass -continue to print its summary without playing, or use another -pgn", o.pgn, why)
		}
	}
	if o.jsonOut != "" {
		if err := t.checkJSONOut(len(played) > 0); err != nil {
			return nil, err
		}
	}
	ok = true
	return t, nil
}

// samePath reports whether two paths name the same file by their absolute, cleaned spelling
// (for files that may not exist yet; existing ones are compared by device and inode).
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
