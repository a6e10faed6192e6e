package board

// castlingMask[sq] is the set of rights lost when a move starts or ends on sq.
var castlingMask = func() (m [64]CastlingRights) {
	m[E1] = WhiteKingside | WhiteQueenside
	m[H1] = WhiteKingside
	m[A1] = WhiteQueenside
	m[E8] = BlackKingside | BlackQueenside
	m[H8] = BlackKingside
	m[A8] = BlackQueenside
	return
}()

// Play returns the position after move m (copy-make: p is not modified) and the
// DirtyPieces record of the pieces that changed, the input of incremental feature diffs
// (Stockfish 15.1 position.cpp do_move / nnue_accumulator.h DirtyPiece):
//
//   - quiet move: 1 entry, the mover From→To;
//   - capture: the mover, then the captured piece capSq→NoSquare (for en passant capSq
//     is the captured pawn's square, not the move's To);
//   - promotion: the pawn From→NoSquare, [the captured piece,] the new piece NoSquare→To;
//   - castling (written as the king's move, e1g1/e1c1/e8g8/e8c8): the king, then the rook
//     (h1→f1, a1→d1, h8→f8, a8→d8).
//
// The child's castling rights lose every right whose king or rook square the move
// starts or ends on; its en-passant square is set after a double pawn push only when an
// en-passant capture is legal in the child (the convention of FEN writers and of
// ../shared/data/positions.epd; doc/board.md); the halfmove clock resets on pawn moves and
// captures, the fullmove number increments after Black's move.
//
// Key and PawnKey are updated incrementally (polyglot keys, zobrist.go). Play costs a
// copy of the Position plus a few table updates (doc/benchmarks.md) and never allocates.
//
// Contract: m should be legal in p (from GenerateLegal / LegalMoves, or checked with
// IsLegal / PlayChecked). Play does not check legality — it is meant for hot loops:
//
//   - a pseudo-legal move that is not legal (IsPseudoLegal(m) && !IsLegal(m), e.g. a
//     pinned piece's move from a transposition table) is applied mechanically: the child
//     is internally consistent (mailbox, bitboards and keys agree) but leaves the mover's
//     king attacked, which Validate rejects; test IsLegal first;
//   - for any other move the result is unspecified, but Play never panics: a move from an
//     empty square returns p unchanged with zero DirtyPieces, a pawn reaching the last rank
//     without a valid promotion role promotes to a queen.
func (p *Position) Play(m Move) (q Position, d DirtyPieces) {
	// named results: q is built in the caller's result slot (no second copy)
	q = *p
	from, to := m.From(), m.To()
	pc := q.mailbox[from]
	if pc == NoPiece || from == to {
		return q, d
	}
	us := pieceColor[pc]
	role := pieceRole[pc]
	fromBB, toBB := SquareBB(from), SquareBB(to)

	d.N = 1
	d.Pieces[0] = DirtyPiece{Piece: pc, From: from, To: to}
	q.halfmove++
	captured := q.mailbox[to]
	if captured != NoPiece {
		// capture (the king is never captured by a legal move)
		cr := pieceRole[captured]
		q.byColor[pieceColor[captured]] &^= toBB
		q.byRole[cr] &^= toBB
		q.key ^= pieceKeys[captured][to]
		if cr == Pawn {
			q.pawnKey ^= pieceKeys[captured][to]
		}
		d.Pieces[1] = DirtyPiece{Piece: captured, From: to, To: NoSquare}
		d.N = 2
		q.halfmove = 0
	}
	// move the piece
	q.mailbox[from] = NoPiece
	q.mailbox[to] = pc
	q.byColor[us] ^= fromBB | toBB
	q.byRole[role] ^= fromBB | toBB
	k := pieceKeys[pc][from] ^ pieceKeys[pc][to]
	q.key ^= k
	q.epSet, q.epSquare = false, 0

	switch role {
	case Pawn:
		q.halfmove = 0
		q.pawnKey ^= k
		switch {
		case toBB&(Rank1BB|Rank8BB) != 0:
			r, ok := m.Promotion()
			if !ok || r < Knight || r > Queen {
				r = Queen
			}
			np := MakePiece(us, r)
			q.mailbox[to] = np
			q.byRole[Pawn] &^= toBB
			q.byRole[r] |= toBB
			q.key ^= pieceKeys[pc][to] ^ pieceKeys[np][to]
			q.pawnKey ^= pieceKeys[pc][to]
			d.Pieces[0].To = NoSquare
			d.Pieces[d.N] = DirtyPiece{Piece: np, From: NoSquare, To: to}
			d.N++
		case p.epSet && to == p.epSquare && captured == NoPiece && from.File() != to.File():
			capSq := NewSquare(to.File(), from.Rank())
			if v := q.mailbox[capSq]; v != NoPiece {
				vb := SquareBB(capSq)
				q.mailbox[capSq] = NoPiece
				q.byColor[pieceColor[v]] &^= vb
				q.byRole[pieceRole[v]] &^= vb
				q.key ^= pieceKeys[v][capSq]
				if pieceRole[v] == Pawn {
					q.pawnKey ^= pieceKeys[v][capSq]
				}
				d.Pieces[1] = DirtyPiece{Piece: v, From: capSq, To: NoSquare}
				d.N = 2
			}
		case to-from == 16 || from-to == 16:
			ep := (from + to) / 2
			if pawnAttacks[us][ep]&q.byRole[Pawn]&q.byColor[us^1] != 0 {
				q.side = us ^ 1
				if q.epCaptureLegal(ep) {
					q.epSet, q.epSquare = true, ep
				}
			}
		}
	case King:
		if rookFrom, rookTo, ok := castlingRook(from, to); ok {
			if rk := q.mailbox[rookFrom]; rk == MakePiece(us, Rook) && q.mailbox[rookTo] == NoPiece {
				rb := SquareBB(rookFrom) | SquareBB(rookTo)
				q.mailbox[rookFrom] = NoPiece
				q.mailbox[rookTo] = rk
				q.byColor[us] ^= rb
				q.byRole[Rook] ^= rb
				q.key ^= pieceKeys[rk][rookFrom] ^ pieceKeys[rk][rookTo]
				d.Pieces[1] = DirtyPiece{Piece: rk, From: rookFrom, To: rookTo}
				d.N = 2
			}
		}
	}

	if cr := q.castling & (castlingMask[from] | castlingMask[to]); cr != 0 {
		q.key ^= castlingKeys[q.castling&AllCastling] ^ castlingKeys[(q.castling&^cr)&AllCastling]
		q.castling &^= cr
	}
	q.side = us ^ 1
	if us == Black {
		q.fullmove++
	}
	return q, d
}

