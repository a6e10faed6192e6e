package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/testenv"
	"github.com/nnuekit/nnuekit/internal/uci"
	"github.com/nnuekit/nnuekit/internal/uci/ucitest"
)

func TestMain(m *testing.M) {
	ucitest.MaybeRun() // the test binary doubles as the fake engine
	os.Exit(testenv.Run(m))
}

const stockfish = "/usr/games/stockfish"

// fakeEngine is an -engine value running this test binary as the fake UCI engine.
func fakeEngine(t *testing.T, name, mode string, after int) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := "name=" + name + ",cmd=" + exe + ",env." + ucitest.EnvMode + "=" + mode
	if after > 0 {
		s += ",env." + ucitest.EnvAfter + "=" + itoa(after)
	}
	return s + ",option.Hash=4"
}

func itoa(n int) string { return strconv.Itoa(n) }

// syncBuf is a goroutine-safe log.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// checkPGN reads the PGN file back with board.ReadPGN and replays every game: legal moves,
// a result consistent with the final position when the game ended by the rules, one game per
// MatchGame tag.
func checkPGN(t *testing.T, path string, want int) []board.Game {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	games, err := board.ReadPGN(bytes.NewReader(blankCommentLines(b)))
	if err != nil {
		t.Fatalf("PGN does not read back: %v\n%s", err, b)
	}
	if len(games) != want {
		t.Fatalf("%d games in the PGN, want %d", len(games), want)
	}
	seen := map[string]bool{}
	for i, g := range games {
		if seen[g.Tags[tagGame]] {
			t.Errorf("game %d: MatchGame %s twice", i+1, g.Tags[tagGame])
		}
		seen[g.Tags[tagGame]] = true
		p := g.Start
		for _, m := range g.Moves {
			if !p.IsLegal(m) {
				t.Fatalf("game %d: illegal move %s in %s", i+1, m, p.FEN())
			}
			p, _ = p.Play(m)
		}
		res := g.Tags["Result"]
		switch g.Tags[tagTermDetails] {
		case "White mates":
			if res != "1-0" || p.Status() != board.Checkmate {
				t.Errorf("game %d: White mates but %s, %v", i+1, res, p.Status())
			}
		case "Black mates":
			if res != "0-1" || p.Status() != board.Checkmate {
				t.Errorf("game %d: Black mates but %s, %v", i+1, res, p.Status())
			}
		case "stalemate":
			if res != "1/2-1/2" || p.Status() != board.Stalemate {
				t.Errorf("game %d: stalemate but %s", i+1, res)
			}
		case "fifty-move rule":
			if p.HalfmoveClock() < 100 {
				t.Errorf("game %d: fifty-move rule at halfmove %d", i+1, p.HalfmoveClock())
			}
		}
		if res != "1-0" && res != "0-1" && res != "1/2-1/2" {
			t.Errorf("game %d: result %q", i+1, res)
		}
		if !strings.HasSuffix(strings.TrimSpace(string(b)), "1-0") && !strings.HasSuffix(strings.TrimSpace(string(b)), "0-1") && !strings.HasSuffix(strings.TrimSpace(string(b)), "1/2-1/2") {
			t.Errorf("file does not end with a result token")
		}
	}
	return games
}

func baseOptions(t *testing.T, engines ...string) options {
	return options{engines: engines, games: 2, openings: "testdata/openings.epd", nodes: 1, margin: time.Second,
		timeout: 5 * time.Second, concurrency: 1, pgn: filepath.Join(t.TempDir(), "out.pgn"), event: "test", quiet: true, maxMoves: 60}
}

