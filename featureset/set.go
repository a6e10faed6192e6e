package featureset

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// Set is a complete feature set (thesis §3): the top-level block a network's feature
// transformer reads, usually a Sum of blocks. It is immutable and safe for concurrent use.
//
// Index layout: the top-level summands are concatenated in the order written
// (Blocks, Offset); within a block the layout is the block's own (doc/featuresets.md).
type Set struct {
	root  Block
	parts []Block
	offs  []int
	psq   *PieceSquare // own-board fast path (psq_index.go), nil for other sets
	// board: for other sets whose summands all have an own-board path (FullThreats,
	// PawnPairs, piece-square sets: Stockfish 19's), that path, which DiffBoth takes.
	board *BoardPath
}

// NewSet wraps a block (usually built with Sum, Product and the block constructors) as a
// Set; root must not be nil. Its String is root.Name(), which Parse accepts when every
// leaf is a registered block.
func NewSet(root Block) *Set {
	s := &Set{root: root}
	if sb, ok := root.(*sumBlock); ok {
		s.parts, s.offs = sb.parts, sb.offs
	} else {
		s.parts, s.offs = []Block{root}, []int{0}
	}
	s.psq = psqCandidates()[blockKey(root)]
	if s.psq == nil {
		if bp, ok := s.BoardPath(); ok {
			s.board = bp
		}
	}
	return s
}

// String returns the spec, lower-case, which Parse turns back into an equal Set: names are
// canonical except that the legacy spelling "hv" of ALL is kept (the thesis networks'
// headers use it), "king-all" prints as "ka", and non-default orientations are written
// with '@'.
func (s *Set) String() string { return s.root.Name() }

// Root returns the top-level block.
func (s *Set) Root() Block { return s.root }

// Size returns the number of features (the feature transformer's input width).
func (s *Set) Size() int { return s.root.Size() }

// MaxActive returns an upper bound of len(Active(…)) for any legal position and either
// perspective; use it to size accumulator index buffers.
func (s *Set) MaxActive() int { return s.root.MaxActive() }

// Blocks returns the top-level summands in order (one element when the set is not a sum).
func (s *Set) Blocks() []Block { return append([]Block(nil), s.parts...) }

// Offset returns the index of the first feature of top-level summand k.
// It panics when k is out of range.
func (s *Set) Offset(k int) int { return s.offs[k] }

// Active appends to dst the indices of the features of pos active from persp's point of
// view and returns the extended slice. The appended indices are ascending, distinct
// (binary semantics) and in [0, Size()). It allocates only when dst lacks capacity
// (MaxActive is enough).
//
// HalfKP and HalfKAv2_hm take a loop over the piece bitboards (PieceSquare.active) instead
// of the block tree; ActiveGeneric is the reference.
func (s *Set) Active(pos *board.Position, persp board.Color, dst []int) []int {
	if s.psq != nil && s.psq.planes {
		if out, ok := s.psq.active(pos, persp, dst); ok {
			return out
		}
	}
	return s.root.AppendActive(pos, persp, 0, dst)
}

// ActiveGeneric is the reference implementation of Active: the walk over the block tree,
// without the piece-square fast path. Same contract and result as Active.
func (s *Set) ActiveGeneric(pos *board.Position, persp board.Color, dst []int) []int {
	return s.root.AppendActive(pos, persp, 0, dst)
}

// Diff appends to added the features active in after but not in before, and to removed
// those active in before but not in after, for persp; after must be before with the move
// described by dirty played (board.Position.Play returns both). The result is the exact
// set difference under binary semantics: removed ⊆ Active(before), added ∩ Active(before)
// = ∅, Active(before) − removed + added = Active(after). Order within added and removed is
// unspecified.
//
// The piece-square sets (PieceSquare: ALL, KING-ALL, KP, HalfKP, HalfKAv2_hm) take a
// table-driven path straight from dirty (no block traversal). Other blocks with
// DirtyPieces fast paths (ALL, H, V, D1, D2, PH, PV, NK and KING-ALL/KP while
// the own king stays) use them; the others (MB, MC, and king-bucketed blocks after a king
// move) recompute both active sets — Diff is exact even when RequiresRefresh is true, it is
// just not cheaper than a refresh then. If dirty is nil or names no valid piece the
// generic path is taken.
func (s *Set) Diff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, added, removed []int) ([]int, []int) {
	return s.psq.diffOr(s, before, after, dirty, persp, added, removed) // one call: Diff inlines
}

// diff is Diff past the one-piece path of PieceSquare.diffOr: the piece-square table path
// (PieceSquare.diff), else the block tree.
func (s *Set) diff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, added, removed []int) ([]int, []int) {
	if p := s.psq; p != nil {
		if a, r, ok := p.diff(after, dirty, persp, added, removed); ok {
			return a, r
		}
	}
	return s.root.AppendDiff(before, after, dirty, persp, 0, added, removed)
}

// DiffGeneric is the reference implementation of Diff: the set difference of
// Active(before) and Active(after), both ascending. It ignores dirty pieces.
func (s *Set) DiffGeneric(before, after *board.Position, persp board.Color, added, removed []int) ([]int, []int) {
	return genericDiff(s.root, before, after, persp, 0, added, removed)
}

// RequiresRefresh reports whether, for the move described by dirty, persp's accumulator
// must (or had better) be recomputed from Active instead of updated from Diff: true for
// KING-ALL, KP and king-bucket blocks when persp's own king moved (castling included), and
// for blocks whose orientation depends on the own king (FlipMirror) then. A nil dirty
// (unknown change) requires a refresh.
func (s *Set) RequiresRefresh(dirty *board.DirtyPieces, persp board.Color) bool {
	if s.psq != nil && dirty != nil && !s.psq.kingDep {
		return false // ALL: no own-king dependence (inlined fast path)
	}
	return s.requiresRefresh(dirty, persp)
}

func (s *Set) requiresRefresh(dirty *board.DirtyPieces, persp board.Color) bool {
	if dirty == nil {
		return true
	}
	if s.psq != nil {
		return s.psq.RequiresRefresh(persp, dirty)
	}
	return s.root.RequiresRefresh(dirty, persp)
}

// Describe returns a readable name of feature i, e.g. "ALL[e4, pawn, own]",
// "PH[e, pawn, own, pawn, their]", "KSQ[g1]×ALL[e4, pawn, own]". Squares are those of the
// perspective's oriented board; colors are relative (own/their). Out of range: "?i".
func (s *Set) Describe(i int) string {
	if i < 0 || i >= s.Size() {
		return fmt.Sprintf("?%d", i)
	}
	return s.root.Describe(i)
}

// Index is the inverse of Describe: it returns the feature index named by desc
// (case-insensitive), or an error. Describe does not print orientations, so in a sum of
// one block under two orientations ("all+all@rotate") Index returns the first summand's
// feature.
func (s *Set) Index(desc string) (int, error) { return s.root.Lookup(desc) }

// Equal reports whether s and o have the same features in the same order (aliases such as
// "hv"/"all" and "ka"/"ksq*all" are equal).
func (s *Set) Equal(o *Set) bool {
	if s == nil || o == nil {
		return s == o
	}
	return blockKey(s.root) == blockKey(o.root)
}
