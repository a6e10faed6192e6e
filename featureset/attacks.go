package featureset

import (
	"math/bits"

	"github.com/nnuekit/nnuekit/board"
)

// Private attack tables for the mobility blocks. (The board package grows its own; these
// stay private so the featureset package does not depend on their arrival.)

var (
	knightAtt [64]board.Bitboard
	kingAtt   [64]board.Bitboard
	pawnAtt   [2][64]board.Bitboard // pawnAtt[c][sq]: squares a pawn of color c on sq attacks
	rays      [8][64]board.Bitboard // rays[dir][sq], excluding sq
)

// Directions: the first four increase the square index, the last four decrease it.
var rayDirs = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {-1, 1}, {0, -1}, {-1, -1}, {-1, 0}, {1, -1}}

func init() {
	for sq := 0; sq < 64; sq++ {
		f, r := sq%8, sq/8
		add := func(t *board.Bitboard, df, dr int) {
			if nf, nr := f+df, r+dr; nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
				*t |= board.SquareBB(board.NewSquare(nf, nr))
			}
		}
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			add(&knightAtt[sq], d[0], d[1])
		}
		for _, d := range rayDirs {
			add(&kingAtt[sq], d[0], d[1])
		}
		add(&pawnAtt[board.White][sq], -1, 1)
		add(&pawnAtt[board.White][sq], 1, 1)
		add(&pawnAtt[board.Black][sq], -1, -1)
		add(&pawnAtt[board.Black][sq], 1, -1)
		for d, dir := range rayDirs {
			for nf, nr := f+dir[0], r+dir[1]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8; nf, nr = nf+dir[0], nr+dir[1] {
				rays[d][sq] |= board.SquareBB(board.NewSquare(nf, nr))
			}
		}
	}
}

// rayAtt returns the attacks along direction d from sq, stopping at the first blocker.
func rayAtt(d int, sq board.Square, occ board.Bitboard) board.Bitboard {
	a := rays[d][sq]
	blk := a & occ
	if blk == 0 {
		return a
	}
	var first int
	if d < 4 {
		first = bits.TrailingZeros64(uint64(blk))
	} else {
		first = 63 - bits.LeadingZeros64(uint64(blk))
	}
	return a ^ rays[d][first]
}

func rookAtt(sq board.Square, occ board.Bitboard) board.Bitboard {
	return rayAtt(0, sq, occ) | rayAtt(2, sq, occ) | rayAtt(4, sq, occ) | rayAtt(6, sq, occ)
}

func bishopAtt(sq board.Square, occ board.Bitboard) board.Bitboard {
	return rayAtt(1, sq, occ) | rayAtt(3, sq, occ) | rayAtt(5, sq, occ) | rayAtt(7, sq, occ)
}
