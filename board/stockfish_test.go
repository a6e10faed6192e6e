package board

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	stockfishPath   = "/usr/games/stockfish" // Debian's stockfish 15.1 (CI installs it)
	sfPerftTestdata = "testdata/positions-perft3.txt"
	sharedPositions = "../../shared/data/positions.epd"
)

// stockfishPerft runs Stockfish's "go perft depth" on every FEN and returns the
// "Nodes searched" counts, one Stockfish process for all of them.
func stockfishPerft(t testing.TB, fens []string, depth int) []uint64 {
	t.Helper()
	cmd := exec.Command(stockfishPath)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		io.WriteString(in, "quit\n")
		in.Close()
		cmd.Wait()
	}()
	out := bufio.NewScanner(outPipe)
	counts := make([]uint64, 0, len(fens))
	for _, fen := range fens {
		fmt.Fprintf(in, "position fen %s\ngo perft %d\n", fen, depth)
		for {
			if !out.Scan() {
				t.Fatalf("stockfish ended early: %v", out.Err())
			}
			if s, ok := strings.CutPrefix(out.Text(), "Nodes searched: "); ok {
				n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				counts = append(counts, n)
				break
			}
		}
	}
	return counts
}

type perftRef struct {
	fen   string
	nodes uint64
}

// readPerftRefs reads testdata/positions-perft3.txt: comment lines start with '#', data
// lines are "nodes<TAB>fen".
func readPerftRefs(t testing.TB) []perftRef {
	t.Helper()
	data, err := os.ReadFile(sfPerftTestdata)
	if err != nil {
		t.Fatal(err)
	}
	var refs []perftRef
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		n, fen, ok := strings.Cut(line, "\t")
		nodes, err := strconv.ParseUint(n, 10, 64)
		if !ok || err != nil {
			t.Fatalf("bad line %q", line)
		}
		refs = append(refs, perftRef{fen, nodes})
	}
	return refs
}

// TestPerftPositionsEPD checks perft(3) of every position of ../shared/data/positions.epd
// against Stockfish 15.1's "go perft 3" counts committed in testdata (every 20th position
// with -short). NNUEKIT_SF_REGEN=1 regenerates the file from ../shared and Stockfish.
func TestPerftPositionsEPD(t *testing.T) {
	if os.Getenv("NNUEKIT_SF_REGEN") == "1" {
		regenPerftRefs(t)
	}
	refs := readPerftRefs(t)
	if len(refs) != 6000 {
		t.Fatalf("%d reference positions, want 6000", len(refs))
	}
	step := 1
	if testing.Short() || raceEnabled {
		step = 20
	}
	for i := 0; i < len(refs); i += step {
		p := mustFEN(t, refs[i].fen)
		if got := p.Perft(3); got != refs[i].nodes {
			t.Fatalf("position %d %s: perft(3) = %d, Stockfish %d", i+1, refs[i].fen, got, refs[i].nodes)
		}
	}
}

func regenPerftRefs(t *testing.T) {
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Fatalf("NNUEKIT_SF_REGEN needs %s", stockfishPath)
	}
	data, err := os.ReadFile(filepath.FromSlash(sharedPositions))
	if err != nil {
		t.Fatalf("NNUEKIT_SF_REGEN needs ../shared/data/positions.epd: %v", err)
	}
	var fens []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			fens = append(fens, line)
		}
	}
	counts := stockfishPerft(t, fens, 3)
	var b strings.Builder
	b.WriteString("# perft(3) of every position of ../shared/data/positions.epd (same order), as counted by\n")
	b.WriteString("# Stockfish 15.1 (Debian package stockfish, /usr/games/stockfish): \"position fen <fen>\" then\n")
	b.WriteString("# \"go perft 3\", the \"Nodes searched\" line. Regenerate: NNUEKIT_SF_REGEN=1 go test ./board -run TestPerftPositionsEPD\n")
	b.WriteString("# Format: nodes<TAB>fen\n")
	for i, fen := range fens {
		fmt.Fprintf(&b, "%d\t%s\n", counts[i], fen)
	}
	if err := os.WriteFile(sfPerftTestdata, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPerftVsStockfishLive compares perft(3) with a live Stockfish on every 10th reference
// position (every 100th with -short); it skips when /usr/games/stockfish is absent.
func TestPerftVsStockfishLive(t *testing.T) {
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Skipf("%s not installed (apt-get install stockfish); skipping the live comparison", stockfishPath)
	}
	refs := readPerftRefs(t)
	step := 10
	if testing.Short() || raceEnabled {
		step = 100
	}
	var fens []string
	for i := 0; i < len(refs); i += step {
		fens = append(fens, refs[i].fen)
	}
	counts := stockfishPerft(t, fens, 3)
	for i, fen := range fens {
		p := mustFEN(t, fen)
		if got := p.Perft(3); got != counts[i] {
			t.Fatalf("%s: perft(3) = %d, Stockfish %d", fen, got, counts[i])
		}
	}
}
