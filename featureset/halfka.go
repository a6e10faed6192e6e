package featureset

import "github.com/nnuekit/nnuekit/board"

// kingsBlock is KINGS: the squares of both kings on one shared 64-square plane
// (Stockfish 15.1 HalfKAv2_hm's PS_KING plane).
type kingsBlock struct{ leaf }

// Kings returns the KINGS block ("kings"): 64 features, one per oriented square; the
// squares of both kings are active (own and their share the plane, as Stockfish 15.1's
// PS_KING). At most 2 are active.
func Kings(o Orientation) Block {
	return &kingsBlock{newLeaf("kings", "KINGS", o, Flip, Squares)}
}

func (b *kingsBlock) MaxActive() int { return 2 }

func (b *kingsBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

func (b *kingsBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	m := b.orient.Mask(pos, persp)
	bb := orientBB(pos.ByRole(board.King), m)
	for bb != 0 {
		dst = append(dst, off+int(bb.PopFirst()))
	}
	return dst
}

func (b *kingsBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := b.orient.Mask(after, persp)
	if !dirtyOK(dirty) || (b.orient.KingDependent() && m != b.orient.Mask(before, persp)) {
		return genericDiff(b, before, after, persp, off, added, removed)
	}
	a0, r0 := len(added), len(removed)
	for _, d := range dirty.Pieces[:dirty.N] {
		if d.Piece.Role() != board.King {
			continue
		}
		if d.From != board.NoSquare {
			removed = append(removed, off+int(d.From^m))
		}
		if d.To != board.NoSquare {
			added = append(added, off+int(d.To^m))
		}
	}
	return cancelTails(added, removed, a0, r0)
}

// HalfKAv2hmBuckets is Stockfish 15.1's king-bucket table indexed by the oriented square
// of the own king (rank-major, a1 = 0): 4·(7 − rank) + min(file, 7 − file). With the
// FlipMirror orientation the own king is always on files e–h, so 32 buckets are used.
// Source: Stockfish 15.1 features/half_ka_v2_hm.h KingBuckets.
var HalfKAv2hmBuckets = func() (t [64]int) {
	for sq := range t {
		f, r := sq&7, sq>>3
		t[sq] = 4*(7-r) + min(f, 7-f)
	}
	return t
}()

// KB32 returns Stockfish 15.1's 32 king buckets ("kb32") as a king-bucket block with
// orientation o (FlipMirror in HalfKAv2_hm). Its spec name is "kb32" for FlipMirror and
// "kb32@rotate" / "kb32@abs" otherwise; "kb32" with the Flip orientation has no spec of
// its own (Parse reads a bare or "@flip" kb32 as FlipMirror, the block's default).
func KB32(o Orientation) Block {
	b, err := KingBuckets("kb32", "KB32", HalfKAv2hmBuckets, o)
	if err != nil {
		panic(err)
	}
	b.(*kingBlock).def = FlipMirror // print "@rotate"/"@abs", which Parse reads back
	return b
}

// HalfKAv2hm returns Stockfish 15.1's HalfKAv2_hm feature set ("halfkav2_hm") as the
// product KB32@hm × (PIECES@hm + KINGS@hm): 32·704 = 22528 features, index
// 704·bucket(own king) + 128·role + 64·their + o(square) for non-king pieces and
// 704·bucket + 640 + o(king square) for both kings, where o flips Black's view
// vertically and mirrors it horizontally when the own king is on files a–d. At most 32
// are active. An own-king move requires a refresh.
// Source: Stockfish 15.1 nnue/features/half_ka_v2_hm.{h,cpp}; CPW "King input buckets",
// "Horizontal mirroring".
func HalfKAv2hm() Block {
	o := FlipMirror
	return namedProduct("halfkav2_hm", KB32(o), mustSum(PiecePlanes(o), Kings(o)))
}

func init() {
	register("kings", "KINGS, 64: both kings on one square plane (HalfKAv2_hm)", Kings)
	register("kb32", "KB32, 32: Stockfish 15.1 king buckets (default orientation hm)", func(o Orientation) Block {
		return KB32(stockfishDefault(o, FlipMirror))
	})
	register("halfkav2_hm", "HalfKAv2_hm (Stockfish 15.1), 22528 = kb32@hm*(pieces@hm+kings@hm)", func(Orientation) Block { return HalfKAv2hm() })
}
