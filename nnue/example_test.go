package nnue_test

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/nnue"
)

// Example builds a toy thesis-shaped network by hand — accumulator neuron 0 counts the
// perspective's own material (3 units per pawn), the hidden layer takes the difference of
// the two perspectives — and evaluates positions by refresh and incrementally.
func Example() {
	set := featureset.MustParse("all") // 768 features: (file·8 + rank)·12 + role·2 + (0 own, 1 theirs)
	const width = 32
	values := [6]int16{1, 3, 3, 5, 9, 0} // pawn … king
	w := make([]int16, set.Size()*width)
	for f := 0; f < set.Size(); f++ {
		role, own := (f%12)/2, f%2 == 0
		if own {
			w[f*width] = 3 * values[role]
		}
	}
	ft, err := nnue.NewFeatureTransformer(set, width, w, make([]int16, width), 0, nil)
	if err != nil {
		panic(err)
	}
	hidden := nnue.NewAffine(2*width, 32) // inputs: side to move's 32 values, then the other's
	hidden.Weights[0*64+0], hidden.Weights[0*64+32] = 64, -64
	hidden.Weights[1*64+0], hidden.Weights[1*64+32] = -64, 64
	out := nnue.NewAffine(32, 1)
	out.Weights[0], out.Weights[1] = 127, -127
	net, err := nnue.NewNetwork(ft, nnue.ThesisArchitecture(hidden, out), "toy material net")
	if err != nil {
		panic(err)
	}

	start := board.StartPosition()
	fmt.Println("start:", net.Evaluate(&start))

	stack := net.NewAccumulatorStack()
	stack.Reset(&start)
	pos := start
	for _, s := range []string{"e2e4", "d7d5", "e4d5"} {
		m, err := board.ParseUCIMove(&pos, s)
		if err != nil {
			panic(err)
		}
		after, dirty := pos.Play(m)
		stack.Push(&after, &dirty)
		pos = after
	}
	v := stack.Evaluate()
	fmt.Printf("after 1.e4 d5 2.exd5, black to move: %d (%.0f cp), refresh gives %d\n", v, net.Centipawns(v), net.Evaluate(&pos))
	// Output:
	// start: 0
	// after 1.e4 d5 2.exd5, black to move: -24 (-24 cp), refresh gives -24
}

// ExampleLoadFile loads a network of any supported format and evaluates a FEN by refresh,
// then follows a game incrementally. (Not run: it needs a network file.)
func ExampleLoadFile() {
	net, err := nnue.LoadFile("../shared/thesis-models/hv.nn")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, err := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if err != nil {
		fmt.Println(err)
		return
	}
	v := net.Evaluate(&pos) // side to move (Black), network units
	fmt.Printf("%d (%.2f pawns for the side to move)\n", v, net.Centipawns(v)/100)

	// In a search: one AccumulatorStack per goroutine, Push/Pop per ply, lazy updates.
	st := net.NewAccumulatorStack()
	st.Reset(&pos)
	for _, m := range pos.LegalMoves() {
		st.PushMove(m)
		_ = st.Evaluate() // the child's eval for its side to move (negate for the parent)
		st.Pop()
	}
}
