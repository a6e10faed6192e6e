package board

import "math/bits"

// Attack tables. They are ours (not chess/v2's): the mobility feature blocks (thesis §6.4,
// MB/MC) and the move generator (movegen.go) need them on every position. Leaper tables
// are precomputed; sliding attacks use fancy magic bitboards (magic.go), built from the
// classical ray approach (rays cut at the first blocker, Chess Programming Wiki).

// Bitboards of files and ranks.
const (
	FileABB Bitboard = 0x0101010101010101
	FileHBB Bitboard = FileABB << 7
	Rank1BB Bitboard = 0xff
	Rank8BB Bitboard = Rank1BB << 56
)

// FileBB returns the squares of file f (0 = a … 7 = h).
func FileBB(f int) Bitboard { return FileABB << uint(f&7) }

// RankBB returns the squares of rank r (0 = rank 1 … 7 = rank 8).
func RankBB(r int) Bitboard { return Rank1BB << (8 * uint(r&7)) }

var diag1BB, diag2BB [15]Bitboard

func init() {
	for sq := Square(0); sq < 64; sq++ {
		diag1BB[sq.Diag1()] |= SquareBB(sq)
		diag2BB[sq.Diag2()] |= SquareBB(sq)
	}
}

// Diag1BB returns the squares sq with sq.Diag1() == i (file+rank = i: 0 = a1, 7 = the long
// a8–h1 diagonal, 14 = h8), 0 for i outside 0 … 14.
func Diag1BB(i int) Bitboard {
	if i < 0 || i > 14 {
		return 0
	}
	return diag1BB[i]
}

// Diag2BB returns the squares sq with sq.Diag2() == i (file+7−rank = i: 0 = a8, 7 = the
// long a1–h8 diagonal, 14 = h1), 0 for i outside 0 … 14.
func Diag2BB(i int) Bitboard {
	if i < 0 || i > 14 {
		return 0
	}
	return diag2BB[i]
}

// ray directions: the first four increase the square index, the last four decrease it.
const (
	dirN = iota
	dirE
	dirNE
	dirNW
	dirS
	dirW
	dirSW
	dirSE
)

// The leaper and ray tables are package-level variables with initializer expressions (not
// init functions), so that Go's initialization order computes them before any other
// package-level variable that uses them (startPosition parses a FEN and validates it).
var (
	knightAttacks = leaperTable([]delta{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
	kingAttacks   = leaperTable([]delta{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}})
	pawnAttacks   = [2][64]Bitboard{leaperTable([]delta{{-1, 1}, {1, 1}}), leaperTable([]delta{{-1, -1}, {1, -1}})}
	rays          = rayTable()
)

type delta struct{ df, dr int }

func leaperTable(ds []delta) (t [64]Bitboard) {
	for sq := Square(0); sq < 64; sq++ {
		for _, d := range ds {
			f, r := sq.File()+d.df, sq.Rank()+d.dr
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				t[sq] |= SquareBB(NewSquare(f, r))
			}
		}
	}
	return t
}

func rayTable() (t [8][64]Bitboard) {
	dirs := [8]delta{dirN: {0, 1}, dirE: {1, 0}, dirNE: {1, 1}, dirNW: {-1, 1},
		dirS: {0, -1}, dirW: {-1, 0}, dirSW: {-1, -1}, dirSE: {1, -1}}
	for sq := Square(0); sq < 64; sq++ {
		for d, dd := range dirs {
			var b Bitboard
			for f, r := sq.File()+dd.df, sq.Rank()+dd.dr; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+dd.df, r+dd.dr {
				b |= SquareBB(NewSquare(f, r))
			}
			t[d][sq] = b
		}
	}
	return t
}

// KnightAttacks returns the squares a knight on sq attacks. sq must be valid.
func KnightAttacks(sq Square) Bitboard { return knightAttacks[sq&63] }

// KingAttacks returns the squares a king on sq attacks (castling not included).
func KingAttacks(sq Square) Bitboard { return kingAttacks[sq&63] }

// PawnAttacks returns the squares a pawn of color c on sq attacks (diagonal captures,
// en passant included by square; pushes are not attacks). Pawns on the last rank attack
// nothing.
func PawnAttacks(c Color, sq Square) Bitboard { return pawnAttacks[c&1][sq&63] }