// PlayNull returns the position after a null move (the side to move passes, for null-move
// pruning) and empty DirtyPieces: the side to move flips, the en-passant square is
// cleared, the halfmove clock increments (as Stockfish 15.1 position.cpp do_null_move
// does) and the fullmove number increments after Black's pass, as after a move; Key is
// updated. p should not be in check (a null move in check gives a position where the
// side not to move is in check, which Validate rejects).
func (p *Position) PlayNull() (q Position, d DirtyPieces) {
	q = *p
	q.epSet, q.epSquare = false, 0
	q.halfmove++
	if q.side == Black {
		q.fullmove++
	}
	q.side ^= 1
	return q, d
}

// pieceColor and pieceRole are table forms of Piece.Color and Piece.Role (index 0, NoPiece,
// maps to White/Pawn and must not be used).
var (
	pieceColor = [16]Color{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	pieceRole  = [16]Role{0, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}
)

// epCaptureLegal reports whether the side to move of p can legally capture en passant on
// ep (the pawn to be captured stands in front of ep from the mover's view).
func (p *Position) epCaptureLegal(ep Square) bool {
	us := p.side
	them := us.Other()
	k := p.KingSquare(us)
	for b := PawnAttacks(them, ep) & p.Pieces(us, Pawn); b != 0; {
		s := b.PopFirst()
		victim := NewSquare(ep.File(), s.Rank())
		if p.mailbox[victim] != MakePiece(them, Pawn) || p.mailbox[ep] != NoPiece {
			return false
		}
		if k == NoSquare {
			return true
		}
		occ := p.Occupied()&^SquareBB(s)&^SquareBB(victim) | SquareBB(ep)
		if p.attackersWith(k, them, occ) == 0 {
			return true
		}
	}
	return false
}

// PlayChecked is Play after checking that m is legal in p. It returns a *MoveError
// wrapping ErrIllegalMove (and p unchanged, zero DirtyPieces) otherwise.
func (p *Position) PlayChecked(m Move) (Position, DirtyPieces, error) {
	if !p.IsLegal(m) {
		return *p, DirtyPieces{}, &MoveError{Move: m.String(), FEN: p.FEN(), Reason: "not a legal move", Err: ErrIllegalMove}
	}
	q, d := p.Play(m)
	return q, d, nil
}

// ParseMove parses a move in UCI long algebraic notation ("e2e4", "e7e8q", castling as
// the king's move "e1g1") without a position. It returns a *MoveError wrapping ErrSyntax
// for anything else ("0000", the null move, is rejected too).
func ParseMove(s string) (Move, error) {
	bad := func(reason string) (Move, error) {
		return NullMove, &MoveError{Move: s, FEN: "-", Reason: reason, Err: ErrSyntax}
	}
	if len(s) != 4 && len(s) != 5 {
		return bad("UCI move must have 4 or 5 characters")
	}
	from, err1 := ParseSquare(s[0:2])
	to, err2 := ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return bad("bad square")
	}
	if from == to {
		return bad("origin equals destination")
	}
	if len(s) == 4 {
		return NewMove(from, to), nil
	}
	var r Role
	switch s[4] {
	case 'n':
		r = Knight
	case 'b':
		r = Bishop
	case 'r':
		r = Rook
	case 'q':
		r = Queen
	default:
		return bad("promotion letter must be one of n, b, r, q")
	}
	return NewPromotion(from, to, r), nil
}

