package featureset

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// Relative coordinates of a piece seen from the own king: own king's file (rank) minus the
// piece's, plus 7, so 0 … 14 ("+7" … "-7" in labels: the king is that many files to the
// right of, or ranks above, the piece).
var (
	RelFiles = NewDimension("REL-FILES", makeLabels(15, func(i int) string { return fmt.Sprintf("df%+d", i-7) }))
	RelRanks = NewDimension("REL-RANKS", makeLabels(15, func(i int) string { return fmt.Sprintf("dr%+d", i-7) }))
)

// relKind says which axes of HALF-RELATIVE are relative to the own king.
type relKind uint8

const (
	relHV relKind = iota // file and rank relative
	relH                 // file relative, rank absolute
	relV                 // file absolute, rank relative
)

// halfRelBlock is the draft's Half-Relative (H|V|HV) King-Piece (seed 004 §2.4.5): every
// non-king piece by its position relative to the perspective's own king.
type halfRelBlock struct {
	leaf
	kind relKind
}

// HalfRelative returns Half-Relative King-Piece "hrkp" (HV: ⟨kfile − pfile + 7,
// krank − prank + 7, role, color⟩, 15·15·5·2 = 2,250 features, index ((df·15 + dr)·5 +
// role)·2 + color), "hrkp-h" (⟨kfile − pfile + 7, prank, role, color⟩, 15·8·5·2 = 1,200) or
// "hrkp-v" (⟨pfile, krank − prank + 7, role, color⟩, 1,200), on the oriented board with the
// perspective's own king; kings are not features and nothing is active without exactly
// one own king. The draft writes only the HV tuple and the count 1,200 for "only H or only
// V"; keeping the other axis absolute is what gives that count (doc/featuresets.md). At
// most 30 are active; an own-king move requires a refresh (every feature moves).
// Source: seed 004 (thesis draft, Aug 2024) §2.4.5 and Table 1.
func HalfRelative(kind string, o Orientation) (Block, error) {
	switch kind {
	case "hv", "":
		return &halfRelBlock{newLeaf("hrkp", "HRKP", o, Flip, RelFiles, RelRanks, NonKingRoles, Colors), relHV}, nil
	case "h":
		return &halfRelBlock{newLeaf("hrkp-h", "HRKP-H", o, Flip, RelFiles, Ranks, NonKingRoles, Colors), relH}, nil
	case "v":
		return &halfRelBlock{newLeaf("hrkp-v", "HRKP-V", o, Flip, Files, RelRanks, NonKingRoles, Colors), relV}, nil
	}
	return nil, fmt.Errorf("featureset: half-relative kind %q (want hv, h or v)", kind)
}

func mustHalfRel(kind string) blockCtor {
	return func(o Orientation) Block {
		b, err := HalfRelative(kind, o)
		if err != nil {
			panic(err)
		}
		return b
	}
}

func (b *halfRelBlock) MaxActive() int { return 30 }

// RequiresRefresh: an own-king move moves every feature.
func (b *halfRelBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return d == nil || d.KingMoved(p)
}

// feature returns the block-local index of a non-king piece pc on real square sq, with
// the own king on oriented square k and mask m.
func (b *halfRelBlock) feature(pc board.Piece, sq, k, m board.Square, persp board.Color) int {
	s := sq ^ m
	var x, y, ny int
	switch b.kind {
	case relHV:
		x, y, ny = k.File()-s.File()+7, k.Rank()-s.Rank()+7, 15
	case relH:
		x, y, ny = k.File()-s.File()+7, s.Rank(), 8
	default:
		x, y, ny = s.File(), k.Rank()-s.Rank()+7, 15
	}
	return ((x*ny+y)*5+int(pc.Role()))*2 + int(pc.Color()^persp)
}

func (b *halfRelBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	k := ownKing(pos, persp)
	if k == board.NoSquare {
		return dst
	}
	m := b.orient.Mask(pos, persp)
	k ^= m
	start := len(dst)
	for bb := pos.Occupied() &^ pos.ByRole(board.King); bb != 0; {
		sq := bb.PopFirst()
		dst = append(dst, off+b.feature(pos.PieceAt(sq), sq, k, m, persp))
	}
	sortInts(dst[start:])
	return dst
}

// AppendDiff: while the own king stays (and the orientation with it), each dirty non-king
// piece removes its feature at From and adds one at To (the map square → feature is one to
// one for a fixed king); otherwise it recomputes.
func (b *halfRelBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	k := ownKing(before, persp)
	m := b.orient.Mask(before, persp)
	if !dirtyOK(dirty) || dirty.KingMoved(persp) || k == board.NoSquare || k != ownKing(after, persp) || m != b.orient.Mask(after, persp) {
		return genericDiff(b, before, after, persp, off, added, removed)
	}
	k ^= m
	a0, r0 := len(added), len(removed)
	for _, d := range dirty.Pieces[:dirty.N] {
		if d.Piece.Role() == board.King {
			continue
		}
		if d.From != board.NoSquare {
			removed = append(removed, off+b.feature(d.Piece, d.From, k, m, persp))
		}
		if d.To != board.NoSquare {
			added = append(added, off+b.feature(d.Piece, d.To, k, m, persp))
		}
	}
	return cancelTails(added, removed, a0, r0)
}

func (b *halfRelBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	d := b.dims
	nx, ny := d[0].Size(), d[1].Size()
	for x := 0; x < nx; x++ {
		for y := 0; y < ny; y++ {
			for r := 0; r < 5; r++ {
				for c := 0; c < 2; c++ {
					i := off + ((x*ny+y)*5+r)*2 + c
					switch {
					case b.kind == relHV && x == 7 && y == 7:
						dst = append(dst, DeadFeature{i, DeadOnKingSquare})
					case r != int(board.Pawn):
					case b.kind == relH && (y == 0 || y == 7), b.kind != relH && (y == 0 || y == 14):
						dst = append(dst, DeadFeature{i, DeadPawnBackRank})
					}
				}
			}
		}
	}
	return dst
}

func init() {
	register("hrkp", "HRKP, 2250: Half-Relative King-Piece (HV), piece relative to own king (draft §2.4.5)", mustHalfRel("hv"))
	register("hrkp-h", "HRKP-H, 1200: relative file, absolute rank (draft §2.4.5)", mustHalfRel("h"))
	register("hrkp-v", "HRKP-V, 1200: absolute file, relative rank (draft §2.4.5)", mustHalfRel("v"))
}
