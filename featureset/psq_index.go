package featureset

import (
	"math/bits"
	"sync"

	"github.com/nnuekit/nnuekit/board"
)

// PSQKind names a piece-square feature set: one whose features are products of (own-king
// square or bucket) × (piece, square), so that a move's features follow from its dirty
// pieces and the two king squares alone.
type PSQKind uint8

const (
	// PSQAll is ALL (thesis §3.3.1): 768 features, (file·8 + rank)·12 + role·2 + their.
	PSQAll PSQKind = iota + 1
	// PSQKingAll is KING-ALL (thesis §3.3.2): 64·768, ownKing·768 + ALL index.
	PSQKingAll
	// PSQKP is KP (thesis §3.3.2): 64·640, ownKing·640 + NK index (kings are not features).
	PSQKP
	// PSQHalfKP is Stockfish 12/13 HalfKP: 64·641, 641·ownKing + 1 + 128·role + 64·their + square.
	PSQHalfKP
	// PSQHalfKAv2hm is Stockfish 15.1 HalfKAv2_hm: 32·704, 704·bucket + 128·role + 64·their
	// + square (both kings on plane 640).
	PSQHalfKAv2hm
)

var psqKindNames = [...]string{"", "all", "ka", "kp", "halfkp", "halfkav2_hm"}

// String returns the spec name of the kind's default form ("all", "ka", "kp", "halfkp",
// "halfkav2_hm").
func (k PSQKind) String() string {
	if int(k) < len(psqKindNames) {
		return psqKindNames[k]
	}
	return "?"
}

// PieceSquare is the own-board path of a piece-square feature set (ALL, KING-ALL, KP,
// HalfKP, HalfKAv2_hm in any orientation their constructors accept): the index of a
// (piece, square) feature from one perspective given only that perspective's own king
// square, and the feature difference of a move given only its dirty pieces. An engine
// with its own board keeps accumulators exact with it and never builds a board.Position:
//
//	refresh:  for every piece (pc, sq): idx = Index(persp, ownKing, pc, sq); skip idx < 0
//	move:     if RequiresRefresh(persp, dirty) → refresh persp, else
//	          added, removed = AppendDiff(persp, ownKing, dirty, added[:0], removed[:0])
//	          (nnue.Accumulator.UpdateFrom / Refresh apply the lists)
//
// ownKing is the real (unoriented) square of persp's own king after the move. The indices
// are those of Set.Active/Set.Diff for a position with exactly one king per side; Index
// agrees with Describe/Index of the Set. A PieceSquare is immutable and safe for
// concurrent use. Source: thesis §3.3 (ALL, KING-ALL, KP); Stockfish 13
// features/half_kp.cpp and 15.1 features/half_ka_v2_hm.cpp (make_index,
// append_changed_indices, requires_refresh).
type PieceSquare struct {
	kind   PSQKind
	orient Orientation
	// index[persp][pc][sq] for kind-independent ALL/NK/PIECES parts, without the king part;
	// -1 when (pc, sq) is not a feature. Indexed with the oriented-square mask applied
	// inside, so the table is per mask variant: [maskVariant][persp-relative color][piece].
	part [4][2][13][64]int16
	// kingStride is the size of one own-king block (0 for ALL).
	kingStride int32
	kingDep    bool // an own-king move requires a refresh (king product or FlipMirror)
	// planes: the index is role-major (Stockfish's PIECES planes: HalfKP, HalfKAv2_hm), so
	// Set.Active can walk the piece bitboards in ascending index order (active).
	planes bool
	// base[v][k] is the first index of the own-king block for mask variant v and real
	// own-king square k (0 for ALL).
	base  [4][64]int32
	mask0 [2]board.Square // the mask without the FlipMirror mirror
	kings [2]board.Piece  // own king piece per perspective
	// quiet[persp][ownKing] is the index table and own-king base of persp's view with its
	// own king on real square ownKing (index 0 for the sets that do not depend on it):
	// diffOr's two loads instead of the mask, variant and base arithmetic.
	quiet [2][64]psqView
}