// positive-direction ray cut at the first blocker (lowest set bit).
func rayUp(d int, sq Square, occ Bitboard) Bitboard {
	a := rays[d][sq]
	if b := a & occ; b != 0 {
		a ^= rays[d][bits.TrailingZeros64(uint64(b))]
	}
	return a
}

// negative-direction ray cut at the first blocker (highest set bit).
func rayDown(d int, sq Square, occ Bitboard) Bitboard {
	a := rays[d][sq]
	if b := a & occ; b != 0 {
		a ^= rays[d][63-bits.LeadingZeros64(uint64(b))]
	}
	return a
}

// RookAttacks returns the squares a rook on sq attacks given the occupied squares occ:
// every square along its rank and file up to and including the first occupied one in
// each direction. Whether sq itself is in occ does not matter.
func RookAttacks(sq Square, occ Bitboard) Bitboard {
	m := &rookMagics[sq&63]
	return rookTable[m.index(occ)]
}

// BishopAttacks returns the squares a bishop on sq attacks given the occupied squares
// occ (diagonals up to and including the first blocker).
func BishopAttacks(sq Square, occ Bitboard) Bitboard {
	m := &bishopMagics[sq&63]
	return bishopTable[m.index(occ)]
}

// QueenAttacks returns RookAttacks | BishopAttacks.
func QueenAttacks(sq Square, occ Bitboard) Bitboard {
	return RookAttacks(sq, occ) | BishopAttacks(sq, occ)
}

// Attacks returns the squares piece pc on sq attacks given occupancy occ
// (0 for NoPiece or an invalid piece).
func Attacks(pc Piece, sq Square, occ Bitboard) Bitboard {
	if !pc.Valid() {
		return 0
	}
	switch pc.Role() {
	case Pawn:
		return PawnAttacks(pc.Color(), sq)
	case Knight:
		return KnightAttacks(sq)
	case Bishop:
		return BishopAttacks(sq, occ)
	case Rook:
		return RookAttacks(sq, occ)
	case Queen:
		return QueenAttacks(sq, occ)
	default:
		return KingAttacks(sq)
	}
}

// attackersWith returns the pieces of color by attacking sq when the board occupancy is
// occ (used with a modified occupancy for en-passant legality).
func (p *Position) attackersWith(sq Square, by Color, occ Bitboard) Bitboard {
	them := p.byColor[by]
	rq := p.byRole[Rook] | p.byRole[Queen]
	bq := p.byRole[Bishop] | p.byRole[Queen]
	a := (KnightAttacks(sq) & p.byRole[Knight]) |
		(KingAttacks(sq) & p.byRole[King]) |
		(PawnAttacks(by.Other(), sq) & p.byRole[Pawn]) |
		(RookAttacks(sq, occ) & rq) |
		(BishopAttacks(sq, occ) & bq)
	return a & them & occ
}

// Attackers returns the squares of the pieces of color by that attack sq in the current
// position (pins are ignored: a pinned piece still attacks). sq must be valid.
func (p *Position) Attackers(sq Square, by Color) Bitboard {
	return p.attackersWith(sq&63, by&1, p.Occupied())
}

// IsAttacked reports whether any piece of color by attacks sq.
func (p *Position) IsAttacked(sq Square, by Color) bool { return p.Attackers(sq, by) != 0 }

// Checkers returns the pieces giving check to the side to move (empty when not in check
// or when the side to move has no king).
func (p *Position) Checkers() Bitboard {
	k := p.KingSquare(p.side)
	if k == NoSquare {
		return 0
	}
	return p.Attackers(k, p.side.Other())
}

// InCheck reports whether the side to move's king is attacked.
func (p *Position) InCheck() bool { return p.Checkers() != 0 }

// AttackedBy returns every square attacked by at least one piece of color c
// (the union of the pieces' attack sets with the current occupancy).
func (p *Position) AttackedBy(c Color) Bitboard {
	occ := p.Occupied()
	var a Bitboard
	for b := p.byColor[c&1]; b != 0; {
		sq := b.PopFirst()
		a |= Attacks(p.mailbox[sq], sq, occ)
	}
	return a
}
