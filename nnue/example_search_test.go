package nnue_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
)

// ExampleAccumulatorStack_search is the make/unmake loop of an alpha-beta search on an AccumulatorStack:
// one stack per search thread, Reserve(maxPly) once so that the search never allocates,
// PushMove/Pop around every move, PushNull/Pop for null-move pruning (CPW "Null Move
// Pruning"), Evaluate at the leaves (lazy: only the entries on the path to an evaluated
// leaf are updated). examples/engine is the full engine.
func ExampleAccumulatorStack_search() {
	net, err := nnue.Default()
	if err != nil {
		panic(err)
	}
	const maxPly = 16
	st := net.NewAccumulatorStack()
	st.Reserve(maxPly)
	root := board.StartPosition()
	st.Reset(&root)

	leaves, mismatches := 0, 0
	var search func(depth int, alpha, beta int32, nullOK bool) int32
	search = func(depth int, alpha, beta int32, nullOK bool) int32 {
		pos := st.Position()
		if depth == 0 {
			v := st.Evaluate() // side to move, network units
			leaves++
			if v != net.Evaluate(pos) { // a full refresh, for the example's sake
				mismatches++
			}
			return v
		}
		if nullOK && depth >= 2 && !pos.InCheck() {
			st.PushNull() // the side to move passes
			v := -search(depth-2, -beta, -beta+1, false)
			st.Pop()
			if v >= beta {
				return beta
			}
		}
		moves := pos.LegalMoves() // an engine fills a board.MoveList on its stack instead
		if len(moves) == 0 {
			if pos.InCheck() {
				return -30000 // mated
			}
			return 0 // stalemate
		}
		for _, m := range moves {
			st.PushMove(m) // make: plays m into the stack's next entry
			v := -search(depth-1, -beta, -alpha, true)
			st.Pop() // unmake
			if v >= beta {
				return beta
			}
			alpha = max(alpha, v)
		}
		return alpha
	}
	search(3, -32000, 32000, true)
	fmt.Println("leaves evaluated:", leaves > 0, "— incremental == refresh:", mismatches == 0)
	fmt.Println("stack back at the root:", st.Len() == 1)
	// Output:
	// leaves evaluated: true — incremental == refresh: true
	// stack back at the root: true
}

// ExampleNetwork_PieceSquare_ownBoard keeps the accumulators of an engine that has its own board (here a
// mailbox) exact from each move's dirty pieces and the king squares alone, through the
// network's PieceSquare path — no board.Position on the hot path. The board.Position is
// used only to check the result against a full refresh.
func ExampleNetwork_PieceSquare_ownBoard() {
	net, err := nnue.Default() // ALL features: a piece-square set
	if err != nil {
		panic(err)
	}
	ps := net.PieceSquare()
	ft := net.FeatureTransformer()
	ev := net.NewEvaluator()

	start := board.StartPosition()
	mailbox := start.Mailbox() // the engine's own board
	kings := [2]board.Square{start.KingSquare(board.White), start.KingSquare(board.Black)}
	parent, child := ft.NewAccumulator(), ft.NewAccumulator()
	var active, added, removed []int
	for _, persp := range []board.Color{board.White, board.Black} {
		active = ps.AppendActive(persp, kings[persp], &mailbox, active[:0])
		parent.Refresh(persp, active)
	}

	// 1. e4 d5 2. exd5, with the dirty pieces an engine's own make-move records.
	sq := func(s string) board.Square { q, _ := board.ParseSquare(s); return q }
	wp, bp := board.MakePiece(board.White, board.Pawn), board.MakePiece(board.Black, board.Pawn)
	moves := []board.DirtyPieces{
		{N: 1, Pieces: [3]board.DirtyPiece{{Piece: wp, From: sq("e2"), To: sq("e4")}}},
		{N: 1, Pieces: [3]board.DirtyPiece{{Piece: bp, From: sq("d7"), To: sq("d5")}}},
		{N: 2, Pieces: [3]board.DirtyPiece{{Piece: wp, From: sq("e4"), To: sq("d5")}, {Piece: bp, From: sq("d5"), To: board.NoSquare}}},
	}
	stm := board.White
	for _, d := range moves {
		d.ApplyTo(&mailbox)
		for _, persp := range []board.Color{board.White, board.Black} {
			if ps.RequiresRefresh(persp, &d) { // own-king move of a king-relative set
				active = ps.AppendActive(persp, kings[persp], &mailbox, active[:0])
				child.Refresh(persp, active)
				continue
			}
			added, removed = ps.AppendDiff(persp, kings[persp], &d, added[:0], removed[:0])
			child.UpdateFrom(parent, persp, added, removed)
		}
		parent, child = child, parent
		stm = stm.Other()
	}
	pieces := 0
	for _, pc := range mailbox {
		if pc != board.NoPiece {
			pieces++
		}
	}
	own := ev.ForwardPieces(parent, stm, pieces).Value

	check, _ := board.ParseFEN("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2")
	fmt.Println("own board equals a refresh:", own == net.Evaluate(&check))
	// Output:
	// own board equals a refresh: true
}

// ExampleAccumulatorStack_Push_ownBoardWholeBoardSet: for feature sets that need the whole
// board (here ALL+PH+PV: pairs of pieces on a file or rank), PieceSquare is nil, so an
// engine with its own board keeps a board.Position beside it — Play is a cheap copy-make
// that also returns the dirty pieces — and pushes both to the AccumulatorStack.
func ExampleAccumulatorStack_Push_ownBoardWholeBoardSet() {
	set := featureset.MustParse("all+ph+pv")
	const width = 32
	w := make([]int16, set.Size()*width)
	for f := range set.Size() {
		w[f*width+f%width] = int16(f%7 - 3) // any weights will do
	}
	ft, err := nnue.NewFeatureTransformer(set, width, w, make([]int16, width), 0, nil)
	if err != nil {
		panic(err)
	}
	hidden, out := nnue.NewAffine(2*width, 32), nnue.NewAffine(32, 1)
	for i := range hidden.Weights {
		hidden.Weights[i] = int8(i%5 - 2)
	}
	out.Weights[0] = 64
	net, err := nnue.NewNetwork(ft, nnue.ThesisArchitecture(hidden, out), "toy all+ph+pv")
	if err != nil {
		panic(err)
	}
	fmt.Println("own-board path:", net.PieceSquare() != nil)

	pos := board.StartPosition() // kept beside the engine's own board
	st := net.NewAccumulatorStack()
	st.Reserve(8)
	st.Reset(&pos)
	for _, s := range []string{"e2e4", "d7d5", "e4d5", "d8d5", "b1c3"} {
		m, err := board.ParseUCIMove(&pos, s) // the engine's own move, in board terms
		if err != nil {
			panic(err)
		}
		after, dirty := pos.Play(m) // the engine's own make-move happens here too
		st.Push(&after, &dirty)
		pos = after
	}
	fmt.Println("incremental == refresh:", st.Evaluate() == net.Evaluate(&pos))
	// Output:
	// own-board path: false
	// incremental == refresh: true
}