// psqView is one perspective's view for one own-king square: tab[pc][sq] + base is the
// feature index of piece pc on real square sq (tab entry −1: not a feature).
type psqView struct {
	tab  *[13][64]int16
	base int
}

// Kind returns the feature set's kind.
func (p *PieceSquare) Kind() PSQKind { return p.kind }

// Orientation returns the orientation of the perspectives (Flip for the thesis sets,
// Rotate for HalfKP, FlipMirror for HalfKAv2_hm).
func (p *PieceSquare) Orientation() Orientation { return p.orient }

// KingDependent reports whether persp's accumulator must be refreshed when persp's own king
// moves (true for everything but ALL in the Flip, Rotate and Absolute orientations).
func (p *PieceSquare) KingDependent() bool { return p.kingDep }

// Mask returns the XOR square mask of persp's view with persp's own king on ownKing
// (Orientation.Mask without a position; ownKing NoSquare means no mirror).
func (p *PieceSquare) Mask(persp board.Color, ownKing board.Square) board.Square {
	switch p.orient {
	case Flip:
		return board.Square(56 * int(persp&1))
	case Rotate:
		return board.Square(63 * int(persp&1))
	case FlipMirror:
		m := board.Square(56 * int(persp&1))
		if ownKing != board.NoSquare && ownKing.File() < 4 {
			m ^= 7
		}
		return m
	}
	return 0
}

// kingBase returns the index of the first feature of the own-king block.
func (p *PieceSquare) kingBase(m, ownKing board.Square) int {
	switch p.kind {
	case PSQAll:
		return 0
	case PSQHalfKAv2hm:
		return int(p.kingStride) * HalfKAv2hmBuckets[ownKing^m]
	}
	return int(p.kingStride) * int(ownKing^m)
}

// Index returns the index of the feature "piece pc on real square sq" seen from persp
// whose own king stands on real square ownKing, or −1 when (pc, sq) is not a feature of
// the set (kings in KP and HalfKP) or an argument is out of range. For ALL ownKing is
// ignored (except with FlipMirror); for the king-relative sets it must be valid.
func (p *PieceSquare) Index(persp board.Color, ownKing board.Square, pc board.Piece, sq board.Square) int {
	if !pc.Valid() || !sq.Valid() || persp > board.Black {
		return -1
	}
	if p.kind != PSQAll && !ownKing.Valid() {
		return -1
	}
	m := p.Mask(persp, ownKing)
	v := p.part[maskVariant(m)][persp][pc][sq]
	if v < 0 {
		return -1
	}
	return p.kingBase(m, ownKing) + int(v)
}

// RequiresRefresh reports whether persp's accumulator must be refreshed after the move
// described by dirty instead of updated from AppendDiff: when the set is king-dependent
// and persp's own king is among the dirty pieces (castling included). It equals
// Set.RequiresRefresh for every non-nil dirty. Source: Stockfish 15.1
// half_ka_v2_hm.cpp requires_refresh.
func (p *PieceSquare) RequiresRefresh(persp board.Color, dirty *board.DirtyPieces) bool {
	if dirty == nil {
		return true
	}
	if !p.kingDep {
		return false
	}
	k := p.kings[persp&1]
	n := min(max(dirty.N, 0), len(dirty.Pieces))
	for i := 0; i < n; i++ {
		if dirty.Pieces[i].Piece == k {
			return true
		}
	}
	return false
}

