package search

// search.go: iterative deepening, principal variation search (negamax alpha-beta with a
// null window for every move but the first), transposition table cutoffs, null-move
// pruning, late move reductions, check extension, mate scores and draws by repetition,
// fifty moves and insufficient material (thesis §2.1 iterative deepening and negamax, §2.3
// alpha-beta, TT, null move, LMR; CPW "Iterative Deepening",
// "Principal Variation Search", "Null Move Pruning", "Late Move Reductions", "Check
// Extensions", "Checkmate", "Repetitions", "Fifty-move Rule", "Lazy SMP").

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

const (
	maxPly    = 128
	mateScore = 32000
	infinity  = 32001
	mateBound = mateScore - 2*maxPly // |score| ≥ mateBound: a mate was found
	maxEval   = mateBound - 1        // static evaluations stay below
)

// Searcher is one go command: shared state of the threads searching it.
//
// Time: the clock starts at the go command (t0), or at ponderhit for go ponder. A timer
// (time.AfterFunc) fires at the hard limit and every thread checks the clock every 256 of
// its nodes, so the search stops on time even when there are more threads than cores and
// the main thread is rarely scheduled. Running out of time stops the helper threads at
// once and the main thread once it has completed its first iteration (timeUp): a move is
// always the result of a finished depth-1 search, never an arbitrary legal move.
type Searcher struct {
	tt        *TT
	lim       Limits
	t0        time.Time    // the go command
	clockOff  atomic.Int64 // ns from t0 to the start of the clock (set by ponderhit)
	budget    budget
	rootMoves []board.Move // go searchmoves, legal ones only; nil: every move
	notes     []string     // warnings for "info string" (searchmoves, missing clock)

	pondering   atomic.Bool // go ponder before ponderhit: no time limit
	ponderOnce  sync.Once
	ponderhitCh chan struct{} // closed by ponderhit
	timerMu     sync.Mutex
	timer       *time.Timer
	outOfTime   atomic.Bool // the hard limit passed
	firstDone   atomic.Bool // the main thread completed an iteration

	stop     atomic.Bool
	stopOnce sync.Once
	stopCh   chan struct{}
	threads  []*Thread
	debug    bool
	info     func(string) // receives info lines (without "info "); nil: silent
	debugErr atomic.Int64
}

// halt stops the search (stop, limits reached); it is idempotent.
func (s *Searcher) halt() {
	s.stopOnce.Do(func() {
		s.stop.Store(true)
		close(s.stopCh)
		s.timerMu.Lock()
		if s.timer != nil {
			s.timer.Stop()
		}
		s.timerMu.Unlock()
	})
}

// elapsed is the time on the search's clock (since go, or since ponderhit).
func (s *Searcher) elapsed() time.Duration {
	return time.Since(s.t0) - time.Duration(s.clockOff.Load())
}

// startClock arms the hard-limit timer (timed searches, not while pondering).
func (s *Searcher) startClock() {
	if !s.budget.timed || s.pondering.Load() {
		return
	}
	s.timerMu.Lock()
	defer s.timerMu.Unlock()
	if s.stop.Load() || s.timer != nil {
		return
	}
	s.timer = time.AfterFunc(max(s.budget.hard-s.elapsed(), 0), s.timeUp)
}

// timeUp: the hard limit has passed. The search stops now, or as soon as the main thread
// completes its first iteration.
func (s *Searcher) timeUp() {
	s.outOfTime.Store(true)
	if s.firstDone.Load() {
		s.halt()
	}
}

// ponderhit switches a go ponder search to normal search: the clock starts now, with the
// budget of the go command's clock.
func (s *Searcher) ponderhit() {
	if !s.lim.ponder {
		return
	}
	s.ponderOnce.Do(func() {
		s.clockOff.Store(int64(time.Since(s.t0)))
		s.pondering.Store(false)
		s.startClock()
		close(s.ponderhitCh)
	})
}

