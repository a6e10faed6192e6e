package nnue

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

// longPlies is the number of plies TestLongGames plays per net family and walk:
// NNUEKIT_LONG when set (CI: 100000; the million-move proof: 1000000, see
// doc/reliability.md), else 2,000 (300 with -short or -race).
func longPlies(t *testing.T) int {
	if s := os.Getenv("NNUEKIT_LONG"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("NNUEKIT_LONG=%q: want a positive number of plies", s)
		}
		return n
	}
	if testing.Short() || raceEnabled {
		return 300
	}
	return 2000
}

// longFamilies returns the networks of each family available here: a thesis network
// (../shared's best.nn, else a random one), and Stockfish's HalfKP (SF13) and
// HalfKAv2_hm (SF15.1) nets and the Stockfish 19 threat-input net when ../shared is
// present.
func longFamilies(t *testing.T) map[string]func(t *testing.T) *Network {
	return map[string]func(t *testing.T) *Network{
		"thesis": func(t *testing.T) *Network {
			p := filepath.Join(sharedDir, "thesis-models", "best.nn")
			if _, err := os.Stat(p); err == nil {
				return thesisNet(t, "best")
			}
			return randomThesisNet(t, rand.New(rand.NewPCG(5, 5)), "all+ph+pv", 32, 32, 300)
		},
		"halfkp-sf13":      func(t *testing.T) *Network { return sfTestNetwork(t, sfNetHalfKP) },
		"halfkav2hm-sf151": func(t *testing.T) *Network { return sfTestNetwork(t, sfNetSFNNv5) },
		"threats-sf19":     func(t *testing.T) *Network { return sfTestNetwork(t, sfNetSF19) },
	}
}

// longChecker compares stacks (plain and with a refresh table) against a full refresh.
type longChecker struct {
	t      *testing.T
	ev     *Evaluator
	plain  *AccumulatorStack
	table  *AccumulatorStack
	checks int
}

func newLongChecker(t *testing.T, net *Network) *longChecker {
	c := &longChecker{t: t, ev: net.NewEvaluator(), plain: net.NewAccumulatorStack(), table: net.NewAccumulatorStack()}
	c.table.UseRefreshTable(net.NewRefreshTable())
	return c
}

func (c *longChecker) reset(p *board.Position) { c.plain.Reset(p); c.table.Reset(p) }
func (c *longChecker) push(m board.Move)       { c.plain.PushMove(m); c.table.PushMove(m) }
func (c *longChecker) pop()                    { c.plain.Pop(); c.table.Pop() }

// check evaluates the top of both stacks and a refresh, and fails on any difference.
func (c *longChecker) check(ply int) {
	pos := c.plain.Position()
	want := c.ev.Evaluate(pos)
	for _, st := range []*AccumulatorStack{c.plain, c.table} {
		got := st.Evaluate()
		for p := board.White; p <= board.Black; p++ {
			if !slices.Equal(st.Accumulator().Values(p), c.ev.Accumulator().Values(p)) ||
				!slices.Equal(st.Accumulator().PSQT(p), c.ev.Accumulator().PSQT(p)) {
				c.t.Fatalf("ply %d, %s: %v accumulator differs from a refresh", ply, pos.FEN(), p)
			}
		}
		if got != want {
			c.t.Fatalf("ply %d, %s: incremental %d, refresh %d", ply, pos.FEN(), got, want)
		}
	}
	c.checks++
}

// TestLongGames is the long-game proof: per net family, (1) random games played ply by
// ply (a new game after mate, stalemate, the fifty-move rule or 600 plies), the stack
// growing with the game, and (2) a push/pop walk like a depth-first search (random depth
// ≤ 12 under a random root), each comparing the incremental accumulators and evaluation,
// plain and with a RefreshTable, with a full refresh at every ply. NNUEKIT_LONG sets the
// plies per walk.
func TestLongGames(t *testing.T) {
	n := longPlies(t)
	for _, name := range []string{"thesis", "halfkp-sf13", "halfkav2hm-sf151", "threats-sf19"} {
		t.Run(name, func(t *testing.T) {
			net := longFamilies(t)[name](t)
			rng := rand.New(rand.NewPCG(uint64(len(name)), 16))
			c := newLongChecker(t, net)
			start := time.Now()
			// (1) games
			var moves []board.Move
			games := 0
			for ply := 0; ply < n; {
				pos := board.StartPosition()
				c.reset(&pos)
				c.check(ply)
				games++
				for k := 0; k < 600 && ply < n; k++ {
					moves = pos.AppendLegalMoves(moves[:0])
					if len(moves) == 0 || pos.HalfmoveClock() >= 100 {
						break
					}
					m := moves[rng.IntN(len(moves))]
					pos, _ = pos.Play(m)
					c.push(m)
					ply++
					c.check(ply)
				}
			}
			gameTime := time.Since(start)
			// (2) push/pop walk
			start = time.Now()
			root := board.StartPosition()
			c.reset(&root)
			depth, pushes := 0, 0
			for pushes < n {
				pos := *c.plain.Position()
				moves = pos.AppendLegalMoves(moves[:0])
				if depth > 0 && (len(moves) == 0 || depth >= 12 || rng.IntN(3) == 0) {
					c.pop()
					depth--
					c.check(pushes)
					continue
				}
				if len(moves) == 0 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				c.push(m)
				depth++
				pushes++
				c.check(pushes)
				if depth == 1 && rng.IntN(50) == 0 { // move the root along the game
					next, _ := root.Play(m)
					if next.Status() == board.Ongoing && next.HalfmoveClock() < 100 {
						root = next
					} else {
						root = board.StartPosition()
					}
					c.reset(&root)
					depth = 0
				}
			}
			t.Logf("%s: %d plies in %d games (%v), %d pushes in the push/pop walk (%v); %d checks; updates %d, refreshes %d (plain stack)",
				name, n, games, gameTime.Round(time.Millisecond), pushes, time.Since(start).Round(time.Millisecond),
				c.checks, c.plain.Updates, c.plain.Refreshes)
		})
	}
}
