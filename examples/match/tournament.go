package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nnuekit/nnuekit/internal/elo"
	"github.com/nnuekit/nnuekit/internal/outfile"
	"github.com/nnuekit/nnuekit/internal/uci"
)

// scheduled is one game of the tournament: its index, pairing, opening pair, colours.
type scheduled struct {
	idx          int // position in the schedule (PGN MatchGame tag − 1)
	pairing      int // index into tournament.pairings
	pair         int // opening pair number within the pairing (PGN Round − 1)
	white, black int // engine indices
	opening      int // index into tournament.openings
}

type pairing struct{ a, b int }

// tournament is a configured run.
type tournament struct {
	specs       []uci.Spec
	rejected    [][]uci.RejectedOption // per engine: options skipped with -lenient
	names       []string
	gauntlet    bool
	pairings    []pairing
	games       []scheduled
	openings    []opening
	tc          timeControl
	resign      resignRule
	draw        drawRule
	maxMoves    int
	sprt        *elo.SPRT
	anchor      int
	anchorElo   float64
	prior       int // virtual draws per pairing in the ML ratings
	event       string
	pgnPath     string
	jsonPath    string
	force       bool   // -force: -json-out may replace an existing file
	jsonReplace bool   // -json-out exists and may be replaced (-force, or this tournament's summary)
	unlock      func() // removes the -pgn lock (outfile.Lock); nil when none is held
	// pgnNeedsNewline: the resumed PGN does not end with a line end.
	pgnNeedsNewline bool
	concurrency     int
	quiet           bool
	logw            io.Writer

	mu           sync.Mutex
	results      []string // per game: "" not played, else the PGN result
	records      []gameInfo
	sprtDecision elo.Decision
	started      time.Time
	playedBefore int
}

// gameInfo is what the summary keeps of every finished game.
type gameInfo struct {
	idx                 int
	termination, reason string
	forfeit             string // engine name, "" if none
	plies               int
}

// makeSchedule lists the games: for each opening pair k, for each pairing (a, b), a game with
// a as White and then one with b as White from the same opening. Openings are used in file
// order, or shuffled by seed, and reused cyclically when there are fewer than the pairs.
// release removes the -pgn lock taken by setup (safe to call more than once).
func (t *tournament) release() {
	if t.unlock != nil {
		t.unlock()
		t.unlock = nil
	}
}

