package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

// internalOptions are options for short in-process games into a binpack.
func internalOptions(out string, games int) options {
	return options{out: out, games: games, nodes: 300, workers: 1, seed: 7, engine: engineInternal,
		net: netDefault, hash: 4, randomPlies: "2-8", quietOnly: true, quiet: true}
}

func mustRun(t *testing.T, ctx context.Context, o options) stats {
	t.Helper()
	st, err := run(ctx, o, io.Discard)
	if err != nil {
		t.Fatalf("run %+v: %v", o, err)
	}
	return st
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readBinpack returns every sample of a binpack file.
func readBinpack(t *testing.T, path string) []dataset.Sample {
	t.Helper()
	r := dataset.NewBinpackReader(bytes.NewReader(readFile(t, path)))
	var out []dataset.Sample
	for r.Next() {
		out = append(out, *r.Sample())
	}
	if err := r.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// TestOpeningsOrder: the ECO lines come in the same order every time (chess/v2's Book.Possible
// returns them in an order that varies between calls, so a seed drew different openings).
func TestOpeningsOrder(t *testing.T) {
	a, err := readOpenings()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		b, err := readOpenings()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(a, b, slices.Equal) {
			t.Fatal("two reads of the ECO list give the lines in different orders")
		}
	}
}

// TestInternalDeterministic: the in-process source writes the same bytes for a seed whatever
// the number of workers, other bytes for another seed; every position is quiet, every game a
// chunk.
func TestInternalDeterministic(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.binpack")
	o := internalOptions(a, 4)
	st := mustRun(t, context.Background(), o)
	if st.games != 4 || st.written == 0 || st.written > st.positions {
		t.Fatalf("stats %+v", st)
	}
	o.out, o.workers = filepath.Join(dir, "b.binpack"), 2
	mustRun(t, context.Background(), o)
	if !bytes.Equal(readFile(t, a), readFile(t, o.out)) {
		t.Error("1 and 2 workers wrote different files for the same seed")
	}
	o.out, o.seed = filepath.Join(dir, "c.binpack"), 8
	mustRun(t, context.Background(), o)
	if bytes.Equal(readFile(t, a), readFile(t, o.out)) {
		t.Error("seeds 7 and 8 wrote the same file")
	}
	f, _ := os.Open(a)
	defer f.Close()
	fi, _ := f.Stat()
	if n, end, err := scanChunks(f, fi.Size(), a); err != nil || n != 4 || end != fi.Size() {
		t.Errorf("%d chunks ending at %d of %d bytes: %v", n, end, fi.Size(), err)
	}
	if fs, err := readStats(a); err != nil || fs.games != 4 || fs.positions != st.written || fs.quiet != st.written ||
		fs.results[dataset.WhiteWins]+fs.results[dataset.Draw]+fs.results[dataset.BlackWins] != 4 {
		t.Errorf("-stats: %+v, %v (run: %+v)", fs, err, st)
	}
	samples := readBinpack(t, a)
	if int64(len(samples)) != st.written {
		t.Errorf("%d samples in the file, %d reported written", len(samples), st.written)
	}
	for i := range samples {
		s := &samples[i]
		if !quietPosition(s) || !dataset.Quiet(s) || s.Result == dataset.NoResult {
			t.Fatalf("sample %d %s (best %v, score %d, result %v) is not a quiet position with a result", i, s.Pos.FEN(), s.Best, s.Score, s.Result)
		}
	}
}

// TestLabelEqualsEvaluate: a position labelled by a network holds Network.Evaluate of it
// converted to internal units — exactly Evaluate for the default net and Stockfish 15.1's
// (PawnValue 361), ×3.61 rounded for a thesis net (PawnValue 100).
func TestLabelEqualsEvaluate(t *testing.T) {
	type labelNet struct{ path, arch string }
	nets := []labelNet{{netDefault, ""}}
	for _, n := range []labelNet{
		{"../../../shared/nets/nn-ad9b42354671.nnue", ""},
		{"../../../shared/thesis-models/hv.nn", ""},
		// a bullet net (Maelstrom's, MIT) read with its declared architecture
		{"../../../shared/nets/bullet/maelstrom-512.bin", "ft=all:i16 width=512 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100"},
	} {
		if _, err := os.Stat(n.path); err == nil {
			nets = append(nets, n)
		} else {
			t.Logf("%s absent (../shared not mounted): not tested", n.path)
		}
	}
	for _, n := range nets {
		path := n.path
		net, err := loadNet("-label-net", path, n.arch)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "l.binpack")
		o := internalOptions(out, 2)
		o.labelNet, o.labelArch = path, n.arch
		mustRun(t, context.Background(), o)
		samples := readBinpack(t, out)
		if len(samples) < 20 {
			t.Fatalf("%s: %d samples", path, len(samples))
		}
		pawn := net.Architecture().PawnValue
		for i := range samples {
			s := &samples[i]
			v := net.Evaluate(&s.Pos)
			want := netToInternal(v, pawn)
			if pawn == 361 && want != v {
				t.Fatalf("%s: netToInternal(%d, 361) = %d", path, v, want)
			}
			if s.Score != want {
				t.Fatalf("%s: %s labelled %d, Network.Evaluate %d → %d internal units", path, s.Pos.FEN(), s.Score, v, want)
			}
		}
	}
	if got := netToInternal(-100, 100); got != -361 {
		t.Errorf("netToInternal(-100, 100) = %d, want -361", got)
	}
	if got := netToInternal(7, 100); got != 25 { // 25.27
		t.Errorf("netToInternal(7, 100) = %d, want 25", got)
	}
}

