package featureset

import (
	"fmt"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// pawnPairBlock is Stockfish 19's PP_3Wide: one feature per unordered pair of distinct
// pawns (any colors) on ranks 2–7 whose files differ by at most 1.
type pawnPairBlock struct{}

// ppSize is the number of unordered pairs of the 96 pawn ids (48 squares × 2 colors).
const ppSize = 96 * 95 / 2

// PawnPairs returns Stockfish 19's PP_3Wide block ("pawnpairs"): 4,560 features. A pawn of
// color c on square sq has, from perspective persp, the id 48·(c ^ persp) + (sq ^ o) − 8
// with the FullThreats orientation o (threatMask: flip for Black, mirror when the own king
// is on files e–h); the pair of ids hi > lo has index hi·(hi − 1)/2 + lo. Every unordered
// pair of distinct pawns on ranks 2–7 whose files differ by at most one (ranks need not be
// adjacent) is active; pawns on ranks 1 and 8 (impossible in legal positions) are ignored.
// At most C(16, 2) = 120 are active. An own-king move across the d/e boundary requires a
// refresh. In Stockfish 19's network these rows follow the 59,808 threat rows (the sum
// "threats+pawnpairs"). Source: Stockfish 19 (dev 2026-08) src/nnue/features/pp_3wide.cpp,
// bitboard.h PawnPairBB; ../shared/nets/README.md "PP_3Wide".
func PawnPairs() Block { return pawnPairBlock{} }

func (pawnPairBlock) Name() string      { return "pawnpairs" }
func (pawnPairBlock) key() string       { return "pawnpairs" }
func (pawnPairBlock) Size() int         { return ppSize }
func (pawnPairBlock) MaxActive() int    { return 120 }
func (pawnPairBlock) Dims() []Dimension { return nil }

func (pawnPairBlock) RequiresRefresh(d *board.DirtyPieces, persp board.Color) bool {
	return threatRefresh(d, persp)
}

// ppBand[sq]: squares on ranks 2–7 of sq's file and its neighbours, sq excluded
// (Stockfish PawnPairBB).
var ppBand = func() (t [64]board.Bitboard) {
	for sq := board.Square(0); sq < 64; sq++ {
		f := sq.File()
		files := board.FileBB(f)
		if f > 0 {
			files |= board.FileBB(f - 1)
		}
		if f < 7 {
			files |= board.FileBB(f + 1)
		}
		t[sq] = files & ppMid &^ board.SquareBB(sq)
	}
	return t
}()

const ppMid = board.Bitboard(0x00ffffffffffff00) // ranks 2–7

func ppIndex(a, b int) int {
	hi, lo := max(a, b), min(a, b)
	return hi*(hi-1)/2 + lo
}

// ppID returns the id of a pawn of color c on real square sq.
func ppID(c, persp board.Color, sq, m board.Square) int {
	return 48*int(c^persp) + int(sq^m) - 8
}

// appendPairs appends the pairs of the pawns in upd with every pawn of (unchanged | the
// rest of upd), each pair once; white and black are pos's pawn bitboards.
func appendPairs(white, black, upd, unchanged board.Bitboard, persp board.Color, m board.Square, off int, dst []int) []int {
	for upd != 0 {
		a := upd.PopFirst()
		ca := board.White
		if black.Has(a) {
			ca = board.Black
		}
		ida := ppID(ca, persp, a, m)
		for p := ppBand[a] & (unchanged | upd); p != 0; {
			s := p.PopFirst()
			cs := board.White
			if black.Has(s) {
				cs = board.Black
			}
			dst = append(dst, off+ppIndex(ida, ppID(cs, persp, s, m)))
		}
	}
	return dst
}

func (p pawnPairBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	var v ThreatBoard
	v.SetPosition(pos)
	return p.appendActive(&v, persp, off, dst)
}

// appendActive is AppendActive on the board view.
func (pawnPairBlock) appendActive(pos *ThreatBoard, persp board.Color, off int, dst []int) []int {
	m := threatMask(pos, persp)
	w, b := pos.pieces(board.White, board.Pawn)&ppMid, pos.pieces(board.Black, board.Pawn)&ppMid
	start := len(dst)
	dst = appendPairs(w, b, w|b, 0, persp, m, off, dst)
	sortInts(dst[start:])
	return dst
}

// AppendDiff is the DirtyPieces fast path (Stockfish PP_3Wide::append_changed_indices):
// only pairs with a pawn that left (removed) or arrived (added) change; the pawn
// bitboards before and after tell which. It recomputes when the orientation changes.
func (p pawnPairBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	var vb, va ThreatBoard
	vb.SetPosition(before)
	va.SetPosition(after)
	return p.appendDiff(&vb, &va, dirty, persp, off, added, removed)
}

// appendDiff is AppendDiff on the board views.
func (p pawnPairBlock) appendDiff(before, after *ThreatBoard, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := threatMask(before, persp)
	if !dirtyOK(dirty) || m != threatMask(after, persp) {
		a0, r0 := len(added), len(removed)
		added = p.appendActive(after, persp, off, added)
		removed = p.appendActive(before, persp, off, removed)
		na, nr := cancelSorted(added[a0:], removed[r0:])
		return added[:a0+na], removed[:r0+nr]
	}
	pawnMoved := false
	for _, d := range dirty.Pieces[:dirty.N] {
		pawnMoved = pawnMoved || d.Piece.Role() == board.Pawn
	}
	if !pawnMoved {
		return added, removed
	}
	wb, bb := before.pieces(board.White, board.Pawn)&ppMid, before.pieces(board.Black, board.Pawn)&ppMid
	wa, ba := after.pieces(board.White, board.Pawn)&ppMid, after.pieces(board.Black, board.Pawn)&ppMid
	if wb == wa && bb == ba {
		return added, removed
	}
	gone, come := wb&^wa|bb&^ba, wa&^wb|ba&^bb
	removed = appendPairs(wb, bb, gone, (wb|bb)&^gone, persp, m, off, removed)
	added = appendPairs(wa, ba, come, (wa|ba)&^come, persp, m, off, added)
	return added, removed
}

func ppDecode(i int) (hi, lo int, ok bool) {
	if i < 0 || i >= ppSize {
		return 0, 0, false
	}
	hi = 1
	for (hi+1)*hi/2 <= i {
		hi++
	}
	return hi, i - hi*(hi-1)/2, true
}

func ppLabel(id int) string {
	c := "own"
	if id >= 48 {
		c = "their"
	}
	return board.Square(id%48+8).String() + ", " + c
}

// Describe returns "PP[sq, own|their, sq, own|their]" (oriented squares, the pawn with the
// higher id first), e.g. "PP[e4, own, d5, their]".
func (pawnPairBlock) Describe(i int) string {
	hi, lo, ok := ppDecode(i)
	if !ok {
		return fmt.Sprintf("PP[?%d]", i)
	}
	return "PP[" + ppLabel(hi) + ", " + ppLabel(lo) + "]"
}

// Lookup is the inverse of Describe (the two pawns in either order).
func (pawnPairBlock) Lookup(desc string) (int, error) {
	p, err := splitDesc(desc, "PP", 4)
	if err != nil {
		return 0, err
	}
	var ids [2]int
	for k := 0; k < 2; k++ {
		sq, err := board.ParseSquare(strings.ToLower(p[2*k]))
		if err != nil || sq.Rank() == 0 || sq.Rank() == 7 {
			return 0, fmt.Errorf("featureset: %q: %q is not a square on ranks 2-7", desc, p[2*k])
		}
		switch {
		case strings.EqualFold(p[2*k+1], "own"):
			ids[k] = int(sq) - 8
		case strings.EqualFold(p[2*k+1], "their"):
			ids[k] = 48 + int(sq) - 8
		default:
			return 0, fmt.Errorf("featureset: %q: %q is not own or their", desc, p[2*k+1])
		}
	}
	if ids[0] == ids[1] {
		return 0, fmt.Errorf("featureset: %q: a pawn does not pair with itself", desc)
	}
	return ppIndex(ids[0], ids[1]), nil
}

// Dead features of PawnPairs: the index covers all pairs of the 96 ids.
const (
	DeadPawnsApart   = "pawns more than one file apart (not a PP_3Wide pair)"
	DeadPawnsSameSqr = "two pawns on one square"
)

func (pawnPairBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	for i := 0; i < ppSize; i++ {
		hi, lo, _ := ppDecode(i)
		a, b := board.Square(hi%48+8), board.Square(lo%48+8)
		switch {
		case a == b:
			dst = append(dst, DeadFeature{off + i, DeadPawnsSameSqr})
		case a.File()-b.File() > 1 || b.File()-a.File() > 1:
			dst = append(dst, DeadFeature{off + i, DeadPawnsApart})
		}
	}
	return dst
}

func init() {
	register("pawnpairs", "PP, 4560: Stockfish 19 PP_3Wide pawn pairs within one file", func(Orientation) Block { return PawnPairs() })
}