func (t *tournament) makeSchedule(gamesPerPairing int, shuffle bool, seed uint64) {
	n := len(t.specs)
	t.pairings = nil
	if t.gauntlet {
		for j := 1; j < n; j++ {
			t.pairings = append(t.pairings, pairing{0, j})
		}
	} else {
		for i := range n {
			for j := i + 1; j < n; j++ {
				t.pairings = append(t.pairings, pairing{i, j})
			}
		}
	}
	order := make([]int, len(t.openings))
	for i := range order {
		order[i] = i
	}
	if shuffle {
		rng := rand.New(rand.NewPCG(seed, 0x6d61746368))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	pairs := gamesPerPairing / 2
	t.games = nil
	for k := range pairs {
		op := order[k%len(order)]
		for pi, p := range t.pairings {
			for c := range 2 {
				w, b := p.a, p.b
				if c == 1 {
					w, b = b, w
				}
				t.games = append(t.games, scheduled{idx: len(t.games), pairing: pi, pair: k, white: w, black: b, opening: op})
			}
		}
	}
	t.results = make([]string, len(t.games))
}

// resume marks the games already in the PGN file as played, checking that they belong to this
// tournament.
func (t *tournament) resume(played []playedGame) error {
	for _, g := range played {
		if g.idx >= len(t.games) {
			return fmt.Errorf("%s: game %d is beyond this tournament's %d games (different settings?)", t.pgnPath, g.idx+1, len(t.games))
		}
		s := t.games[g.idx]
		if g.white != t.names[s.white] || g.black != t.names[s.black] || g.fen != t.openings[s.opening].start.FEN() {
			return fmt.Errorf("%s: game %d (%s–%s, %s) does not match this tournament's game %d (%s–%s, %s): different engines, openings or settings; use another -pgn",
				t.pgnPath, g.idx+1, g.white, g.black, g.fen, g.idx+1, t.names[s.white], t.names[s.black], t.openings[s.opening].start.FEN())
		}
		switch g.result {
		case "1-0", "0-1", "1/2-1/2":
		default:
			return fmt.Errorf("%s: game %d has result %q", t.pgnPath, g.idx+1, g.result)
		}
		if t.results[g.idx] != "" {
			return fmt.Errorf("%s: game %d appears twice", t.pgnPath, g.idx+1)
		}
		t.results[g.idx] = g.result
		info := gameInfo{idx: g.idx, termination: g.termination, reason: g.reason, plies: g.plies}
		if g.termination == termTime || g.termination == termInfraction || g.termination == termAbandoned {
			if g.result == "1-0" {
				info.forfeit = g.black
			} else if g.result == "0-1" {
				info.forfeit = g.white
			}
		}
		t.records = append(t.records, info)
	}
	t.playedBefore = len(played)
	if t.sprt != nil {
		t.checkSPRT()
	}
	return nil
}

// finished reports whether nothing is left to play: every game has a result, or the SPRT is
// decided.
func (t *tournament) finished() bool {
	return t.playedCount() == len(t.games) || (t.sprt != nil && t.sprtDecision != elo.Continue)
}

// score returns the points of engine e in game g (0, ½, 1) and whether e played in g.
func (t *tournament) score(g int, e int) (float64, bool) {
	s := t.games[g]
	r := t.results[g]
	if r == "" || (s.white != e && s.black != e) {
		return 0, false
	}
	var w float64
	switch r {
	case "1-0":
		w = 1
	case "1/2-1/2":
		w = 0.5
	}
	if s.white == e {
		return w, true
	}
	return 1 - w, true
}

func addScore(r *elo.WDL, s float64) {
	switch s {
	case 1:
		r.W++
	case 0.5:
		r.D++
	default:
		r.L++
	}
}

// tally returns engine a's results against the engines in opp (nil: every opponent), as W/D/L
// and as completed game pairs.
func (t *tournament) tally(a int, opp func(int) bool) (elo.WDL, elo.Penta) {
	var wdl elo.WDL
	var pen elo.Penta
	for i := 0; i < len(t.games); i += 2 {
		// Games 2k and 2k+1 are the two colours of one opening pair.
		s := t.games[i]
		o := s.black
		if s.white != a && s.black != a {
			continue
		}
		if o == a {
			o = s.white
		}
		if opp != nil && !opp(o) {
			continue
		}
		x, okx := t.score(i, a)
		y, oky := t.score(i+1, a)
		if okx {
			addScore(&wdl, x)
		}
		if oky {
			addScore(&wdl, y)
		}
		if okx && oky {
			pen.AddPair(x, y)
		}
	}
	return wdl, pen
}

func (t *tournament) playedCount() int {
	n := 0
	for _, r := range t.results {
		if r != "" {
			n++
		}
	}
	return n
}

// run plays the remaining games with t.concurrency workers, appending each finished game to
// the PGN file (if any). ctx cancellation drops the games in progress and kills their engines.
// Errors: the PGN cannot be opened or written (the run stops; the games played so far count),
// a game that cannot be written as PGN.
func (t *tournament) run(ctx context.Context) error {
	var f *os.File
	if t.pgnPath != "" {
		flags := os.O_WRONLY | os.O_APPEND
		if st, err := os.Stat(t.pgnPath); err != nil || st.Mode().IsRegular() {
			flags |= os.O_CREATE
		}
		var err error
		if f, err = os.OpenFile(t.pgnPath, flags, 0o644); err != nil {
			return err
		}
		defer f.Close()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan scheduled)
	done := make(chan gameRecord)
	var wg sync.WaitGroup
	var errMu sync.Mutex
	var firstErr error
	fail := func(err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		errMu.Unlock()
		cancel()
	}
	failed := func() error {
		errMu.Lock()
		defer errMu.Unlock()
		return firstErr
	}
	t.started = time.Now()
	if t.sprt != nil {
		t.checkSPRT()
		if t.sprtDecision != elo.Continue {
			return nil
		}
	}
	for range t.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &worker{t: t, seats: map[int]*seat{}}
			defer func() { w.close(ctx.Err() != nil) }()
			for s := range todo {
				rec, err := w.play(ctx, s)
				if errors.Is(err, errCancelled) {
					return
				}
				if err != nil {
					fail(err)
					return
				}
				select {
				case done <- rec:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, s := range t.games {
			if t.results[s.idx] != "" {
				continue
			}
			select {
			case todo <- s:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	for rec := range done {
		if failed() != nil {
			continue // stopping: games finished after the error are not counted
		}
		text, err := t.formatPGN(&rec)
		if err != nil {
			fail(fmt.Errorf("game %d: %w", rec.sched.idx+1, err))
			continue
		}
		if f != nil {
			if t.pgnNeedsNewline {
				text = "\n" + text
			}
			// One write per game, so an interruption leaves whole games (readPGNFile cuts a
			// partial last one after a crash).
			if _, err := f.WriteString(text); err != nil {
				fail(fmt.Errorf("writing game %d to %s: %w; the run stops (the summary counts the %d games written)", rec.sched.idx+1, t.pgnPath, err, t.playedCount()))
				continue
			}
			t.pgnNeedsNewline = false
		}
		t.mu.Lock()
		t.results[rec.sched.idx] = rec.result
		info := gameInfo{idx: rec.sched.idx, termination: rec.termination, reason: rec.reason, plies: len(rec.book) + len(rec.moves)}
		if rec.forfeit >= 0 {
			info.forfeit = t.names[rec.forfeit]
		}
		t.records = append(t.records, info)
		t.mu.Unlock()
		if rec.forfeit >= 0 {
			fmt.Fprintf(t.logw, "match: game %d: forfeit: %s; the engine is restarted for its next game\n", rec.sched.idx+1, rec.reason)
		}
		if !t.quiet {
			t.progress(&rec)
		}
		if t.sprt != nil {
			t.checkSPRT()
			if t.sprtDecision != elo.Continue {
				fmt.Fprintf(t.logw, "match: SPRT finished: %v; stopping (games in progress are dropped)\n", t.sprtDecision)
				cancel()
			}
		}
	}
	return failed()
}

func (t *tournament) checkSPRT() {
	wdl, pen := t.tally(0, nil)
	llr := t.sprt.LLRPentanomial(pen)
	_ = wdl
	t.sprtDecision = t.sprt.Decide(llr)
}

// progress prints one line per finished game: the game, the results so far of its pairing
// (from the pairing's first engine's view), and in a gauntlet of more than two engines the
// first engine's results against the whole field.
func (t *tournament) progress(rec *gameRecord) {
	played := t.playedCount()
	s := rec.sched
	p := t.pairings[s.pairing]
	line := fmt.Sprintf("%s [%d/%d] %s–%s %s (%s)", time.Now().UTC().Format("15:04:05"), played, len(t.games),
		t.names[s.white], t.names[s.black], rec.result, rec.reason)
	part := func(a int, label string, opp func(int) bool) {
		wdl, pen := t.tally(a, opp)
		line += fmt.Sprintf(" | %s: +%d =%d -%d", label, wdl.W, wdl.D, wdl.L)
		if e, err := elo.Trinomial(wdl); err == nil {
			line += fmt.Sprintf(" %.1f%% Elo %s", 100*e.Score, eloCell(toEstimate(e), wdl))
			if pe, err := elo.Pentanomial(pen); err == nil && pen.Pairs() >= 2 && !noFiniteElo(wdl) {
				line += fmt.Sprintf(" (pairs: %s)", fmtEst(toEstimate(pe)))
			}
		}
		if t.sprt != nil {
			lo, hi := t.sprt.Bounds()
			line += fmt.Sprintf(" LLR %.2f [%.2f, %.2f]", t.sprt.LLRPentanomial(pen), lo, hi)
		}
	}
	part(p.a, t.names[p.a]+" vs "+t.names[p.b], func(o int) bool { return o == p.b })
	if t.gauntlet && len(t.pairings) > 1 {
		part(0, t.names[0]+" vs field", nil)
	}
	if n := played - t.playedBefore; n > 0 {
		el := time.Since(t.started)
		left := time.Duration(float64(el) / float64(n) * float64(len(t.games)-played))
		line += fmt.Sprintf(" | ETA %s", left.Round(time.Second))
	}
	fmt.Fprintln(t.logw, line)
}

// Summary types (the -json output).
type summary struct {
	Event        string          `json:"event"`
	Tournament   string          `json:"tournament"`
	TimeControl  string          `json:"time_control"`
	Openings     int             `json:"openings"`
	GamesPlanned int             `json:"games_planned"`
	GamesPlayed  int             `json:"games_played"`
	Engines      []engineSummary `json:"engines"`
	Pairings     []pairSummary   `json:"pairings"`
	Ratings      *ratingSummary  `json:"ratings,omitempty"`
	SPRT         *sprtSummary    `json:"sprt,omitempty"`
	Terminations map[string]int  `json:"terminations"`
	Forfeits     []forfeit       `json:"forfeits"`
}

type engineSummary struct {
	Name string   `json:"name"`
	Cmd  []string `json:"cmd"`
	// Options are the options set, as the engine declared them; OptionsRejected those
	// skipped with -lenient, with the reason.
	Options         map[string]string `json:"options,omitempty"`
	OptionsRejected map[string]string `json:"options_rejected,omitempty"`
	Games           int               `json:"games"`
	Score           float64           `json:"score"`
}

type estimate struct {
	Elo float64 `json:"elo"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
	LOS float64 `json:"los"`
}

type pairSummary struct {
	A       string    `json:"a"`
	B       string    `json:"b"`
	W       int       `json:"w"`
	D       int       `json:"d"`
	L       int       `json:"l"`
	Score   float64   `json:"score"` // fraction for A
	Penta   [5]int    `json:"penta"`
	Trinom  *estimate `json:"elo_trinomial,omitempty"`
	Pentnom *estimate `json:"elo_pentanomial,omitempty"`
}

type ratingSummary struct {
	Anchor string    `json:"anchor"`
	Prior  int       `json:"prior_virtual_draws"`
	Elo    []float64 `json:"elo"`
	SE     []float64 `json:"se"`
	Error  string    `json:"error,omitempty"`
}

type sprtSummary struct {
	Elo0     float64 `json:"elo0"`
	Elo1     float64 `json:"elo1"`
	Alpha    float64 `json:"alpha"`
	Beta     float64 `json:"beta"`
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	Decision string  `json:"decision"`
}

type forfeit struct {
	Game   int    `json:"game"`
	Engine string `json:"engine"`
	Reason string `json:"reason"`
}

// jsonFloat replaces ±Inf/NaN (not representable in JSON) by ±1e9 / 0.
func jsonFloat(x float64) float64 {
	switch {
	case math.IsInf(x, 1):
		return 1e9
	case math.IsInf(x, -1):
		return -1e9
	case math.IsNaN(x):
		return 0
	}
	return x
}

func toEstimate(e elo.Estimate) *estimate {
	return &estimate{jsonFloat(e.Elo), jsonFloat(e.Lo), jsonFloat(e.Hi), jsonFloat(e.LOS)}
}

func (t *tournament) summarize() summary {
	s := summary{Event: t.event, Tournament: "round robin", TimeControl: t.tc.String(), Openings: len(t.openings),
		GamesPlanned: len(t.games), GamesPlayed: t.playedCount(), Terminations: map[string]int{}, Forfeits: []forfeit{}}
	if t.gauntlet {
		s.Tournament = "gauntlet"
	}
	for i, sp := range t.specs {
		es := engineSummary{Name: t.names[i], Cmd: append([]string{sp.Cmd}, sp.Args...)}
		if len(sp.Options) > 0 {
			es.Options = map[string]string{}
			for _, o := range sp.Options {
				es.Options[o.Name] = o.Value
			}
		}
		if i < len(t.rejected) && len(t.rejected[i]) > 0 {
			es.OptionsRejected = map[string]string{}
			for _, r := range t.rejected[i] {
				es.OptionsRejected[r.Name] = r.Value + ": " + r.Err.Error()
			}
		}
		wdl, _ := t.tally(i, nil)
		es.Games, es.Score = wdl.Games(), wdl.Score()
		s.Engines = append(s.Engines, es)
	}
	var mlPairs []elo.Pairing
	for _, p := range t.pairings {
		wdl, pen := t.tally(p.a, func(o int) bool { return o == p.b })
		ps := pairSummary{A: t.names[p.a], B: t.names[p.b], W: wdl.W, D: wdl.D, L: wdl.L, Penta: pen}
		if e, err := elo.Trinomial(wdl); err == nil {
			ps.Score = e.Score
			ps.Trinom = toEstimate(e)
		}
		if e, err := elo.Pentanomial(pen); err == nil {
			ps.Pentnom = toEstimate(e)
		}
		s.Pairings = append(s.Pairings, ps)
		if wdl.Games() > 0 {
			// -prior: virtual draws added to every pairing that has games (BayesElo's prior).
			mlPairs = append(mlPairs, elo.Pairing{A: p.a, B: p.b, WDL: elo.WDL{W: wdl.W, D: wdl.D + t.prior, L: wdl.L}})
		}
	}
	if len(t.specs) > 2 {
		rs := &ratingSummary{Anchor: t.names[t.anchor], Prior: t.prior}
		r, err := elo.MLRatings(len(t.specs), mlPairs, t.anchor, t.anchorElo)
		if err != nil {
			rs.Error = err.Error()
			for _, e := range s.Engines {
				if e.Games == 0 || e.Score == 0 || e.Score == float64(e.Games) {
					rs.Error = fmt.Sprintf("no finite maximum-likelihood ratings: %s scored %g of %d", e.Name, e.Score, e.Games)
				}
			}
		} else {
			rs.Elo, rs.SE = r.Elo, r.SE
		}
		s.Ratings = rs
	}
	if t.sprt != nil {
		_, pen := t.tally(0, nil)
		lo, hi := t.sprt.Bounds()
		llr := t.sprt.LLRPentanomial(pen)
		s.SPRT = &sprtSummary{t.sprt.Elo0, t.sprt.Elo1, t.sprt.Alpha, t.sprt.Beta, llr, lo, hi, t.sprt.Decide(llr).String()}
	}
	recs := append([]gameInfo(nil), t.records...)
	sort.Slice(recs, func(i, j int) bool { return recs[i].idx < recs[j].idx })
	for _, r := range recs {
		key := r.termination
		if key == termNormal || key == termAdjudicated {
			key = r.reason
			if i := strings.Index(key, " ("); i >= 0 {
				key = key[:i]
			}
		}
		s.Terminations[key]++
		if r.forfeit != "" {
			s.Forfeits = append(s.Forfeits, forfeit{Game: r.idx + 1, Engine: r.forfeit, Reason: r.reason})
		}
	}
	return s
}

// printSummary writes the final tables.
func (t *tournament) printSummary(w io.Writer, s summary) {
	fmt.Fprintf(w, "\n%s: %s, %d of %d games, %s, %d openings\n", s.Event, s.Tournament, s.GamesPlayed, s.GamesPlanned, s.TimeControl, s.Openings)
	fmt.Fprintf(w, "%-24s %-24s %5s %5s %5s %7s %22s %22s %6s\n", "engine", "opponent", "W", "D", "L", "score", "Elo (trinomial 95%)", "Elo (pentanomial 95%)", "LOS")
	var notes []string
	for _, p := range s.Pairings {
		wdl := elo.WDL{W: p.W, D: p.D, L: p.L}
		tri, pen, los := "-", "-", "-"
		if p.Trinom != nil {
			tri = eloCell(p.Trinom, wdl)
			los = fmt.Sprintf("%.3f", p.Trinom.LOS)
		}
		if p.Pentnom != nil {
			pen = eloCell(p.Pentnom, wdl)
		}
		fmt.Fprintf(w, "%-24s %-24s %5d %5d %5d %6.1f%% %22s %22s %6s\n", p.A, p.B, p.W, p.D, p.L, 100*p.Score, tri, pen, los)
		if noFiniteElo(wdl) {
			notes = append(notes, scoreNote(p.A, p.B, wdl))
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	if r := s.Ratings; r != nil {
		if r.Error != "" {
			fmt.Fprintf(w, "ML ratings: %s\n", r.Error)
		} else {
			prior := ""
			if t.prior > 0 {
				prior = fmt.Sprintf(", %d virtual draws per pairing", t.prior)
			}
			fmt.Fprintf(w, "\nMaximum-likelihood ratings (logistic, draws = ½%s), anchored at %s = %g (± is 95 %%, relative to the anchor):\n", prior, r.Anchor, t.anchorElo)
			idx := make([]int, len(r.Elo))
			for i := range idx {
				idx[i] = i
			}
			sort.Slice(idx, func(a, b int) bool { return r.Elo[idx[a]] > r.Elo[idx[b]] })
			for rank, i := range idx {
				fmt.Fprintf(w, "%3d %-24s %8.1f ± %5.1f  (%d games, %.1f points)\n", rank+1, s.Engines[i].Name, r.Elo[i], Z95*r.SE[i], s.Engines[i].Games, s.Engines[i].Score)
			}
		}
	}
	if p := s.SPRT; p != nil {
		fmt.Fprintf(w, "SPRT(%g, %g) α=%g β=%g: LLR %.3f [%.3f, %.3f]: %s\n", p.Elo0, p.Elo1, p.Alpha, p.Beta, p.LLR, p.Lower, p.Upper, p.Decision)
	}
	keys := make([]string, 0, len(s.Terminations))
	for k := range s.Terminations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, s.Terminations[k]))
	}
	if len(parts) == 0 {
		parts = []string{"none"}
	}
	fmt.Fprintf(w, "Game ends: %s\n", strings.Join(parts, ", "))
	if len(s.Forfeits) > 0 {
		fmt.Fprintf(w, "Forfeits: %d\n", len(s.Forfeits))
		for _, f := range s.Forfeits {
			fmt.Fprintf(w, "  game %d: %s\n", f.Game, f.Reason)
		}
	}
}

// noFiniteElo reports a score of 0 or 100 % over at least one game: the logistic Elo
// estimate is −∞ or +∞.
func noFiniteElo(r elo.WDL) bool {
	n := r.W + r.D + r.L
	return n > 0 && (r.W == n || r.L == n)
}

// eloBound is, for a score of 0 (100 %) over n games, the one-sided 95 % upper (lower) bound
// of the Elo difference: the exact binomial bound on the score, 1 − 0.05^(1/n) (0.05^(1/n))
// (C. J. Clopper and E. S. Pearson, Biometrika 26, 1934; ≈ 3/n, the "rule of three"),
// turned into Elo by the logistic curve.
func eloBound(r elo.WDL) float64 {
	n := float64(r.W + r.D + r.L)
	s := 1 - math.Pow(0.05, 1/n)
	b := -400 * math.Log10(1/s-1)
	if r.W > 0 {
		return -b
	}
	return b
}

// eloCell formats an estimate for the tables; for a score of 0 or 100 % it prints the
// one-sided bound instead of ±∞: "< -183", "> +183".
func eloCell(e *estimate, r elo.WDL) string {
	if !noFiniteElo(r) {
		return fmtEst(e)
	}
	if r.W > 0 {
		return fmt.Sprintf("> %+.0f", eloBound(r))
	}
	return fmt.Sprintf("< %+.0f", eloBound(r))
}

// scoreNote explains a table row with a score of 0 or 100 %.
func scoreNote(a, b string, r elo.WDL) string {
	n := r.W + r.D + r.L
	if r.W > 0 {
		return fmt.Sprintf("note: %s scored 100 %% (%d of %d) against %s: no finite Elo estimate; Elo above %+.0f (95 %%, one-sided). More games, or -prior N (virtual draws) for the ML ratings, give finite figures.", a, n, n, b, eloBound(r))
	}
	return fmt.Sprintf("note: %s scored 0 (0 of %d) against %s: no finite Elo estimate; Elo below %+.0f (95 %%, one-sided). More games, or -prior N (virtual draws) for the ML ratings, give finite figures.", a, n, b, eloBound(r))
}

// Z95 for the ± of ML ratings.
const Z95 = elo.Z95

func fmtEst(e *estimate) string {
	f := func(x float64) string {
		switch {
		case x >= 1e9:
			return "+inf"
		case x <= -1e9:
			return "-inf"
		}
		return fmt.Sprintf("%+.0f", x)
	}
	if e.Lo <= -1e9 || e.Hi >= 1e9 {
		return fmt.Sprintf("%s [%s, %s]", f(e.Elo), f(e.Lo), f(e.Hi))
	}
	// The logistic interval is asymmetric; print it as ± only when nearly symmetric.
	lo, hi := e.Elo-e.Lo, e.Hi-e.Elo
	if math.Abs(lo-hi) <= 0.1*max(lo, hi) {
		return fmt.Sprintf("%+.1f ± %.1f", e.Elo, (e.Hi-e.Lo)/2)
	}
	return fmt.Sprintf("%+.1f [%+.0f, %+.0f]", e.Elo, e.Lo, e.Hi)
}

// checkJSONOut decides at setup whether an existing -json-out may be replaced: with -force,
// or when resuming and the file is a summary of this tournament (same event, engines and
// number of games), which the resumed run brings up to date. Errors: outfile.ErrExists.
func (t *tournament) checkJSONOut(resumed bool) error {
	if _, err := os.Stat(t.jsonPath); err != nil {
		return nil // checked by outfile.Check at setup: it does not exist
	}
	if t.force {
		t.jsonReplace = true
		return nil
	}
	if resumed {
		var old summary
		if b, err := os.ReadFile(t.jsonPath); err == nil && json.Unmarshal(b, &old) == nil &&
			old.Event == t.event && old.GamesPlanned == len(t.games) && len(old.Engines) == len(t.names) {
			same := true
			for i, e := range old.Engines {
				same = same && e.Name == t.names[i]
			}
			if same {
				t.jsonReplace = true
				return nil
			}
		}
	}
	return fmt.Errorf("-json-out %s %w (or resume the tournament it summarizes)", t.jsonPath, outfile.ErrExists)
}

// writeJSON writes s to -json-out through a temporary file renamed into place.
func (t *tournament) writeJSON(s summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return outfile.WriteFile(t.jsonPath, append(b, '\n'), t.jsonReplace, t.pgnPath)
}
