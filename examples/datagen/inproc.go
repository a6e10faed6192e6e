package main

// inproc.go: the in-process position source (our own search, internal/search, at a fixed node
// count or depth, evaluating with any network nnuekit loads) and the labeller (a network's
// static evaluation, or a short search with it).

import (
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/search"
	"github.com/nnuekit/nnuekit/nnue"
)

// engineInternal is the -engine value that selects the in-process engine.
const engineInternal = "internal"

// netDefault is the -net / -label-net value naming the embedded network (nnue.Default).
const netDefault = "<default>"

// player is a position source: it searches positions of one game after another.
type player interface {
	newGame() error                                      // a new game: forget the previous one (hash, history)
	search(p *board.Position) (int32, board.Move, error) // score (internal units, side to move) and best move
	restart() error                                      // replace a failed engine
	close()
}

// loadNet loads the network at path (netDefault: the embedded one); with arch, path is a
// bullet weights file of that declared architecture (nnue.ParseSpec, doc/bullet.md; default
// file layout: no header, not transposed, quantised). Only regular files are opened: a FIFO or
// a device could block or never end.
func loadNet(flagName, path, arch string) (*nnue.Network, error) {
	if path == "" || path == netDefault {
		if arch != "" {
			return nil, fmt.Errorf("%s: an architecture was declared for the embedded network", flagName)
		}
		return nnue.Default()
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flagName, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s: not a regular file", flagName, path)
	}
	if arch != "" {
		spec, err := nnue.ParseSpec(arch)
		if err != nil {
			return nil, fmt.Errorf("%s %s: the declared architecture: %w", flagName, path, err)
		}
		net, err := nnue.LoadBulletFile(path, spec, nnue.BulletFile{})
		if err != nil {
			return nil, fmt.Errorf("%s %s: not a bullet network of the declared architecture: %w", flagName, path, err)
		}
		return net, nil
	}
	net, err := nnue.LoadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: not a network nnuekit loads (thesis .nn, Stockfish .nnue, native): %w", flagName, path, err)
	}
	return net, nil
}

// inproc is our own engine searching in this process: one search thread with its own
// transposition table, limits fixed per move (no clock), so a game is a deterministic function
// of its start position.
type inproc struct {
	tt     *search.TT
	thread []*search.Thread
	lim    search.Limits
}

// newInproc returns an engine evaluating with net, searching to depth plies and at most nodes
// nodes per move (0: no such limit), with a hashMB MiB table.
func newInproc(net *nnue.Network, depth int, nodes int64, hashMB int) (*inproc, error) {
	tt, err := search.NewTT(hashMB)
	if err != nil {
		return nil, fmt.Errorf("transposition table of %d MiB: %w", hashMB, err)
	}
	return &inproc{tt: tt, thread: []*search.Thread{search.NewThread(0, net)}, lim: search.FixedLimits(depth, nodes)}, nil
}

func (e *inproc) newGame() error {
	e.tt.Clear()
	e.thread[0].ClearHistory()
	return nil
}

var errNoMove = errors.New("no legal move")

// search searches p (without game history: the game loop detects repetitions itself, as with a
// UCI engine) and returns the score in internal units (searchToInternal).
func (e *inproc) search(p *board.Position) (int32, board.Move, error) {
	s := search.NewSearcher(p, e.lim, search.Config{TT: e.tt, Threads: e.thread})
	m := s.Run(p, nil)
	if m == board.NullMove {
		return 0, 0, fmt.Errorf("search of %s: %w", p.FEN(), errNoMove)
	}
	return searchToInternal(s.Score()), m, nil
}

func (e *inproc) restart() error { return e.newGame() }
func (e *inproc) close()         { e.tt.Release() }

// searchToInternal converts a score of internal/search (centipawns; a mate in n plies is
// ±(search.MateScore − n), the same convention as Stockfish's VALUE_MATE) to Stockfish internal
// units: centipawns × 3.61 rounded (cpToInternal), mate scores unchanged.
func searchToInternal(s int) int32 {
	if s >= search.MateBound || s <= -search.MateBound {
		return int32(s)
	}
	return cpToInternal(s)
}

// netToInternal converts a network output v (Network.Evaluate, side to move) to Stockfish 15.1
// internal units: v · 361 / PawnValue rounded to the nearest integer (exactly v for networks
// whose PawnValue is 361: Stockfish 15.1 nets and nnuekit's default), kept within ±31000 (below
// the mate scores).
func netToInternal(v int32, pawnValue int32) int32 {
	if pawnValue == 0 {
		pawnValue = 100
	}
	x := int64(v)
	if pawnValue != normalizeToPawnValue {
		x = int64(math.Round(float64(v) * normalizeToPawnValue / float64(pawnValue)))
	}
	return int32(max(-valueMate+1000, min(valueMate-1000, x)))
}

// labeller gives a position its training score with a network: its static evaluation, or the
// score of a short search with it (nodes > 0).
type labeller struct {
	net  *nnue.Network
	ev   *nnue.Evaluator
	pawn int32
	eng  *inproc // nil: static evaluation
}

func newLabeller(net *nnue.Network, nodes int64, hashMB int) (*labeller, error) {
	l := &labeller{net: net, ev: net.NewEvaluator(), pawn: net.Architecture().PawnValue}
	if nodes > 0 {
		e, err := newInproc(net, 0, nodes, hashMB)
		if err != nil {
			return nil, err
		}
		l.eng = e
	}
	return l, nil
}

// newGame forgets the previous game's searches (labels by search depend on the table).
func (l *labeller) newGame() {
	if l.eng != nil {
		_ = l.eng.newGame()
	}
}

// label returns the score of p in internal units, side to move.
func (l *labeller) label(p *board.Position) (int32, error) {
	if l.eng != nil {
		s, _, err := l.eng.search(p)
		return s, err
	}
	return netToInternal(l.ev.Evaluate(p), l.pawn), nil
}

func (l *labeller) close() {
	if l.eng != nil {
		l.eng.close()
	}
}