// TestFakeMatch: two fake engines, 2 games at 1 node, a legal PGN with both colours of one
// opening.
func TestFakeMatch(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	tr, _ := runMatch(t, o)
	games := checkPGN(t, o.pgn, 2)
	if games[0].Tags["White"] != "A" || games[1].Tags["White"] != "B" || games[0].Start != games[1].Start {
		t.Errorf("colours/opening: %v / %v", games[0].Tags, games[1].Tags)
	}
	if games[0].Tags["FEN"] != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" || games[0].Tags["Opening"] != "openings.epd:2" {
		t.Errorf("tags %v", games[0].Tags)
	}
	s := tr.summarize()
	if s.GamesPlayed != 2 || len(s.Pairings) != 1 || s.Pairings[0].W+s.Pairings[0].D+s.Pairings[0].L != 2 || len(s.Forfeits) != 0 {
		t.Errorf("summary %+v", s)
	}
	// The same engines play the same moves from the same opening: the pair is symmetric.
	if s.Pairings[0].W != s.Pairings[0].L {
		t.Errorf("deterministic pair not symmetric: %+v", s.Pairings[0])
	}
	var out bytes.Buffer
	tr.printSummary(&out, s)
	if !strings.Contains(out.String(), "round robin, 2 of 2 games") {
		t.Errorf("summary text:\n%s", out.String())
	}
}

// TestStockfishMatch: 2 games between two Stockfish skill levels at 20 ms per move.
func TestStockfishMatch(t *testing.T) {
	if _, err := os.Stat(stockfish); err != nil {
		t.Skipf("%s absent (apt-get install stockfish): %v", stockfish, err)
	}
	if testing.Short() {
		t.Skip("-short")
	}
	o := baseOptions(t, "name=sf0,cmd="+stockfish+",option.Skill Level=0", "name=sf20,cmd="+stockfish)
	o.each = "option.Threads=1,option.Hash=8"
	o.nodes, o.st, o.margin, o.maxMoves = 0, 0.02, 2*time.Second, 0
	o.resign = "movecount=3,score=600"
	o.openings = "testdata/openings.pgn"
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.release()
	if err := tr.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	games := checkPGN(t, o.pgn, 2)
	// The PGN opening's moves are in the game, marked "book".
	want := []string{"d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4"}
	for i, g := range games {
		if len(g.Moves) < len(want) {
			t.Fatalf("game %d: %d moves", i+1, len(g.Moves))
		}
		for j, m := range want {
			if g.Moves[j].String() != m {
				t.Errorf("game %d: book move %d = %s, want %s", i+1, j, g.Moves[j], m)
			}
		}
	}
	b, _ := os.ReadFile(o.pgn)
	if !strings.Contains(string(b), "{book}") || !strings.Contains(string(b), "[TimeControl \"0.02/move\"]") {
		t.Errorf("PGN:\n%s", b)
	}
}

