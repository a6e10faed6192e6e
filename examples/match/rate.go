package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/elo"
)

// ratePGN rates the players of any PGN file (ours, cutechess's, fastchess's …) from its White,
// Black and Result tags, like Ordo: a table per pair of players (trinomial Elo; games are not
// assumed to come in pairs) and maximum-likelihood ratings anchored at anchor (default: the
// first player seen) = anchorElo, with prior virtual draws per pair. Games with result "*" are
// skipped. Errors: unreadable file or game (board.ReadPGN), fewer than two players.
func ratePGN(path, anchor string, anchorElo float64, prior int, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	games, err := board.ReadPGN(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	index := map[string]int{}
	var names []string
	id := func(n string) int {
		i, ok := index[n]
		if !ok {
			i = len(names)
			index[n] = i
			names = append(names, n)
		}
		return i
	}
	type key struct{ a, b int }
	tally := map[key]*elo.WDL{}
	skipped := 0
	for _, g := range games {
		a, b := id(g.Tags["White"]), id(g.Tags["Black"])
		var s float64
		switch g.Tags["Result"] {
		case "1-0":
			s = 1
		case "0-1":
			s = 0
		case "1/2-1/2":
			s = 0.5
		default:
			skipped++
			continue
		}
		if a > b {
			a, b, s = b, a, 1-s
		}
		if a == b {
			return fmt.Errorf("%s: a game of %q against itself", path, names[a])
		}
		k := key{a, b}
		if tally[k] == nil {
			tally[k] = &elo.WDL{}
		}
		addScore(tally[k], s)
	}
	if len(names) < 2 {
		return fmt.Errorf("%s: fewer than two players", path)
	}
	keys := make([]key, 0, len(tally))
	for k := range tally {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].a != keys[j].a {
			return keys[i].a < keys[j].a
		}
		return keys[i].b < keys[j].b
	})
	fmt.Fprintf(w, "%s: %d games rated, %d unfinished skipped, %d players\n", path, len(games)-skipped, skipped, len(names))
	fmt.Fprintf(w, "%-24s %-24s %5s %5s %5s %7s %22s\n", "player", "opponent", "W", "D", "L", "score", "Elo (trinomial 95%)")
	var pairs []elo.Pairing
	var notes []string
	for _, k := range keys {
		r := *tally[k]
		e, _ := elo.Trinomial(r)
		fmt.Fprintf(w, "%-24s %-24s %5d %5d %5d %6.1f%% %22s\n", names[k.a], names[k.b], r.W, r.D, r.L, 100*e.Score, eloCell(toEstimate(e), r))
		if noFiniteElo(r) {
			notes = append(notes, scoreNote(names[k.a], names[k.b], r))
		}
		pairs = append(pairs, elo.Pairing{A: k.a, B: k.b, WDL: elo.WDL{W: r.W, D: r.D + prior, L: r.L}})
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	an := 0
	if anchor != "" {
		i, ok := index[anchor]
		if !ok {
			return fmt.Errorf("-anchor %q is not a player of %s", anchor, path)
		}
		an = i
	}
	r, err := elo.MLRatings(len(names), pairs, an, anchorElo)
	if err != nil {
		fmt.Fprintf(w, "ML ratings: %v\n", err)
		return nil
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return r.Elo[order[i]] > r.Elo[order[j]] })
	fmt.Fprintf(w, "\nMaximum-likelihood ratings (logistic, draws = ½, %d virtual draws per pair), anchored at %s = %g (± is 95 %%):\n", prior, names[an], anchorElo)
	for rank, i := range order {
		fmt.Fprintf(w, "%3d %-24s %8.1f ± %5.1f\n", rank+1, names[i], r.Elo[i], Z95*r.SE[i])
	}
	return nil
}
