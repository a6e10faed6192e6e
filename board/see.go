package board

// Static exchange evaluation (CPW: "Static Exchange Evaluation", "SEE - The Swap
// Algorithm"; Stockfish 15.1 position.cpp see_ge).

// SEEValues are the piece values of SEE in centipawns, indexed by Role: pawn 100, knight
// 300, bishop 300, rook 500, queen 900 (the classical values of the CPW SEE examples) and
// king 10,000 (only matters for an illegal king capture of a defended piece).
var SEEValues = [NumRoles]int{100, 300, 300, 500, 900, 10000}

// seePrelude returns what both SEE functions start from: the material won by the move
// itself (captured piece, plus promotion role − pawn for a promotion), the value of the
// piece that stands on the destination afterwards, the occupancy without the mover (and
// without the pawn taken en passant), and ok = false for castling or a move from an empty
// square (value 0).
func (p *Position) seePrelude(m Move) (gain0, onSquare int, occ Bitboard, ok bool) {
	from, to := m.From(), m.To()
	pc := p.mailbox[from]
	if pc == NoPiece || from == to {
		return 0, 0, 0, false
	}
	role := pieceRole[pc]
	if role == King && (from == E1 || from == E8) && (to == from+2 || to == from-2) {
		return 0, 0, 0, false
	}
	occ = p.Occupied() &^ SquareBB(from)
	if c := p.CapturedPiece(m); c != NoPiece {
		gain0 = SEEValues[pieceRole[c]]
		if p.mailbox[to] == NoPiece { // en passant
			occ &^= SquareBB(NewSquare(to.File(), from.Rank()))
		}
	}
	onSquare = SEEValues[role]
	if r, isPromo := m.Promotion(); isPromo && role == Pawn && r >= Knight && r <= Queen {
		gain0 += SEEValues[r] - SEEValues[Pawn]
		onSquare = SEEValues[r]
	}
	return gain0, onSquare, occ, true
}

// allAttackers returns the pieces of both colors attacking sq with occupancy occ (only
// pieces in occ).
func (p *Position) allAttackers(sq Square, occ Bitboard) Bitboard {
	return (pawnAttacks[Black][sq]&p.byColor[White]&p.byRole[Pawn] |
		pawnAttacks[White][sq]&p.byColor[Black]&p.byRole[Pawn] |
		knightAttacks[sq]&p.byRole[Knight] |
		kingAttacks[sq]&p.byRole[King] |
		RookAttacks(sq, occ)&(p.byRole[Rook]|p.byRole[Queen]) |
		BishopAttacks(sq, occ)&(p.byRole[Bishop]|p.byRole[Queen])) & occ
}

// leastValuable returns the least valuable piece of att (role and square).
func (p *Position) leastValuable(att Bitboard) (Role, Square) {
	for r := Pawn; r < King; r++ {
		if b := att & p.byRole[r]; b != 0 {
			return r, b.First()
		}
	}
	return King, (att & p.byRole[King]).First()
}

// SEE returns the static exchange value of move m in centipawns (SEEValues): the material
// balance for the side to move of the best sequence of captures on m's destination, each
// side capturing with its least valuable attacker and free to stop, x-ray attackers
// (sliders behind sliders, pawns, queens) joining as the square's attackers are removed.
// The capture of an en-passant pawn counts 100; a promotion adds the promoted piece's
// value minus a pawn's; castling and non-captures to an undefended square are 0. A king
// captures only when the opponent has no attacker left. Pins and promotions during the
// exchange are ignored. m should be pseudo-legal in p (see IsPseudoLegal).
func (p *Position) SEE(m Move) int {
	gain0, onSquare, occ, ok := p.seePrelude(m)
	if !ok {
		return 0
	}
	to := m.To()
	var gain [34]int
	gain[0] = gain0
	attackers := p.allAttackers(to, occ)
	bq := p.byRole[Bishop] | p.byRole[Queen]
	rq := p.byRole[Rook] | p.byRole[Queen]
	side := pieceColor[p.mailbox[m.From()]] ^ 1
	d := 0
	for d < len(gain)-1 {
		att := attackers & p.byColor[side] & occ
		if att == 0 {
			break
		}
		r, sq := p.leastValuable(att)
		if r == King && attackers&p.byColor[side^1]&occ != 0 {
			break // the king may not capture a defended piece
		}
		d++
		gain[d] = onSquare - gain[d-1]
		onSquare = SEEValues[r]
		occ &^= SquareBB(sq)
		if r == Pawn || r == Bishop || r == Queen {
			attackers |= BishopAttacks(to, occ) & bq
		}
		if r == Rook || r == Queen {
			attackers |= RookAttacks(to, occ) & rq
		}
		side ^= 1
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// SEEGE reports whether SEE(m) >= threshold, computed the way Stockfish 15.1's see_ge
// does (the exchange stops as soon as the outcome relative to the threshold is decided,
// no swap list): the fast form for pruning (threshold in centipawns, SEEValues). It
// always equals SEE(m) >= threshold (tested as a property).
func (p *Position) SEEGE(m Move, threshold int) bool {
	gain0, onSquare, occ, ok := p.seePrelude(m)
	if !ok {
		return 0 >= threshold
	}
	swap := gain0 - threshold
	if swap < 0 {
		return false
	}
	swap = onSquare - swap
	if swap <= 0 {
		return true
	}
	to := m.To()
	attackers := p.allAttackers(to, occ)
	bq := p.byRole[Bishop] | p.byRole[Queen]
	rq := p.byRole[Rook] | p.byRole[Queen]
	stm := pieceColor[p.mailbox[m.From()]]
	res := 1
	for {
		stm ^= 1
		attackers &= occ
		att := attackers & p.byColor[stm]
		if att == 0 {
			break
		}
		res ^= 1
		r, sq := p.leastValuable(att)
		if r == King {
			if attackers&p.byColor[stm^1] != 0 {
				return res^1 == 1
			}
			return res == 1
		}
		swap = SEEValues[r] - swap
		if swap < res {
			break
		}
		occ &^= SquareBB(sq)
		if r == Pawn || r == Bishop || r == Queen {
			attackers |= BishopAttacks(to, occ) & bq
		}
		if r == Rook || r == Queen {
			attackers |= RookAttacks(to, occ) & rq
		}
	}
	return res == 1
}