// checkLimits (every 256 nodes of any thread) stops the search at the hard time limit or
// the node limit.
func (s *Searcher) checkLimits() {
	if s.budget.timed && !s.pondering.Load() && s.elapsed() >= s.budget.hard {
		s.timeUp()
	}
	if s.lim.nodes > 0 && s.nodes() >= s.lim.nodes {
		s.halt()
	}
}

// restrictRoot keeps in l only the moves of go searchmoves (if any were given).
func (s *Searcher) restrictRoot(l *moveList) {
	if s.rootMoves == nil {
		return
	}
	n := 0
	for _, m := range l.Moves[:l.N] {
		if slices.Contains(s.rootMoves, m) {
			l.Moves[n] = m
			n++
		}
	}
	l.N = n
}

func (s *Searcher) nodes() int64 {
	var n int64
	for _, t := range s.threads {
		n += t.nodes.Load()
	}
	return n
}

// Thread is one Lazy SMP search thread: its own position/accumulator stack, history and
// killers; the transposition table is shared.
type Thread struct {
	id       int
	s        *Searcher
	ev       evaluator
	nodes    atomic.Int64
	seldepth int
	keys     []uint64 // game positions before the root, then one key per ply
	base     int      // index of the root's key in keys
	killers  [maxPly + 1][2]board.Move
	history  [2][64][64]int32
	pv       [maxPly + 1][maxPly + 1]board.Move
	pvLen    [maxPly + 1]int
	fromNull [maxPly + 2]int // plies since the last null move on the path (repetitions stop there)

	bestMove   board.Move
	ponderMove board.Move // the reply expected after bestMove (second PV move); NullMove: none
	bestScore  int
	depth      int // last completed iteration
}

func newThread(id int, ev evaluator) *Thread {
	return &Thread{id: id, ev: ev, keys: make([]uint64, 0, 1024+maxPly+2)}
}

// clearHistory forgets killers and history (ucinewgame).
func (t *Thread) clearHistory() {
	t.killers = [maxPly + 1][2]board.Move{}
	t.history = [2][64][64]int32{}
}

// lmrTable[d][m]: the reduction of the m-th move at depth d (CPW "Late Move Reductions",
// the logarithmic formula used by many engines).
var lmrTable = func() (t [64][64]int) {
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			t[d][m] = int(0.75 + math.Log(float64(d))*math.Log(float64(m))/2.25)
		}
	}
	return
}()

// prepare sets the thread up for a search of root with the game history keys.
func (t *Thread) prepare(s *Searcher, root *board.Position, history []uint64) {
	t.s = s
	t.nodes.Store(0)
	t.seldepth = 0
	t.keys = slices.Grow(append(t.keys[:0], history...), maxPly+2)
	t.base = len(t.keys)
	t.keys = t.keys[:t.base+maxPly+2]
	t.ev.reset(root)
	t.bestMove, t.ponderMove, t.bestScore, t.depth = board.NullMove, board.NullMove, 0, 0
	for i := range t.killers {
		t.killers[i] = [2]board.Move{}
	}
}

// iterate is iterative deepening on thread t until the limits stop it.
func (t *Thread) iterate() {
	s := t.s
	maxDepth := maxPly - 1
	if s.lim.depth > 0 {
		maxDepth = min(s.lim.depth, maxPly-1)
	}
	for depth := 1; depth <= maxDepth; depth++ {
		d := depth
		if t.id > 0 { // Lazy SMP: helpers search half of the iterations one ply deeper
			d = min(depth+(t.id&1), maxDepth)
		}
		score := t.search(-infinity, infinity, d, 0, false)
		if t.stopped() {
			if t.depth == 0 && t.pvLen[0] > 0 {
				// Stopped inside the first iteration: the best root move so far is
				// still better than an arbitrary legal move.
				t.bestMove, t.bestScore = t.pv[0][0], score
			}
			break // incomplete iteration: keep the last completed one
		}
		if t.pvLen[0] > 0 {
			t.bestMove, t.bestScore, t.depth = t.pv[0][0], score, d
			t.ponderMove = board.NullMove
			if t.pvLen[0] > 1 {
				t.ponderMove = t.pv[0][1]
			}
		}
		if t.id == 0 {
			s.firstDone.Store(true)
			t.report()
			if s.stop.Load() || s.outOfTime.Load() {
				break
			}
			if s.budget.timed && !s.pondering.Load() && s.elapsed() > s.budget.soft {
				break // the next iteration would not finish in time
			}
			if a := max(score, -score); a >= mateBound && !s.lim.infinite && d >= 2*(mateScore-a)+4 {
				break // a mate found well inside the horizon: deeper iterations change nothing
			}
		}
	}
}

