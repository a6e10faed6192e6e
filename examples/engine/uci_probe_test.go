package main

// uci_probe_test.go: the probe table of doc/reliability.md ("Probe table: UCI engine"):
// one scripted UCI exchange per finding, each answer checked within its budget plus
// margin. The margin is generous (the tests run on shared, loaded machines); every bound
// it allows is still far below what the findings measured.

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// margin is the slack on every timing bound (scheduling on a loaded machine); the
// many-threads overshoot, whose finding is about its size, gets smpMargin.
const (
	margin    = time.Second
	smpMargin = 400 * time.Millisecond
)

var warningRE = regexp.MustCompile(`^info string warning: `)

// goTimed sends cmd and returns the bestmove line and the time it took; it fails the test
// when none comes within limit.
func (s *session) goTimed(cmd string, limit time.Duration) (string, time.Duration) {
	s.t.Helper()
	t0 := s.send(cmd)
	// The line's own timestamp decides: the test goroutine may itself have been held up
	// (a stop-the-world waiting for a long non-preemptible clear), so expect waits longer.
	line, at, ok := s.expect(bestRE, limit+5*time.Second)
	if !ok || at.Sub(t0) > limit {
		s.t.Fatalf("%q: no bestmove within %v; output:\n%s", cmd, limit, s.out.String())
	}
	return line, at.Sub(t0)
}

// noBestmove checks that no bestmove comes within d.
func (s *session) noBestmove(cmd string, d time.Duration) {
	s.t.Helper()
	if line, _, ok := s.expect(bestRE, d); ok {
		s.t.Fatalf("after %q: %q before stop/ponderhit; output:\n%s", cmd, line, s.out.String())
	}
}

// ready starts a session and waits for readyok (the default network is loaded).
func readySession(t *testing.T, cmds ...string) *session {
	s := newSession(t)
	for _, c := range cmds {
		s.send(c)
	}
	s.send("isready")
	if _, _, ok := s.expect(regexp.MustCompile(`^readyok$`), 60*time.Second); !ok {
		t.Fatalf("no readyok; output:\n%s", s.out.String())
	}
	return s
}

// TestUCIGoClockFlagged: wtime ≤ 0 means "move now" (it searched until stop).
func TestUCIGoClockFlagged(t *testing.T) {
	s := readySession(t)
	for _, cmd := range []string{"go wtime 0 btime 1000", "go wtime -500 btime 1000 winc 0", "go wtime 0 btime 0 winc 100 binc 100"} {
		_, d := s.goTimed(cmd, 200*time.Millisecond+margin)
		t.Logf("%s: %v", cmd, d)
	}
}

// TestUCIGoHugeValues: huge wtime/movetime are clamped, not overflowed into a negative or
// tiny budget (movetime 2⁶³−1 answered after 1 ms).
func TestUCIGoHugeValues(t *testing.T) {
	s := readySession(t)
	for _, cmd := range []string{
		"go movetime 9223372036854775807",
		"go movetime 99999999999999999999",
		"go wtime 9223372036854775807 btime 9223372036854775807",
		"go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 binc 9223372036854775807 movestogo 9223372036854775807",
	} {
		s.send(cmd)
		s.noBestmove(cmd, 300*time.Millisecond)
		s.goTimed("stop", margin)
	}
}

// TestUCIGoMovetimeSpent: go movetime 300 searches for 300 − Move Overhead ms, not 185.
func TestUCIGoMovetimeSpent(t *testing.T) {
	s := readySession(t)
	for range 2 {
		_, d := s.goTimed("go movetime 300", 300*time.Millisecond+margin)
		if d < 260*time.Millisecond {
			t.Errorf("go movetime 300 answered after %v, want ≥ 260 ms (300 less the 30 ms overhead, at most 10 ms early)", d)
		}
		t.Logf("go movetime 300: %v", d)
	}
}

