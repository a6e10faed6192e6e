package search

// eval.go: static evaluation. The engine evaluates with any network nnuekit loads, through
// the library's AccumulatorStack (incremental, lazy updates), or with a material-only
// evaluation for comparison. An evaluator is also the thread's position stack: make,
// null move and unmake go through it so that the position is copied once per move.

import (
	"fmt"
	"slices"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// evaluator is one search thread's position stack and static evaluation.
type evaluator interface {
	reset(root *board.Position)
	push(m board.Move) *board.Position // make m, return the child
	pushNull() *board.Position         // null move
	pop()                              // unmake
	pos() *board.Position              // current position
	evaluate() int                     // centipawns for the side to move
	verify() error                     // debug: incremental == refresh at the current node
}

// nnueEval evaluates with a network (shared, immutable) through the thread's own
// AccumulatorStack; the stack holds the positions.
type nnueEval struct {
	net   *nnue.Network
	st    *nnue.AccumulatorStack
	ref   *nnue.Evaluator // refresh evaluator for verify
	pawn  int64           // network units per pawn (Architecture.PawnValue)
	scale int64           // centipawn scale numerator (100)
}

func newNNUEEval(net *nnue.Network) *nnueEval {
	st := net.NewAccumulatorStack()
	st.Reserve(maxPly + 8)
	pv := int64(net.Architecture().PawnValue)
	if pv == 0 {
		pv = 100
	}
	return &nnueEval{net: net, st: st, ref: net.NewEvaluator(), pawn: pv, scale: 100}
}

func (e *nnueEval) reset(root *board.Position)        { e.st.Reset(root) }
func (e *nnueEval) push(m board.Move) *board.Position { return e.st.PushMove(m) }
func (e *nnueEval) pushNull() *board.Position         { return e.st.PushNull() }
func (e *nnueEval) pop()                              { e.st.Pop() }
func (e *nnueEval) pos() *board.Position              { return e.st.Position() }

func (e *nnueEval) evaluate() int {
	v := int64(e.st.Evaluate()) * e.scale / e.pawn
	return clampEval(int(v))
}

func (e *nnueEval) verify() error {
	pos := e.st.Position()
	acc := e.st.Accumulator()
	e.ref.Refresh(pos)
	for p := board.White; p <= board.Black; p++ {
		if !slices.Equal(acc.Values(p), e.ref.Accumulator().Values(p)) || !slices.Equal(acc.PSQT(p), e.ref.Accumulator().PSQT(p)) {
			return fmt.Errorf("incremental accumulator (perspective %v) differs from a refresh at %s", p, pos.FEN())
		}
	}
	if a, b := e.st.Evaluate(), e.ref.Evaluate(pos); a != b {
		return fmt.Errorf("incremental evaluation %d differs from a refresh %d at %s", a, b, pos.FEN())
	}
	return nil
}

// materialEval is the material-only evaluation (CPW "Simplified Evaluation Function"
// piece values, no tables), the baseline of the speed comparison in doc/engine.md.
type materialEval struct {
	stack [maxPly + 8]board.Position
	n     int
}

func (e *materialEval) reset(root *board.Position) { e.n = 0; e.stack[0] = *root }
func (e *materialEval) push(m board.Move) *board.Position {
	e.stack[e.n+1], _ = e.stack[e.n].Play(m)
	e.n++
	return &e.stack[e.n]
}
func (e *materialEval) pushNull() *board.Position {
	e.stack[e.n+1], _ = e.stack[e.n].PlayNull()
	e.n++
	return &e.stack[e.n]
}
func (e *materialEval) pop()                 { e.n-- }
func (e *materialEval) pos() *board.Position { return &e.stack[e.n] }
func (e *materialEval) verify() error        { return nil }

var materialValue = [6]int{100, 320, 330, 500, 900, 0}

func (e *materialEval) evaluate() int {
	p := &e.stack[e.n]
	us, them := p.SideToMove(), p.SideToMove().Other()
	v := 0
	for r := board.Pawn; r < board.King; r++ {
		v += materialValue[r] * (p.Pieces(us, r).Count() - p.Pieces(them, r).Count())
	}
	return v
}

// clampEval keeps static evaluations out of the mate score range.
func clampEval(v int) int { return min(max(v, -maxEval), maxEval) }
