package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/uci"
)

// PGN Termination tag values (PGN standard §9.8.1).
const (
	termNormal      = "normal"
	termAdjudicated = "adjudication"
	termTime        = "time forfeit"
	termInfraction  = "rules infraction"
	termAbandoned   = "abandoned" // an engine crashed or could not be (re)started
)

// gameRecord is one finished game.
type gameRecord struct {
	sched       scheduled
	start       board.Position
	book        []board.Move // opening moves (PGN comment "book")
	moves       []board.Move // moves played by the engines
	comments    []string     // one per element of moves: "+0.35/12 0.101s"
	result      string       // "1-0", "0-1", "1/2-1/2"
	termination string       // PGN Termination tag
	reason      string       // human-readable: "White mates", "Black (sf) crashed: …"
	forfeit     int          // engine index that forfeited (crash, hang, illegal move, time), or -1
	date        time.Time
}

// seat is one engine process a worker keeps between games.
type seat struct {
	eng    *uci.Engine
	broken bool // must be restarted before the next game
}

// worker plays games one at a time with its own engine processes.
type worker struct {
	t     *tournament
	seats map[int]*seat
}

// engine returns engine i of the tournament, started or restarted as needed.
func (w *worker) engine(i int) (*uci.Engine, error) {
	s := w.seats[i]
	if s == nil {
		e, err := uci.Start(w.t.specs[i])
		if err != nil {
			return nil, err
		}
		w.seats[i] = &seat{eng: e}
		return e, nil
	}
	if s.broken || !s.eng.Alive() {
		if err := s.eng.Restart(); err != nil {
			return nil, err
		}
		s.broken = false
	}
	return s.eng, nil
}

// maxSeats is how many engine processes a worker keeps between games: a gauntlet of 13
// engines would otherwise hold 13 per worker.
const maxSeats = 4

// evict closes the worker's engines other than those of the next game (keep) when it holds
// more than maxSeats − 2, so that starting them stays within maxSeats.
func (w *worker) evict(keep [2]int) {
	if len(w.seats) <= maxSeats-2 {
		return
	}
	for j, s := range w.seats {
		if j != keep[0] && j != keep[1] {
			if s.broken {
				s.eng.Kill()
			} else {
				s.eng.Close()
			}
			delete(w.seats, j)
		}
	}
}

func (w *worker) markBroken(i int) {
	if s := w.seats[i]; s != nil {
		s.broken = true
	}
}

// close ends the worker's engines: "quit" for those in a sane state, a kill for broken ones
// and, with kill (the run was interrupted), for all.
func (w *worker) close(kill bool) {
	for _, s := range w.seats {
		if s.broken || kill {
			s.eng.Kill() // it may be hung: do not wait for "quit"
		} else {
			s.eng.Close()
		}
	}
}

var colorName = [2]string{"White", "Black"}

// repKey is a position without its clocks: placement, side to move, castling rights, and the
// en-passant square (set by board only when a capture is legal), the identity of FIDE's
// repetition rule (Laws of Chess 9.2.3).
func repKey(p *board.Position) string {
	f := strings.Fields(p.FEN())
	return strings.Join(f[:4], " ")
}

// insufficientMaterial reports positions where no sequence of legal moves can mate (FIDE Laws
// 5.2.2 / 9.6.2, the cases every GUI detects): no pawns, rooks or queens, and either at most
// one knight and no bishop, or no knight and all bishops on squares of one colour (K v K,
// KB v K, KN v K, KB… v KB… same-coloured). chess/v2 uses the same cases.
func insufficientMaterial(p *board.Position) bool {
	if p.ByRole(board.Pawn)|p.ByRole(board.Rook)|p.ByRole(board.Queen) != 0 {
		return false
	}
	kn := p.ByRole(board.Knight)
	bi := p.ByRole(board.Bishop)
	nk := popcount(uint64(kn))
	if bi == 0 {
		return nk <= 1
	}
	if nk > 0 {
		return false
	}
	const dark = 0xAA55AA55AA55AA55 // a1 is dark
	return uint64(bi)&dark == 0 || uint64(bi)&^dark == 0
}