// TestUCIGoIncrementOrMovesToGoAlone: a clock without the side to move's remaining time
// is answered (movestogo alone searched forever).
func TestUCIGoIncrementOrMovesToGoAlone(t *testing.T) {
	s := readySession(t)
	_, d := s.goTimed("go movestogo 10", 100*time.Millisecond+margin)
	t.Logf("go movestogo 10: %v", d)
	_, d = s.goTimed("go winc 300 binc 300", 300*time.Millisecond+margin)
	t.Logf("go winc 300 binc 300: %v", d)
	_, d = s.goTimed("go btime 5000", 100*time.Millisecond+margin) // White to move: no wtime
	t.Logf("go btime 5000: %v", d)
	if n := len(s.out.lines()); n == 0 || !strings.Contains(s.out.String(), "info string warning: go: no wtime") {
		t.Errorf("no warning about the missing wtime; output:\n%s", s.out.String())
	}
}

// TestUCIGoLazySMPOnTime: with far more threads than cores, movetime 100 is kept (it
// overshot up to 21×: only the rarely scheduled main thread read the clock).
func TestUCIGoLazySMPOnTime(t *testing.T) {
	threads := min(32*runtime.GOMAXPROCS(0), maxThreads)
	s := readySession(t, fmt.Sprintf("setoption name Threads value %d", threads))
	var worst time.Duration
	for range 4 {
		_, d := s.goTimed("go movetime 100", time.Minute)
		worst = max(worst, d)
	}
	t.Logf("Threads %d, go movetime 100: slowest answer %v", threads, worst)
	if worst > 100*time.Millisecond+smpMargin {
		t.Errorf("Threads %d: go movetime 100 answered after %v, want ≤ 100 ms + %v", threads, worst, smpMargin)
	}
}

// TestUCIGoSearchmoves: the root is restricted to the given moves; illegal ones are
// ignored with a warning (searchmoves got no bestmove ever).
func TestUCIGoSearchmoves(t *testing.T) {
	s := readySession(t)
	for range 3 {
		line, _ := s.goTimed("go searchmoves a2a3 h2h3 depth 5", margin+5*time.Second)
		if m := strings.Fields(line)[1]; m != "a2a3" && m != "h2h3" {
			t.Errorf("searchmoves a2a3 h2h3: %q", line)
		}
	}
	line, _ := s.goTimed("go depth 3 searchmoves g1f3", margin+5*time.Second)
	if !strings.HasPrefix(line, "bestmove g1f3") {
		t.Errorf("searchmoves g1f3: %q", line)
	}
	line, _ = s.goTimed("go searchmoves e2e5 zz b1c3 depth 3", margin+5*time.Second)
	if !strings.HasPrefix(line, "bestmove b1c3") {
		t.Errorf("searchmoves e2e5 zz b1c3: %q, want b1c3 (the only legal one)", line)
	}
	for _, bad := range []string{`"e2e5" is not a legal move here`, `"zz" is not a legal move here`} {
		if !strings.Contains(s.out.String(), bad) {
			t.Errorf("no warning %q; output:\n%s", bad, s.out.String())
		}
	}
	line, _ = s.goTimed("go searchmoves e7e5 depth 2", margin+5*time.Second) // Black's move: none legal
	checkLegalStart(t, line)
}

func checkLegalStart(t *testing.T, line string) {
	t.Helper()
	pos := startPos()
	checkLegal(t, &pos, strings.Fields(line)[1])
}

// TestUCIGoUnknownTokens: any token go cannot parse is skipped with a warning, and a
// bestmove always comes (a go with a bad token got none).
func TestUCIGoUnknownTokens(t *testing.T) {
	s := readySession(t)
	cmds := []string{"go frob 7 depth 2", "go depth 2 wtime", "go depth 2 nodes 1e6", "go depth 2 movetime 12.5 \x00\xff"}
	for _, cmd := range cmds {
		line, _ := s.goTimed(cmd, margin+5*time.Second)
		checkLegalStart(t, line)
	}
	var warnings int
	for _, l := range s.out.lines() {
		if warningRE.MatchString(l.text) {
			warnings++
		}
	}
	if warnings != 6 { // frob, 7, wtime, 1e6, 12.5, \x00\xff
		t.Errorf("%d warnings, want 6; output:\n%s", warnings, s.out.String())
	}
	// Nothing usable left: a bare go, answered at stop.
	s.send("go depth x")
	s.noBestmove("go depth x", 100*time.Millisecond)
	s.goTimed("stop", margin)
}

