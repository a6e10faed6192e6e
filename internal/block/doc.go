// Package block is the page-aligned bump allocator that simd and nnue share: simd keeps a
// prepared layer stack's weights, biases and masks in one block (simd.NewReLUStack,
// simd.NewPairwiseStack), nnue an Evaluator's layer buffers, so that one forward pass
// touches as few 4 KiB pages as the sizes allow (issue 14 round 7, doc/benchmarks.md
// "Round 7 (pages)"; Stockfish keeps its network in one object). It is not public API.
package block
