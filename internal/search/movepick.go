package search

// movepick.go: move ordering (thesis §2.3 "Move ordering"; CPW "Move Ordering"): the
// transposition table move, then captures and queen promotions by MVV-LVA (captures that
// lose material by SEE after the quiet moves), then the two killer moves of the ply, then
// quiet moves by history. Moves are picked lazily by selection (a cutoff often comes
// after one or two moves).

import "github.com/nnuekit/nnuekit/board"

const (
	scoreTT      = 1 << 30
	scoreCapture = 1 << 24
	scoreKiller  = 1 << 22
	scoreBadCap  = -(1 << 24)
)

// mvvLVA orders captures: the victim's value first, then the cheaper attacker.
func mvvLVA(victim, attacker board.Role) int32 {
	return int32(victim)*8 + 7 - int32(attacker)
}

// scoreMoves gives each move of l its ordering score; ply < 0: quiescence (no killers).
func (t *Thread) scoreMoves(pos *board.Position, l *moveList, ttMove board.Move, ply int) {
	stm := pos.SideToMove()
	for i, m := range l.Moves[:l.N] {
		var s int32
		switch victim, capture := capturedRole(pos, m); {
		case m == ttMove:
			s = scoreTT
		case capture || isQueenPromotion(m):
			s = mvvLVA(victim, pos.PieceAt(m.From()).Role())
			if isQueenPromotion(m) {
				s += 64
			}
			if ply >= 0 && !seeGE(pos, m, 0) {
				s += scoreBadCap
			} else {
				s += scoreCapture
			}
		case ply >= 0 && m == t.killers[ply][0]:
			s = scoreKiller + 1
		case ply >= 0 && m == t.killers[ply][1]:
			s = scoreKiller
		default:
			s = t.history[stm][m.From()][m.To()]
		}
		l.scores[i] = s
	}
}

// pick moves the best-scored move of l.moves[i:] to position i and returns it.
func (l *moveList) pick(i int) board.Move {
	b := i
	for j := i + 1; j < l.N; j++ {
		if l.scores[j] > l.scores[b] {
			b = j
		}
	}
	l.Moves[i], l.Moves[b] = l.Moves[b], l.Moves[i]
	l.scores[i], l.scores[b] = l.scores[b], l.scores[i]
	return l.Moves[i]
}
