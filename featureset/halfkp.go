package featureset

import "github.com/nnuekit/nnuekit/board"

// Stockfish-style feature blocks. Stockfish orders a perspective's piece features
// role-major: plane (2·role + their) of 64 oriented squares, i.e. own pawn 0…63, their
// pawn 64…127, own knight 128…, their queen 576…639 (Stockfish 15.1
// features/half_ka_v2_hm.h PieceSquareIndex; Stockfish 13 half_kp.h adds 1 for
// BONA_PIECE_ZERO). The thesis ALL block orders the same features square-major, so
// these are separate leaf blocks with the same orientation machinery.

// piecePlanesBlock is PIECES: 640 features, the non-king pieces on the oriented board
// in Stockfish's role-major order: index = (2·role + their)·64 + oriented square.
type piecePlanesBlock struct{ leaf }

// PiecePlanes returns the PIECES block ("pieces"): 640 features, one per (non-king role,
// own/their, oriented square), index = 128·role + 64·their + square (role pawn 0 …
// queen 4). At most 30 are active. Orientation o (Rotate for Stockfish 13 HalfKP,
// FlipMirror for Stockfish 15.1 HalfKAv2_hm) is applied to every square.
func PiecePlanes(o Orientation) Block {
	return &piecePlanesBlock{newLeaf("pieces", "PIECES", o, Flip, NonKingRoles, Colors, Squares)}
}

func (b *piecePlanesBlock) MaxActive() int { return 30 }

func (b *piecePlanesBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

func (b *piecePlanesBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	m := b.orient.Mask(pos, persp)
	for r := board.Pawn; r < board.King; r++ {
		for k, c := range [2]board.Color{persp, persp.Other()} {
			base := off + (2*int(r)+k)*64
			bb := orientBB(pos.Pieces(c, r), m)
			for bb != 0 {
				dst = append(dst, base+int(bb.PopFirst()))
			}
		}
	}
	return dst
}

// AppendDiff: each dirty non-king piece removes its origin feature and adds its
// destination feature; when the orientation changes with the move (FlipMirror after an
// own-king move) it falls back to the generic difference.
func (b *piecePlanesBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := b.orient.Mask(after, persp)
	if !dirtyOK(dirty) || (b.orient.KingDependent() && m != b.orient.Mask(before, persp)) {
		return genericDiff(b, before, after, persp, off, added, removed)
	}
	a0, r0 := len(added), len(removed)
	for _, d := range dirty.Pieces[:dirty.N] {
		if d.Piece.Role() == board.King {
			continue
		}
		base := off + (2*int(d.Piece.Role())+int(d.Piece.Color()^persp))*64
		if d.From != board.NoSquare {
			removed = append(removed, base+int(d.From^m))
		}
		if d.To != board.NoSquare {
			added = append(added, base+int(d.To^m))
		}
	}
	return cancelTails(added, removed, a0, r0)
}

// cancelTails removes features that appear in both added[a0:] and removed[r0:] (a
// feature removed and re-added by the same change, which no legal move produces but a
// synthetic DirtyPieces can), keeping the binary-semantics contract of AppendDiff.
func cancelTails(added, removed []int, a0, r0 int) ([]int, []int) {
	for i := a0; i < len(added); i++ {
		for j := r0; j < len(removed); j++ {
			if added[i] == removed[j] {
				added = append(added[:i], added[i+1:]...)
				removed = append(removed[:j], removed[j+1:]...)
				i--
				break
			}
		}
	}
	return added, removed
}

// deadBlock is DEAD: one feature that is never active (Stockfish 13 HalfKP's
// BONA_PIECE_ZERO slot at the start of each 641-feature king block).
type deadBlock struct{ leaf }

// Dead returns the DEAD block ("dead"): a single feature that is never active. It keeps
// index layouts such as HalfKP's 641 = 1 + 640 exact.
func Dead(o Orientation) Block {
	return &deadBlock{newLeaf("dead", "DEAD", o, Flip, NewDimension("DEAD", []string{"zero"}))}
}

func (b *deadBlock) MaxActive() int                                       { return 0 }
func (b *deadBlock) RequiresRefresh(*board.DirtyPieces, board.Color) bool { return false }
func (b *deadBlock) AppendActive(_ *board.Position, _ board.Color, _ int, dst []int) []int {
	return dst
}
func (b *deadBlock) AppendDiff(_, _ *board.Position, _ *board.DirtyPieces, _ board.Color, _ int, added, removed []int) ([]int, []int) {
	return added, removed
}
func (b *deadBlock) stable(*board.DirtyPieces, board.Color) bool { return true }

// HalfKP returns Stockfish 12/13's HalfKP(Friend) feature set ("halfkp") as the product
// KSQ@rotate × (DEAD + PIECES@rotate): 64·641 = 41024 features, index
// 641·rot(own king) + 1 + 128·role + 64·their + rot(square), rot = identity for White
// and a 180° rotation (sq ^ 63) for Black. Kings are not features; feature 0 of each
// 641 block is never active. An own-king move requires a refresh.
// Source: Stockfish 13 nnue/features/half_kp.{h,cpp}; Karhan §2.4.
func HalfKP() Block {
	o := Rotate
	body := mustSum(Dead(o), PiecePlanes(o))
	return namedProduct("halfkp", KingSquare(o), body)
}

func mustSum(bs ...Block) Block {
	s, err := Sum(bs...)
	if err != nil {
		panic(err)
	}
	return s
}

// stockfishDefault maps the parser's default orientation (Flip, given when the spec has
// no "@…") to the block's own default def.
func stockfishDefault(o, def Orientation) Orientation {
	if o == Flip {
		return def
	}
	return o
}

func init() {
	register("pieces", "PIECES, 640: non-king role × own/their × square (Stockfish order)", PiecePlanes)
	register("dead", "DEAD, 1: a never-active feature (HalfKP's slot 0)", Dead)
	register("halfkp", "HalfKP (Stockfish 12/13), 41024 = ksq@rotate*(dead@rotate+pieces@rotate)", func(Orientation) Block { return HalfKP() })
}
