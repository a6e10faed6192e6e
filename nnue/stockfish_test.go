package nnue

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

var (
	sfNetsMu sync.Mutex
	sfNets   = map[string]*Network{}
)

// sfTestNetwork loads (once per test binary) a Stockfish net through the library's
// format-detecting LoadFile.
func sfTestNetwork(t testing.TB, name string) *Network {
	t.Helper()
	sfSkipBigUnderRace(t, name)
	dir := sfSharedDir(t)
	sfNetsMu.Lock()
	defer sfNetsMu.Unlock()
	if n, ok := sfNets[name]; ok {
		return n
	}
	n, err := LoadFile(filepath.Join(dir, "nets", name))
	if err != nil {
		t.Fatal(err)
	}
	sfNets[name] = n
	return n
}

// sfForEachLevel runs f at every SIMD level available here (under -race only at the
// generic level, whose Go loops the detector instruments, and the best one), restoring
// the level after.
func sfForEachLevel(t *testing.T, f func(t *testing.T)) {
	levels := simd.Available()
	if raceEnabled && len(levels) > 2 {
		levels = []simd.ISA{levels[0], levels[len(levels)-1]}
	}
	for _, l := range levels {
		t.Run(l.String(), func(t *testing.T) {
			prev, err := simd.SetLevel(l)
			if err != nil {
				t.Fatal(err)
			}
			defer simd.SetLevel(prev)
			f(t)
		})
	}
}

func sfParsePos(t testing.TB, fen string) board.Position {
	t.Helper()
	pos, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return pos
}

// sfGoldenColumns formats a trace the way the golden CSV stores it.
func sfGoldenColumns(tr Trace) string {
	white := tr.Value
	if tr.SideToMove == board.Black {
		white = -white
	}
	if len(tr.PSQT) == 1 { // HalfKP: nnue_white only
		return formatSFPawns(white, tr.PawnValue)
	}
	cols := []string{strconv.Itoa(tr.Bucket), formatSFPawns(white, tr.PawnValue)}
	for _, v := range tr.PSQT {
		cols = append(cols, formatSFPawns(v, tr.PawnValue))
	}
	for _, v := range tr.Positional {
		cols = append(cols, formatSFPawns(v, tr.PawnValue))
	}
	return strings.Join(cols, ",")
}