// TestUCIGoPonder: go ponder keeps bestmove until ponderhit (then the clock starts) or
// stop (ponder was searched as a normal go and answered before ponderhit).
func TestUCIGoPonder(t *testing.T) {
	s := readySession(t, "setoption name Ponder value true", "position startpos moves e2e4")
	s.send("go ponder wtime 2000 btime 2000")
	s.noBestmove("go ponder", 300*time.Millisecond)
	line, d := s.goTimed("ponderhit", 40*time.Millisecond+margin) // budget: 2000/50 ms
	t.Logf("ponderhit: %q after %v", line, d)
	s.send("go ponder wtime 2000 btime 2000")
	s.noBestmove("go ponder", 300*time.Millisecond)
	s.goTimed("stop", margin)
	// A ponder search that ends early (a mate found) still waits for ponderhit.
	s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1")
	s.send("go ponder wtime 2000 btime 2000")
	s.noBestmove("go ponder (mate in one)", 300*time.Millisecond)
	s.goTimed("ponderhit", margin)
	if !strings.Contains(s.out.String(), " score mate 1 ") {
		t.Errorf("mate in one not found; output:\n%s", s.out.String())
	}
}

// TestUCIGoInfiniteDepthNodes: go infinite waits for stop; depth and nodes limits end the
// search by themselves.
func TestUCIGoInfiniteDepthNodes(t *testing.T) {
	s := readySession(t)
	s.send("go infinite")
	s.noBestmove("go infinite", 300*time.Millisecond)
	s.goTimed("stop", margin)
	s.goTimed("go depth 4", margin+10*time.Second)
	if !strings.Contains(s.out.String(), "info depth 4 ") {
		t.Errorf("go depth 4: no depth-4 info line")
	}
	s.goTimed("go nodes 20000", margin+10*time.Second)
}

// TestUCIGoAfterRejectedPosition: go after a rejected position answers bestmove 0000 with
// an error, never a move for the previous position.
func TestUCIGoAfterRejectedPosition(t *testing.T) {
	s := readySession(t, "position startpos moves e2e4")
	s.send("position startpos moves e2e4 e7e4")
	line, _ := s.goTimed("go depth 2", margin+5*time.Second)
	if line != "bestmove 0000" {
		t.Errorf("go after a rejected position: %q, want bestmove 0000", line)
	}
	if !strings.Contains(s.out.String(), "info string error: no position to search") {
		t.Errorf("no error for go without a position; output:\n%s", s.out.String())
	}
	s.send("position startpos moves e2e4 e7e5")
	line, _ = s.goTimed("go depth 2", margin+5*time.Second)
	if line == "bestmove 0000" {
		t.Errorf("a valid position after the rejected one: %q", line)
	}
}