// AppendDiff appends to added and removed the features that the move described by dirty
// adds and removes from persp's view, persp's own king being on ownKing (real square,
// after the move). It requires !RequiresRefresh(persp, dirty) — otherwise the lists are
// those of the new king block and not a difference — and dirty as board.Position.Play
// returns it (entries naming invalid pieces or squares are skipped). No allocation when
// added and removed have room for 3 more entries each.
func (p *PieceSquare) AppendDiff(persp board.Color, ownKing board.Square, dirty *board.DirtyPieces, added, removed []int) ([]int, []int) {
	if dirty == nil || p.kind != PSQAll && !ownKing.Valid() || persp > board.Black {
		return added, removed
	}
	m := p.Mask(persp, ownKing)
	base := p.kingBase(m, ownKing)
	tab := &p.part[maskVariant(m)][persp]
	a0, r0 := len(added), len(removed)
	n := min(max(dirty.N, 0), len(dirty.Pieces))
	for i := 0; i < n; i++ {
		d := &dirty.Pieces[i]
		if !d.Piece.Valid() {
			continue
		}
		row := &tab[d.Piece]
		if d.From.Valid() {
			if v := row[d.From]; v >= 0 {
				removed = append(removed, base+int(v))
			}
		}
		if d.To.Valid() {
			if v := row[d.To]; v >= 0 {
				added = append(added, base+int(v))
			}
		}
	}
	if len(added)-a0 > 0 && len(removed)-r0 > 0 {
		return cancelTails(added, removed, a0, r0)
	}
	return added, removed
}

// AppendActive appends the features of the pieces listed by mailbox (indexed by real
// square, NoPiece for empty squares) from persp's view with persp's own king on ownKing —
// a refresh for an engine's own board. Indices are not sorted.
func (p *PieceSquare) AppendActive(persp board.Color, ownKing board.Square, mailbox *[64]board.Piece, dst []int) []int {
	if p.kind != PSQAll && !ownKing.Valid() || persp > board.Black {
		return dst
	}
	m := p.Mask(persp, ownKing)
	base := p.kingBase(m, ownKing)
	tab := &p.part[maskVariant(m)][persp]
	for sq, pc := range mailbox {
		if pc.Valid() {
			if v := tab[pc][sq]; v >= 0 {
				dst = append(dst, base+int(v))
			}
		}
	}
	return dst
}

func newPieceSquare(kind PSQKind, o Orientation) *PieceSquare {
	p := &PieceSquare{kind: kind, orient: o, kingDep: kind != PSQAll || o.KingDependent()}
	p.planes = kind == PSQHalfKP || kind == PSQHalfKAv2hm
	switch kind {
	case PSQKingAll:
		p.kingStride = 768
	case PSQKP:
		p.kingStride = 640
	case PSQHalfKP:
		p.kingStride = 641
	case PSQHalfKAv2hm:
		p.kingStride = 704
	}
	for persp := board.White; persp <= board.Black; persp++ {
		p.kings[persp] = board.MakePiece(persp, board.King)
		p.mask0[persp] = p.Mask(persp, board.H1) // no mirror: king on files e–h
	}
	defer func() {
		for persp := board.White; persp <= board.Black; persp++ {
			for k := board.Square(0); k < 64; k++ {
				m := p.Mask(persp, k)
				v := maskVariant(m)
				p.quiet[persp][k] = psqView{tab: &p.part[v][persp], base: int(p.base[v][k])}
			}
		}
	}()
	for v, m := range [4]board.Square{0, 7, 56, 63} {
		for k := board.Square(0); k < 64; k++ {
			p.base[v][k] = int32(p.kingBase(m, k))
		}
		for persp := board.White; persp <= board.Black; persp++ {
			for pc := board.Piece(0); pc <= 12; pc++ {
				for sq := board.Square(0); sq < 64; sq++ {
					p.part[v][persp][pc][sq] = int16(partIndex(kind, persp, pc, sq^m))
				}
			}
		}
	}
	return p
}

// partIndex is the index of piece pc on oriented square osq within one own-king block.
func partIndex(kind PSQKind, persp board.Color, pc board.Piece, osq board.Square) int {
	if !pc.Valid() {
		return -1
	}
	role, their := int(pc.Role()), int(pc.Color()^persp)
	line := osq.File()*8 + osq.Rank() // file-major, thesis ALL/NK
	switch kind {
	case PSQAll, PSQKingAll:
		return line*12 + role*2 + their
	case PSQKP:
		if pc.Role() == board.King {
			return -1
		}
		return line*10 + role*2 + their
	case PSQHalfKP:
		if pc.Role() == board.King {
			return -1
		}
		return 1 + 128*role + 64*their + int(osq)
	case PSQHalfKAv2hm:
		if pc.Role() == board.King {
			return 640 + int(osq)
		}
		return 128*role + 64*their + int(osq)
	}
	return -1
}

