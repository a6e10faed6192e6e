package main

// boardops.go is the engine's only contact with move generation: legal moves, captures
// for quiescence, the Zobrist key, SEE. It is written against the board package's fast
// generator API (doc/board.md: MoveList, GenerateLegal, GenerateCaptures, Key, SEEGE).

import (
	"math/rand/v2"

	"github.com/nnuekit/nnuekit/board"
)

// moveList is a move buffer on the caller's stack with an ordering score per move.
type moveList struct {
	n      int
	moves  [256]board.Move
	scores [256]int32
}

// genLegal fills l with every legal move of p.
func genLegal(p *board.Position, l *moveList) {
	l.n = len(p.AppendLegalMoves(l.moves[:0]))
}

// genNoisy fills l with the legal captures (en passant included) and queen promotions of
// p: the moves quiescence search looks at.
func genNoisy(p *board.Position, l *moveList) {
	genLegal(p, l)
	k := 0
	for _, m := range l.moves[:l.n] {
		if isCapture(p, m) || isQueenPromotion(m) {
			l.moves[k] = m
			k++
		}
	}
	l.n = k
}

func isQueenPromotion(m board.Move) bool {
	r, ok := m.Promotion()
	return ok && r == board.Queen
}

// capturedRole returns the role captured by m and whether m captures (en passant too).
func capturedRole(p *board.Position, m board.Move) (board.Role, bool) {
	if pc := p.PieceAt(m.To()); pc != board.NoPiece {
		return pc.Role(), true
	}
	if p.PieceAt(m.From()).Role() == board.Pawn && m.From().File() != m.To().File() {
		return board.Pawn, true
	}
	return 0, false
}

func isCapture(p *board.Position, m board.Move) bool {
	_, ok := capturedRole(p, m)
	return ok
}

// zobrist: a fixed random table (piece × square, side, castling, en-passant file).
var zobrist = func() (z struct {
	psq      [13][64]uint64
	side     uint64
	castling [16]uint64
	ep       [8]uint64
}) {
	r := rand.New(rand.NewPCG(0x6e6e75656b6974, 12))
	for pc := range z.psq {
		for sq := range z.psq[pc] {
			z.psq[pc][sq] = r.Uint64()
		}
	}
	z.side = r.Uint64()
	for i := range z.castling {
		z.castling[i] = r.Uint64()
	}
	for i := range z.ep {
		z.ep[i] = r.Uint64()
	}
	return
}()

// key returns the Zobrist key of p (TT index, repetition detection).
func key(p *board.Position) uint64 {
	var k uint64
	for occ := p.Occupied(); occ != 0; {
		sq := occ.PopFirst()
		k ^= zobrist.psq[p.PieceAt(sq)][sq]
	}
	if p.SideToMove() == board.Black {
		k ^= zobrist.side
	}
	k ^= zobrist.castling[p.Castling()&15]
	if ep := p.EnPassant(); ep != board.NoSquare {
		k ^= zobrist.ep[ep.File()]
	}
	return k
}

// seeGE reports whether the static exchange evaluation of m is at least threshold
// centipawns (CPW "Static Exchange Evaluation", swap algorithm with x-rays).
func seeGE(p *board.Position, m board.Move, threshold int) bool {
	from, to := m.From(), m.To()
	gain := 0
	if r, ok := capturedRole(p, m); ok {
		gain = seeValue[r]
	}
	if r, ok := m.Promotion(); ok {
		gain += seeValue[r] - seeValue[board.Pawn]
	}
	swap := gain - threshold
	if swap < 0 {
		return false
	}
	next := p.PieceAt(from).Role()
	if r, ok := m.Promotion(); ok {
		next = r
	}
	swap = seeValue[next] - swap
	if swap <= 0 {
		return true
	}
	occ := p.Occupied()&^board.SquareBB(from) | board.SquareBB(to)
	if ep := p.EnPassant(); ep == to && p.PieceAt(from).Role() == board.Pawn {
		occ &^= board.SquareBB(board.NewSquare(to.File(), from.Rank()))
	}
	stm := p.SideToMove()
	res := 1
	bishops := p.ByRole(board.Bishop) | p.ByRole(board.Queen)
	rooks := p.ByRole(board.Rook) | p.ByRole(board.Queen)
	attackers := attackersTo(p, to, occ)
	for {
		stm = stm.Other()
		attackers &= occ
		mine := attackers & p.ByColor(stm)
		if mine == 0 {
			break
		}
		res ^= 1
		r := board.Pawn
		for ; r < board.King; r++ {
			if mine&p.ByRole(r) != 0 {
				break
			}
		}
		if r == board.King {
			// The king may capture only when the other side has no attacker left.
			if attackers&^p.ByColor(stm) != 0 {
				return res^1 == 1
			}
			return res == 1
		}
		if swap = seeValue[r] - swap; swap < res {
			break
		}
		occ &^= board.SquareBB((mine & p.ByRole(r)).First())
		if r == board.Pawn || r == board.Bishop || r == board.Queen {
			attackers |= board.BishopAttacks(to, occ) & bishops
		}
		if r == board.Rook || r == board.Queen {
			attackers |= board.RookAttacks(to, occ) & rooks
		}
	}
	return res == 1
}

// seeValue: CPW simplified piece values (centipawns), king large.
var seeValue = [6]int{100, 320, 330, 500, 900, 20000}

// attackersTo returns the pieces of both colors attacking sq with occupancy occ.
func attackersTo(p *board.Position, sq board.Square, occ board.Bitboard) board.Bitboard {
	return board.PawnAttacks(board.White, sq)&p.Pieces(board.Black, board.Pawn) |
		board.PawnAttacks(board.Black, sq)&p.Pieces(board.White, board.Pawn) |
		board.KnightAttacks(sq)&p.ByRole(board.Knight) |
		board.KingAttacks(sq)&p.ByRole(board.King) |
		board.BishopAttacks(sq, occ)&(p.ByRole(board.Bishop)|p.ByRole(board.Queen)) |
		board.RookAttacks(sq, occ)&(p.ByRole(board.Rook)|p.ByRole(board.Queen))
}