// TestStockfishGolden evaluates every golden position by full refresh through the
// library (LoadFile → Network → Evaluator.Trace) at every SIMD level and compares every
// printed number as a string (sfGoldenStep: every position at the starting level, every
// 10th at the others unless NNUEKIT_FULL; every 10th with -short, 50th with -race).
func TestStockfishGolden(t *testing.T) {
	for _, tc := range []struct{ net, csv string }{
		{sfNetHalfKP, "sf13-halfkp-eval.csv"},
		{sfNetSFNNv5, "sf15.1-eval.csv"},
		{sfNetSF16, "sf16-eval.csv"},
	} {
		t.Run(tc.net, func(t *testing.T) {
			n := sfTestNetwork(t, tc.net)
			rows := sfReadCSV(t, tc.csv)
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
					if got, want := sfGoldenColumns(tr), strings.Join(r.cols, ","); got != want {
						if bad++; bad <= 5 {
							t.Errorf("%s:\n got %s\nwant %s", r.fen, got, want)
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
		})
	}
}

// TestStockfishIncremental plays every legal move (and one reply) from golden positions
// through an AccumulatorStack (lazy updates, refresh on own-king moves) and compares
// with a full refresh, at every SIMD level. The root values are the engines' goldens.
// NNUEKIT_LONG=1 uses every position; by default every 80th (every 200th with -short,
// every 1000th with -race),
// and a third of those at the slow generic level.
func TestStockfishIncremental(t *testing.T) {
	step := 80
	if testing.Short() {
		step = 200
	}
	if raceEnabled {
		step = 1000
	}
	if os.Getenv("NNUEKIT_LONG") != "" {
		step = 1
	}
	for _, tc := range []struct{ net, csv string }{
		{sfNetHalfKP, "sf13-halfkp-eval.csv"},
		{sfNetSFNNv5, "sf15.1-eval.csv"},
		{sfNetSF16, "sf16-eval.csv"},
		{sfNetSF19, "sf19-eval.csv"},
	} {
		t.Run(tc.net, func(t *testing.T) {
			n := sfTestNetwork(t, tc.net)
			rows := sfReadCSV(t, tc.csv)
			sfForEachLevel(t, func(t *testing.T) {
				e := n.NewEvaluator()
				s := n.NewAccumulatorStack()
				tab := n.NewAccumulatorStack() // same moves through a refresh table
				rt := n.NewRefreshTable()
				tab.UseRefreshTable(rt)
				st := step
				if simd.Level() == simd.Generic {
					st *= 3
				}
				for i := 0; i < len(rows); i += st {
					r := rows[i]
					pos := sfParsePos(t, r.fen)
					s.Reset(&pos)
					tab.Reset(&pos)
					v := s.Evaluate()
					if vt := tab.Evaluate(); vt != v {
						t.Fatalf("%s: root with refresh table %d, without %d", r.fen, vt, v)
					}
					want := r.cols[0]
					if len(r.cols) > 1 {
						want = r.cols[1]
					}
					if got := sfWhitePawns(n, &pos, v); got != want {
						t.Fatalf("%s: root %s want %s", r.fen, got, want)
					}
					for _, m := range pos.LegalMoves() {
						after, dirty := pos.Play(m)
						s.Push(&after, &dirty)
						tab.Push(&after, &dirty)
						want := e.Evaluate(&after)
						if got := s.Evaluate(); got != want {
							t.Fatalf("%s %s: incremental %d, refresh %d", r.fen, m, got, want)
						}
						if got := tab.Evaluate(); got != want {
							t.Fatalf("%s %s: with refresh table %d, refresh %d", r.fen, m, got, want)
						}
						tab.Pop()
						if replies := after.LegalMoves(); len(replies) > 0 {
							m2 := replies[(i+int(m))%len(replies)]
							after2, dirty2 := after.Play(m2)
							s.Push(&after2, &dirty2)
							if got, want := s.Evaluate(), e.Evaluate(&after2); got != want {
								t.Fatalf("%s %s %s: incremental %d, refresh %d", r.fen, m, m2, got, want)
							}
							s.Pop()
						}
						s.Pop()
					}
				}
				// Sparse samples may never revisit a king square; with Stockfish 19's ~100
				// threat features, entries left by unrelated positions (the generic level's
				// sparser sample) may all differ by more than the active set.
				sparse := simd.Level() == simd.Generic && n.arch.PawnByMaterial
				if step <= 80 && !sparse && rt.Hits == 0 {
					t.Errorf("refresh table never hit (%d misses)", rt.Misses)
				}
			})
		})
	}
}

// sfWhitePawns formats v (side to move) from White's side as the engine's "NNUE
// evaluation … (white side)" line prints it (without a leading '+').
func sfWhitePawns(n *Network, pos *board.Position, v int32) string {
	if n.arch.PawnByMaterial {
		return fmt.Sprintf("%.2f", 0.01*float64(sfToCP(sfWhite(v, pos), sfMaterialPawnDivisor(pos))))
	}
	return formatSFPawns(sfWhite(v, pos), n.Architecture().PawnValue)
}

func sfWhite(v int32, pos *board.Position) int32 {
	if pos.SideToMove() == board.Black {
		return -v
	}
	return v
}

func TestStockfishTraceTable(t *testing.T) {
	n := sfTestNetwork(t, sfNetSFNNv5)
	pos := sfParsePos(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	tr := n.NewEvaluator().Trace(&pos)
	var buf bytes.Buffer
	if err := tr.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		" NNUE network contributions (Black to move)\n",
		"|   Bucket   |  Material  | Positional |   Total    |\n",
		"|  7         |",
		" <-- this bucket is used\n",
		"(white side)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if rows := regexp.MustCompile(`(?m)^\|  [0-7]         \|  [-+ ] `).FindAllString(out, -1); len(rows) != 8 {
		t.Errorf("want 8 bucket rows:\n%s", out)
	}
}