// ParseUCIMove parses a UCI move (see ParseMove) and checks that it is legal in p.
// Errors: *MoveError wrapping ErrSyntax or ErrIllegalMove.
func ParseUCIMove(p *Position, s string) (Move, error) {
	m, err := ParseMove(s)
	if err != nil {
		if me, ok := err.(*MoveError); ok {
			me.FEN = p.FEN()
		}
		return NullMove, err
	}
	if !p.IsLegal(m) {
		return NullMove, &MoveError{Move: s, FEN: p.FEN(), Reason: "not a legal move", Err: ErrIllegalMove}
	}
	return m, nil
}

// Status is the game state of a position as far as the board decides it.
type Status uint8

// The statuses. Status reports only what the position alone decides by the rules of
// movement; draws by the fifty-move rule and insufficient material are separate questions
// (IsFiftyMoveDraw, IsInsufficientMaterial: a search scores them, a game adjudicates
// them), and repetition needs the game history (keep the Key of every position).
const (
	Ongoing   Status = iota // the side to move has a legal move
	Checkmate               // the side to move is in check and has no legal move
	Stalemate               // the side to move is not in check and has no legal move
)

// String returns "ongoing", "checkmate" or "stalemate".
func (s Status) String() string {
	switch s {
	case Ongoing:
		return "ongoing"
	case Checkmate:
		return "checkmate"
	case Stalemate:
		return "stalemate"
	}
	return "?"
}

// Status returns Checkmate, Stalemate or Ongoing (HasLegalMove and InCheck; no
// allocation).
func (p *Position) Status() Status {
	if p.HasLegalMove() {
		return Ongoing
	}
	if p.InCheck() {
		return Checkmate
	}
	return Stalemate
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.Status() == Checkmate }

// IsStalemate reports whether the side to move is stalemated.
func (p *Position) IsStalemate() bool { return p.Status() == Stalemate }

// ApplyTo applies the changes of d to a mailbox: first every piece leaves its From square,
// then every piece lands on its To square (so the order of entries does not matter).
// Applied to the parent's mailbox it yields the child's mailbox (tested as a property).
// An N outside 0..3 (a DirtyPieces an engine filled itself) is clamped to that range.
func (d *DirtyPieces) ApplyTo(mailbox *[64]Piece) {
	n := min(max(d.N, 0), len(d.Pieces))
	for _, dp := range d.Pieces[:n] {
		if dp.From.Valid() && mailbox[dp.From] == dp.Piece {
			mailbox[dp.From] = NoPiece
		}
	}
	for _, dp := range d.Pieces[:n] {
		if dp.To.Valid() {
			mailbox[dp.To] = dp.Piece
		}
	}
}

// castlingRook returns the rook's squares of the king move from → to when it castles (the
// king's two-square move from e1 or e8, written as the king's move), and whether it does.
func castlingRook(from, to Square) (rookFrom, rookTo Square, ok bool) {
	if (from != E1 && from != E8) || (to != from+2 && to != from-2) {
		return 0, 0, false
	}
	if to < from {
		return from - 4, from - 1, true
	}
	return from + 3, from + 1, true
}
