package nnue

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/testenv"
	"pgregory.net/rapid"
)

// sf19Row is one row of sf19-eval.csv, split into its printed and internal columns.
type sf19Row struct {
	fen     string
	printed string // bucket, nnue_white, psqt0..7, positional0..7 as printed
	ints    string // psqt_int0..7, positional_int0..7, nnue_internal
	divisor float64
}

func sf19Rows(t testing.TB) []sf19Row {
	t.Helper()
	var out []sf19Row
	for _, r := range sfReadCSV(t, "sf19-eval.csv") {
		if len(r.cols) != 37 {
			t.Fatalf("%s: %d columns", r.fen, len(r.cols))
		}
		d, err := strconv.ParseFloat(r.cols[36], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sf19Row{r.fen, strings.Join(r.cols[:18], ","), strings.Join(r.cols[18:35], ","), d})
	}
	return out
}

// sf19Columns formats a trace the way sf19-eval.csv stores it.
func sf19Columns(tr Trace) (printed, ints string) {
	white := tr.Value
	if tr.SideToMove == board.Black {
		white = -white
	}
	a := tr.PawnDivisor
	p := []string{strconv.Itoa(tr.Bucket), fmt.Sprintf("%.2f", 0.01*float64(sfToCP(white, a)))}
	var in []string
	for _, v := range tr.PSQT {
		p = append(p, formatSF19Pawns(v, a))
		in = append(in, strconv.Itoa(int(v)))
	}
	for _, v := range tr.Positional {
		p = append(p, formatSF19Pawns(v, a))
		in = append(in, strconv.Itoa(int(v)))
	}
	in = append(in, strconv.Itoa(int(tr.Value)))
	return strings.Join(p, ","), strings.Join(in, ",")
}

// TestStockfish19Golden evaluates every row of sf19-eval.csv by full refresh at every
// SIMD level (run it with -tags purego too) and compares the internal integers exactly
// and every printed number as a string, through the material-dependent conversion.
func TestStockfish19Golden(t *testing.T) {
	n := sfTestNetwork(t, sfNetSF19)
	rows := sf19Rows(t)
	if len(rows) != 5283 {
		t.Fatalf("%d rows", len(rows))
	}
	sfForEachLevel(t, func(t *testing.T) {
		e := n.NewEvaluator()
		bad := 0
		for i := 0; i < len(rows); i += sfGoldenStep() {
			r := rows[i]
			pos := sfParsePos(t, r.fen)
			tr := e.Trace(&pos)
			if math.Abs(tr.PawnDivisor-r.divisor) > 1e-9 {
				t.Fatalf("%s: pawn divisor %v, want %v", r.fen, tr.PawnDivisor, r.divisor)
			}
			p, in := sf19Columns(tr)
			if p != r.printed || in != r.ints {
				if bad++; bad <= 5 {
					t.Errorf("%s:\n got %s | %s\nwant %s | %s", r.fen, p, in, r.printed, r.ints)
				}
			}
			if v := e.Evaluate(&pos); v != tr.Value {
				t.Fatalf("%s: Evaluate %d, Trace %d", r.fen, v, tr.Value)
			}
		}
		if bad > 0 {
			t.Errorf("%d of %d positions differ", bad, len(rows))
		}
	})
}

