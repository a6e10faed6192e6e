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
// Units: Evaluate returns the network's final integer output for the side to move, in the
// units its format defines (thesis nets: ≈ centipawns; Stockfish: internal units, 361 per
// pawn for 15.1); Network.Centipawns converts.
package nnue
