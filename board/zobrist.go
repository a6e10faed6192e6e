package board

// Zobrist keys with the polyglot key set (polyglot_random.go), so that Key equals the key
// under which a polyglot opening book stores the position (polyglot book format
// specification, "Random64" and the key computation; the start position's key is
// 0x463b96181691fc9c).
//
// Position keeps two incrementally updated fields, maintained by Put, Remove,
// SetCastling, Play and PlayNull: key (the pieces and castling terms) and pawnKey (the
// pawn terms). The side-to-move and en-passant terms are added by Key() on the fly from
// the side to move and the en-passant square, so that the zero Position (an empty board,
// no rights) has zero fields and every Position's fields are a function of its contents
// (== on Positions stays meaningful).

// pieceKeys[pc][sq] is the polyglot random number of piece pc on sq (zero for NoPiece).
var pieceKeys = func() (t [13][64]uint64) {
	for pc := Piece(1); pc <= 12; pc++ {
		kind := 2 * int(pc.Role())
		if pc.Color() == White {
			kind++
		}
		for sq := 0; sq < 64; sq++ {
			t[pc][sq] = polyglotRandom[64*kind+sq]
		}
	}
	return t
}()

// castlingKeys[cr] is the XOR of the polyglot numbers of the rights in cr (K, Q, k, q =
// 768 … 771; our bit order is the same).
var castlingKeys = func() (t [16]uint64) {
	for cr := 0; cr < 16; cr++ {
		for i := 0; i < 4; i++ {
			if cr&(1<<i) != 0 {
				t[cr] ^= polyglotRandom[768+i]
			}
		}
	}
	return t
}()

// polyglotTurn is XORed into the key when White is to move (polyglot: "turn").
const polyglotTurnIndex = 780

// Key returns the position's Zobrist key with the polyglot key set: the XOR of the
// polyglot numbers of every piece on its square, of every castling right, of the
// en-passant file and of White to move. As the polyglot specification says, the en-passant
// file counts only when a pawn of the side to move stands next to the double-pushed pawn
// (could capture, ignoring pins). One difference follows from the package's en-passant
// policy (doc/board.md): Play sets the en-passant square only when the capture is legal,
// so in the rare position where the only en-passant capture is illegal (a pinned pawn)
// Key omits the en-passant term that a polyglot book would include.
//
// Key is maintained incrementally (Play, PlayNull, Put, …) and costs a few instructions;
// ComputeKey recomputes it from scratch. Repetition detection is the caller's business
// (keep the keys of the game and search path; see HalfmoveClock).
func (p *Position) Key() uint64 {
	k := p.key
	if p.side == White {
		k ^= polyglotRandom[polyglotTurnIndex]
	}
	if p.epSet {
		k ^= p.epKey()
	}
	return k
}

// epKey returns the en-passant term of the key: the file's number when a pawn of the side
// to move stands next to the pawn that double-pushed, else 0.
func (p *Position) epKey() uint64 {
	ep := p.epSquare & 63
	if PawnAttacks(p.side.Other(), ep)&p.Pieces(p.side, Pawn) == 0 {
		return 0
	}
	return polyglotRandom[772+ep.File()]
}

// PawnKey returns the XOR of the polyglot piece numbers of the pawns of both colours (the
// pawn-structure key of pawn hash tables; 0 without pawns). It is maintained
// incrementally like Key.
func (p *Position) PawnKey() uint64 { return p.pawnKey }

// ComputeKey returns Key computed from scratch (every piece, right, en-passant file and
// the side to move), for tests and for checking hand-built positions.
func (p *Position) ComputeKey() uint64 {
	var k uint64
	for b := p.Occupied(); b != 0; {
		sq := b.PopFirst()
		k ^= pieceKeys[p.mailbox[sq]][sq]
	}
	k ^= castlingKeys[p.castling&AllCastling]
	if p.side == White {
		k ^= polyglotRandom[polyglotTurnIndex]
	}
	if p.epSet {
		k ^= p.epKey()
	}
	return k
}

// computePawnKey returns PawnKey computed from scratch.
func (p *Position) computePawnKey() uint64 {
	var k uint64
	for b := p.byRole[Pawn]; b != 0; {
		sq := b.PopFirst()
		k ^= pieceKeys[p.mailbox[sq]][sq]
	}
	return k
}

// KeyAfter returns the Key of the position after the legal move m without making it: for
// prefetching the transposition-table entry of the child before Play (Stockfish
// position.cpp key_after, which also ignores captures' and special moves' terms). It is
// Play(m).Key() except where Play sets an en-passant square (a double push that an enemy
// pawn can capture legally): KeyAfter leaves that file's term out, as a first guess at the
// child's slot. A few table lookups; no copy of p, no allocation. For a move that is not
// legal in p the result is unspecified (never a panic).
func (p *Position) KeyAfter(m Move) uint64 {
	from, to := m.From(), m.To()
	pc := p.mailbox[from&63]
	if pc == NoPiece || from == to {
		return p.Key()
	}
	from, to = from&63, to&63
	us := pieceColor[pc]
	k := p.key ^ pieceKeys[pc][from] ^ pieceKeys[pc][to]
	if c := p.mailbox[to]; c != NoPiece {
		k ^= pieceKeys[c][to]
	}
	switch pieceRole[pc] {
	case Pawn:
		switch {
		case SquareBB(to)&(Rank1BB|Rank8BB) != 0:
			r, ok := m.Promotion()
			if !ok || r < Knight || r > Queen {
				r = Queen
			}
			k ^= pieceKeys[pc][to] ^ pieceKeys[MakePiece(us, r)][to]
		case p.epSet && to == p.epSquare && p.mailbox[to] == NoPiece && from.File() != to.File():
			if v := p.mailbox[NewSquare(to.File(), from.Rank())]; v != NoPiece {
				k ^= pieceKeys[v][NewSquare(to.File(), from.Rank())]
			}
		}
	case King:
		if rookFrom, rookTo, ok := castlingRook(from, to); ok {
			if rk := p.mailbox[rookFrom]; rk == MakePiece(us, Rook) && p.mailbox[rookTo] == NoPiece {
				k ^= pieceKeys[rk][rookFrom] ^ pieceKeys[rk][rookTo]
			}
		}
	}
	if cr := p.castling & (castlingMask[from] | castlingMask[to]); cr != 0 {
		k ^= castlingKeys[p.castling&AllCastling] ^ castlingKeys[(p.castling&^cr)&AllCastling]
	}
	if us == Black {
		k ^= polyglotRandom[polyglotTurnIndex] // the child has White to move
	}
	return k
}