// psqCandidates maps the structural key of every recognised piece-square root block to
// its kind and orientation.
var psqCandidates = sync.OnceValue(func() map[string]*PieceSquare {
	c := map[string]*PieceSquare{}
	for o := Orientation(0); o < numOrientations; o++ {
		c[blockKey(All(o))] = newPieceSquare(PSQAll, o)
		c[blockKey(KingAll(o))] = newPieceSquare(PSQKingAll, o)
		c[blockKey(KP(o))] = newPieceSquare(PSQKP, o)
	}
	c[blockKey(HalfKP())] = newPieceSquare(PSQHalfKP, Rotate)
	c[blockKey(HalfKAv2hm())] = newPieceSquare(PSQHalfKAv2hm, FlipMirror)
	return c
})

// PieceSquare returns the own-board path of s when s is one of the piece-square sets (ALL,
// KING-ALL, KP in the Flip, Rotate or Absolute orientation; HalfKP; HalfKAv2_hm), else
// nil. Sets that need the whole board (H/V/D1/D2, PH/PV, MB/MC and sums containing them)
// return nil: an engine then keeps a board.Position beside its own board
// (doc/engine.md).
func (s *Set) PieceSquare() *PieceSquare { return s.psq }

// diffOr is Set.Diff's one call (p may be nil): for the commonest move, one piece other
// than persp's own king going from one square to another (every quiet move; the other
// side's king move), one row of the view table for persp's king square, no loop and no
// per-entry checks; everything else goes on to s.diff (diff, else the block tree), which
// gives the same lists where this path applies (TestDiffQuiet). Taking s and before
// along spares the quiet move a second call (Set.Diff → Set.diff → the quiet path cost
// ≈ 35 instructions per perspective more, doc/benchmarks.md).
func (p *PieceSquare) diffOr(s *Set, before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, added, removed []int) ([]int, []int) {
	if p == nil || dirty == nil || dirty.N != 1 || persp > board.Black {
		return s.diff(before, after, dirty, persp, added, removed)
	}
	d := dirty.Pieces[0]
	pc := d.Piece
	// NoSquare is −1: one unsigned test rejects it and every other invalid square.
	if uint(pc-1) >= 12 || pc == p.kings[persp] || uint8(d.From)|uint8(d.To) >= 64 {
		return s.diff(before, after, dirty, persp, added, removed)
	}
	ksq := 0
	if p.kingDep {
		k := uint64(after.Pieces(persp, board.King))
		if k == 0 || k&(k-1) != 0 {
			return s.diff(before, after, dirty, persp, added, removed)
		}
		ksq = bits.TrailingZeros64(k)
	}
	view := &p.quiet[persp][ksq&63]
	row := &view.tab[pc]
	if v := row[d.From&63]; v >= 0 {
		removed = append(removed, view.base+int(v))
	}
	if v := row[d.To&63]; v >= 0 {
		added = append(added, view.base+int(v))
	}
	return added, removed
}

