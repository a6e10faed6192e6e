package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/corentings/chess/v2/opening"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

// gameConfig holds the self-play rules (doc/datagen.md "Self-play").
type gameConfig struct {
	randomPliesMin, randomPliesMax int   // uniformly random legal plies after the book line
	maxOpeningScore                int32 // |score| bound (internal units) of the first searched position
	openingTries                   int   // redraws of the random plies before accepting any start
	maxPlies                       int   // game length cap (plies after the start), then draw
	winScore                       int32 // |score| for win adjudication (internal units)
	winPlies                       int   // consecutive plies at ≥ winScore for the same side
	drawScore                      int32 // |score| for draw adjudication
	drawPlies                      int   // consecutive plies within drawScore
	drawMinPly                     int   // draw adjudication only after this many plies
}

var defaultGameConfig = gameConfig{
	randomPliesMin:  2,
	randomPliesMax:  8,
	maxOpeningScore: 361 * 3, // 300 UCI cp
	openingTries:    8,
	maxPlies:        400,
	winScore:        361 * 10, // 1000 UCI cp
	winPlies:        6,
	drawScore:       361 / 10, // 10 UCI cp
	drawPlies:       12,
	drawMinPly:      80,
}

var errStopped = errors.New("stopped")

var (
	openingsOnce sync.Once
	openingsList [][]board.Move
	openingsErr  error
)

// openings is where games start: the positions of a book file (-book), or, without one, the
// lines of the ECO list; random plies follow either.
type openings struct {
	lines     [][]board.Move   // ECO lines from the start position
	positions []board.Position // book positions (used instead of lines when non-empty)
}

// loadOpenings returns every line of the lichess ECO list shipped with chess/v2/opening, as UCI
// move lists.
func loadOpenings() ([][]board.Move, error) {
	openingsOnce.Do(func() { openingsList, openingsErr = readOpenings() })
	return openingsList, openingsErr
}

func readOpenings() ([][]board.Move, error) {
	book := opening.NewBookECO()
	var lines [][]board.Move
	for _, o := range book.Possible(nil) {
		p := board.StartPosition()
		var ms []board.Move
		ok := true
		// Opening.Game() of chess v2.3.2 returns no moves, and PGN() returns the list's UCI
		// column ("e2e4 e7e5 …"), so the text is parsed here: UCI first, SAN as a fallback.
		for _, tok := range strings.Fields(o.PGN()) {
			if strings.HasSuffix(tok, ".") || tok == "*" {
				continue
			}
			m, err := board.ParseUCIMove(&p, tok)
			if err != nil {
				m, err = board.ParseSAN(&p, tok)
			}
			if err != nil {
				ok = false
				break
			}
			ms = append(ms, m)
			p, _ = p.Play(m)
		}
		if ok && len(ms) > 0 {
			lines = append(lines, ms)
		}
	}
	if len(lines) == 0 {
		return nil, errors.New("no openings in the ECO book")
	}
	// Book.Possible returns the lines in an order that varies from run to run; sorted, a
	// seed draws the same openings every time.
	slices.SortFunc(lines, func(a, b []board.Move) int {
		return slices.Compare(movesKey(a), movesKey(b))
	})
	lines = slices.CompactFunc(lines, func(a, b []board.Move) bool { return slices.Equal(a, b) })
	return lines, nil
}

// movesKey returns the moves as integers, for sorting lines.
func movesKey(ms []board.Move) []int {
	k := make([]int, len(ms))
	for i, m := range ms {
		k[i] = int(m)
	}
	return k
}

// repKey is a position's FEN without the clocks, for repetition detection.
func repKey(p *board.Position, buf []byte) string {
	b := p.AppendFEN(buf[:0])
	s := string(b)
	// Cut the halfmove and fullmove fields.
	for i, n := len(s)-1, 0; i >= 0; i-- {
		if s[i] == ' ' {
			n++
			if n == 2 {
				return s[:i]
			}
		}
	}
	return s
}

func insufficientMaterial(p *board.Position) bool {
	if p.ByRole(board.Pawn)|p.ByRole(board.Rook)|p.ByRole(board.Queen) != 0 {
		return false
	}
	return p.PieceCount() <= 3
}

