package search

// qsearch.go: quiescence search (thesis §2.2; CPW "Quiescence Search"): at the horizon
// only captures and queen promotions are searched, most valuable victim / least valuable
// attacker first, captures that lose material by static exchange evaluation are pruned
// (CPW "Static Exchange Evaluation"), and the side to move may stand pat on its static
// evaluation. In check every evasion is searched and no stand pat is allowed.

import "github.com/nnuekit/nnuekit/board"

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
	inCheck := pos.InCheck()
	best := -infinity
	var ml moveList
	if inCheck {
		genLegal(pos, &ml)
		if ml.N == 0 {
			return -mateScore + ply
		}
	} else {
		stand := t.ev.evaluate()
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		best = stand
		genNoisy(pos, &ml)
	}
	t.scoreMoves(pos, &ml, board.NullMove, -1)
	for i := 0; i < ml.N; i++ {
		m := ml.pick(i)
		if !inCheck && !seeGE(pos, m, 0) {
			continue // SEE pruning: a losing capture
		}
		t.ev.push(m)
		score := -t.qsearch(-beta, -alpha, ply+1)
		t.ev.pop()
		if t.stopped() {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}
