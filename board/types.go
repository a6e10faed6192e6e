package board

import (
	"fmt"
	"math/bits"
)

// Square is a square of the board, rank-major: a1=0, b1=1, …, h1=7, a2=8, …, h8=63.
// NoSquare (-1) stands for "no square" (no en-passant square, a captured piece's
// destination, a promoted piece's origin).
type Square int8

// NoSquare is the absent square.
const NoSquare Square = -1

// Named squares used by castling and tests.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
)

// A8 … H8 are the squares of the eighth rank.
const (
	A8 Square = 56 + iota
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NewSquare returns the square on file f (0 = a … 7 = h) and rank r (0 = rank 1 … 7 = rank 8).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the file of sq, 0 (a) … 7 (h).
func (sq Square) File() int { return int(sq) & 7 }

// Rank returns the rank of sq, 0 (rank 1) … 7 (rank 8).
func (sq Square) Rank() int { return int(sq) >> 3 }

// Diag1 returns file+rank, 0 … 14: the index of the line of squares with equal file+rank
// (an anti-diagonal running a8→h1 direction, e.g. 3 = a4 b3 c2 d1; 7 = a8 … h1), as the
// thesis code's D1 block indexes it (thesis §6.2; ../shared/thesis-models/README.md).
func (sq Square) Diag1() int { return sq.File() + sq.Rank() }

// Diag2 returns file+7−rank, 0 … 14: the index of the line of squares with equal
// file−rank (a diagonal running a1→h8 direction, e.g. 0 = a8; 7 = a1 … h8; 14 = h1), as
// the thesis code's D2 block indexes it (thesis §6.2).
func (sq Square) Diag2() int { return sq.File() + 7 - sq.Rank() }

// Valid reports whether sq is one of the 64 squares.
func (sq Square) Valid() bool { return sq >= 0 && sq < 64 }

// FlipRank mirrors sq vertically (a1 ↔ a8): sq ^ 56.
func (sq Square) FlipRank() Square { return sq ^ 56 }

// MirrorFile mirrors sq horizontally (a1 ↔ h1): sq ^ 7.
func (sq Square) MirrorFile() Square { return sq ^ 7 }

// Rotate180 rotates sq by 180° (a1 ↔ h8): sq ^ 63.
func (sq Square) Rotate180() Square { return sq ^ 63 }

// String returns the algebraic name ("e4"), or "-" for NoSquare and "?" for an invalid value.
func (sq Square) String() string {
	if sq == NoSquare {
		return "-"
	}
	if !sq.Valid() {
		return "?"
	}
	return string([]byte{byte('a' + sq.File()), byte('1' + sq.Rank())})
}

// ParseSquare parses an algebraic square name such as "e4".
// It returns an error for anything else.
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("board: invalid square %q", s)
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Color is a side: White = 0, Black = 1.
type Color uint8

// The two colors.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite color.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Role is a kind of piece: Pawn = 0, Knight, Bishop, Rook, Queen, King = 5.
type Role uint8

// The six roles, in the order the feature layouts use.
const (
	Pawn Role = iota
	Knight
	Bishop
	Rook
	Queen
	King
)

// NumRoles is the number of roles (6).
const NumRoles = 6

var roleNames = [NumRoles]string{"pawn", "knight", "bishop", "rook", "queen", "king"}

// String returns the lower-case English name ("pawn" … "king").
func (r Role) String() string {
	if int(r) < NumRoles {
		return roleNames[r]
	}
	return "?"
}

// Piece is a colored role. The zero value is NoPiece, so an empty mailbox is all zeros.
// Otherwise Piece = 1 + 6·color + role (white pawn 1 … white king 6, black pawn 7 … black king 12).
type Piece uint8

// NoPiece is the empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of color c and role r.
func MakePiece(c Color, r Role) Piece { return Piece(1 + 6*uint8(c) + uint8(r)) }

// Color returns the piece's color. It must not be called on NoPiece.
func (p Piece) Color() Color { return Color((p - 1) / 6) }

// Role returns the piece's role. It must not be called on NoPiece.
func (p Piece) Role() Role { return Role((p - 1) % 6) }

// Valid reports whether p is one of the 12 pieces.
func (p Piece) Valid() bool { return p >= 1 && p <= 12 }

// Swap returns the same role with the other color.
func (p Piece) Swap() Piece {
	if p == NoPiece {
		return p
	}
	return MakePiece(p.Color().Other(), p.Role())
}

// String returns the FEN letter: "PNBRQK" for White, "pnbrqk" for Black, "." for NoPiece.
func (p Piece) String() string {
	if !p.Valid() {
		return "."
	}
	return string("PNBRQKpnbrqk"[p-1])
}

// Bitboard is a set of squares, bit i = square i.
type Bitboard uint64

// SquareBB returns the bitboard holding only sq.
func SquareBB(sq Square) Bitboard { return 1 << uint(sq) }

// Has reports whether sq is in b.
func (b Bitboard) Has(sq Square) bool { return b&(1<<uint(sq)) != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square in b, or NoSquare when b is empty.
func (b Bitboard) First() Square {
	if b == 0 {
		return NoSquare
	}
	return Square(bits.TrailingZeros64(uint64(b)))
}

// PopFirst removes the lowest square from *b and returns it (NoSquare when empty).
func (b *Bitboard) PopFirst() Square {
	if *b == 0 {
		return NoSquare
	}
	sq := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return sq
}

// FlipRanks mirrors every square vertically (a1 ↔ a8).
func (b Bitboard) FlipRanks() Bitboard { return Bitboard(bits.ReverseBytes64(uint64(b))) }

// Rotate180 rotates every square by 180° (a1 ↔ h8).
func (b Bitboard) Rotate180() Bitboard { return Bitboard(bits.Reverse64(uint64(b))) }

// MirrorFiles mirrors every square horizontally (a1 ↔ h1).
func (b Bitboard) MirrorFiles() Bitboard {
	x := uint64(b)
	x = (x>>1)&0x5555555555555555 | (x&0x5555555555555555)<<1
	x = (x>>2)&0x3333333333333333 | (x&0x3333333333333333)<<2
	x = (x>>4)&0x0f0f0f0f0f0f0f0f | (x&0x0f0f0f0f0f0f0f0f)<<4
	return Bitboard(x)
}

// CastlingRights is a set of castling rights, one bit each.
type CastlingRights uint8

// The four castling rights.
const (
	WhiteKingside  CastlingRights = 1
	WhiteQueenside CastlingRights = 2
	BlackKingside  CastlingRights = 4
	BlackQueenside CastlingRights = 8
	NoCastling     CastlingRights = 0
	AllCastling    CastlingRights = 15
)

// String returns the FEN field ("KQkq", "-" when empty).
func (cr CastlingRights) String() string {
	if cr == 0 {
		return "-"
	}
	s := make([]byte, 0, 4)
	for i, ch := range "KQkq" {
		if cr&(1<<i) != 0 {
			s = append(s, byte(ch))
		}
	}
	return string(s)
}

// Move is a move in from/to form with an optional promotion role, as in UCI notation.
// Castling is written as the king's move (e1g1). The zero Move is "no move".
// Layout: bits 0–5 from, 6–11 to, 12–14 promotion (0 none, else Knight…Queen as role).
type Move uint16

// NullMove is the zero Move.
const NullMove Move = 0

// NewMove returns the move from → to with no promotion.
func NewMove(from, to Square) Move { return Move(uint16(from) | uint16(to)<<6) }

// NewPromotion returns the move from → to promoting to role r (Knight … Queen).
func NewPromotion(from, to Square, r Role) Move {
	return Move(uint16(from) | uint16(to)<<6 | uint16(r)<<12)
}

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square.
func (m Move) To() Square { return Square((m >> 6) & 63) }

// Promotion returns the promotion role and true, or (Pawn, false) for a non-promotion.
func (m Move) Promotion() (Role, bool) {
	r := Role(m >> 12 & 7)
	return r, r != 0
}

// String returns the UCI form ("e2e4", "e7e8q"), "0000" for NullMove.
func (m Move) String() string {
	if m == NullMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if r, ok := m.Promotion(); ok {
		s += string("pnbrqk"[r])
	}
	return s
}

// DirtyPiece is one change of a piece on the board caused by a move, as in Stockfish's
// DirtyPiece (Stockfish 15.1 nnue/nnue_accumulator.h): Piece moved From → To.
// From == NoSquare means the piece appeared (a promotion's new piece);
// To == NoSquare means it left the board (a capture, or the pawn that promotes).
type DirtyPiece struct {
	Piece    Piece
	From, To Square
}

// DirtyPieces is every piece change of one move: 1 for a quiet move, 2 for a capture
// (mover, captured piece incl. en passant) or castling (king, rook), 2 for a promotion
// (pawn removed, new piece placed), 3 for a capturing promotion. The mover's entry is first.
type DirtyPieces struct {
	N      int
	Pieces [3]DirtyPiece
}

// Slice returns the N valid entries.
func (d *DirtyPieces) Slice() []DirtyPiece { return d.Pieces[:d.N] }

// Add appends a change. It panics if more than three are added, which no chess move does.
func (d *DirtyPieces) Add(p Piece, from, to Square) {
	d.Pieces[d.N] = DirtyPiece{Piece: p, From: from, To: to}
	d.N++
}

// KingMoved reports whether the king of color c is among the changes (castling included).
func (d *DirtyPieces) KingMoved(c Color) bool {
	k := MakePiece(c, King)
	for i := 0; i < d.N; i++ {
		if d.Pieces[i].Piece == k {
			return true
		}
	}
	return false
}