// diff is Set.Diff's fast path: it reports false when the generic path must be taken
// (dirty naming an invalid piece or square, own-king move of a king-dependent set, not
// exactly one own king where the index depends on it). One pass over dirty, table
// lookups, no block traversal.
func (p *PieceSquare) diff(after *board.Position, dirty *board.DirtyPieces, persp board.Color, added, removed []int) ([]int, []int, bool) {
	if dirty == nil {
		return added, removed, false
	}
	n := dirty.N
	if uint(n) > uint(len(dirty.Pieces)) || persp > board.Black {
		return added, removed, false
	}
	var tab *[13][64]int16
	base := 0
	ownKing := board.NoPiece
	if !p.kingDep {
		tab = &p.part[maskVariant(p.mask0[persp])][persp]
	} else {
		k := after.Pieces(persp, board.King)
		if k == 0 || k&(k-1) != 0 {
			return added, removed, false
		}
		ksq := k.First()
		ownKing = p.kings[persp]
		view := &p.quiet[persp][ksq]
		base, tab = view.base, view.tab
	}
	a0, r0 := len(added), len(removed)
	for i := 0; i < n; i++ {
		d := &dirty.Pieces[i]
		if !d.Piece.Valid() || d.Piece == ownKing {
			return added[:a0], removed[:r0], false
		}
		row := &tab[d.Piece]
		if d.From != board.NoSquare {
			if uint(d.From) >= 64 {
				return added[:a0], removed[:r0], false
			}
			if v := row[d.From]; v >= 0 {
				removed = append(removed, base+int(v))
			}
		}
		if d.To != board.NoSquare {
			if uint(d.To) >= 64 {
				return added[:a0], removed[:r0], false
			}
			if v := row[d.To]; v >= 0 {
				added = append(added, base+int(v))
			}
		}
	}
	if n > 1 && len(added) > a0 && len(removed) > r0 {
		// A feature removed and re-added by one change (no legal move does this; a
		// synthetic DirtyPieces can) must cancel: binary semantics.
		for _, a := range added[a0:] {
			for _, r := range removed[r0:] {
				if a == r {
					added, removed = cancelTails(added, removed, a0, r0)
					return added, removed, true
				}
			}
		}
	}
	return added, removed, true
}

// active is Set.Active's fast path for the role-major sets (HalfKP, HalfKAv2_hm): one
// loop over the piece bitboards, appending in ascending index order (plane 2·role +
// their, then oriented square; HalfKAv2_hm's shared king plane last). It reports false
// (dst unchanged) when persp has not exactly one king, where the generic path defines the
// result. The oriented square is sq ^ m: the rank part of m (56) is one byte swap of the
// bitboard, and the file part (7) together with it is a 180° rotation, i.e. walking the
// byte-swapped bitboard from the top with sq' = 63 − sq = LeadingZeros64 — so no bit
// reversal is computed.
func (p *PieceSquare) active(pos *board.Position, persp board.Color, dst []int) ([]int, bool) {
	k := pos.Pieces(persp, board.King)
	if k == 0 || k&(k-1) != 0 || persp > board.Black {
		return dst, false
	}
	ksq := k.First()
	m := p.kingMask(persp, ksq)
	base := p.kingBlockBase(m, ksq)
	// swap: the byte swap that leaves only a file part of 0 (ascending walk) or 7
	// (descending walk) to apply.
	swap := (m&56 != 0) != (m&7 != 0) // m = 56, or m = 7 = 56 ^ 63
	desc := m&7 != 0
	own, their := pos.ByColor(persp), pos.ByColor(persp^1)
	if swap {
		own, their = own.FlipRanks(), their.FlipRanks()
	}
	for r := board.Pawn; r <= board.King; r++ {
		rb := pos.ByRole(r)
		if swap {
			rb = rb.FlipRanks()
		}
		var b0, b1 uint64
		switch {
		case r < board.King:
			b0, b1 = uint64(rb&own), uint64(rb&their)
		case p.kind == PSQHalfKAv2hm:
			b0 = uint64(rb) // both kings share one plane
		default:
			return dst, true // HalfKP: kings are not features
		}
		if desc {
			for ; b0 != 0; b0 &^= 1 << (63 - bits.LeadingZeros64(b0)) {
				dst = append(dst, base+bits.LeadingZeros64(b0))
			}
			base += 64
			for ; b1 != 0; b1 &^= 1 << (63 - bits.LeadingZeros64(b1)) {
				dst = append(dst, base+bits.LeadingZeros64(b1))
			}
		} else {
			for ; b0 != 0; b0 &= b0 - 1 {
				dst = append(dst, base+bits.TrailingZeros64(b0))
			}
			base += 64
			for ; b1 != 0; b1 &= b1 - 1 {
				dst = append(dst, base+bits.TrailingZeros64(b1))
			}
		}
		base += 64
	}
	return dst, true
}