// TestResume: a run interrupted after its first game, then the same command again, gives the
// full tournament with every game once; a third run has nothing to do.
func TestResume(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0), fakeEngine(t, "C", "first", 0))
	o.games = 4 // 3 pairings × 4 = 12 games
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for ctx.Err() == nil {
			if b, _ := os.ReadFile(o.pgn); bytes.Count(b, []byte("[Event ")) >= 3 {
				cancel()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	if err := tr.run(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	tr.release()
	first := tr.playedCount()
	if first < 3 || first >= 12 {
		t.Fatalf("interrupted run played %d games", first)
	}
	// An interrupted write: half a game at the end of the file is cut on resume.
	f, _ := os.OpenFile(o.pgn, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("[Event \"test\"]\n[Site \"x\"]\n\n1. e4 e5 2. Nf")
	f.Close()
	var log syncBuf
	tr2, err := setup(o, &log)
	if err != nil {
		t.Fatal(err)
	}
	tr2.release()
	if !strings.Contains(log.String(), "cutting an unfinished last game") || !strings.Contains(log.String(), "resumed "+itoa(first)+" games from "+o.pgn) {
		t.Errorf("log: %s", log.String())
	}
	// A game cut after a whole move parses, but has no result token: cut too.
	f, _ = os.OpenFile(o.pgn, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("[Event \"test\"]\n[Result \"1-0\"]\n\n1. e4 e5 ")
	f.Close()
	tr2, err = setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr2.release()
	if tr2.playedCount() != first {
		t.Errorf("resume sees %d games, %d were written", tr2.playedCount(), first)
	}
	if err := tr2.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr2.release()
	games := checkPGN(t, o.pgn, 12)
	var idx []string
	for _, g := range games {
		idx = append(idx, g.Tags[tagGame])
	}
	slices.Sort(idx)
	if len(slices.Compact(idx)) != 12 {
		t.Errorf("MatchGame tags %v", idx)
	}
	s := tr2.summarize()
	if s.GamesPlayed != 12 || s.Ratings == nil {
		t.Errorf("summary %+v", s)
	}
	// A finished tournament is refused, unless -continue.
	if _, err := setup(o, &syncBuf{}); err == nil || !strings.Contains(err.Error(), "all 12 games of this tournament are played; pass -continue") {
		t.Errorf("finished file: %v", err)
	}
	o3 := o
	o3.cont = true
	tr3, err := setup(o3, &syncBuf{})
	if err != nil || tr3.playedCount() != 12 || !tr3.finished() {
		t.Fatalf("third setup: %v", err)
	}
	tr3.release()
	// A PGN of another tournament is refused.
	o2 := o
	o2.engines = []string{fakeEngine(t, "X", "first", 0), fakeEngine(t, "B", "first", 0)}
	if _, err := setup(o2, &syncBuf{}); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("foreign PGN: %v", err)
	}
}

// TestForfeits: crashing, hanging, illegal-moving and slow engines lose their games on forfeit
// with a clear message, are restarted, and the tournament goes on to the end.
func TestForfeits(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), fakeEngine(t, "crash", "crash", 3),
		fakeEngine(t, "hang", "hang", 2), fakeEngine(t, "illegal", "illegal", 4))
	o.tc = ""
	o.nodes = 0
	o.st = 0.05
	o.margin = 1500 * time.Millisecond // generous: the good engine must never lose on time on a loaded machine
	o.gauntlet = true
	o.concurrency = 2
	tr, log := runMatch(t, o)
	checkPGN(t, o.pgn, 6)
	s := tr.summarize()
	if s.GamesPlayed != 6 || len(s.Forfeits) != 6 {
		t.Fatalf("summary %+v\nlog:\n%s", s, log.String())
	}
	for _, p := range s.Pairings {
		if p.W != 2 {
			t.Errorf("good vs %s: %+v", p.B, p)
		}
	}
	want := map[string]string{"crash": "crashed: engine crash: search: engine process exited (exit status 3) (stderr: fake engine: deliberate crash at search 3)",
		"hang": "no answer to \"stop\" within 1s either: hung, restarted", "illegal": "played an illegal move \"a1a1\""}
	for _, f := range s.Forfeits {
		if !strings.Contains(f.Reason, want[f.Engine]) {
			t.Errorf("forfeit of %s: %q, want it to contain %q", f.Engine, f.Reason, want[f.Engine])
		}
	}
	if !strings.Contains(log.String(), "the engine is restarted") {
		t.Errorf("log:\n%s", log.String())
	}
	b, _ := os.ReadFile(o.pgn)
	for _, term := range []string{`[Termination "abandoned"]`, `[Termination "time forfeit"]`, `[Termination "rules infraction"]`} {
		if !strings.Contains(string(b), term) {
			t.Errorf("no %s in the PGN", term)
		}
	}
}

// TestManyEngines: a gauntlet of 6 engines with one worker needs more processes than a worker
// keeps (maxSeats); evicting idle ones must never close an engine of the game being started.
func TestManyEngines(t *testing.T) {
	var engines []string
	for i := range 6 {
		engines = append(engines, fakeEngine(t, "E"+strconv.Itoa(i), "first", 0))
	}
	o := baseOptions(t, engines...)
	o.gauntlet, o.games = true, 4
	o.openings = "testdata/openings.epd"
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.release()
	if err := tr.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkPGN(t, o.pgn, 20)
	if s := tr.summarize(); len(s.Forfeits) != 0 {
		t.Errorf("forfeits %+v", s.Forfeits)
	}
}

// TestHangWithoutClock: with -nodes there is no clock; an engine that does not answer within
// -timeout hangs and forfeits.
func TestHangWithoutClock(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), fakeEngine(t, "hang", "hang", 1))
	o.timeout = time.Second
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.release()
	if err := tr.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := tr.summarize()
	if len(s.Forfeits) != 2 || !strings.Contains(s.Forfeits[0].Reason, "hangs: no move within 1s") {
		t.Errorf("forfeits %+v", s.Forfeits)
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		fen    string
		res    string
		reason string
	}{
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "1-0", "White mates"},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "1/2-1/2", "stalemate"},
		{"8/8/4k3/8/8/2B5/8/4K3 w - - 0 1", "1/2-1/2", "insufficient material"},
		{"8/8/4k3/8/8/2N5/8/4K3 w - - 0 1", "1/2-1/2", "insufficient material"},
		{"8/8/4kb2/8/8/2B5/8/4K3 w - - 0 1", "1/2-1/2", "insufficient material"}, // c3 and f6 are both dark
		{"8/8/4k1b1/8/8/2B5/8/4K3 w - - 0 1", "", ""},                            // g6 is light
		{"8/8/4k3/8/8/2NN4/8/4K3 w - - 0 1", "", ""},
		{"8/8/4k3/8/8/2R5/8/4K3 w - - 99 80", "", ""},
		{"8/8/4k3/8/8/2R5/8/4K3 w - - 100 80", "1/2-1/2", "fifty-move rule"},
	}
	for _, tc := range tests {
		p, err := board.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		res, why, over := ruleEnd(&p, map[string]int{})
		if res != tc.res || why != tc.reason || over != (tc.res != "") {
			t.Errorf("%s: %q %q %v", tc.fen, res, why, over)
		}
	}
	// Threefold repetition: the start position after Nf3 Nf6 Ng1 Ng8 twice.
	p := board.StartPosition()
	reps := map[string]int{repKey(&p): 1}
	var why string
	for i, s := range strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8") {
		m, err := board.ParseUCIMove(&p, s)
		if err != nil {
			t.Fatal(err)
		}
		p, _ = p.Play(m)
		reps[repKey(&p)]++
		_, why, _ = ruleEnd(&p, reps)
		if (why != "") != (i == 7) {
			t.Errorf("ply %d: %q", i+1, why)
		}
	}
	if why != "threefold repetition" {
		t.Errorf("got %q", why)
	}
}