// TestUCIHashLimits: Hash above the advertised maximum (65536 killed the engine: fatal
// out of memory) or above the available memory is an error that keeps the old table.
func TestUCIHashLimits(t *testing.T) {
	s := readySession(t)
	s.send("uci")
	opt, _, ok := s.expect(regexp.MustCompile(`^option name Hash type spin`), time.Second)
	want := fmt.Sprintf("option name Hash type spin default 128 min 1 max %d", maxHash)
	if !ok || opt != want {
		t.Errorf("Hash option %q, want %q", opt, want)
	}
	if total, _, ok := machineMemory(); ok && uint64(maxHash)<<20 > total/4*3 {
		t.Errorf("advertised Hash max %d MiB is more than ¾ of the machine's %d MiB", maxHash, total>>20)
	}
	for _, v := range []string{"65536", fmt.Sprint(maxHash + 1), "1048576", "0", "99999999999999999999"} {
		s.send("setoption name Hash value " + v)
		if line, _, ok := s.expect(regexp.MustCompile(`^info string error: option Hash: value`), 5*time.Second); !ok {
			t.Errorf("Hash %s: no error; output:\n%s", v, s.out.String())
		} else {
			t.Log(line)
		}
	}
	s.goTimed("go depth 3", margin+5*time.Second) // still alive, with the old table

	// More than the memory available now: refused, the table stays.
	defer func(f func() (uint64, uint64, bool)) { machineMemory = f }(machineMemory)
	machineMemory = func() (uint64, uint64, bool) { return 8 << 30, 200 << 20, true }
	e := newEngine(io.Discard)
	old := e.tt
	err := e.setOption(strings.Fields("name Hash value 256"))
	want = "option Hash: 256 MiB is more than the 200 MiB of memory available now; the 128 MiB table stays"
	if err == nil || err.Error() != want || e.tt != old || e.hashMB != defaultHash {
		t.Errorf("Hash 256 with 200 MiB available: err %v (want %q), table replaced %v", err, want, e.tt != old)
	}
	if err := e.setOption(strings.Fields("name Hash value 64")); err != nil || e.tt == old || e.hashMB != 64 {
		t.Errorf("Hash 64 with 200 MiB available: err %v, hash %d", err, e.hashMB)
	}

	// An allocation the kernel refuses (mem_linux.go: mmap, ENOMEM) is an error, not the
	// runtime's fatal out of memory; the table stays.
	if runtime.GOOS != "linux" || math.MaxInt == math.MaxInt32 {
		return
	}
	machineMemory = func() (uint64, uint64, bool) { return 1 << 62, 1 << 62, true }
	old = e.tt
	huge := math.MaxInt >> 23 // 2⁴⁰ MiB = 2⁶⁰ bytes on 64-bit: beyond any machine's memory
	err = e.resizeTT(huge)
	if err == nil || !strings.Contains(err.Error(), "the 64 MiB table stays") || e.tt != old || e.hashMB != 64 {
		t.Errorf("Hash 2⁴⁰ MiB: err %v, table replaced %v", err, e.tt != old)
	}
	t.Log(err)
}

// TestUCIHashClearPrompt: ucinewgame with a large table answers isready promptly (Hash
// 2048 blocked 7.7 s: every page of the table was written).
func TestUCIHashClearPrompt(t *testing.T) {
	const mb = 1024
	if _, avail, ok := machineMemory(); !ok || avail < 4*mb<<20 || maxHash < mb {
		t.Skipf("engine: %d MiB table needs a Linux machine with %d MiB available", mb, 4*mb)
	}
	s := readySession(t, fmt.Sprintf("setoption name Hash value %d", mb))
	s.goTimed("go movetime 200", time.Minute)
	for range 2 {
		t0 := s.send("ucinewgame")
		s.send("isready")
		_, at, ok := s.expect(regexp.MustCompile(`^readyok$`), time.Minute)
		if !ok || at.Sub(t0) > margin+100*time.Millisecond {
			t.Fatalf("Hash %d: ucinewgame + isready: readyok after %v, want ≤ %v", mb, at.Sub(t0), margin+100*time.Millisecond)
		}
		t.Logf("Hash %d: ucinewgame + isready in %v", mb, at.Sub(t0))
		s.goTimed("go depth 4", time.Minute)
	}
}

// TestUCIBenchInterruptible: stop and quit end a running bench (bench N blocked quit).
func TestUCIBenchInterruptible(t *testing.T) {
	s := readySession(t)
	s.send("bench 60")
	time.Sleep(200 * time.Millisecond)
	t0 := s.send("stop")
	if _, at, ok := s.expect(regexp.MustCompile(`^Nodes/second`), margin+5*time.Second); !ok || at.Sub(t0) > margin {
		t.Fatalf("stop did not end the bench within %v; output:\n%s", margin, s.out.String())
	} else {
		t.Logf("bench stopped in %v", at.Sub(t0))
	}
	if !strings.Contains(s.out.String(), "info string bench stopped after 0 of 12 positions") {
		t.Errorf("no note of the stopped bench; output:\n%s", s.out.String())
	}
	s.send("bench 60")
	time.Sleep(200 * time.Millisecond)
	s.send("isready")
	if _, _, ok := s.expect(regexp.MustCompile(`^readyok$`), margin); !ok {
		t.Errorf("isready during bench: no readyok")
	}
	s.send("quit")
	select {
	case <-s.done:
	case <-time.After(margin + time.Second):
		t.Fatal("quit during bench did not end the engine")
	}
}