// report prints an info line for the main thread's last completed iteration.
func (t *Thread) report() {
	s := t.s
	if s.info == nil {
		return
	}
	el := time.Since(s.t0)
	n := s.nodes()
	nps := int64(float64(n) / max(el.Seconds(), 1e-6))
	var b []byte
	b = append(b, "depth "...)
	b = appendInt(b, int64(t.depth))
	b = append(b, " seldepth "...)
	b = appendInt(b, int64(max(t.seldepth, t.depth)))
	b = append(b, " score "...)
	b = append(b, uciScore(t.bestScore)...)
	b = append(b, " nodes "...)
	b = appendInt(b, n)
	b = append(b, " nps "...)
	b = appendInt(b, nps)
	b = append(b, " hashfull "...)
	b = appendInt(b, int64(s.tt.hashfull()))
	b = append(b, " time "...)
	b = appendInt(b, el.Milliseconds())
	b = append(b, " pv"...)
	for _, m := range t.pv[0][:t.pvLen[0]] {
		b = append(b, ' ')
		b = append(b, m.String()...)
	}
	s.info(string(b))
}

// stopped reports whether thread t must stop: the search was halted, or (helper threads)
// the time is up while the main thread finishes its first iteration with the cores to
// itself.
func (t *Thread) stopped() bool {
	return t.s.stop.Load() || t.id > 0 && t.s.outOfTime.Load()
}

// countNode counts a node and, every 256 nodes of any thread, checks the time and node
// limits. It reports whether the search must stop.
func (t *Thread) countNode() bool {
	n := t.nodes.Add(1)
	s := t.s
	if n&255 == 0 {
		s.checkLimits()
	}
	return t.stopped()
}

// isDraw: fifty-move rule, insufficient material, or a repetition of a position since the
// last irreversible move (one repetition inside the search counts as a draw, CPW
// "Repetitions").
func (t *Thread) isDraw(pos *board.Position, ply int) bool {
	if pos.HalfmoveClock() >= 100 || insufficientMaterial(pos) {
		return true
	}
	i := t.base + ply
	k := t.keys[i]
	// Positions before a null move on the path are not repetitions of positions after it
	// (the null move is not a move; Stockfish counts pliesFromNull likewise).
	for j, stop := i-4, max(i-min(pos.HalfmoveClock(), t.fromNull[ply]), 0); j >= stop; j -= 2 {
		if t.keys[j] == k {
			return true
		}
	}
	return false
}

// insufficientMaterial: no pawns, rooks or queens and at most one minor piece (K v K,
// KN v K, KB v K) — positions where no sequence of legal moves can mate (FIDE 5.2.2
// for these cases).
func insufficientMaterial(pos *board.Position) bool {
	if pos.ByRole(board.Pawn)|pos.ByRole(board.Rook)|pos.ByRole(board.Queen) != 0 {
		return false
	}
	return (pos.ByRole(board.Knight) | pos.ByRole(board.Bishop)).Count() <= 1
}

func hasNonPawnMaterial(pos *board.Position, c board.Color) bool {
	return pos.ByColor(c)&^(pos.ByRole(board.Pawn)|pos.ByRole(board.King)) != 0
}

// scoreToTT / scoreFromTT store mate scores relative to the node, not the root.
func scoreToTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s + ply
	case s <= -mateBound:
		return s - ply
	}
	return s
}

func scoreFromTT(s, ply int) int {
	switch {
	case s >= mateBound:
		return s - ply
	case s <= -mateBound:
		return s + ply
	}
	return s
}