func TestAdjudication(t *testing.T) {
	tr := &tournament{resign: resignRule{moveCount: 2, score: 500, twoSided: true}, draw: drawRule{moveNumber: 10, moveCount: 2, score: 10}, maxMoves: 50}
	res, _, over := tr.adjudicate(board.White, [2][]int{{-600, -700}, {600, 650}}, 8)
	if !over || res != "0-1" {
		t.Errorf("resign: %q %v", res, over)
	}
	if _, _, over := tr.adjudicate(board.White, [2][]int{{-600, -700}, {600, 400}}, 8); over {
		t.Error("two-sided resign without the opponent's agreement")
	}
	if res, _, over := tr.adjudicate(board.White, [2][]int{{5, -3}, {0, 10}}, 20); !over || res != "1/2-1/2" {
		t.Error("draw adjudication")
	}
	if _, _, over := tr.adjudicate(board.White, [2][]int{{5, -3}, {0, 10}}, 18); over {
		t.Error("draw adjudication before movenumber")
	}
	if res, why, over := tr.adjudicate(board.White, [2][]int{}, 100); !over || res != "1/2-1/2" || !strings.Contains(why, "move limit") {
		t.Error("move limit")
	}
}

func TestParse(t *testing.T) {
	each, err := parseEach("option.Threads=1,option.Hash=16")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := parseEngine(`name=sf,cmd=/usr/games/stockfish --x,arg=a b,option.Skill Level=3,option.Hash=32,env.K=V,option.Path=a\,b`, each)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Name != "sf" || spec.Cmd != "/usr/games/stockfish" || !slices.Equal(spec.Args, []string{"--x", "a b"}) ||
		len(spec.Options) != 4 || spec.Options[1].Value != "32" || spec.Options[2].Name != "Skill Level" || spec.Options[3].Value != "a,b" ||
		!slices.Equal(spec.Env, []string{"K=V"}) {
		t.Errorf("%+v", spec)
	}
	for _, bad := range []string{"name=x", "cmd=a,foo=1", "cmd=a,junk", "name=a\"b,cmd=x", "cmd=a,option.=1"} {
		if _, err := parseEngine(bad, nil); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := parseEach("name=x"); err == nil {
		t.Error("-each name accepted")
	}
	b, i, err := parseTC("10+0.1")
	if err != nil || b != 10*time.Second || i != 100*time.Millisecond {
		t.Errorf("tc: %v %v %v", b, i, err)
	}
	for _, bad := range []string{"", "x", "0+1", "-1", "5+y"} {
		if _, _, err := parseTC(bad); err == nil {
			t.Errorf("-tc %q accepted", bad)
		}
	}
	if tc := (timeControl{base: 10 * time.Second, inc: 100 * time.Millisecond}); tc.pgnTag() != "10+0.1" {
		t.Errorf("tag %q", tc.pgnTag())
	}
	sp, err := parseSPRT("elo0=0,elo1=5")
	if err != nil || sp.Alpha != 0.05 || sp.Elo1 != 5 {
		t.Errorf("sprt %+v %v", sp, err)
	}
	if _, err := parseSPRT("elo0=5,elo1=0"); err == nil {
		t.Error("bad SPRT accepted")
	}
	if r, err := parseResign("movecount=3,score=1000,twosided=0"); err != nil || r.twoSided || r.moveCount != 3 {
		t.Errorf("resign %+v %v", r, err)
	}
	if _, err := parseDraw("movenumber=40,movecount=0,score=10"); err == nil {
		t.Error("draw movecount 0 accepted")
	}
	// Setup errors.
	o := baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "A", "first", 0))
	if _, err := setup(o, &syncBuf{}); err == nil || !strings.Contains(err.Error(), "named") {
		t.Errorf("duplicate names: %v", err)
	}
	o = baseOptions(t, fakeEngine(t, "A", "first", 0), "cmd=/nonexistent/engine")
	if _, err := setup(o, &syncBuf{}); err == nil {
		t.Error("nonexistent engine accepted")
	}
	o = baseOptions(t, fakeEngine(t, "A", "first", 0), fakeEngine(t, "B", "first", 0))
	o.games = 3
	if _, err := setup(o, &syncBuf{}); err == nil {
		t.Error("odd -games accepted")
	}
}

