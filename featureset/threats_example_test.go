package featureset_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// Stockfish 19's inputs: threats, pawn pairs and HalfKAv2_hm, and the diff of one move.
func ExampleFullThreats() {
	set := featureset.MustParse("threats+pawnpairs+halfkav2_hm")
	pos, err := board.ParseFEN("4k3/8/8/4p3/3P4/2r5/8/1N2K3 w - - 0 1")
	if err != nil {
		panic(err)
	}
	fmt.Println(set.Size(), set.Offset(1), set.Offset(2))
	for _, i := range set.Active(&pos, board.White, nil) {
		if i < set.Offset(2) { // the threat and pair features (squares mirrored: king on e1)
			fmt.Println(i, set.Describe(i))
		}
	}
	// The knight takes the rook: the threat and the rook's HalfKAv2_hm feature go, the
	// knight's feature moves (no new threat from c3).
	m, _ := board.ParseUCIMove(&pos, "b1c3")
	next, dirty := pos.Play(m)
	added, removed := set.Diff(&pos, &next, &dirty, board.White, nil, nil)
	fmt.Println(len(added), len(removed))
	// Output:
	// 86896 59808 64368
	// 3046 FT[g1, knight, own, f3, rook, their]
	// 62603 PP[d5, their, e4, own]
	// 1 3
}

// An engine with its own board: it fills a ThreatBoard per position, computes a move's
// changed threats when it makes the move (Stockfish 19's do_move) and indexes them for
// both perspectives when it updates the accumulator.
func ExampleBoardPath_DirtyThreats() {
	set := featureset.MustParse("threats+pawnpairs+halfkav2_hm")
	path, _ := set.BoardPath()
	pos, _ := board.ParseFEN("4k3/8/8/4p3/3P4/2r5/8/1N2K3 w - - 0 1")
	m, _ := board.ParseUCIMove(&pos, "b1c3")
	next, dirty := pos.Play(m)
	var before, after featureset.ThreatBoard // the engine keeps these as its board
	before.SetPosition(&pos)
	after.SetPosition(&next)

	var dt featureset.DirtyThreats // make-move
	path.DirtyThreats(&before, &after, &dirty, &dt)

	var added, removed [2][]int // accumulator update
	path.DiffBothDirty(&before, &after, &dirty, &dt, &added, &removed)
	for c := board.White; c <= board.Black; c++ {
		fmt.Println(c, len(added[c]), len(removed[c]))
	}
	// Output:
	// white 1 3
	// black 1 3
}
