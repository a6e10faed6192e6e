// Command evaluate loads an NNUE network (format detected from the file's first bytes:
// nnuekit native, thesis .nn, Stockfish .nnue) and prints its evaluation of positions.
//
// Usage:
//
//	go run ./examples/evaluate [-net FILE] (-fen FEN | -epd FILE) [-json] [-trace] [-info]
//	go run ./examples/evaluate -net FILE -incremental (-moves "e2e4 e7e5 …" | -pgn FILE) [-fen FEN] [-json] [-verify]
//	go run ./examples/evaluate [-net FILE] -describe [-v] [-json]
//	go run ./examples/evaluate -net FILE -arch 'STRING' [-header N] [-transposed] [-float QA,QB [-wrap]] …
//	go run ./examples/evaluate -help
//
// Each position is evaluated by a full accumulator refresh. With -incremental the program
// plays through a move list (UCI moves from -moves, starting at -fen or the standard start
// position) or through every game of a PGN file, updating the accumulators lazily with an
// AccumulatorStack, and prints the root and the position after every move; the numbers are
// the same as a refresh would give. -verify checks this on every position, fails on the
// first difference and otherwise reports on stderr how many positions it compared:
//
//	evaluate: -verify: the incremental evaluation equals a full refresh on all 3 positions
//
// -describe prints the network's declared architecture (nnue.Spec, grammar in
// doc/nnue.md) on one line and exits; with -v the multi-line nnue.Spec.Describe follows,
// with -json it is the object {"architecture": "<string>"}. For the embedded default:
//
//	ft=all:i16 width=256 stack=stm>screlu_affine.i16(255,255,1) buckets=pieces(8,2,4) out=*400/16320 pawn=361
//
// -arch declares the architecture of a file that records none — bullet's network files
// (doc/bullet.md lists the string of every shared net) — in the grammar -describe prints; the
// file's layout beyond the architecture is given by -header (bytes skipped before the
// parameters), -transposed (single-layer output weights saved [B][2N]) and -float QA,QB
// (a float32 file quantised at load; -wrap lets out-of-range values wrap as a C++ cast does).
// For Stormphrax's net013:
//
//	go run ./examples/evaluate -net stormphrax-net013.nnue -header 64 -json -fen "…" \
//	    -arch 'ft=kings(0.0.0.0.1.1.1.1.…)*all:i16 width=512 stack=stm>crelu_affine.i16(255) out=*400/16320 pawn=100'
//
// "eval" is then the value the engine prints: its raw evaluation for the side to move.
//
// -info prints the network's layers, quantization scheme and worst-case int16 accumulator
// range (nnue.AccumulatorBound: whether the accumulator can wrap around) to stderr.
//
// -trace (trace.go) prints Stockfish's per-bucket PSQT/positional table after each plain line;
// for SFNNv5 nets -json adds "bucket", "psqt" and "positional" (doc/stockfish-networks.md).
//
// -help prints a synopsis, an example and the flags.
//
// Output: one line per position. With -json each line is one JSON object, written exactly as
//
//	{"fen": "<FEN>", "eval": <int>}
//
// where eval is the network's final integer output for the side to move (thesis nets:
// ≈ centipawns, exactly the thesis engine's value; Stockfish nets: the engine's internal
// units). This contract is stable; members may be added after "eval" (Stockfish nets:
// "bucket", "psqt", "positional", see trace.go) and "pawns" (eval converted to pawns by
// nnue.PawnScale, from the side to move's point of view) is appended last.
//
// Without -json the output starts with two lines naming the network and the unit
// conversion, then one line per position; the README's first command prints
//
//	network: embedded default (nnue.Default): all[768]→256×2 | 8 stacks: Perspective(side to move first) → SCReLU(QA=255, /255, →1)
//	eval: the network's output for the side to move, in its internal units; pawns = eval ÷ 361 (the declared pawn value)
//	Black to move: eval -21 (Black's view) = -0.06 pawns; White's view +0.06 pawns | rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
//
// For networks whose pawn value depends on the material (nnue.Architecture.PawnByMaterial:
// Stockfish 19) each line also gives the divisor used, "(÷297.6)".
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/cli"
	"github.com/nnuekit/nnuekit/internal/epdfile"
	"github.com/nnuekit/nnuekit/nnue"
)

// options are the command-line flags.
type options struct {
	net         string
	fen         string
	epd         string
	pgn         string
	moves       string
	json        bool
	incremental bool
	verify      bool
	info        bool
	describe    bool
	verbose     bool
	arch        string // -arch: the declared architecture of a bullet file
	header      int
	transposed  bool
	float       string // -float QA,QB
	wrap        bool
	verified    int // positions -verify compared (for its report)
}