// TestLabelBySearch: -label-nodes labels by a search with the label network: deterministic,
// and different from the static labels.
func TestLabelBySearch(t *testing.T) {
	dir := t.TempDir()
	o := internalOptions(filepath.Join(dir, "s.binpack"), 2)
	o.labelNet, o.labelNodes = netDefault, 200
	mustRun(t, context.Background(), o)
	a := readBinpack(t, o.out)
	o.out, o.workers = filepath.Join(dir, "s2.binpack"), 2
	mustRun(t, context.Background(), o)
	if !bytes.Equal(readFile(t, filepath.Join(dir, "s.binpack")), readFile(t, o.out)) {
		t.Error("search labels differ between runs")
	}
	net, _ := nnue.Default()
	differ := 0
	for i := range a {
		if a[i].Score != net.Evaluate(&a[i].Pos) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("every search label equals the static evaluation")
	}
}

// TestResumeEqualsUninterrupted: a run stopped after k games (by -games k, by Ctrl-C, and by a
// crash that left half a chunk) and resumed with -append writes the same file as one
// uninterrupted run; shards concatenate to it too.
func TestResumeEqualsUninterrupted(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.binpack")
	o := internalOptions(whole, 6)
	o.workers = 2
	mustRun(t, context.Background(), o)
	want := readFile(t, whole)

	// stopped by -games 2, resumed
	p := filepath.Join(dir, "games.binpack")
	o.out, o.games = p, 2
	mustRun(t, context.Background(), o)
	o.games, o.appendTo = 6, true
	if st := mustRun(t, context.Background(), o); st.games != 4 || st.total != 6 {
		t.Errorf("resume: %+v", st)
	}
	if !bytes.Equal(readFile(t, p), want) {
		t.Error("-games 2 then -append -games 6 differs from one run of 6 games")
	}

	// a crash: half of the last chunk written
	b := readFile(t, p)
	_, end, _ := scanChunks(bytes.NewReader(b), int64(len(b)), p)
	cut := bytes.LastIndex(b, []byte("BINP"))
	os.WriteFile(p, b[:cut+20], 0o644)
	if end != int64(len(b)) || cut <= 0 {
		t.Fatalf("chunks end at %d of %d", end, len(b))
	}
	if st := mustRun(t, context.Background(), o); st.games != 1 {
		t.Errorf("resume after a crash: %+v", st)
	}
	if !bytes.Equal(readFile(t, p), want) {
		t.Error("resume after a crash differs from one run")
	}

	// Ctrl-C after a while, then resumed
	p = filepath.Join(dir, "ctrlc.binpack")
	o.out, o.appendTo = p, false
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	st := mustRun(t, ctx, o)
	cancel()
	if st.games >= 6 {
		t.Logf("the interrupted run finished all games (%+v): machine faster than expected", st)
	}
	o.appendTo = true
	mustRun(t, context.Background(), o)
	if !bytes.Equal(readFile(t, p), want) {
		t.Errorf("interrupted after %d games and resumed: differs from one run", st.games)
	}

	// three shards, concatenated
	var cat []byte
	for i := range 3 {
		o.out, o.appendTo, o.shard = filepath.Join(dir, "shard"+string(rune('0'+i))+".binpack"), false, string(rune('0'+i))+"/3"
		if st := mustRun(t, context.Background(), o); st.games != 2 || st.first != int64(2*i) {
			t.Errorf("shard %d: %+v", i, st)
		}
		cat = append(cat, readFile(t, o.out)...)
	}
	if !bytes.Equal(cat, want) {
		t.Error("shards 0/3, 1/3, 2/3 concatenated differ from one run")
	}
}

