// Package nnue evaluates chess positions with efficiently updatable neural networks (NNUE):
// a feature transformer over a featureset.Set whose int16 accumulators are kept per
// perspective and updated incrementally, followed by a declared stack of small quantized
// layers (thesis "Feature set analysis for chess NNUE networks" §4; Stockfish src/nnue/;
// Chessprogramming wiki "NNUE").
//
// A Network is immutable and may be shared by goroutines. Each goroutine evaluates with its
// own Evaluator (full refresh) or AccumulatorStack (copy-make search stack with lazy
// incremental updates). Hot loops call the simd package's kernels.
//
// # Search loop
//
// An engine keeps one AccumulatorStack per search thread (Reserve its maximum ply once, so
// that the search never allocates) and uses it as its position stack — make, null move,
// evaluate, unmake (ExampleAccumulatorStack_search in example_search_test.go runs it;
// examples/engine is a complete UCI engine):
//
//	st := net.NewAccumulatorStack()
//	st.Reserve(maxPly)
//	st.Reset(&root)
//	// in negamax(depth, α, β):
//	pos := st.Position()
//	if depth == 0 { return st.Evaluate() } // lazy incremental update + forward pass
//	st.PushNull(); v := -negamax(depth-1-R, -β, -β+1); st.Pop() // null-move pruning
//	for each move m of pos {
//		st.PushMove(m) // plays m into the next entry: one copy of the position
//		v := -negamax(depth-1, -β, -α)
//		st.Pop()
//	}
//
// An engine with its own board skips board.Position entirely for the piece-square sets
// (ALL, KING-ALL, KP, HalfKP, HalfKAv2_hm): Network.PieceSquare gives feature indices per
// perspective and the difference of a move from its dirty pieces, Accumulator.Refresh and
// UpdateFrom apply them, Evaluator.ForwardPieces evaluates
// (ExampleNetwork_PieceSquare_ownBoard); AccumulatorStack.ResetBoard and PushDelta do it
// for those sets and for Stockfish 19's threat set (featureset.Set.BoardPath) (for the sets
// that need the whole board,
// ExampleAccumulatorStack_Push_ownBoardWholeBoardSet). go doc prints no examples: pkg.go.dev
// and go doc -http show them under the type or method they are named after, labelled
// "Example (Search)", "Example (OwnBoard)" and so on, and go test -run '^Example' -v ./nnue
// runs them.
// Memory per search thread: Reserve(maxPly) takes (maxPly+1)·Network.MemoryPerPly bytes
// (doc/engine.md lists the shipped networks).
//
// Architectures are values: Network.Spec returns a network's declared architecture, whose
// String is one line such as "ft=hv:i16 width=512 stack=stm>crelu.i16>affine.i8(32)>
// crelu.i32(6)>affine.i8(1) out=>>4 pawn=100"; ParseSpec reads it back (grammar and the
// string of every shipped network in doc/nnue.md).
//
// Formats: Load and LoadFile detect the thesis .nn, Stockfish .nnue (13, 15.1, 16, 19) and
// native formats from their first bytes (other input: ErrNotNetwork); WriteNative stores
// any network whose architecture can be declared; LoadBulletFile reads bullet's quantised
// CPW-family networks.
//
// Units: Evaluate returns the network's final integer output for the side to move, in the
// units its format defines (thesis nets: ≈ centipawns; Stockfish: internal units, 361 per
// pawn for 15.1); Network.Centipawns converts.
package nnue
