package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// Delta is what one move changes on an engine's own board, in the terms the accumulator
// needs (Stockfish's DirtyPiece and the king squares): an AccumulatorStack reset with
// ResetBoard takes a move as a Delta (PushDelta) and never sees a board.Position.
//
// Squares are board.Square numbers (a1 = 0 … h8 = 63); an engine whose mailbox is numbered
// from a8 = 0 converts with sq ^ 56.
type Delta struct {
	// Dirty lists the pieces the move changes, at most 3, as board.Position.Play returns
	// them: a piece moving From → To; a captured piece From → NoSquare (en passant: the
	// pawn's own square); a promotion as the pawn From → NoSquare and the new piece
	// NoSquare → To; castling as king and rook. A null move has N = 0.
	Dirty board.DirtyPieces
	// Kings[c] is colour c's king square after the move (both kings, every move).
	Kings [2]board.Square
	// SideToMove is the colour to move after the move.
	SideToMove board.Color
}

// ownBoard is one entry's board on an own-board stack: the mailbox (indexed by
// board.Square) with the occupancy bitboards, for refreshes and the threat sets' updates,
// the side to move and the piece count (for the bucket).
type ownBoard struct {
	tb     featureset.ThreatBoard
	stm    board.Color
	pieces int
}

// boardKings checks an engine's mailbox (every entry a valid piece or NoPiece, exactly one
// king per colour) and returns the king squares and the piece count.
func boardKings(mailbox *[64]board.Piece) (kings [2]board.Square, pieces int, err error) {
	kings = [2]board.Square{board.NoSquare, board.NoSquare}
	for sq, pc := range mailbox {
		if pc == board.NoPiece {
			continue
		}
		if !pc.Valid() {
			return kings, 0, fmt.Errorf("nnue: mailbox square %v holds invalid piece %d", board.Square(sq), pc)
		}
		pieces++
		if pc.Role() == board.King {
			if kings[pc.Color()] != board.NoSquare {
				return kings, 0, fmt.Errorf("nnue: mailbox has more than one %v king", pc.Color())
			}
			kings[pc.Color()] = board.Square(sq)
		}
	}
	for c, k := range kings {
		if k == board.NoSquare {
			return kings, 0, fmt.Errorf("nnue: mailbox has no %v king", board.Color(c))
		}
	}
	return kings, pieces, nil
}

// ownBoardPath returns an error when the network's feature set has no own-board path:
// neither the piece-square path (featureset.Set.PieceSquare) nor a board path
// (featureset.Set.BoardPath: FullThreats, PawnPairs and piece-square summands).
func (n *Network) ownBoardPath() error {
	if n.ft.set.PieceSquare() == nil && n.ft.board == nil {
		return fmt.Errorf("nnue: feature set %s needs the whole board (neither featureset.PieceSquare nor featureset.BoardPath): push board.Positions instead", n.ft.set)
	}
	return nil
}

// ResetBoard empties the stack and makes an engine's own board its root: mailbox[sq] is
// the piece on board.Square sq (a1 = 0; NoPiece for empty squares), stm the side to move.
// Every following push must be PushDelta; Position returns nil. Nothing is computed until
// Evaluate. It returns an error, leaving the stack unchanged, when the network's feature
// set has no own-board path (neither featureset.Set.PieceSquare — the piece-square sets —
// nor featureset.Set.BoardPath — Stockfish 19's threats+pawnpairs+halfkav2_hm and other
// sums of FullThreats, PawnPairs and piece-square sets: the sets that need the whole
// board), when stm is not White or Black, or when the mailbox holds an invalid piece or
// not exactly one king per colour.
func (s *AccumulatorStack) ResetBoard(mailbox *[64]board.Piece, stm board.Color) error {
	if err := s.net.ownBoardPath(); err != nil {
		return err
	}
	if stm > board.Black {
		return fmt.Errorf("nnue: side to move %d is neither White nor Black", stm)
	}
	kings, pieces, err := boardKings(mailbox)
	if err != nil {
		return err
	}
	s.n = 0
	s.own = true
	e := s.grow()
	s.growBoards()
	e.dirty = board.DirtyPieces{}
	e.kings = kings
	e.root = true
	s.boards[0] = ownBoard{stm: stm, pieces: pieces}
	s.boards[0].tb.SetMailbox(mailbox)
	return nil
}