func TestLoadOpenings(t *testing.T) {
	ops, err := loadOpenings("testdata/openings.epd")
	if err != nil || len(ops) != 3 || ops[1].start.FullmoveNumber() != 3 || ops[2].start.EnPassant() == board.NoSquare {
		t.Fatalf("%d openings, %v", len(ops), err)
	}
	ops, err = loadOpenings("testdata/openings.pgn")
	if err != nil || len(ops) != 2 || len(ops[0].moves) != 6 || len(ops[1].moves) != 3 || ops[1].start.SideToMove() != board.Black {
		t.Fatalf("pgn openings: %v %v", ops, err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.epd")
	os.WriteFile(bad, []byte("not a fen\n"), 0o644)
	if _, err := loadOpenings(bad); err == nil || !strings.Contains(err.Error(), "bad.epd:1") {
		t.Errorf("bad EPD: %v", err)
	}
	mate := filepath.Join(dir, "mate.epd")
	os.WriteFile(mate, []byte("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n"), 0o644)
	if _, err := loadOpenings(mate); err == nil {
		t.Error("finished opening accepted")
	}
	// The committed opening set loads and is balanced by construction.
	ops, err = loadOpenings("openings/balanced.epd")
	if err != nil || len(ops) < 200 {
		t.Errorf("balanced.epd: %d openings, %v", len(ops), err)
	}
}

// TestSummaryPrior: an engine that won every game has no finite ML rating; virtual draws
// (-prior) make it finite, and the pairing tables follow the results.
func TestSummaryPrior(t *testing.T) {
	tr := &tournament{names: []string{"A", "B", "C"}, openings: []opening{{start: board.StartPosition()}}}
	tr.specs = make([]uci.Spec, 3)
	tr.makeSchedule(4, false, 1)
	for _, g := range tr.games {
		switch {
		case g.white == 0:
			tr.results[g.idx] = "1-0"
		case g.black == 0:
			tr.results[g.idx] = "0-1"
		default:
			tr.results[g.idx] = "1/2-1/2"
		}
	}
	s := tr.summarize()
	if s.Ratings == nil || !strings.Contains(s.Ratings.Error, "A scored 8 of 8") {
		t.Fatalf("ratings %+v", s.Ratings)
	}
	if p := s.Pairings[0]; p.A != "A" || p.B != "B" || p.W != 4 || p.Penta != [5]int{0, 0, 0, 0, 2} {
		t.Errorf("pairing %+v", p)
	}
	tr.prior = 2
	s = tr.summarize()
	// Anchored at A = 0. A vs B with 2 virtual draws: 4 wins + 2 draws of 6 → 5/6 →
	// 400·log10(5) = 279.59 below A; C likewise, and B = C (they drew every game).
	if s.Ratings.Error != "" || s.Ratings.Elo[0] != 0 || math.Abs(s.Ratings.Elo[1]+279.588) > 0.01 || math.Abs(s.Ratings.Elo[2]-s.Ratings.Elo[1]) > 1e-6 {
		t.Errorf("with prior: %+v", s.Ratings)
	}
}

// FuzzParseOptions: the option parsers return errors, never panic, on any input.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"name=sf,cmd=/usr/games/stockfish,option.Skill Level=3", "cmd=a\\,b,arg=x y,env.K=V",
		"10+0.1", "movecount=3,score=600", "elo0=0,elo1=5,alpha=0.05", "", ",,,", "option.=", "1e400+-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if spec, err := parseEngine(s, nil); err == nil && spec.Cmd == "" {
			t.Errorf("%q: no cmd but no error", s)
		}
		_, _ = parseEach(s)
		if b, i, err := parseTC(s); err == nil && (b <= 0 || i < 0) {
			t.Errorf("%q: tc %v+%v accepted", s, b, i)
		}
		_, _ = parseResign(s)
		_, _ = parseDraw(s)
		if sp, err := parseSPRT(s); err == nil && sp != nil && sp.Valid() != nil {
			t.Errorf("%q: invalid SPRT accepted", s)
		}
	})
}