func popcount(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// ruleEnd decides a position by the rules after a move: checkmate, stalemate, insufficient
// material, the fifty-move rule, threefold repetition (reps counts positions so far).
func ruleEnd(p *board.Position, reps map[string]int) (result, reason string, over bool) {
	switch p.Status() {
	case board.Checkmate:
		if p.SideToMove() == board.White {
			return "0-1", "Black mates", true
		}
		return "1-0", "White mates", true
	case board.Stalemate:
		return "1/2-1/2", "stalemate", true
	}
	if insufficientMaterial(p) {
		return "1/2-1/2", "insufficient material", true
	}
	if p.HalfmoveClock() >= 100 {
		return "1/2-1/2", "fifty-move rule", true
	}
	if reps[repKey(p)] >= 3 {
		return "1/2-1/2", "threefold repetition", true
	}
	return "", "", false
}

// lossFor is the result in which side c loses.
func lossFor(c board.Color) string {
	if c == board.White {
		return "0-1"
	}
	return "1-0"
}

var errCancelled = errors.New("cancelled")

// stopGrace is how long an engine that overstepped its time gets to answer "stop".
const stopGrace = time.Second

// play plays one scheduled game. It returns errCancelled when ctx ends first (the game is
// dropped). Engine failures are not errors: they end the game as a forfeit.
func (w *worker) play(ctx context.Context, s scheduled) (gameRecord, error) {
	t := w.t
	op := t.openings[s.opening]
	rec := gameRecord{sched: s, start: op.start, book: op.moves, forfeit: -1, date: time.Now()}
	engIdx := [2]int{s.white, s.black}
	names := [2]string{t.names[s.white], t.names[s.black]}
	who := func(c board.Color) string { return fmt.Sprintf("%s (%s)", colorName[c], names[c]) }
	forfeit := func(c board.Color, term, why string) (gameRecord, error) {
		rec.result, rec.termination, rec.forfeit = lossFor(c), term, engIdx[c]
		rec.reason = who(c) + " " + why
		return rec, nil
	}

	pos := op.start
	reps := map[string]int{repKey(&pos): 1}
	var uciMoves []string
	for _, m := range op.moves {
		pos, _ = pos.Play(m)
		reps[repKey(&pos)]++
		uciMoves = append(uciMoves, m.String())
	}
	startFEN := op.start.FEN()
	if startFEN == board.StartFEN {
		startFEN = ""
	}

	var engines [2]*uci.Engine
	w.evict(engIdx)
	for c := board.White; c <= board.Black; c++ {
		e, err := w.engine(engIdx[c])
		if err != nil {
			return forfeit(c, termAbandoned, "could not be started: "+err.Error())
		}
		if err := e.NewGameContext(ctx, t.tc.timeout); err != nil {
			w.markBroken(engIdx[c])
			if ctx.Err() != nil {
				return rec, errCancelled
			}
			return forfeit(c, termAbandoned, "did not answer ucinewgame/isready: "+err.Error())
		}
		engines[c] = e
	}

	tc := t.tc
	clock := [2]time.Duration{tc.base, tc.base}
	var scores [2][]int // per side, centipawns from that engine's view; reset on missing scores
	for ply := 0; ; ply++ {
		if ctx.Err() != nil {
			return rec, errCancelled
		}
		c := pos.SideToMove()
		lim := uci.Limits{Nodes: tc.nodes, Depth: tc.depth}
		var deadline time.Time
		now := time.Now()
		switch {
		case tc.base > 0:
			// The real remaining times; uci.Limits.Command sends a clock at or below zero
			// (in debt within -margin) as 1 ms, never as 0 or "go infinite".
			lim.Clock = true
			lim.WTime, lim.BTime = clock[0], clock[1]
			lim.WInc, lim.BInc = tc.inc, tc.inc
			// Past clock + margin the move is late anyway (clock > −margin here).
			deadline = now.Add(clock[c] + tc.margin)
		case tc.moveTime > 0:
			lim.MoveTime = tc.moveTime
			deadline = now.Add(tc.moveTime + tc.margin)
		default:
			deadline = now.Add(tc.timeout)
		}
		r, err := engines[c].GoContext(ctx, uci.PositionCommand(startFEN, uciMoves), lim, deadline)
		elapsed := time.Since(now)
		if err != nil && ctx.Err() != nil {
			// Interrupted: not the engine's fault (and it may have been signalled too).
			w.markBroken(engIdx[c])
			return rec, errCancelled
		}
		if err != nil {
			w.markBroken(engIdx[c])
			switch {
			case errors.Is(err, uci.ErrTimeout) && (tc.base > 0 || tc.moveTime > 0):
				// A time loss. An engine that then answers "stop" is kept; one that does not
				// is hung and is restarted before its next game.
				why := fmt.Sprintf("loses on time: no move after %s (%s)", elapsed.Round(time.Millisecond), t.limitText(clock[c]))
				if _, serr := engines[c].Stop(stopGrace); serr == nil {
					w.seats[engIdx[c]].broken = false
				} else {
					why += fmt.Sprintf("; no answer to \"stop\" within %s either: hung, restarted", stopGrace)
				}
				return forfeit(c, termTime, why)
			case errors.Is(err, uci.ErrTimeout):
				return forfeit(c, termAbandoned, fmt.Sprintf("hangs: no move within %s: %v", tc.timeout, err))
			case errors.Is(err, uci.ErrExited):
				return forfeit(c, termAbandoned, "crashed: "+err.Error())
			default:
				return forfeit(c, termInfraction, "broke the protocol: "+err.Error())
			}
		}
		m, err := board.ParseUCIMove(&pos, r.BestMove)
		if err != nil {
			w.markBroken(engIdx[c])
			return forfeit(c, termInfraction, fmt.Sprintf("played an illegal move %q in %s", r.BestMove, pos.FEN()))
		}
		// Clock after the move.
		late := false
		switch {
		case tc.base > 0:
			clock[c] -= elapsed
			late = clock[c] < -tc.margin
			clock[c] += tc.inc
		case tc.moveTime > 0:
			late = elapsed > tc.moveTime+tc.margin
		}
		if late {
			why := fmt.Sprintf("loses on time: %s used (%s)", elapsed.Round(time.Millisecond), t.limitText(clock[c]+elapsed-tc.inc))
			if r.Info.Time > 0 {
				why += fmt.Sprintf("; its last info line said %s of search", r.Info.Time)
			}
			return forfeit(c, termTime, why)
		}
		comment := fmt.Sprintf("%.3fs", elapsed.Seconds())
		if r.Info.HasScore {
			comment = fmt.Sprintf("%s/%d %s", r.Info.Score, r.Info.Depth, comment)
			scores[c] = append(scores[c], r.Info.Score.Centipawns())
		} else {
			scores[c] = scores[c][:0]
		}
		rec.moves = append(rec.moves, m)
		rec.comments = append(rec.comments, comment)
		uciMoves = append(uciMoves, r.BestMove)
		pos, _ = pos.Play(m)
		reps[repKey(&pos)]++

		if res, why, over := ruleEnd(&pos, reps); over {
			rec.result, rec.reason, rec.termination = res, why, termNormal
			return rec, nil
		}
		if res, why, over := t.adjudicate(c, scores, len(rec.moves)); over {
			rec.result, rec.reason, rec.termination = res, why, termAdjudicated
			return rec, nil
		}
	}
}

func (t *tournament) limitText(left time.Duration) string {
	if t.tc.base > 0 {
		return fmt.Sprintf("%s left on the clock, margin %s", left.Round(time.Millisecond), t.tc.margin)
	}
	return fmt.Sprintf("limit %s + margin %s", t.tc.moveTime, t.tc.margin)
}

// lastAll reports whether the last n values of xs exist and all satisfy f.
func lastAll(xs []int, n int, f func(int) bool) bool {
	if len(xs) < n {
		return false
	}
	for _, x := range xs[len(xs)-n:] {
		if !f(x) {
			return false
		}
	}
	return true
}

// adjudicate applies the score rules after side c moved (plies = engine moves so far).
func (t *tournament) adjudicate(c board.Color, scores [2][]int, plies int) (string, string, bool) {
	if r := t.resign; r.moveCount > 0 {
		for side := board.White; side <= board.Black; side++ {
			lost := lastAll(scores[side], r.moveCount, func(s int) bool { return s <= -r.score })
			if lost && r.twoSided {
				lost = lastAll(scores[side^1], r.moveCount, func(s int) bool { return s >= r.score })
			}
			if lost {
				return lossFor(side), fmt.Sprintf("%s resigns (score ≤ −%d cp for %d moves)", colorName[side], r.score, r.moveCount), true
			}
		}
	}
	if d := t.draw; d.moveCount > 0 && plies/2 >= d.moveNumber {
		in := func(s int) bool { return s >= -d.score && s <= d.score }
		if lastAll(scores[0], d.moveCount, in) && lastAll(scores[1], d.moveCount, in) {
			return "1/2-1/2", fmt.Sprintf("draw by adjudication (|score| ≤ %d cp for %d moves each)", d.score, d.moveCount), true
		}
	}
	if t.maxMoves > 0 && plies >= 2*t.maxMoves {
		return "1/2-1/2", fmt.Sprintf("draw by adjudication (move limit %d)", t.maxMoves), true
	}
	_ = c
	return "", "", false
}