func main() {
	var o options
	flag.StringVar(&o.net, "net", "", "network file (nnuekit native, thesis .nn, …); default: the embedded nnue.Default()")
	flag.StringVar(&o.fen, "fen", "", "evaluate this FEN (with -incremental: the start position)")
	flag.StringVar(&o.epd, "epd", "", "evaluate every position of this EPD/FEN file (one per line)")
	flag.StringVar(&o.pgn, "pgn", "", "with -incremental: play through every game of this PGN file")
	flag.StringVar(&o.moves, "moves", "", `with -incremental: UCI moves to play, e.g. "e2e4 e7e5"`)
	flag.BoolVar(&o.json, "json", false, `print one JSON object per position: {"fen": "...", "eval": <int>}`)
	flag.BoolVar(&o.incremental, "incremental", false, "update accumulators move by move instead of refreshing")
	flag.BoolVar(&o.verify, "verify", false, "with -incremental: also refresh and fail on any difference")
	flag.BoolVar(&o.info, "info", false, "print the network's architecture and int16 accumulator bound to stderr")
	flag.BoolVar(&o.describe, "describe", false, "print the network's architecture string (one line) and exit; with -json as {\"architecture\": …}")
	flag.BoolVar(&o.verbose, "v", false, "with -describe: also print the multi-line description of the architecture")
	flag.StringVar(&o.arch, "arch", "", "with -net: the file is bullet's weights (no header of its own) for this declared architecture string (doc/bullet.md)")
	flag.IntVar(&o.header, "header", 0, "with -arch: bytes before the parameters, skipped (Stormphrax's net013: 64)")
	flag.BoolVar(&o.transposed, "transposed", false, "with -arch: single-layer output weights saved [B][2N] (bullet's .transpose())")
	flag.StringVar(&o.float, "float", "", "with -arch: QA,QB — the file holds float32 parameters, quantised at load with these constants")
	flag.BoolVar(&o.wrap, "wrap", false, "with -float: quantised values outside their integer type wrap (keep their low bits) instead of being an error")
	cli.Parse("evaluate", usage)
	cli.Run("evaluate", func(w io.Writer) error { return run(o, w) })
}

// usage is the synopsis and an example, printed above the flags by -help.
const usage = `evaluate: print an NNUE network's evaluation of chess positions.

Usage:
  evaluate [-net FILE] (-fen FEN | -epd FILE) [-json] [-trace] [-info]
  evaluate [-net FILE] -incremental (-moves "e2e4 e7e5 …" | -pgn FILE) [-fen FEN] [-json] [-verify]
  evaluate [-net FILE] -describe [-v] [-json]
  evaluate -net FILE -arch 'STRING' [-header N] [-transposed] [-float QA,QB [-wrap]] (any of the above)

Example:
  go run ./examples/evaluate -fen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

Without -net the embedded default network (nnue.Default) is used. The file format
(nnuekit native, thesis .nn, Stockfish .nnue) is detected from its first bytes; bullet's
weight files record no architecture and are read with -arch (doc/bullet.md).

Flags:
`

// loadNetwork loads the network named by -net: a bullet file declared by -arch and its
// layout flags, or any format nnue.LoadFile detects.
func loadNetwork(o options) (*nnue.Network, error) {
	layout, err := bulletLayout(o)
	if err != nil {
		return nil, err
	}
	switch {
	case o.arch != "":
		spec, err := nnue.ParseSpec(o.arch)
		if err != nil {
			return nil, fmt.Errorf("-arch: %w", err)
		}
		return nnue.LoadBulletFile(o.net, spec, layout)
	case o.net == "":
		return nnue.Default() // the embedded default network (doc/default-network.md)
	}
	return nnue.LoadFile(o.net)
}

// bulletLayout checks the flags of a -arch file and returns its layout.
func bulletLayout(o options) (nnue.BulletFile, error) {
	f := nnue.BulletFile{Header: o.header, Transposed: o.transposed, Wrap: o.wrap}
	if o.arch == "" {
		if o.header != 0 || o.transposed || o.float != "" || o.wrap {
			return f, fmt.Errorf("-header, -transposed, -float and -wrap describe a file read with -arch")
		}
		return f, nil
	}
	if o.net == "" {
		return f, fmt.Errorf("-arch declares the architecture of the -net file: -net is required")
	}
	if o.header < 0 {
		return f, fmt.Errorf("-header %d: must be ≥ 0", o.header)
	}
	if o.wrap && o.float == "" {
		return f, fmt.Errorf("-wrap applies to a -float file")
	}
	if o.float != "" {
		qa, qb, ok := strings.Cut(o.float, ",")
		a, err1 := strconv.ParseInt(qa, 10, 16)
		b, err2 := strconv.ParseInt(qb, 10, 16)
		if !ok || err1 != nil || err2 != nil || a <= 0 || b <= 0 {
			return f, fmt.Errorf("-float %q: want QA,QB, two integers in 1…32767", o.float)
		}
		f.Float, f.QA, f.QB = true, int32(a), int32(b)
	}
	return f, nil
}