// TestOurEngineMatch: 2 games between two instances of our engine (examples/engine) with
// different networks at 20 ms per move; the PGN must be legal. Skipped until examples/engine
// exists in this tree, in -short mode, and without ../shared.
func TestOurEngineMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds examples/engine")
	}
	if _, err := os.Stat("../engine/main.go"); err != nil {
		t.Skipf("examples/engine absent in this tree: %v", err)
	}
	const nets = "../../../shared/thesis-models"
	if _, err := os.Stat(nets + "/hv.nn"); err != nil {
		t.Skipf("%s absent: %v", nets, err)
	}
	bin := filepath.Join(t.TempDir(), "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../engine").CombinedOutput(); err != nil {
		t.Fatalf("building examples/engine: %v\n%s", err, out)
	}
	o := baseOptions(t, "name=hv,cmd="+bin+",option.EvalFile="+nets+"/hv.nn", "name=h+v,cmd="+bin+",option.EvalFile="+nets+"/h+v.nn")
	o.each = "option.Threads=1,option.Hash=8"
	o.nodes, o.st, o.margin, o.maxMoves = 0, 0.02, 2*time.Second, 80
	tr, log := runMatch(t, o)
	checkPGN(t, o.pgn, 2)
	if s := tr.summarize(); s.GamesPlayed != 2 || len(s.Forfeits) != 0 {
		t.Errorf("summary %+v\nlog:\n%s", s, log.String())
	}
}