// TestInternalBadInputs: bad networks, flags and outputs give a clear error before anything is
// written, and an existing output stays as it was.
func TestInternalBadInputs(t *testing.T) {
	dir := t.TempDir()
	notNet := filepath.Join(dir, "data.nnue")
	os.WriteFile(notNet, readFile(t, "../../quant/dataset/testdata/binpack/sfgen.binpack"), 0o644)
	existing := filepath.Join(dir, "old.binpack")
	mustRun(t, context.Background(), internalOptions(existing, 1))
	old := readFile(t, existing)
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o555)
	for _, tc := range []struct {
		name string
		edit func(o *options)
		want string
	}{
		{"label net not a network", func(o *options) { o.labelNet = notNet }, "-label-net " + notNet + ": not a network"},
		{"label net missing", func(o *options) { o.labelNet = filepath.Join(dir, "none.nnue") }, "no such file"},
		{"label net a directory", func(o *options) { o.labelNet = dir }, "not a regular file"},
		{"net not a network", func(o *options) { o.net = notNet }, "-net " + notNet + ": not a network"},
		{"net with a UCI engine", func(o *options) { o.engine = "/usr/games/stockfish"; o.net = notNet }, "-net needs -engine internal"},
		{"depth with a UCI engine", func(o *options) { o.engine = "/usr/games/stockfish"; o.depth = 3 }, "-depth needs -engine internal"},
		{"no limit", func(o *options) { o.nodes = 0 }, "needs -nodes or -depth"},
		{"label nodes alone", func(o *options) { o.labelNodes = 10 }, "-label-nodes needs -label-net"},
		{"label arch alone", func(o *options) {
			o.labelArch = "ft=all:i16 width=32 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100"
		}, "-label-arch needs -label-net"},
		{"label arch wrong for the file", func(o *options) {
			o.labelNet, o.labelArch = notNet, "ft=all:i16 width=32 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100"
		}, "not a bullet network of the declared architecture"},
		{"label arch not a spec", func(o *options) { o.labelNet, o.labelArch = notNet, "frob" }, "the declared architecture"},
		{"quiet-only text", func(o *options) { o.out = filepath.Join(dir, "x.txt") }, "-quiet-only needs a .binpack"},
		{"bad shard", func(o *options) { o.shard = "3/3" }, "-shard"},
		{"bad random plies", func(o *options) { o.randomPlies = "5-2" }, "-random-plies"},
		{"book missing", func(o *options) { o.book = filepath.Join(dir, "none.epd") }, "-book"},
		{"unwritable directory", func(o *options) { o.out = filepath.Join(ro, "x.binpack") }, "permission denied"},
		{"existing output", func(o *options) { o.out = existing }, "exists"},
		{"append to a Stockfish binpack", func(o *options) {
			o.out = filepath.Join(dir, "sf.binpack")
			os.WriteFile(o.out, readFile(t, "../../quant/dataset/testdata/binpack/sfgen.binpack"), 0o644)
			o.appendTo = true
		}, "not a datagen binpack"},
		{"output is the label net", func(o *options) { o.out = existing; o.labelNet = existing; o.force = true }, "input"},
	} {
		o := internalOptions(filepath.Join(dir, "new.binpack"), 2)
		tc.edit(&o)
		if os.Geteuid() == 0 && tc.name == "unwritable directory" {
			continue // root writes anywhere
		}
		_, err := run(context.Background(), o, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "new.binpack")); err == nil {
			t.Errorf("%s: the output was written", tc.name)
		}
	}
	if !bytes.Equal(readFile(t, existing), old) {
		t.Error("the existing output was changed")
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestBook: games start from the book's positions (plus random plies).
func TestBook(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "book.epd")
	fen := "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
	os.WriteFile(book, []byte(fen+"\n"), 0o644)
	o := internalOptions(filepath.Join(dir, "b.binpack"), 2)
	o.book, o.randomPlies = book, "0-0"
	mustRun(t, context.Background(), o)
	for _, s := range readBinpack(t, o.out) {
		// The book position has a king and eight pawns a side; promotions keep the count.
		if s.Pos.ByColor(board.White).Count() > 9 || s.Pos.ByColor(board.Black).Count() > 9 ||
			(s.Pos.ByRole(board.Rook)|s.Pos.ByRole(board.Bishop)).Count() > 1 {
			t.Fatalf("%s: pieces the book position does not have", s.Pos.FEN())
		}
	}
}