// kingMask is the orientation mask of perspective persp's squares when its own king stands on
// ksq: the perspective's fixed mask, with the files mirrored for FlipMirror (HalfKAv2_hm) when
// that king is on files a–d (Stockfish 15.1 half_ka_v2_hm.h, orient).
func (p *PieceSquare) kingMask(persp board.Color, ksq board.Square) board.Square {
	m := p.mask0[persp]
	if p.orient == FlipMirror && ksq&7 < 4 {
		m ^= 7
	}
	return m
}

// kingBlockBase is the index of the first piece feature of the king block of ksq under the
// orientation mask m; for HalfKP that is one past the block's DEAD feature, which opens each
// 641-feature king block.
func (p *PieceSquare) kingBlockBase(m, ksq board.Square) int {
	base := int(p.base[maskVariant(m)][ksq])
	if p.kind == PSQHalfKP {
		base++
	}
	return base
}

// QuietPair returns, for a move of one piece that is no king from one square to another
// (every quiet non-king move: dirty.N == 1), both perspectives' changes at once: feature
// add0 in and sub0 out of White's view, add1 in and sub1 out of Black's, in the position
// after the move. ok is false — and the indices meaningless — for every other move (a
// capture, castling, a promotion, a king move, a piece that is no feature of a view, an
// invalid dirty piece or square, not exactly one king of a colour where the index depends
// on it); then take Diff per perspective. Where ok is true, Diff(before, after, dirty,
// persp) returns exactly [add_persp] and [sub_persp] (TestQuietPairMatchesDiff). It is
// PieceSquare.QuietPair with the king squares of after (nnue.Accumulator.UpdateQuiet
// applies it to both perspectives in one kernel call; doc/benchmarks.md).
func (s *Set) QuietPair(after *board.Position, dirty *board.DirtyPieces) (add0, sub0, add1, sub1 int, ok bool) {
	p := s.psq
	if p == nil {
		return 0, 0, 0, 0, false
	}
	kings := [2]board.Square{board.NoSquare, board.NoSquare}
	if p.kingDep {
		w, b := uint64(after.Pieces(board.White, board.King)), uint64(after.Pieces(board.Black, board.King))
		if w == 0 || w&(w-1) != 0 || b == 0 || b&(b-1) != 0 {
			return 0, 0, 0, 0, false
		}
		kings = [2]board.Square{board.Square(bits.TrailingZeros64(w)), board.Square(bits.TrailingZeros64(b))}
	}
	return p.QuietPair(kings, dirty)
}

// QuietPair is Set.QuietPair for an engine's own board: kings[c] is the real square of
// colour c's king after the move (ignored where the set does not depend on it, ALL in the
// Flip, Rotate and Absolute orientations; ok is false when it is needed and invalid).
// add0/sub0 are White's feature in and out, add1/sub1 Black's; ok is false for every move
// that is not one non-king piece going from one valid square to another with a feature in
// both views, and then the caller takes AppendDiff per perspective.
func (p *PieceSquare) QuietPair(kings [2]board.Square, dirty *board.DirtyPieces) (add0, sub0, add1, sub1 int, ok bool) {
	if dirty == nil || dirty.N != 1 {
		return 0, 0, 0, 0, false
	}
	d := dirty.Pieces[0]
	pc := d.Piece
	// NoSquare is −1: one unsigned test rejects it and every other invalid square.
	if uint(pc-1) >= 12 || pc == p.kings[0] || pc == p.kings[1] || uint8(d.From)|uint8(d.To) >= 64 {
		return 0, 0, 0, 0, false
	}
	k0, k1 := 0, 0
	if p.kingDep {
		if uint8(kings[0])|uint8(kings[1]) >= 64 {
			return 0, 0, 0, 0, false
		}
		k0, k1 = int(kings[0]), int(kings[1])
	}
	v0, v1 := &p.quiet[0][k0&63], &p.quiet[1][k1&63]
	r0, r1 := &v0.tab[pc], &v1.tab[pc]
	a0, s0 := r0[d.To&63], r0[d.From&63]
	a1, s1 := r1[d.To&63], r1[d.From&63]
	if a0|s0|a1|s1 < 0 {
		return 0, 0, 0, 0, false
	}
	return v0.base + int(a0), v0.base + int(s0), v1.base + int(a1), v1.base + int(s1), true
}