func TestRatePGN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.pgn")
	game := func(w, b, r string) string {
		return "[Event \"x\"]\n[White \"" + w + "\"]\n[Black \"" + b + "\"]\n[Result \"" + r + "\"]\n\n1. e4 e5 " + r + "\n\n"
	}
	// A–B 6 wins 2 losses (75 %), B–C 4 wins 4 draws (75 %): the chain of TestMLRatingsChain.
	var sb strings.Builder
	for i := range 8 {
		switch {
		case i < 6:
			sb.WriteString(game("A", "B", "1-0"))
		default:
			sb.WriteString(game("B", "A", "1-0"))
		}
		if i < 4 {
			sb.WriteString(game("C", "B", "0-1"))
		} else {
			sb.WriteString(game("B", "C", "1/2-1/2"))
		}
	}
	sb.WriteString(game("A", "C", "*"))
	os.WriteFile(path, []byte(sb.String()), 0o644)
	var out bytes.Buffer
	if err := ratePGN(path, "C", 0, 0, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"16 games rated, 1 unfinished skipped, 3 players", "A                           381.7", "B                           190.8", "C                             0.0 ±   0.0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	if err := ratePGN(path, "Z", 0, 0, &out); err == nil {
		t.Error("unknown anchor accepted")
	}
}

// TestSPRTStop: with -sprt the run stops once a bound is reached: an engine that forfeits every
// game is found worse long before the 200 scheduled games. (With all pairs won, the GSPRT's LLR
// grows by about ln(E(elo1)/E(elo0)) per pair — the constrained MLEs put their mass on 0 and 1 —
// so SPRT(0, 10) would need ≈ 105 pairs, SPRT(0, 50) ≈ 22.)
func TestSPRTStop(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), fakeEngine(t, "bad", "illegal", 1))
	o.games = 200
	o.sprt = "elo0=0,elo1=50,alpha=0.05,beta=0.05"
	tr, log := runMatch(t, o)
	s := tr.summarize()
	if s.SPRT == nil || s.SPRT.Decision != "H1 accepted" || s.GamesPlayed >= 200 || s.GamesPlayed < 2 {
		t.Fatalf("SPRT %+v after %d games", s.SPRT, s.GamesPlayed)
	}
	if !strings.Contains(log.String(), "SPRT finished: H1 accepted") {
		t.Errorf("log:\n%s", log.String())
	}
	// Resuming a decided test is refused; with -continue it plays nothing more.
	n := s.GamesPlayed
	if _, err := setup(o, &syncBuf{}); err == nil || !strings.Contains(err.Error(), "its SPRT is decided (H1 accepted)") {
		t.Errorf("resume of a decided SPRT: %v", err)
	}
	o.cont = true
	tr2, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	defer tr2.release()
	if err := tr2.run(context.Background()); err != nil || tr2.playedCount() != n {
		t.Errorf("resume of a decided SPRT: %v, %d games (was %d)", err, tr2.playedCount(), n)
	}
}

// TestClock: -tc BASE+INC; a hanging engine loses on time once its clock and the margin are
// used up, and its message says it hung.
func TestClock(t *testing.T) {
	o := baseOptions(t, fakeEngine(t, "good", "first", 0), fakeEngine(t, "hang", "hang", 3))
	o.nodes, o.tc, o.margin = 0, "0.5+0.05", time.Second
	tr, err := setup(o, &syncBuf{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.tc.base != 500*time.Millisecond || tr.tc.inc != 50*time.Millisecond {
		t.Fatalf("tc %+v", tr.tc)
	}
	if err := tr.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	games := checkPGN(t, o.pgn, 2)
	s := tr.summarize()
	if len(s.Forfeits) != 2 || !strings.Contains(s.Forfeits[0].Reason, "left on the clock") || !strings.Contains(s.Forfeits[0].Reason, "hung") {
		t.Errorf("forfeits %+v", s.Forfeits)
	}
	// The hanging engine answered its first two searches.
	for i, g := range games {
		if len(g.Moves) < 3 || g.Tags["TimeControl"] != "0.5+0.05" {
			t.Errorf("game %d: %d moves, tags %v", i+1, len(g.Moves), g.Tags)
		}
	}
}

// runMatch sets up and plays the tournament o to its end, failing the test on an error;
// it returns the tournament and its log.
func runMatch(t *testing.T, o options) (*tournament, *syncBuf) {
	t.Helper()
	log := new(syncBuf)
	tr, err := setup(o, log)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.release()
	if err := tr.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return tr, log
}