// TestStockfish19File checks the header and hashes of the Stockfish 19 net, that WriteTo
// rebuilds it byte for byte, and that truncated or altered copies fail with an error
// naming the field (NNUEKIT_FULL only).
func TestStockfish19File(t *testing.T) {
	if testing.Short() || !testenv.Full() {
		t.Skip("re-encodes the 98 MB file; set NNUEKIT_FULL=1")
	}
	f := sfTestFile(t, sfNetSF19)
	if f.Arch != sfThreats || f.HalfDims != 1024 || f.Hash != 0xA85B2205 || f.FTHash^f.NetHash != 0xA85B2205 ||
		len(f.Description) != 84 || f.Threats == nil || f.Threats.ThreatFeatures != 59808 || f.Threats.PairFeatures != 4560 {
		t.Fatalf("header: arch %v width %d hash %#x", f.Arch, f.HalfDims, f.Hash)
	}
	if f.Stacks[0].FC0.In != 1024 || f.Stacks[0].FC0.Out != 32 || f.Stacks[0].FC1.In != 64 || f.Stacks[0].FC2.In != 128 {
		t.Fatal("layer shapes")
	}
	raw, err := os.ReadFile(filepath.Join(sfSharedDir(t), "nets", sfNetSF19))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), raw) {
		t.Fatal("WriteTo does not reproduce the Stockfish 19 file byte for byte")
	}
	biasEnd := 121 + int(leU32(raw[117:])) // the bias block: magic at 100, byte count at 117
	for _, tc := range []struct {
		name  string
		mut   func(b []byte) []byte
		field string
	}{
		{"truncated in the threat rows", func(b []byte) []byte { return b[:30_000_000] }, "threat weights"},
		{"truncated in the stacks", func(b []byte) []byte { return b[:len(b)-1000] }, "layer stacks"},
		{"trailing byte", func(b []byte) []byte { return append(b, 0) }, "end of file"},
		{"header hash", func(b []byte) []byte { b[4] ^= 1; return b }, "header hash"},
		{"feature hash", func(b []byte) []byte { b[12+84] ^= 1; return b }, "feature transformer hash"},
		{"bias magic", func(b []byte) []byte { b[100] ^= 1; return b }, "feature transformer biases"},
		{"threat PSQT magic", func(b []byte) []byte { b[biasEnd+59808*1024] ^= 1; return b }, "threat PSQT weights"},
		{"stack hash", func(b []byte) []byte { b[len(b)-8*35208] ^= 1; return b }, "layer stack 0 hash"},
	} {
		b := tc.mut(append([]byte(nil), raw...))
		_, err := parseSF(b)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, tc.field) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func leU32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// TestStockfish19TraceTable checks the layout of the Stockfish 19 table.
func TestStockfish19TraceTable(t *testing.T) {
	n := sfTestNetwork(t, sfNetSF19)
	pos := sfParsePos(t, "rnb1kb2/2q2p1Q/p2pp1r1/1p6/3NP3/P1N1P1P1/1PP1B2P/R3K2R b KQq - 0 15")
	var buf bytes.Buffer
	if err := n.NewEvaluator().Trace(&pos).WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"NNUE network contributions (Normalized, Black to move)\n",
		"|  0         |  -  1.74   |  +  1.02   |  -  0.72   |\n",
		"|  6         |  -  0.95   |  -  0.38   |  -  1.32   | <-- this bucket is used\n",
		"NNUE evaluation          -394 (side to move, internal units)\n",
		"NNUE evaluation        +1.32 (white side)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestComputeBound8 checks the histogram bound of int8 rows against the quickselect
// bound of the same rows widened to int16.
func TestComputeBound8(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct{ nf, m, k int }{{50, 64, 7}, {300, 32, 300}, {10, 32, 20}, {1, 32, 0}} {
		w8 := make([]int8, tc.nf*tc.m)
		w16 := make([]int16, len(w8))
		for i := range w8 {
			w8[i] = int8(rng.IntN(256) - 128)
			w16[i] = int16(w8[i])
		}
		got := computeBound8(tc.nf, tc.m, tc.k, w8)
		want := computeBound(tc.nf, tc.m, tc.k, w16, make([]int16, tc.m))
		if got != want {
			t.Errorf("%+v: %v, want %v", tc, got, want)
		}
	}
}

// TestStockfishRandomGames plays random legal games (rapid: pushes, pops and lazy
// evaluations, with and without a refresh table) through an AccumulatorStack on the real
// Stockfish 16 and 19 nets and checks every evaluation against a full refresh.
func TestStockfishRandomGames(t *testing.T) {
	for _, name := range []string{sfNetSF16, sfNetSF19} {
		t.Run(name, func(t *testing.T) {
			n := sfTestNetwork(t, name)
			roots := startPositions(t)
			ev := n.NewEvaluator()
			rapid.Check(t, func(rt *rapid.T) {
				root := roots[rapid.IntRange(0, len(roots)-1).Draw(rt, "root")]
				st := n.NewAccumulatorStack()
				if rapid.Bool().Draw(rt, "table") {
					st.UseRefreshTable(n.NewRefreshTable())
				}
				st.Reset(&root)
				steps := rapid.IntRange(1, 60).Draw(rt, "steps")
				for k := 0; k < steps; k++ {
					pos := st.Position()
					moves := pos.LegalMoves()
					action := rapid.IntRange(0, 9).Draw(rt, "action")
					switch {
					case action == 0 && st.Len() > 1:
						st.Pop()
					case action <= 2:
						checkStackEval(rt, st, ev)
					case len(moves) > 0:
						m := moves[rapid.IntRange(0, len(moves)-1).Draw(rt, "move")]
						after, dirty := pos.Play(m)
						st.Push(&after, &dirty)
					}
				}
				checkStackEval(rt, st, ev)
			})
		})
	}
}

// TestStockfish19NoAllocs: with the Stockfish 19 net, a refresh evaluation, a forward
// pass and a search's push / evaluate / null / pop cycle (plain and with a refresh table,
// over a random game with captures and king moves) allocate nothing once warmed up.
func TestStockfish19NoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	n := sfTestNetwork(t, sfNetSF19)
	rng := rand.New(rand.NewPCG(19, 1))
	root := board.StartPosition()
	var game []board.Move
	pos := root
	for len(game) < 80 {
		moves := pos.LegalMoves()
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		game = append(game, m)
		pos, _ = pos.Play(m)
	}
	ev := n.NewEvaluator()
	ev.Evaluate(&pos)
	if a := testing.AllocsPerRun(20, func() { ev.Evaluate(&pos) }); a != 0 {
		t.Errorf("Evaluator.Evaluate: %v allocations, want 0", a)
	}
	if a := testing.AllocsPerRun(20, func() { ev.Forward(ev.Accumulator(), &pos) }); a != 0 {
		t.Errorf("Evaluator.Forward: %v allocations, want 0", a)
	}
	for _, table := range []bool{false, true} {
		st := n.NewAccumulatorStack()
		if table {
			st.UseRefreshTable(n.NewRefreshTable())
		}
		st.Reserve(len(game) + 2)
		cycle := func() {
			st.Reset(&root)
			st.Evaluate()
			for _, m := range game {
				st.PushMove(m)
				st.Evaluate()
				if !st.Position().InCheck() {
					st.PushNull()
					st.Evaluate()
					st.Pop()
				}
			}
		}
		if a := testing.AllocsPerRun(3, cycle); a != 0 {
			t.Errorf("table %v: %v allocations per game of %d plies, want 0", table, a, len(game))
		}
	}
}

