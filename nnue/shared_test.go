package nnue

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// sharedDir is ../shared relative to the repository root.
const sharedDir = "../../shared"

func requireShared(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(sharedDir, "thesis-models", "golden-evals.jsonl")); err != nil {
		t.Skip("nnue: ../shared absent")
	}
}

// thesisNetNames lists the 13 thesis networks (file names without .nn), sorted.
func thesisNetNames(t testing.TB) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(sharedDir, "thesis-models", "*.nn"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range m {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".nn"))
	}
	sort.Strings(names)
	return names
}

var (
	netCacheMu sync.Mutex
	netCache   = map[string]*Network{}
)

// thesisNet loads (once per test binary) a thesis network.
func thesisNet(t testing.TB, name string) *Network {
	t.Helper()
	netCacheMu.Lock()
	defer netCacheMu.Unlock()
	if n, ok := netCache[name]; ok {
		return n
	}
	n, err := LoadFile(filepath.Join(sharedDir, "thesis-models", name+".nn"))
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	netCache[name] = n
	return n
}

type goldenData struct {
	fens  []string
	pos   []board.Position
	evals []map[string]int32
}

var (
	goldenOnce sync.Once
	golden     goldenData
	goldenErr  error
)

// tryGolden is loadGolden without skipping: nil when ../shared is absent.
func tryGolden(t testing.TB) *goldenData {
	if _, err := os.Stat(filepath.Join(sharedDir, "thesis-models", "golden-evals.jsonl")); err != nil {
		return nil
	}
	return loadGolden(t)
}

// loadGolden reads positions.epd and golden-evals.jsonl (once).
func loadGolden(t testing.TB) *goldenData {
	t.Helper()
	requireShared(t)
	goldenOnce.Do(func() {
		f, err := os.Open(filepath.Join(sharedDir, "thesis-models", "golden-evals.jsonl"))
		if err != nil {
			goldenErr = err
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			var raw map[string]any
			if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
				goldenErr = err
				return
			}
			fen, _ := raw["fen"].(string)
			ev := map[string]int32{}
			for k, v := range raw {
				if x, ok := v.(float64); ok {
					ev[k] = int32(x)
				}
			}
			pos, err := board.ParseFEN(fen)
			if err != nil {
				goldenErr = err
				return
			}
			golden.fens = append(golden.fens, fen)
			golden.pos = append(golden.pos, pos)
			golden.evals = append(golden.evals, ev)
		}
		goldenErr = sc.Err()
		// cross-check with positions.epd
		epd, err := os.ReadFile(filepath.Join(sharedDir, "data", "positions.epd"))
		if err != nil {
			goldenErr = err
			return
		}
		lines := strings.Split(strings.TrimRight(string(epd), "\n"), "\n")
		if len(lines) != len(golden.fens) {
			goldenErr = os.ErrInvalid
			return
		}
		for i, l := range lines {
			if strings.TrimSpace(l) != golden.fens[i] {
				goldenErr = os.ErrInvalid
				return
			}
		}
	})
	if goldenErr != nil {
		t.Fatalf("golden data: %v", goldenErr)
	}
	return &golden
}