// BenchmarkLabel: one static label (a full refresh and the forward pass) per position, by
// network, over the positions of a short in-process run.
func BenchmarkLabel(b *testing.B) {
	out := filepath.Join(b.TempDir(), "p.binpack")
	if _, err := run(context.Background(), internalOptions(out, 2), io.Discard); err != nil {
		b.Fatal(err)
	}
	r := dataset.NewBinpackReader(bytes.NewReader(func() []byte { d, _ := os.ReadFile(out); return d }()))
	var ps []board.Position
	for r.Next() {
		ps = append(ps, r.Sample().Pos)
	}
	for _, path := range []string{netDefault, "../../../shared/nets/nn-ad9b42354671.nnue"} {
		b.Run(filepath.Base(path), func(b *testing.B) {
			net, err := loadNet("-label-net", path, "")
			if err != nil {
				b.Skip(err)
			}
			lab, err := newLabeller(net, 0, 1)
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				lab.label(&ps[i%len(ps)])
				i++
			}
		})
	}
}

// FuzzBinpackResume: whatever bytes an existing .binpack output holds, the -append checks and
// the resume's chunk count return (no panic, no hang), and a file they accept is cut to its
// whole chunks.
func FuzzBinpackResume(f *testing.F) {
	chunk := func() []byte {
		var buf bytes.Buffer
		p := board.StartPosition()
		m, _ := board.ParseUCIMove(&p, "e2e4")
		binpackGame(&buf, []dataset.Sample{{Pos: p, Score: 20, Best: m, Result: dataset.Draw}})
		return buf.Bytes()
	}()
	f.Add(chunk)
	f.Add(append(append([]byte{}, chunk...), chunk[:len(chunk)-3]...))
	f.Add([]byte("BINP\x00\x00\x00\x00"))
	f.Add([]byte("BINP\xff\xff\xff\x7f"))
	f.Add([]byte("not a binpack"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.binpack")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		n, end, err := scanChunks(bytes.NewReader(data), int64(len(data)), path)
		if err == nil && (end > int64(len(data)) || n > end/9+1) {
			t.Fatalf("%d chunks ending at %d of %d bytes", n, end, len(data))
		}
		if checkDatagenBinpack(path) != nil {
			return
		}
		fh, m, err := prepareBinpack(path, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		fh.Close()
		if b, _ := os.ReadFile(path); m != n || int64(len(b)) != end {
			t.Fatalf("resume: %d games in %d bytes, scan: %d chunks ending at %d", m, len(b), n, end)
		}
	})
}

// FuzzRanges: -random-plies and -shard either parse into a valid range or give an error.
func FuzzRanges(f *testing.F) {
	for _, s := range []string{"2-8", "0-0", "5", "8-2", "-1-3", "1/2", "0/1", "3/3", "x/y", "", "2-99999999999999999999"} {
		f.Add(s, 1000)
	}
	f.Fuzz(func(t *testing.T, s string, games int) {
		if lo, hi, err := parseRange(s); err == nil && (lo < 0 || hi < lo || hi > 1000) {
			t.Fatalf("parseRange(%q) = %d, %d", s, lo, hi)
		}
		games = max(games, 0) % 1_000_000
		o := options{shard: s, games: games}
		if first, end, err := o.shardRange(); err == nil && (first < 0 || end < first || end > int64(games)) {
			t.Fatalf("-shard %q of %d games: [%d, %d)", s, games, first, end)
		}
	})
}

// TestBinpackWriteErrorKeepsGames: -append to a binpack whose writes fail (a full disk) ends
// with the write error, and the games already in the file stay.
func TestBinpackWriteErrorKeepsGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "full.binpack")
	o := internalOptions(out, 1)
	mustRun(t, context.Background(), o)
	before := readFile(t, out)
	saved := appendWriter
	appendWriter = func(*os.File) io.Writer { return failingWriter{} }
	defer func() { appendWriter = saved }()
	o.games, o.appendTo = 5, true
	if _, err := run(context.Background(), o, io.Discard); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Errorf("write error: %v", err)
	}
	if !bytes.Equal(readFile(t, out), before) {
		t.Error("the file's games changed")
	}
}