// Pruning near the horizon (plies left, centipawns): reverse futility pruning up to
// rfpDepth plies with rfpMargin per ply, futility pruning of quiet moves up to futDepth
// plies with futMargin per ply left plus one. The margins are common textbook values
// (CPW "Futility Pruning"), not tuned; a change to them changes the bench.
const (
	rfpDepth  = 6
	rfpMargin = 90
	futDepth  = 3
	futMargin = 100
)

// search is the negamax alpha-beta principal variation search of the position on top of
// t.ev, depth plies deep, ply plies from the root. afterNull forbids two null moves in a
// row.
func (t *Thread) search(alpha, beta, depth, ply int, afterNull bool) int {
	pvNode := beta-alpha > 1
	t.pvLen[ply] = 0
	if depth <= 0 {
		return t.qsearch(alpha, beta, ply)
	}
	if t.countNode() {
		return 0
	}
	pos := t.ev.pos()
	k := key(pos)
	t.keys[t.base+ply] = k
	switch {
	case ply == 0:
		t.fromNull[0] = 1 << 20
	case afterNull:
		t.fromNull[ply] = 0
	default:
		t.fromNull[ply] = t.fromNull[ply-1] + 1
	}
	if t.s.debug {
		t.verify()
	}
	if ply > 0 {
		if t.isDraw(pos, ply) {
			return 0
		}
		// Mate distance pruning.
		alpha = max(alpha, -mateScore+ply)
		beta = min(beta, mateScore-ply-1)
		if alpha >= beta {
			return alpha
		}
		if ply >= maxPly-1 {
			return t.ev.evaluate()
		}
	}
	inCheck := pos.InCheck()

	ttMove := board.NullMove
	staticEval := -infinity
	if e, ok := t.s.tt.probe(k); ok {
		ttMove = e.move
		if !pvNode && e.depth >= depth {
			s := scoreFromTT(e.score, ply)
			if e.bound == boundExact || e.bound == boundLower && s >= beta || e.bound == boundUpper && s <= alpha {
				return s
			}
		}
		if !inCheck { // every entry holds its position's static evaluation
			staticEval = e.eval
		}
	} else if !inCheck {
		// The static evaluation is stored at once, without a bound (Stockfish search.cpp:
		// "Static evaluation is saved as it was before adjustment"), so that a node left
		// by reverse futility or null-move pruning, which store nothing else, and the
		// re-searches that reach it again do not evaluate it again.
		staticEval = t.ev.evaluate()
		t.s.tt.store(k, ttEntry{eval: staticEval, bound: boundNone})
	}

	// Reverse futility pruning (CPW "Reverse Futility Pruning", Stockfish search.cpp
	// "futility pruning: child node"): near the horizon, a static evaluation that beats beta
	// by a margin per ply left is taken as a fail high.
	if !pvNode && !inCheck && depth <= rfpDepth && staticEval < mateBound && staticEval-rfpMargin*depth >= beta {
		return staticEval
	}

	// Null-move pruning (thesis §2.3, CPW "Null Move Pruning"): give the opponent a free
	// move; if a reduced search still fails high, so would a real move.
	if !pvNode && !inCheck && !afterNull && depth >= 3 && staticEval >= beta && beta > -mateBound &&
		hasNonPawnMaterial(pos, pos.SideToMove()) {
		r := 2 // adaptive R (Heinz; CPW "Null Move Pruning"): 2, 3 from depth 7
		if depth > 6 {
			r = 3
		}
		t.ev.pushNull()
		score := -t.search(-beta, -beta+1, depth-1-r, ply+1, true)
		t.ev.pop()
		if t.stopped() {
			return 0
		}
		if score >= beta {
			if score >= mateBound {
				score = beta
			}
			return score
		}
	}

	var ml moveList
	genLegal(pos, &ml)
	if ply == 0 {
		t.s.restrictRoot(&ml)
	}
	if ml.N == 0 {
		if inCheck {
			return -mateScore + ply
		}
		return 0
	}
	t.scoreMoves(pos, &ml, ttMove, ply)

	alpha0 := alpha
	best, bestMove := -infinity, board.NullMove
	var quiets [64]board.Move
	nq := 0
	for i := 0; i < ml.N; i++ {
		m := ml.pick(i)
		capture := isCapture(pos, m)
		_, promo := m.Promotion()
		quiet := !capture && !promo
		t.s.tt.prefetch(pos.KeyAfter(m))
		child := t.ev.push(m)
		givesCheck := child.InCheck()
		// Futility pruning (CPW "Futility Pruning"): near the horizon a quiet move that
		// gives no check cannot lift a static evaluation this far below alpha.
		if !pvNode && !inCheck && quiet && !givesCheck && i > 0 && depth <= futDepth && best > -mateBound &&
			staticEval+futMargin*(depth+1) <= alpha {
			t.ev.pop()
			continue
		}
		newDepth := depth - 1
		if givesCheck && ply < maxPly/2 {
			newDepth++ // check extension (CPW "Check Extensions")
		}
		var score int
		if i == 0 {
			score = -t.search(-beta, -alpha, newDepth, ply+1, false)
		} else {
			r := 0
			if depth >= 3 && i >= 2+btoi(pvNode) && quiet && !inCheck && !givesCheck {
				r = lmrTable[min(depth, 63)][min(i+1, 63)]
				if pvNode {
					r--
				}
				if m == t.killers[ply][0] || m == t.killers[ply][1] {
					r--
				}
				r = min(max(r, 0), newDepth-1)
			}
			score = -t.search(-alpha-1, -alpha, newDepth-r, ply+1, false)
			if score > alpha && r > 0 {
				score = -t.search(-alpha-1, -alpha, newDepth, ply+1, false)
			}
			if score > alpha && score < beta {
				score = -t.search(-beta, -alpha, newDepth, ply+1, false)
			}
		}
		t.ev.pop()
		if t.stopped() {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				t.pv[ply][0+ply] = m
				n := copy(t.pv[ply][ply+1:], t.pv[ply+1][ply+1:ply+1+t.pvLen[ply+1]])
				t.pvLen[ply] = n + 1
				if alpha >= beta {
					if quiet {
						t.updateQuietStats(pos, m, depth, ply, quiets[:nq])
					}
					break
				}
			}
		}
		if quiet && nq < len(quiets) {
			quiets[nq] = m
			nq++
		}
	}
	bound := boundExact
	if best <= alpha0 {
		bound = boundUpper
	} else if best >= beta {
		bound = boundLower
	}
	ev := staticEval
	if inCheck {
		ev = 0
	}
	t.s.tt.store(k, ttEntry{move: bestMove, score: scoreToTT(best, ply), eval: ev, depth: depth, bound: bound})
	return best
}

