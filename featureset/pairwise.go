package featureset

import "github.com/nnuekit/nnuekit/board"

// pairBlock is PH or PV in the thesis code's layout (thesis §6.3; thesis-models/README.md):
// along each line i of the oriented board, every pair of consecutive occupied squares
// (first = lower square index, second = next occupied square) gives the feature
// i·144 + r₁·24 + c₁·12 + r₂·2 + c₂ with c = 1 for the perspective's OWN piece, 0 for the
// opponent's (PairColors).
//
// The code's "ph" runs along files (pairs of vertical neighbours, lower piece first) and
// its "pv" along ranks (left piece first): the thesis text names them the other way round.
// The published networks (all+ph.nn, all+pv.nn, all+ph+pv.nn) need the code's layout.
type pairBlock struct {
	leaf
	kind lineKind // lineFile for "ph", lineRank for "pv"
}

// PH returns the code's "ph" block: pairs of consecutive pieces along each FILE, lower
// piece first; 1152 features (the text's PV). See pairBlock for the index.
func PH(o Orientation) Block {
	return &pairBlock{newLeaf("ph", "PH", o, Flip, Files, Roles, PairColors, Roles, PairColors), lineFile}
}

// PV returns the code's "pv" block: pairs of consecutive pieces along each RANK, left
// piece first; 1152 features (the text's PH). See pairBlock for the index.
func PV(o Orientation) Block {
	return &pairBlock{newLeaf("pv", "PV", o, Flip, Ranks, Roles, PairColors, Roles, PairColors), lineRank}
}

// MaxActive is 31: a line holding n pieces has n−1 pairs, so at most 32 − (lines used)
// pairs in all.
func (b *pairBlock) MaxActive() int { return 31 }

func (b *pairBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

// pairCode returns r·2 + c (c = 1 for own) of the piece on oriented square osq.
func pairCode(pos *board.Position, osq, m board.Square, persp board.Color) int {
	return int(pieceCode[persp][pos.PieceAt(osq^m)]) ^ 1
}

// linePairs appends the features (block-local) of line `line` to dst.
func (b *pairBlock) linePairs(pos *board.Position, occ board.Bitboard, m board.Square, persp board.Color, line int, dst []int) []int {
	on := occ & lineBB[b.kind][line]
	prev := -1
	for on != 0 {
		code := pairCode(pos, on.PopFirst(), m, persp)
		if prev >= 0 {
			dst = append(dst, line*144+prev*12+code)
		}
		prev = code
	}
	return dst
}

func (b *pairBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	m := b.orient.Mask(pos, persp)
	occ := orientBB(pos.Occupied(), m)
	codes := &pieceCode[persp]
	// Lines come in index order (line·144 is the high part), so only each line's ≤ 7
	// pairs need sorting and deduplication.
	for line := 0; line < 8; line++ {
		on := occ & lineBB[b.kind][line]
		if on&(on-1) == 0 {
			continue
		}
		start := len(dst)
		base := off + line*144
		prev := int(codes[pos.PieceAt(on.PopFirst()^m)]) ^ 1
		for on != 0 {
			code := int(codes[pos.PieceAt(on.PopFirst()^m)]) ^ 1
			dst = append(dst, base+prev*12+code)
			prev = code
		}
		dst = sortTail(dst, start)
	}
	return dst
}

// AppendDiff is the DirtyPieces fast path: only the lines through a dirty square change;
// their pairs before and after are compared (deduplicated, binary semantics).
func (b *pairBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := b.orient.Mask(before, persp)
	if !dirtyOK(dirty) || m != b.orient.Mask(after, persp) {
		return genericDiff(b, before, after, persp, off, added, removed)
	}
	var lines uint8
	for _, d := range dirty.Pieces[:dirty.N] {
		if d.From != board.NoSquare {
			lines |= 1 << lineOf[b.kind][d.From^m]
		}
		if d.To != board.NoSquare {
			lines |= 1 << lineOf[b.kind][d.To^m]
		}
	}
	occB := orientBB(before.Occupied(), m)
	occA := orientBB(after.Occupied(), m)
	for lines != 0 {
		line := 0
		for lines&(1<<line) == 0 {
			line++
		}
		lines &^= 1 << line
		var pb, pa [8]int
		was := sortSmall(b.linePairs(before, occB, m, persp, line, pb[:0]))
		is := sortSmall(b.linePairs(after, occA, m, persp, line, pa[:0]))
		na, nr := cancelSorted(is, was)
		for _, f := range is[:na] {
			added = append(added, off+f)
		}
		for _, f := range was[:nr] {
			removed = append(removed, off+f)
		}
	}
	return added, removed
}

// sortSmall sorts and deduplicates a short slice in place.
func sortSmall(s []int) []int { return sortTail(s, 0) }