// TestStockfishDeterministic: the subprocess source, written as a binpack with -quiet-only,
// gives the same bytes for 1 and 2 workers (one Stockfish thread, go nodes, ucinewgame before
// every game; game k depends on the seed and k only).
func TestStockfishDeterministic(t *testing.T) {
	needStockfish(t)
	dir := t.TempDir()
	o := options{out: filepath.Join(dir, "a.binpack"), games: 3, nodes: 200, workers: 1, seed: 4,
		engine: stockfish, hash: 16, quietOnly: true, quiet: true}
	mustRun(t, context.Background(), o)
	o.out, o.workers = filepath.Join(dir, "b.binpack"), 2
	mustRun(t, context.Background(), o)
	if a, b := readFile(t, filepath.Join(dir, "a.binpack")), readFile(t, o.out); !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("1 and 2 workers: %d and %d bytes, different", len(a), len(b))
	}
}

// TestBookPGN: a PGN book's games start where its main lines end (the text output keeps every
// position, so a line's first FEN is its start position).
func TestBookPGN(t *testing.T) {
	ps, err := readBook("../match/testdata/openings.pgn")
	if err != nil || len(ps) != 2 {
		t.Fatalf("%d positions, %v", len(ps), err)
	}
	want := map[string]bool{}
	for _, p := range ps {
		want[p.FEN()] = true
	}
	if !want["rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4"] {
		t.Errorf("book positions %v lack the end of 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4", want)
	}
	o := internalOptions(filepath.Join(t.TempDir(), "b.txt"), 4)
	o.quietOnly, o.book, o.randomPlies = false, "../match/testdata/openings.pgn", "0-0"
	mustRun(t, context.Background(), o)
	for _, line := range strings.Split(strings.TrimSpace(string(readFile(t, o.out))), "\n") {
		samples, err := dataset.ParseLine(line, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !want[samples[0].Pos.FEN()] {
			t.Errorf("a game starts at %s, not a book position", samples[0].Pos.FEN())
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.pgn")
	os.WriteFile(bad, []byte("1. e4 e5 2. Qxf7 *\n"), 0o644)
	if _, err := readBook(bad); err == nil {
		t.Error("a PGN with an illegal move was accepted")
	}
}