// updateQuietStats rewards the quiet move that caused a beta cutoff (killer, history
// bonus) and penalises the quiet moves tried before it (history malus). CPW "Killer
// Heuristic", "History Heuristic".
func (t *Thread) updateQuietStats(pos *board.Position, m board.Move, depth, ply int, tried []board.Move) {
	if t.killers[ply][0] != m {
		t.killers[ply][1] = t.killers[ply][0]
		t.killers[ply][0] = m
	}
	c := pos.SideToMove()
	bonus := int32(min(depth*depth, 400))
	h := &t.history[c]
	add := func(mv board.Move, b int32) {
		e := &h[mv.From()][mv.To()]
		*e += b - *e*abs32(b)/16384 // gravity: stays within ±16384
	}
	add(m, bonus)
	for _, q := range tried {
		add(q, -bonus)
	}
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// verify (debug option) checks that the incremental accumulator equals a refresh.
func (t *Thread) verify() {
	if err := t.ev.verify(); err != nil {
		if t.s.debugErr.Add(1) == 1 && t.s.info != nil {
			t.s.info("string debug: " + err.Error())
		}
	}
}

func uciScore(s int) string {
	switch {
	case s >= mateBound:
		return "mate " + itoa((mateScore-s+1)/2)
	case s <= -mateBound:
		return "mate -" + itoa((mateScore+s)/2)
	}
	return "cp " + itoa(s)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