// TestUCIBenchEvalFile: bench <depth> <evalfile> searches with that network (the
// argument was ignored), then restores the engine's network.
func TestUCIBenchEvalFile(t *testing.T) {
	s := readySession(t)
	nodes := func(cmd string) string {
		s.send(cmd)
		line, _, ok := s.expect(regexp.MustCompile(`^Nodes searched  : \d+$`), time.Minute)
		if !ok {
			t.Fatalf("%s: no node count; output:\n%s", cmd, s.out.String())
		}
		return line
	}
	withNet, material := nodes("bench 3"), nodes("bench 3 <material>")
	if withNet == material {
		t.Errorf("bench 3 and bench 3 <material> searched the same nodes (%s): the net argument is ignored", withNet)
	}
	if again := nodes("bench 3"); again != withNet {
		t.Errorf("bench 3 after bench 3 <material>: %s, want %s (the default network restored)", again, withNet)
	}
	s.send("bench 3 /nonexistent.nnue")
	if _, _, ok := s.expect(regexp.MustCompile(`^info string error: bench: EvalFile`), 5*time.Second); !ok {
		t.Errorf("bench with a missing network: no error")
	}
}

// TestUCILongLine: a line of 3 MiB is skipped with a short error, without storing it
// (a 200 MB token peaked at 2.25 GB and was quoted twice into the error).
func TestUCILongLine(t *testing.T) {
	s := readySession(t)
	long := []byte("position startpos moves " + strings.Repeat("e2e4", 3<<18) + "\n") // 3 MiB
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := s.w.Write(long); err != nil {
		t.Fatal(err)
	}
	s.send("isready")
	if _, _, ok := s.expect(regexp.MustCompile(`^readyok$`), 10*time.Second); !ok {
		t.Fatalf("no readyok after the long line")
	}
	runtime.ReadMemStats(&after)
	out := s.out.String()
	if len(out) > 4096 || !strings.Contains(out, "info string error: input line of 3145753 bytes ignored (limit 1048576 bytes)") {
		t.Errorf("output after the long line (%d bytes): %.300s", len(out), out)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 8<<20 {
		t.Errorf("reading a 3 MiB line allocated %d bytes, want ≤ 8 MiB", d)
	}
	line, _ := s.goTimed("go depth 2", margin+5*time.Second) // the position before the line
	checkLegalStart(t, line)
}

// TestUsage: -help prints a synopsis, an example and the flags.
func TestUsage(t *testing.T) {
	var b strings.Builder
	flagOut := flagOutput(&b)
	defer flagOut()
	usage()
	for _, want := range []string{"Synopsis:", "Examples:", "engine bench 10 ", "-cpuprofile file", "no -json"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("usage lacks %q:\n%s", want, b.String())
		}
	}
}

// TestUCIBenchEndOfInput: at the end of the input a running bench finishes (printf
// 'bench 2\n' | engine prints the totals), a running search stops.
func TestUCIBenchEndOfInput(t *testing.T) {
	s := readySession(t)
	s.send("bench 2")
	s.w.Close()
	select {
	case <-s.done:
	case <-time.After(time.Minute):
		t.Fatal("the engine did not end after the bench")
	}
	if !strings.Contains(s.out.String(), "Nodes/second") || strings.Contains(s.out.String(), "bench stopped") {
		t.Errorf("bench 2 then end of input:\n%s", s.out.String())
	}
	s = readySession(t)
	s.send("go infinite")
	s.w.Close()
	if _, _, ok := s.expect(bestRE, margin); !ok {
		t.Errorf("go infinite then end of input: no bestmove")
	}
}

