package nnue

import (
	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// This file is the engine-facing part of the API (doc/engine.md): what a search needs
// beyond AccumulatorStack — the own-board path for engines that keep their own board
// representation and never build a board.Position.

// PieceSquare returns the own-board path of the network's feature set
// (featureset.Set.PieceSquare): non-nil for ALL, KING-ALL, KP (any orientation, bullet's
// mirrored all@hm included), HalfKP and HalfKAv2_hm nets (the thesis hv/all nets, the
// default network, Stockfish 12–15.1 nets). AccumulatorStack.ResetBoard and PushDelta use
// it for an engine's own board; with it an engine can also keep an Accumulator exact by
// hand from each move's dirty pieces and the two king squares:
//
//	ps := net.PieceSquare()
//	// refresh (root, or ps.RequiresRefresh(persp, &dirty) after a move):
//	active = ps.AppendActive(persp, ownKing, &mailbox, active[:0])
//	acc.Refresh(persp, active)
//	// update after a move (copy-make: child from parent):
//	added, removed = ps.AppendDiff(persp, ownKing, &dirty, added[:0], removed[:0])
//	child.UpdateFrom(parent, persp, added, removed)
//	// evaluate:
//	out := ev.ForwardPieces(child, sideToMove, pieceCount)
//
// For the other sets (H/V/D1/D2, PH/PV, MB/MC) it returns nil: their features need the
// whole board, so an engine keeps a board.Position beside its own board (Play is a cheap
// copy-make) and uses AccumulatorStack.Push with it.
func (n *Network) PieceSquare() *featureset.PieceSquare { return n.ft.set.PieceSquare() }

// ForwardPieces runs the forward pass on acc (both perspectives computed) for side to move
// stm and a position with pieces pieces on the board (kings included; it selects the layer
// stack, Architecture.Buckets) — Forward without a board.Position, for the own-board path.
// Output.Value is in the network's units (Centipawns converts).
func (e *Evaluator) ForwardPieces(acc *Accumulator, stm board.Color, pieces int) Output {
	return e.ForwardBucket(acc, stm, e.buckets.OfPieces(pieces))
}
