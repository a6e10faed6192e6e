package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/uci"
)

// normalizeToPawnValue is Stockfish 15.1's NormalizeToPawnValue (src/uci.h): UCI "score cp X"
// is 100·v/361 of the internal value v. We store internal units, like the binpack data the
// thesis used (doc/datagen.md).
const normalizeToPawnValue = 361

// valueMate is Stockfish's VALUE_MATE; a mate in n plies is stored as ±(valueMate − n).
const valueMate = 32000

// searchTimeout bounds one "go nodes N" search; far beyond any node budget datagen uses, it
// only catches a hung engine.
const searchTimeout = 5 * time.Minute

// engine drives one UCI engine process through internal/uci (one persistent reader, real
// deadlines; github.com/corentings/chess/v2/uci was tried first and returned a best move that
// was illegal in the position sent — see doc/datagen.md). Every move read is checked for
// legality before it is used.
type engine struct {
	nodes int
	uci   *uci.Engine
}

func newEngine(path string, nodes, hash int) (*engine, error) {
	e, err := uci.Start(uci.Spec{Cmd: path, Options: []uci.Option{
		{Name: "Threads", Value: "1"}, {Name: "Hash", Value: strconv.Itoa(hash)},
	}, StartTimeout: 30 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("%s is not a working UCI engine: %w", path, err)
	}
	return &engine{nodes: nodes, uci: e}, nil
}

// restart replaces a dead or confused engine process.
func (en *engine) restart() error { return en.uci.Restart() }

func (en *engine) close() { en.uci.Close() }

// newGame clears the engine's hash (ucinewgame) so games are independent.
func (en *engine) newGame() error { return en.uci.NewGame(30 * time.Second) }

// search runs "go nodes N" on p and returns the score (side to move, internal units) and the best
// move. The position is sent as "position fen" without move history, so the engine does not see
// earlier repetitions; the game loop detects them itself.
func (en *engine) search(p *board.Position) (int32, board.Move, error) {
	r, err := en.uci.Go(uci.PositionCommand(p.FEN(), nil), uci.Limits{Nodes: int64(en.nodes)}, time.Now().Add(searchTimeout))
	if err != nil {
		return 0, 0, err
	}
	if !r.Info.HasScore {
		return 0, 0, fmt.Errorf("engine: bestmove %s without a score", r.BestMove)
	}
	best, err := board.ParseUCIMove(p, r.BestMove)
	if err != nil {
		return 0, 0, fmt.Errorf("engine best move: %w", err)
	}
	return scoreToInternal(r.Info.Score), best, nil
}

// parseInfoScore extracts "score cp X" / "score mate M" from a UCI info line (multipv 1 only),
// converted to internal units (scoreToInternal).
func parseInfoScore(f []string) (int32, bool) {
	in, ok := uci.ParseInfo(strings.Join(f, " "))
	if !ok || !in.HasScore || in.MultiPV > 1 {
		return 0, false
	}
	return scoreToInternal(in.Score), true
}

// scoreToInternal converts a UCI score to internal units: cp·361/100 rounded; mate in M moves →
// ±(32000 − plies).
func scoreToInternal(s uci.Score) int32 {
	if s.IsMate {
		return mateToInternal(s.Mate)
	}
	return cpToInternal(s.CP)
}

func cpToInternal(cp int) int32 {
	v := math.Round(float64(cp) * normalizeToPawnValue / 100)
	return int32(max(-valueMate+1000, min(valueMate-1000, v)))
}

func mateToInternal(m int) int32 {
	switch {
	case m > 0:
		return int32(valueMate - (2*m - 1))
	case m < 0:
		return int32(-(valueMate - 2*(-m)))
	}
	return 0
}
