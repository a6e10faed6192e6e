package search

// qsearch.go: quiescence search (thesis §2.2; CPW "Quiescence Search"): at the horizon
// only captures and queen promotions are searched, most valuable victim / least valuable
// attacker first, captures that lose material by static exchange evaluation are pruned
// (CPW "Static Exchange Evaluation"), and the side to move may stand pat on its static
// evaluation. In check every evasion is searched and no stand pat is allowed.
//
// The transposition table is probed and written at every quiescence node, as Stockfish's
// qsearch does (search.cpp): a stored bound cuts off outside PV windows, a stored static
// evaluation replaces the network's (the expensive part of a leaf), a stored bound that is
// tighter than the static evaluation becomes the stand-pat score, and the node's result is
// stored with depth 0 (every main-search entry is deeper, so it is never replaced by one).

import "github.com/nnuekit/nnuekit/board"

// deltaMargin is delta pruning's margin in centipawns (CPW "Delta Pruning": 200, about
// two pawns; Stockfish's futilityBase margin is 1.7 of its pawns), not tuned.
const deltaMargin = 200

func (t *Thread) qsearch(alpha, beta, ply int) int {
	if t.countNode() {
		return 0
	}
	if ply > t.seldepth {
		t.seldepth = ply
	}
	pos := t.ev.pos()
	if t.s.debug {
		t.verify()
	}
	if insufficientMaterial(pos) {
		return 0
	}
	if ply >= maxPly-1 {
		return t.ev.evaluate()
	}
	pvNode := beta-alpha > 1
	k := key(pos)
	inCheck := pos.InCheck()
	ttMove := board.NullMove
	staticEval, ttScore, ttBound := 0, 0, boundNone
	e, hit := t.s.tt.probe(k)
	if hit {
		ttMove, ttScore, ttBound = e.move, scoreFromTT(e.score, ply), e.bound
		if !pvNode && (ttBound == boundExact || ttBound == boundLower && ttScore >= beta || ttBound == boundUpper && ttScore <= alpha) {
			return ttScore
		}
	}
	alpha0 := alpha
	best := -infinity
	var ml moveList
	if inCheck {
		genLegal(pos, &ml)
		if ml.N == 0 {
			return -mateScore + ply
		}
	} else {
		if hit { // every entry holds its position's static evaluation
			staticEval = e.eval
		} else {
			staticEval = t.ev.evaluate()
		}
		stand := staticEval
		// A stored bound on the true value in the direction that tightens the stand pat
		// (Stockfish search.cpp qsearch: "ttValue can be used as a better position evaluation").
		if ttBound != boundNone && ttScore > -mateBound && ttScore < mateBound &&
			(ttScore > stand && ttBound&boundLower != 0 || ttScore < stand && ttBound&boundUpper != 0) {
			stand = ttScore
		}
		if stand >= beta {
			if ttBound == boundNone { // no entry, or one with the static evaluation only
				t.s.tt.store(k, ttEntry{score: scoreToTT(stand, ply), eval: staticEval, depth: 0, bound: boundLower})
			}
			return stand
		}
		alpha = max(alpha, stand)
		best = stand
		genNoisy(pos, &ml)
	}
	t.scoreMoves(pos, &ml, ttMove, -1)
	bestMove := board.NullMove
	for i := 0; i < ml.N; i++ {
		m := ml.pick(i)
		if !inCheck {
			// Delta pruning: a capture (not a promotion) that cannot raise the static
			// evaluation above α even with the victim's value and a margin is skipped,
			// its bound kept as the node's best (Stockfish search.cpp qsearch,
			// futilityBase); so is one whose exchange gains too little for that.
			threshold := 0 // SEE pruning: a losing capture
			if v, ok := capturedRole(pos, m); ok && !m.IsPromotion() {
				base := staticEval + deltaMargin
				if base+board.SEEValues[v] <= alpha {
					best = max(best, base+board.SEEValues[v])
					continue
				}
				threshold = max(threshold, alpha-base+1)
			}
			if !seeGE(pos, m, threshold) {
				continue
			}
		}
		t.s.tt.prefetch(pos.KeyAfter(m))
		t.ev.push(m)
		score := -t.qsearch(-beta, -alpha, ply+1)
		t.ev.pop()
		if t.stopped() {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				bestMove = m
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case pvNode && best > alpha0:
		bound = boundExact
	}
	t.s.tt.store(k, ttEntry{move: bestMove, score: scoreToTT(best, ply), eval: staticEval, depth: 0, bound: bound})
	return best
}
