package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nnuekit/nnuekit/quant/dataset"
)

// fileStats summarizes a data file: games, positions, positions passing the thesis filters,
// results, and the WDL fit of thesis §5.2.1 on all positions and on the quiet ones.
type fileStats struct {
	games, positions, quiet int64
	results                 [4]int64 // by dataset.Result
	a, b, aQuiet, bQuiet    float64
	fitErr, fitQuietErr     error
	elapsed                 time.Duration
}

func readStats(path string) (fileStats, error) {
	var st fileStats
	f, err := os.Open(path)
	if err != nil {
		return st, err
	}
	defer f.Close()
	if isBinpack(path) {
		return readBinpackStats(f, path)
	}
	start := time.Now()
	r := dataset.NewReader(f)
	var all, quiet dataset.WDLFitter
	for {
		g, err := r.NextLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, err
		}
		st.games++
		st.positions += int64(len(g))
		st.results[g[0].Result]++
		for i := range g {
			all.Add(&g[i])
			if dataset.Quiet(&g[i]) {
				st.quiet++
				quiet.Add(&g[i])
			}
		}
	}
	st.a, st.b, st.fitErr = all.Fit()
	st.aQuiet, st.bQuiet, st.fitQuietErr = quiet.Fit()
	st.elapsed = time.Since(start)
	return st, nil
}

// readBinpackStats reads a datagen binpack chunk by chunk (one game each).
func readBinpackStats(f *os.File, path string) (fileStats, error) {
	var st fileStats
	start := time.Now()
	fi, err := f.Stat()
	if err != nil {
		return st, err
	}
	n, end, err := scanChunks(f, fi.Size(), path)
	if err != nil {
		return st, err
	}
	if end != fi.Size() {
		return st, fmt.Errorf("%s: an unfinished last chunk (%d bytes; -append cuts it)", path, fi.Size()-end)
	}
	var all, quiet dataset.WDLFitter
	r := dataset.NewBinpackReader(bufio.NewReaderSize(io.NewSectionReader(f, 0, end), 1<<20))
	for r.Next() {
		s := r.Sample()
		st.positions++
		all.Add(s)
		if dataset.Quiet(s) {
			st.quiet++
			quiet.Add(s)
		}
	}
	if err := r.Err(); err != nil {
		return st, fmt.Errorf("%s: %w", path, err)
	}
	// Results per game: the first sample of each chunk.
	var hdr [8]byte
	for off := int64(0); off < end; {
		if _, err := f.ReadAt(hdr[:], off); err != nil {
			return st, err
		}
		cs := int64(hdr[4]) | int64(hdr[5])<<8 | int64(hdr[6])<<16 | int64(hdr[7])<<24
		cr := dataset.NewBinpackReader(io.NewSectionReader(f, off, 8+cs))
		if cr.Next() {
			st.results[cr.Sample().Result]++
		}
		off += 8 + cs
	}
	st.games = n
	st.a, st.b, st.fitErr = all.Fit()
	st.aQuiet, st.bQuiet, st.fitQuietErr = quiet.Fit()
	st.elapsed = time.Since(start)
	return st, nil
}

func printStats(w io.Writer, path string, st fileStats) {
	fmt.Fprintf(w, "%s: %d games, %d positions (%.1f per game), %d quiet (thesis filters: not in check, best move not a capture, |score| ≤ 5000)\n",
		path, st.games, st.positions, float64(st.positions)/max(1, float64(st.games)), st.quiet)
	fmt.Fprintf(w, "results: 1-0 %d, 1/2-1/2 %d, 0-1 %d, unknown %d\n",
		st.results[dataset.WhiteWins], st.results[dataset.Draw], st.results[dataset.BlackWins], st.results[dataset.NoResult])
	if st.fitErr == nil {
		fmt.Fprintf(w, "WDL fit σ((score − a)/b), all positions with |score| ≤ %d: a = %.2f, b = %.2f (internal units)\n", dataset.WDLFitMaxScore, st.a, st.b)
	} else {
		fmt.Fprintf(w, "WDL fit (all positions): %v\n", st.fitErr)
	}
	if st.fitQuietErr == nil {
		fmt.Fprintf(w, "WDL fit, quiet positions: a = %.2f, b = %.2f (internal units)\n", st.aQuiet, st.bQuiet)
	} else {
		fmt.Fprintf(w, "WDL fit (quiet positions): %v\n", st.fitQuietErr)
	}
	fmt.Fprintf(w, "read in %s (%.0f positions/s)\n", st.elapsed.Round(time.Millisecond), float64(st.positions)/st.elapsed.Seconds())
}

// printStatsJSON prints st as one JSON object: {"file", "games", "positions", "quiet",
// "results": {"1-0", "1/2-1/2", "0-1", "unknown"}, "wdl_all": {"a", "b"} or null,
// "wdl_quiet": {"a", "b"} or null, "seconds"}; a and b in internal units.
func printStatsJSON(w io.Writer, path string, st fileStats) {
	type fit struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	var all, quiet *fit
	if st.fitErr == nil {
		all = &fit{st.a, st.b}
	}
	if st.fitQuietErr == nil {
		quiet = &fit{st.aQuiet, st.bQuiet}
	}
	b, _ := json.Marshal(struct {
		File      string           `json:"file"`
		Games     int64            `json:"games"`
		Positions int64            `json:"positions"`
		Quiet     int64            `json:"quiet"`
		Results   map[string]int64 `json:"results"`
		WDLAll    *fit             `json:"wdl_all"`
		WDLQuiet  *fit             `json:"wdl_quiet"`
		Seconds   float64          `json:"seconds"`
	}{path, st.games, st.positions, st.quiet, map[string]int64{
		"1-0": st.results[dataset.WhiteWins], "1/2-1/2": st.results[dataset.Draw],
		"0-1": st.results[dataset.BlackWins], "unknown": st.results[dataset.NoResult]},
		all, quiet, st.elapsed.Seconds()})
	fmt.Fprintln(w, string(b))
}