// TestStockfish19HybridKingUpdate: an own-king move that stays on its side of the d/e line
// updates the threat/pair part and refreshes only the HalfKAv2_hm part (no perspective
// refresh is counted), with and without a refresh table; a move across the line refreshes
// the mover's perspective. Every accumulator (values, PSQT, both parts) equals a full
// refresh of the position.
func TestStockfish19HybridKingUpdate(t *testing.T) {
	n := sfTestNetwork(t, sfNetSF19)
	// White's king on e1 with f1, d1 free: Kf1 stays on files e–h, Kd1 crosses.
	root, err := board.ParseFEN("r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 2 8")
	if err != nil {
		t.Fatal(err)
	}
	ev := n.NewEvaluator()
	for _, c := range []struct {
		move    string
		refresh int // perspective refreshes the move's entry costs
	}{{"e1f1", 0}, {"e1d1", 1}} {
		for _, table := range []bool{false, true} {
			st := n.NewAccumulatorStack()
			if table {
				st.UseRefreshTable(n.NewRefreshTable())
			}
			st.Reset(&root)
			st.Evaluate()
			r0 := st.Refreshes
			m, err := board.ParseUCIMove(&root, c.move)
			if err != nil {
				t.Fatal(err)
			}
			pos := *st.PushMove(m)
			got := st.Evaluate()
			if d := st.Refreshes - r0; d != c.refresh {
				t.Errorf("%s table %v: %d refreshes for the move, want %d", c.move, table, d, c.refresh)
			}
			if want := ev.Evaluate(&pos); got != want {
				t.Errorf("%s table %v: Evaluate %d, refresh %d", c.move, table, got, want)
			}
			acc, ref := st.Accumulator(), ev.Accumulator()
			for p := range 2 {
				if !slices.Equal(acc.v[p], ref.v[p]) || !slices.Equal(acc.psqt[p], ref.psqt[p]) ||
					!slices.Equal(acc.mix.tri[p], ref.mix.tri[p]) || !slices.Equal(acc.mix.psqtTri[p], ref.mix.psqtTri[p]) {
					t.Errorf("%s table %v: perspective %d differs from a refresh", c.move, table, p)
				}
			}
		}
	}
}

// The Stockfish 19 net's feature set is sfThreatsSpec's, and its architecture the
// declared string of its loader.
func TestStockfish19Declared(t *testing.T) {
	n := sfTestNetwork(t, sfNetSF19)
	if got, want := n.FeatureSet().String(), featureset.MustParse(sfThreatsSpec).String(); got != want {
		t.Errorf("feature set %s, want %s", got, want)
	}
	spec, err := n.Spec()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spec.String(), shippedSpecs[sfNetSF19]; got != want {
		t.Errorf("spec\n %s\nwant\n %s", got, want)
	}
}
