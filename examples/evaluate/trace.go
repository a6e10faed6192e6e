package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// Stockfish additions to the evaluate command (doc/stockfish-networks.md):
//
//   - -trace prints, after each position's line, the "NNUE network contributions" table
//     of Stockfish's eval command: for every bucket the Material (PSQT) and
//     Positional (Layers) columns in pawns (internal Value / 361 for Stockfish 15.1,
//     / 328 for 16, / 208 for Stockfish 13 nets, and Stockfish 19's material-dependent
//     round(100·v/a)/100 in its "Normalized" layout), side to move relative, the used
//     bucket marked, and the "NNUE evaluation" line(s).
//   - -json, for networks with PSQT buckets (Stockfish 15.1, 16, 19), appends to the
//     object "bucket": <int>, "psqt": [8 ints], "positional": [8 ints]: exactly the
//     integers Stockfish's trace prints before converting to pawns (each already divided
//     by OutputScale 16 with truncation, side to move relative). "eval" keeps its meaning,
//     the network's value for the side to move: NNUE::evaluate(pos, false) for 15.1 and
//     16, psqt/16 + positional/16 for 19.

// traceTable is set by -trace.
var traceTable bool

func init() {
	flag.BoolVar(&traceTable, "trace", false, "also print Stockfish's per-bucket PSQT/positional table for each position")
	jsonExtra = stockfishJSONExtra
}

// stockfishJSONExtra returns the Stockfish members of a -json object for networks with
// PSQT buckets, "" otherwise.
func stockfishJSONExtra(net *nnue.Network, pos *board.Position, _ nnue.Output) string {
	if net.FeatureTransformer().PSQTBuckets() == 0 {
		return ""
	}
	tr := net.NewEvaluator().Trace(pos)
	return fmt.Sprintf(`, "bucket": %d, "psqt": %s, "positional": %s`, tr.Bucket, intList(tr.PSQT), intList(tr.Positional))
}

func intList(v []int32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// printTrace writes the bucket table for pos when -trace is set.
func printTrace(w io.Writer, net *nnue.Network, pos *board.Position) error {
	if !traceTable {
		return nil
	}
	tr := net.NewEvaluator().Trace(pos)
	if err := tr.WriteTable(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