// startPosition draws a random book position or ECO line and random plies after it.
func startPosition(rng *rand.Rand, ops *openings, cfg *gameConfig) (board.Position, bool) {
	var p board.Position
	if len(ops.positions) > 0 {
		p = ops.positions[rng.IntN(len(ops.positions))]
	} else {
		p = board.StartPosition()
		for _, m := range ops.lines[rng.IntN(len(ops.lines))] {
			p, _ = p.Play(m)
		}
	}
	n := cfg.randomPliesMin + rng.IntN(cfg.randomPliesMax-cfg.randomPliesMin+1)
	for range n {
		ms := p.LegalMoves()
		if len(ms) == 0 {
			return p, false
		}
		p, _ = p.Play(ms[rng.IntN(len(ms))])
	}
	return p, len(p.LegalMoves()) > 0
}

// playGame plays one self-play game and returns its samples (every searched position, Played set
// for all but the last) and result. It returns errStopped when ctx is cancelled (the game is
// dropped).
func playGame(ctx context.Context, rng *rand.Rand, en player, ops *openings, cfg *gameConfig) ([]dataset.Sample, dataset.Result, error) {
	if err := en.newGame(); err != nil {
		return nil, 0, err
	}
	var pos board.Position
	var firstScore int32
	var firstBest board.Move
	for try := 0; ; try++ {
		if ctx.Err() != nil {
			return nil, 0, errStopped
		}
		p, ok := startPosition(rng, ops, cfg)
		if !ok {
			continue
		}
		s, b, err := en.search(&p)
		if err != nil {
			return nil, 0, err
		}
		if (s <= cfg.maxOpeningScore && s >= -cfg.maxOpeningScore) || try+1 >= cfg.openingTries {
			pos, firstScore, firstBest = p, s, b
			break
		}
	}

	var samples []dataset.Sample
	reps := map[string]int{}
	var keyBuf []byte
	winRun, drawRun := 0, 0
	var winSide board.Color
	result := dataset.NoResult
	score, best := firstScore, firstBest
	for ply := 0; ; ply++ {
		if ply > 0 {
			if ctx.Err() != nil {
				return nil, 0, errStopped
			}
			// Terminal positions are not samples: they have no best move.
			switch pos.Status() {
			case board.Checkmate:
				if pos.SideToMove() == board.White {
					result = dataset.BlackWins
				} else {
					result = dataset.WhiteWins
				}
			case board.Stalemate:
				result = dataset.Draw
			}
			if result == dataset.NoResult && (insufficientMaterial(&pos) || pos.HalfmoveClock() >= 100) {
				result = dataset.Draw
			}
			if result == dataset.NoResult {
				k := repKey(&pos, keyBuf)
				reps[k]++
				if reps[k] >= 3 {
					result = dataset.Draw
				}
			}
			if result == dataset.NoResult && ply >= cfg.maxPlies {
				result = dataset.Draw
			}
			if result != dataset.NoResult {
				break
			}
			var err error
			score, best, err = en.search(&pos)
			if err != nil {
				return nil, 0, err
			}
		} else {
			reps[repKey(&pos, keyBuf)]++
		}
		samples = append(samples, dataset.Sample{Pos: pos, Score: score, Best: best, Played: best})

		// Adjudication (scores are from the side to move's point of view).
		if score >= cfg.winScore || score <= -cfg.winScore {
			side := pos.SideToMove()
			if score < 0 {
				side ^= 1
			}
			if winRun > 0 && side == winSide {
				winRun++
			} else {
				winRun, winSide = 1, side
			}
		} else {
			winRun = 0
		}
		if score <= cfg.drawScore && score >= -cfg.drawScore {
			drawRun++
		} else {
			drawRun = 0
		}
		if winRun >= cfg.winPlies {
			if winSide == board.White {
				result = dataset.WhiteWins
			} else {
				result = dataset.BlackWins
			}
			break
		}
		if drawRun >= cfg.drawPlies && ply >= cfg.drawMinPly {
			result = dataset.Draw
			break
		}
		pos, _ = pos.Play(best)
	}
	samples[len(samples)-1].Played = board.NullMove
	return samples, result, nil
}