// jsonExtra, when set (by a format-specific file's init, e.g. for Stockfish nets), returns
// extra members appended after "eval", each written as `, "key": value`.
var jsonExtra func(net *nnue.Network, pos *board.Position, out nnue.Output) string

// printer writes results in the chosen format.
type printer struct {
	w       io.Writer
	json    bool
	net     *nnue.Network
	netName string // -net path, or "" for the embedded default
	started bool   // the plain-text header has been written
}

// colorName returns "White" or "Black".
func colorName(c board.Color) string {
	if c == board.Black {
		return "Black"
	}
	return "White"
}

// pawns converts eval (an internal value from one side's point of view) to pawns for
// pos with nnue.PawnScale: round(100·eval ÷ divisor)/100 with the rounding half away from
// zero, as Stockfish prints (for a fixed divisor this is also the thesis engine's and
// Stockfish 13–16's rounding of %.2f in all but exact-half cases). It returns the value,
// its text with two decimals and a sign ("-0.00" for a small negative eval) and the
// divisor.
func pawns(net *nnue.Network, pos *board.Position, eval int32) (float64, string, float64) {
	div, _ := nnue.PawnScale(net, pos)
	cp := math.Round(100 * math.Abs(float64(eval)) / div)
	v, sign := cp/100, "+"
	if eval < 0 {
		v, sign = -v, "-"
	}
	return v, fmt.Sprintf("%s%.2f", sign, cp/100), div
}

// materialDependent reports whether the network declares a pawn value that depends on
// the position (nnue.Architecture.PawnByMaterial: Stockfish 19).
func materialDependent(net *nnue.Network) bool { return net.Architecture().PawnByMaterial }

// header writes the two lines naming the network and the conversion.
func (p *printer) header(pos *board.Position) error {
	name := p.netName
	if name == "" {
		name = "embedded default (nnue.Default)"
	}
	div, rule := nnue.PawnScale(p.net, pos)
	conv := fmt.Sprintf("pawns = eval ÷ %.0f (%s)", div, rule)
	if materialDependent(p.net) {
		conv = "pawns = round(100·eval ÷ a)/100, a = Stockfish 19's material-dependent pawn value (uci.cpp win_rate_params), given on each line"
	}
	_, err := fmt.Fprintf(p.w, "network: %s: %v\neval: the network's output for the side to move, in its internal units; %s\n", name, p.net, conv)
	return err
}

func (p *printer) print(pos *board.Position, out nnue.Output) error {
	fen := pos.FEN()
	pv, ptext, div := pawns(p.net, pos, out.Value)
	if p.json {
		q, err := json.Marshal(fen)
		if err != nil {
			return err
		}
		extra := ""
		if jsonExtra != nil {
			extra = jsonExtra(p.net, pos, out)
		}
		_, err = fmt.Fprintf(p.w, "{\"fen\": %s, \"eval\": %d%s, \"pawns\": %s}\n", q, out.Value, extra, strconv.FormatFloat(pv, 'f', 2, 64))
		return err
	}
	if !p.started {
		p.started = true
		if err := p.header(pos); err != nil {
			return err
		}
	}
	stm := pos.SideToMove()
	_, white, _ := pawns(p.net, pos, -out.Value)
	if stm == board.White {
		white = ptext
	}
	divText := ""
	if materialDependent(p.net) {
		divText = fmt.Sprintf(" (÷%.1f)", div)
	}
	_, err := fmt.Fprintf(p.w, "%s to move: eval %d (%s's view) = %s pawns%s; White's view %s pawns | %s\n",
		colorName(stm), out.Value, colorName(stm), ptext, divText, white, fen)
	if err == nil {
		err = printTrace(p.w, p.net, pos) // -trace (trace.go)
	}
	return err
}

