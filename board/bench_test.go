package board

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

const benchKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func BenchmarkParseFEN(b *testing.B) {
	for b.Loop() {
		if _, err := ParseFEN(benchKiwipete); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFEN(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	buf := make([]byte, 0, 128)
	for b.Loop() {
		buf = p.AppendFEN(buf[:0])
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	buf := make([]Move, 0, 256)
	c0 := cpuTime()
	defer func() { reportCPU(b, c0, 1) }()
	for b.Loop() {
		buf = p.AppendLegalMoves(buf[:0])
	}
}

func BenchmarkPlay(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	ms := p.LegalMoves()
	var sink int
	i := 0
	c0 := cpuTime()
	defer func() { reportCPU(b, c0, 1) }()
	for b.Loop() {
		c, d := p.Play(ms[i])
		sink += d.N + int(c.halfmove)
		i++
		if i == len(ms) {
			i = 0
		}
	}
	_ = sink
}

func BenchmarkAttackers(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var acc Bitboard
	for b.Loop() {
		for sq := Square(0); sq < 64; sq++ {
			acc |= p.Attackers(sq, Black)
		}
	}
	_ = acc
}

func BenchmarkSliders(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	occ := p.Occupied()
	var acc Bitboard
	for b.Loop() {
		for sq := Square(0); sq < 64; sq++ {
			acc |= QueenAttacks(sq, occ)
		}
	}
	_ = acc
}

// reportCPU adds the metric cpu-ns/op: the process's CPU time since c0 per operation (per
// item when items > 1), steadier than wall time on a loaded machine.
func reportCPU(b *testing.B, c0 time.Duration, items int) {
	if c := cpuTime() - c0; c > 0 && c0 > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N*items), "cpu-ns/op")
	}
}

// BenchmarkPerft6 runs perft(6) from the start position (bulk counting, 119,060,324
// nodes) and, when /usr/games/stockfish is installed, Stockfish 15.1's "go perft 6" once
// in the same run: metrics nodes/s (wall) and nodes/cpu-s (CPU time of the process) for
// both, and ratio = ours / Stockfish's in nodes per CPU second. Stockfish's CPU time is
// that of its whole process minus a run that only starts and quits (minimum of two runs
// each).
func BenchmarkPerft6(b *testing.B) {
	const nodes = 119060324
	p := StartPosition()
	c0 := cpuTime()
	for b.Loop() {
		if n := p.Perft(6); n != nodes {
			b.Fatalf("perft(6) = %d", n)
		}
	}
	cpu := cpuTime() - c0
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
	if cpu <= 0 {
		return
	}
	ours := float64(nodes) * float64(b.N) / cpu.Seconds()
	b.ReportMetric(ours, "nodes/cpu-s")
	if _, err := os.Stat(stockfishPath); err != nil {
		return
	}
	b.StopTimer()
	// the minimum of two runs each, to damp the noise of a shared machine
	base, _ := stockfishRun(b, "")
	if c, _ := stockfishRun(b, ""); c < base {
		base = c
	}
	sfCPU, sfWall := stockfishRun(b, "position startpos\ngo perft 6\n")
	if c, w := stockfishRun(b, "position startpos\ngo perft 6\n"); c < sfCPU {
		sfCPU, sfWall = c, w
	}
	if c := sfCPU - base; c > 0 {
		b.ReportMetric(float64(nodes)/sfWall.Seconds(), "sf-nodes/s")
		b.ReportMetric(float64(nodes)/c.Seconds(), "sf-nodes/cpu-s")
		b.ReportMetric(ours/(float64(nodes)/c.Seconds()), "ratio")
	}
}

// stockfishRun starts Stockfish, sends "uci", cmds and waits for "Nodes searched" (when
// cmds is not empty), then quits. It returns the process's CPU time and the wall time from
// sending cmds to the answer.
func stockfishRun(b *testing.B, cmds string) (cpu, wall time.Duration) {
	cmd := exec.Command(stockfishPath)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	io.WriteString(in, "uci\nisready\n")
	for sc.Scan() && sc.Text() != "readyok" {
	}
	t0 := time.Now()
	if cmds != "" {
		io.WriteString(in, cmds)
		for sc.Scan() && !strings.HasPrefix(sc.Text(), "Nodes searched") {
		}
	}
	wall = time.Since(t0)
	io.WriteString(in, "quit\n")
	in.Close()
	io.Copy(io.Discard, out)
	cmd.Wait()
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), wall
}

// BenchmarkGenerateLegalEPD generates the legal moves of every position of
// positions.epd (the FENs of testdata/positions-perft3.txt); ns/op is per position, and
// median-ns / p90-ns are the median and 90th percentile over the positions of the time of
// one generation (each timed over 64 repetitions).
func BenchmarkGenerateLegalEPD(b *testing.B) {
	refs := readPerftRefs(b)
	ps := make([]Position, len(refs))
	for i, r := range refs {
		ps[i] = mustFEN(b, r.fen)
	}
	var l MoveList
	c0 := cpuTime()
	for b.Loop() {
		for i := range ps {
			l.N = 0
			ps[i].GenerateLegal(&l)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/position")
	reportCPU(b, c0, len(ps))
	b.StopTimer()
	per := make([]float64, len(ps))
	for i := range ps {
		t0 := time.Now()
		for k := 0; k < 64; k++ {
			l.N = 0
			ps[i].GenerateLegal(&l)
		}
		per[i] = float64(time.Since(t0).Nanoseconds()) / 64
	}
	slices.Sort(per)
	b.ReportMetric(per[len(per)/2], "median-ns")
	b.ReportMetric(per[len(per)*9/10], "p90-ns")
}

// BenchmarkChessV2LegalMoves is the previous path (chess/v2 through the conversion
// layer) on the same position as BenchmarkLegalMoves, for the ratio.
func BenchmarkChessV2LegalMoves(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	buf := make([]Move, 0, 256)
	c0 := cpuTime()
	defer func() { reportCPU(b, c0, 1) }()
	for b.Loop() {
		buf = chessLegalMoves(&p, buf[:0])
	}
}

func BenchmarkGenerateCaptures(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var l MoveList
	for b.Loop() {
		l.N = 0
		p.GenerateCaptures(&l)
	}
}

func BenchmarkPlayNull(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var sink uint64
	c0 := cpuTime()
	defer func() { reportCPU(b, c0, 1) }()
	for b.Loop() {
		c, _ := p.PlayNull()
		sink += c.Key()
	}
	_ = sink
}

func BenchmarkSEE(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var l MoveList
	p.GenerateCaptures(&l)
	sink := 0
	for b.Loop() {
		for _, m := range l.Slice() {
			sink += p.SEE(m)
		}
	}
	_ = sink
}

func BenchmarkSEEGE(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var l MoveList
	p.GenerateCaptures(&l)
	sink := 0
	for b.Loop() {
		for _, m := range l.Slice() {
			if p.SEEGE(m, 0) {
				sink++
			}
		}
	}
	_ = sink
}

func BenchmarkGivesCheck(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var l MoveList
	p.GenerateLegal(&l)
	sink := 0
	for b.Loop() {
		for _, m := range l.Slice() {
			if p.GivesCheck(m) {
				sink++
			}
		}
	}
	_ = sink
}

func BenchmarkIsLegal(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var l MoveList
	p.GenerateLegal(&l)
	sink := 0
	for b.Loop() {
		for _, m := range l.Slice() {
			if p.IsLegal(m) {
				sink++
			}
		}
	}
	_ = sink
}