// TestUCIEvalArch: EvalArch and EvalLayout declare a bullet weights file, which EvalFile then
// loads (Maelstrom's 512 SCReLU net; its first row of ../shared/data/bullet is -360 for the
// side to move); a bad declaration is an error that keeps the network; an empty EvalArch
// makes EvalFile detect formats again.
func TestUCIEvalArch(t *testing.T) {
	net := shared(t, "nets", "bullet", "maelstrom-512.bin")
	s := readySession(t)
	s.send("setoption name EvalArch value ft=all:i16 width=512 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100")
	s.send("setoption name EvalLayout value <empty>")
	s.send("setoption name EvalFile value " + net)
	s.send("position fen rnb1kb2/2q2p1Q/p2pp1r1/1p6/3NP3/P1N1P1P1/1PP1B2P/R3K2R b KQq - 0 15")
	s.send("eval")
	if _, _, ok := s.expect(regexp.MustCompile(`^info string NNUE evaluation -360 \(network units\)`), time.Minute); !ok {
		t.Fatalf("no evaluation -360; output:\n%s", s.out.String())
	}
	s.send("setoption name EvalArch value ft=nonsense")
	if _, _, ok := s.expect(regexp.MustCompile(`^info string error: EvalArch: `), 5*time.Second); !ok {
		t.Errorf("bad EvalArch: no error; output:\n%s", s.out.String())
	}
	s.send("setoption name EvalLayout value header=-1")
	if _, _, ok := s.expect(regexp.MustCompile(`^info string error: EvalLayout: `), 5*time.Second); !ok {
		t.Errorf("bad EvalLayout: no error; output:\n%s", s.out.String())
	}
	s.send("setoption name EvalArch value <empty>")
	s.send("setoption name EvalFile value " + net)
	if _, _, ok := s.expect(regexp.MustCompile(`^info string error: EvalFile: `), 5*time.Second); !ok {
		t.Errorf("a bullet file without EvalArch loaded; output:\n%s", s.out.String())
	}
}

// TestUCIEvalOptionOrder: EvalFile, EvalArch and EvalLayout work in any order (a GUI sends
// them in its own, often alphabetical, order): Stormphrax net013 (64-byte header, 4 king
// buckets) given file first, then its layout, then its architecture, evaluates the first row of
// its ../shared/data/bullet CSV (-368), and so it does with the layout last.
func TestUCIEvalOptionOrder(t *testing.T) {
	net := shared(t, "nets", "bullet", "stormphrax-net013.nnue")
	arch := "ft=kings(0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3)*all:i16 width=512 stack=stm>crelu_affine.i16(255) out=*400/16320 pawn=100"
	for _, order := range [][]string{
		{"EvalFile value " + net, "EvalLayout value header=64", "EvalArch value " + arch},
		{"EvalArch value " + arch, "EvalFile value " + net, "EvalLayout value header=64"},
	} {
		s := readySession(t)
		for _, o := range order {
			s.send("setoption name " + o)
		}
		s.send("position fen rnb1kb2/2q2p1Q/p2pp1r1/1p6/3NP3/P1N1P1P1/1PP1B2P/R3K2R b KQq - 0 15")
		s.send("eval")
		if _, _, ok := s.expect(regexp.MustCompile(`^info string NNUE evaluation -368 \(network units\)`), time.Minute); !ok {
			t.Errorf("order %q: no evaluation -368; output:\n%s", order[0], s.out.String())
		}
	}
}

// TestUCIEvalTable: eval prints Stockfish's per-bucket PSQT/positional table for a network
// with PSQT buckets (SF15.1) and not for one without (SF13 HalfKP); the choice comes from the
// network's PSQT columns, not from its description text.
func TestUCIEvalTable(t *testing.T) {
	sf15, sf13 := shared(t, "nets", "nn-ad9b42354671.nnue"), shared(t, "nets", "nn-62ef826d1a6d.nnue")
	s := readySession(t, "setoption name EvalFile value "+sf15)
	s.send("eval")
	if _, _, ok := s.expect(regexp.MustCompile(`^info string \|   Bucket   \|  Material  \|`), time.Minute); !ok {
		t.Fatalf("SF15.1: no bucket table; output:\n%s", s.out.String())
	}
	s.send("setoption name EvalFile value " + sf13)
	s.send("eval")
	line, _, ok := s.expect(regexp.MustCompile(`^info string (NNUE evaluation|\|   Bucket)`), time.Minute)
	if !ok || !strings.Contains(line, "NNUE evaluation") {
		t.Errorf("SF13: %q before the evaluation line, want no bucket table", line)
	}
}