// run loads the network named by o.net and evaluates what o asks for, writing to w.
func run(o options, w io.Writer) error {
	net, err := loadNetwork(o)
	if err != nil {
		return err
	}
	if o.info {
		printInfo(os.Stderr, net)
	}
	if o.describe {
		return describe(net, o, w)
	}
	if err := runWith(net, &o, w); err != nil {
		return err
	}
	if o.verify {
		fmt.Fprintf(os.Stderr, "evaluate: -verify: the incremental evaluation equals a full refresh on all %d positions\n", o.verified)
	}
	return nil
}

// describe writes the network's architecture string (nnue.Spec.String), one line; with
// -json as {"architecture": "…"}; with -v followed by nnue.Spec.Describe.
func describe(net *nnue.Network, o options, w io.Writer) error {
	spec, err := net.Spec()
	if err != nil {
		return fmt.Errorf("the network's architecture cannot be declared: %w", err)
	}
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false) // keep the stages' '>' readable
		return enc.Encode(struct {
			Architecture string `json:"architecture"`
		}{spec.String()})
	}
	if _, err := fmt.Fprintln(w, spec); err != nil {
		return err
	}
	if o.verbose {
		_, err = io.WriteString(w, spec.Describe())
	}
	return err
}

// printInfo describes the network: layers, quantization, and the worst-case accumulator
// analysis done at load time (nnue.AccumulatorBound).
func printInfo(w io.Writer, net *nnue.Network) {
	fmt.Fprintf(w, "network: %v\n", net)
	if d := net.Description(); d != "" {
		fmt.Fprintf(w, "description: %s\n", d)
	}
	if q := net.Architecture().Quantization; q != "" {
		fmt.Fprintf(w, "quantization: %s\n", q)
	}
	fmt.Fprintf(w, "accumulator: %v\n", net.FeatureTransformer().Bound())
	printSIMDInfo(w)
}

// runWith is run with an already loaded network; it counts the positions -verify
// compared in o.verified.
func runWith(net *nnue.Network, o *options, w io.Writer) error {
	p := &printer{w: w, json: o.json, net: net, netName: o.net}
	if o.incremental {
		return runIncremental(o, net, p)
	}
	if o.pgn != "" || o.moves != "" {
		return errors.New("-pgn and -moves need -incremental")
	}
	ev := net.NewEvaluator()
	evalOne := func(pos *board.Position) error {
		ev.Refresh(pos)
		return p.print(pos, ev.Forward(ev.Accumulator(), pos))
	}
	switch {
	case o.fen != "" && o.epd != "":
		return errors.New("use either -fen or -epd")
	case o.fen != "":
		pos, err := board.ParseFEN(o.fen)
		if err != nil {
			return err
		}
		return evalOne(&pos)
	case o.epd != "":
		return epdfile.Each(o.epd, evalOne)
	}
	return errors.New("nothing to evaluate: use -fen FEN or -epd FILE")
}

// runIncremental plays move lists through an AccumulatorStack.
func runIncremental(o *options, net *nnue.Network, p *printer) error {
	var games []board.Game
	switch {
	case o.pgn != "" && o.moves != "":
		return errors.New("use either -pgn or -moves")
	case o.pgn != "":
		if o.fen != "" {
			return errors.New("-fen is not used with -pgn (a game's FEN tag sets its start)")
		}
		f, err := os.Open(o.pgn)
		if err != nil {
			return err
		}
		defer f.Close()
		games, err = board.ReadPGN(f)
		if err != nil {
			return err
		}
	case o.moves != "" || o.fen != "":
		g := board.Game{Start: board.StartPosition()}
		if o.fen != "" {
			pos, err := board.ParseFEN(o.fen)
			if err != nil {
				return err
			}
			g.Start = pos
		}
		pos := g.Start
		for _, s := range strings.Fields(o.moves) {
			m, err := board.ParseUCIMove(&pos, s)
			if err != nil {
				return err
			}
			pos, _ = pos.Play(m)
			g.Moves = append(g.Moves, m)
		}
		games = []board.Game{g}
	default:
		return errors.New("-incremental needs -moves or -pgn")
	}
	st := net.NewAccumulatorStack()
	ev := net.NewEvaluator()
	for _, g := range games {
		st.Reset(&g.Start)
		for i := 0; ; i++ {
			out := st.Output()
			if o.verify {
				if want := ev.Evaluate(st.Position()); want != out.Value {
					return fmt.Errorf("incremental %d != refresh %d at %s", out.Value, want, st.Position().FEN())
				}
				o.verified++
			}
			if err := p.print(st.Position(), out); err != nil {
				return err
			}
			if i == len(g.Moves) {
				break
			}
			after, dirty := st.Position().Play(g.Moves[i])
			st.Push(&after, &dirty)
		}
	}
	return nil
}
