package featureset

import "github.com/nnuekit/nnuekit/board"

// lineKind selects the axis of a line block: every square belongs to exactly one line,
// and the block's features are (line, role, color) — thesis §6.2 (H, V, D1, D2) and, with
// one line per square, ALL (thesis §3.3.1).
type lineKind uint8

const (
	lineSquare lineKind = iota // ALL: line = file·8 + rank (file-major, thesis code)
	lineFile                   // H: line = file
	lineRank                   // V: line = rank
	lineDiag1                  // D1: line = file + rank
	lineDiag2                  // D2: line = file + 7 − rank
	numLineKinds
)

var (
	// lineOf[k][sq] is the line of (oriented) square sq for axis k.
	lineOf [numLineKinds][64]uint8
	// lineBB[k][line] is the set of (oriented) squares of the line.
	lineBB [numLineKinds][64]board.Bitboard
)

// orientedLineBB[v][k][line] is lineBB[k][line] seen through mask variant v (real
// squares): variants 0, 7, 56, 63 (see maskVariant).
var orientedLineBB [4][numLineKinds][64]board.Bitboard

// maskVariant maps the square masks 0, 7, 56, 63 to 0 … 3.
func maskVariant(m board.Square) int { return int(m&1) | int(m>>3&1)<<1 }

func init() {
	defer func() {
		for v, m := range [4]board.Square{0, 7, 56, 63} {
			for k := range lineBB {
				for l, bb := range lineBB[k] {
					orientedLineBB[v][k][l] = orientBB(bb, m)
				}
			}
		}
	}()
	for sq := board.Square(0); sq < 64; sq++ {
		f, r := sq.File(), sq.Rank()
		ls := [numLineKinds]int{f*8 + r, f, r, f + r, f + 7 - r}
		for k, l := range ls {
			lineOf[k][sq] = uint8(l)
			lineBB[k][l] |= board.SquareBB(sq)
		}
	}
}

// lineBlock is ALL, H, V, D1 or D2: (LINES × ROLES × COLORS)_P with
// P(⟨x, r, c⟩) = "there is a piece of role r and color c on line x", index x·12 + r·2 + c
// (thesis-models/README.md), c = 0 for the perspective's own pieces.
type lineBlock struct {
	leaf
	kind   lineKind
	noKing bool // NK: kings are not features, roles pawn … queen (stride 10)
	stride int  // 12, or 10 without kings
}

// H returns the H block (thesis §6.2, Table 1): (FILES × ROLES × COLORS), 96 features,
// index file·12 + role·2 + color.
func H(o Orientation) Block {
	return &lineBlock{newLeaf("h", "H", o, Flip, Files, Roles, Colors), lineFile, false, 12}
}

// V returns the V block (thesis §6.2): (RANKS × ROLES × COLORS), 96 features,
// index rank·12 + role·2 + color.
func V(o Orientation) Block {
	return &lineBlock{newLeaf("v", "V", o, Flip, Ranks, Roles, Colors), lineRank, false, 12}
}

// D1 returns the D1 block (thesis §6.2): (DIAGS1 × ROLES × COLORS), 180 features,
// index (file + rank)·12 + role·2 + color.
func D1(o Orientation) Block {
	return &lineBlock{newLeaf("d1", "D1", o, Flip, Diags1, Roles, Colors), lineDiag1, false, 12}
}

// D2 returns the D2 block (thesis §6.2): (DIAGS2 × ROLES × COLORS), 180 features,
// index (file + 7 − rank)·12 + role·2 + color.
func D2(o Orientation) Block {
	return &lineBlock{newLeaf("d2", "D2", o, Flip, Diags2, Roles, Colors), lineDiag2, false, 12}
}

// MaxActive is 32 (30 without kings): one feature per piece at most.
func (b *lineBlock) MaxActive() int {
	if b.noKing {
		return 30
	}
	return 32
}

func (b *lineBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

func (b *lineBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	m := b.orient.Mask(pos, persp)
	if b.kind == lineSquare {
		// ALL/NK: one feature per piece, no duplicates. Transposing the oriented occupancy
		// makes the bit order file-major, i.e. the index order, so no sorting is needed.
		codes := &pieceCode[persp]
		occ := pos.Occupied()
		if b.noKing {
			occ &^= pos.ByRole(board.King)
		}
		t := transpose(orientBB(occ, m))
		for t != 0 {
			j := int(t.PopFirst())
			osq := board.Square((j&7)*8 + j>>3)
			dst = append(dst, off+j*b.stride+int(codes[pos.PieceAt(osq^m)]))
		}
		return dst
	}
	var set [12]uint64
	lines := &lineOf[b.kind]
	codes := &pieceCode[persp]
	for occ := pos.Occupied(); occ != 0; {
		sq := occ.PopFirst()
		i := int(lines[sq^m])*b.stride + int(codes[pos.PieceAt(sq)])
		set[i>>6] |= 1 << (i & 63)
	}
	return appendBits(dst, set[:(b.size+63)>>6], off)
}

// AppendDiff is the DirtyPieces fast path: only the (line, piece) features of the dirty
// pieces' origin and destination squares can change, and each is active iff the piece's
// bitboard meets the line.
func (b *lineBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := b.orient.Mask(before, persp)
	if !dirtyOK(dirty) || m != b.orient.Mask(after, persp) {
		return genericDiff(b, before, after, persp, off, added, removed)
	}
	var cand [6]int
	n := 0
	lines := &lineOf[b.kind]
	for _, d := range dirty.Pieces[:dirty.N] {
		if b.noKing && d.Piece.Role() == board.King {
			continue
		}
		pc := int(d.Piece.Role())*2 + int(d.Piece.Color()^persp)
		for _, sq := range [2]board.Square{d.From, d.To} {
			if sq == board.NoSquare {
				continue
			}
			f := int(lines[sq^m])*b.stride + pc
			dup := false
			for _, c := range cand[:n] {
				dup = dup || c == f
			}
			if !dup {
				cand[n] = f
				n++
			}
		}
	}
	for _, f := range cand[:n] {
		line := f / b.stride
		role := board.Role(f % b.stride / 2)
		color := board.Color(f%2) ^ persp
		bb := orientedLineBB[maskVariant(m)][b.kind][line]
		was := before.Pieces(color, role)&bb != 0
		is := after.Pieces(color, role)&bb != 0
		if was && !is {
			removed = append(removed, off+f)
		} else if is && !was {
			added = append(added, off+f)
		}
	}
	return added, removed
}

// pieceCode[persp][pc] is role·2 + (color relative to persp), the low part of a line
// block's index.
var pieceCode = func() (t [2][13]int8) {
	for persp := 0; persp < 2; persp++ {
		for pc := board.Piece(1); pc <= 12; pc++ {
			t[persp][pc] = int8(int(pc.Role())*2 + int(pc.Color()^board.Color(persp)))
		}
	}
	return t
}()

// transpose mirrors b about the a1–h8 diagonal: bit rank·8+file moves to file·8+rank
// (Chess Programming Wiki, "Flipping Mirroring and Rotating", flipDiagA1H8).
func transpose(b board.Bitboard) board.Bitboard {
	x := uint64(b)
	const k1, k2, k4 = 0x5500550055005500, 0x3333000033330000, 0x0f0f0f0f00000000
	t := k4 & (x ^ (x << 28))
	x ^= t ^ (t >> 28)
	t = k2 & (x ^ (x << 14))
	x ^= t ^ (t >> 14)
	t = k1 & (x ^ (x << 7))
	x ^= t ^ (t >> 7)
	return board.Bitboard(x)
}