// PushDelta records a move of the engine's own board (see Delta); the accumulator is
// computed lazily, by the same update as Push: for a piece-square set from the dirty
// pieces and king squares alone, for a set with a board path (threats) from the two
// entries' boards (featureset.BoardPath.DiffBoth). The board of the new entry is the
// parent's with d.Dirty applied (featureset.ThreatBoard.Apply), kept for the refreshes
// an own-king move needs and the threat differences. No
// allocation after Reserve. It returns an error, pushing nothing, when the stack was not
// reset with ResetBoard, when a king square or the side to move is invalid, or when a
// dirty piece is invalid. Legality is the engine's: a Delta that does not describe its
// move gives the evaluation of whatever board it does describe.
func (s *AccumulatorStack) PushDelta(d *Delta) error {
	if !s.own || s.n == 0 {
		return fmt.Errorf("nnue: PushDelta on a stack not reset with ResetBoard")
	}
	if !d.Kings[0].Valid() || !d.Kings[1].Valid() || d.SideToMove > board.Black || uint(d.Dirty.N) > uint(len(d.Dirty.Pieces)) {
		return fmt.Errorf("nnue: invalid Delta (kings %v %v, side to move %d, %d dirty pieces)", d.Kings[0], d.Kings[1], d.SideToMove, d.Dirty.N)
	}
	pieces := s.boards[s.n-1].pieces
	for _, dp := range d.Dirty.Pieces[:d.Dirty.N] {
		if !dp.Piece.Valid() {
			return fmt.Errorf("nnue: invalid dirty piece %d", dp.Piece)
		}
		if dp.From.Valid() {
			pieces--
		}
		if dp.To.Valid() {
			pieces++
		}
	}
	e := s.grow()
	s.growBoards()
	e.dirty = d.Dirty
	e.kings = d.Kings
	b := &s.boards[s.n-1]
	*b = s.boards[s.n-2]
	b.tb.Apply(&d.Dirty)
	b.stm, b.pieces = d.SideToMove, pieces
	return nil
}

// growBoards keeps one ownBoard per entry on an own-board stack.
func (s *AccumulatorStack) growBoards() {
	if !s.own {
		return
	}
	for len(s.boards) < len(s.entries) {
		s.boards = append(s.boards, ownBoard{})
	}
}

// checkPositionStack panics when a board.Position push meets a stack reset with
// ResetBoard (a programming error: the entries hold no positions).
func (s *AccumulatorStack) checkPositionStack(op string) {
	if s.own {
		panic("nnue: AccumulatorStack." + op + " on a stack reset with ResetBoard (use PushDelta)")
	}
}

// refreshBoard refreshes perspective persp of acc from an own-board entry.
func (s *AccumulatorStack) refreshBoard(acc *Accumulator, b *ownBoard, king board.Square, persp board.Color) {
	if s.psq != nil {
		s.ev.active = s.psq.AppendActive(persp, king, &b.tb.Mailbox, s.ev.active[:0])
	} else {
		s.ev.active = s.net.ft.board.Active(&b.tb, persp, s.ev.active[:0])
	}
	acc.Refresh(persp, s.ev.active)
}

// updatePSQ is the one update of a piece-square set (featureset.PieceSquare), for entries
// pushed with a board.Position and with a Delta alike: from the entry's dirty pieces and
// king squares, both perspectives in one kernel call for a quiet move whose parent has
// both computed (PieceSquare.QuietPair, Accumulator.updatePair), else persp's difference
// (PieceSquare.AppendDiff, Accumulator.UpdateFrom). The caller has ruled out a refresh.
func (s *AccumulatorStack) updatePSQ(prev, e *stackEntry, persp board.Color) {
	p := int(persp)
	if prev.computed[p^1] && !e.computed[p^1] && e.acc.kind.pairs() {
		if a0, s0, a1, s1, ok := s.psq.QuietPair(e.kings, &e.dirty); ok {
			e.acc.updatePair(prev.acc, a0, s0, a1, s1)
			e.computed[0], e.computed[1] = true, true
			s.Updates += 2
			return
		}
	}
	s.added, s.removed = s.psq.AppendDiff(persp, e.kings[persp], &e.dirty, s.added[:0], s.removed[:0])
	e.acc.UpdateFrom(prev.acc, persp, s.added, s.removed)
	e.computed[p] = true
	s.Updates++
}

// EvaluateBoard refreshes the accumulators from an engine's own board and returns the
// network's final integer output for stm (as Evaluate of the same position): mailbox[sq]
// is the piece on board.Square sq (a1 = 0). It returns the errors of
// AccumulatorStack.ResetBoard (no own-board path, invalid side to move, invalid piece,
// not exactly one king per colour).
func (e *Evaluator) EvaluateBoard(mailbox *[64]board.Piece, stm board.Color) (int32, error) {
	if err := e.net.ownBoardPath(); err != nil {
		return 0, err
	}
	if stm > board.Black {
		return 0, fmt.Errorf("nnue: side to move %d is neither White nor Black", stm)
	}
	kings, pieces, err := boardKings(mailbox)
	if err != nil {
		return 0, err
	}
	ps := e.net.ft.set.PieceSquare()
	if ps == nil {
		e.tb.SetMailbox(mailbox)
	}
	for c := board.White; c <= board.Black; c++ {
		if ps != nil {
			e.active = ps.AppendActive(c, kings[c], mailbox, e.active[:0])
		} else {
			e.active = e.net.ft.board.Active(&e.tb, c, e.active[:0])
		}
		e.acc.Refresh(c, e.active)
	}
	return e.ForwardPieces(e.acc, stm, pieces).Value, nil
}
