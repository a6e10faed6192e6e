package featureset

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
)

// Mobility as the thesis code computes it (thesis §6.4; thesis-models/README.md, code
// mobility.rs), for every piece of both colors whichever side is to move:
//   - start from the piece's attack set on the real occupancy; a pawn keeps only its
//     diagonal attacks onto enemy pieces and adds its single push if that square is empty
//     (no double push, no en passant, no castling);
//   - drop squares holding own pieces;
//   - keep a target only if, after really moving the piece there (a captured piece
//     disappears), the mover's king (re-read after the move) is not attacked;
//   - a color with no king or more than one king has no targets at all.

// mobCtx holds what the mobility of color c's pieces needs. Legality ("really move the
// piece and check the own king") is computed the way legal move generators do, which is
// equivalent for these moves (no en passant, no castling): a non-king piece must resolve a
// single check (checkMask) and stay on its pin line; a king target must not be attacked
// once the king has left its square. mobility_slow_test.go keeps the literal
// move-and-check version as the oracle.
type mobCtx struct {
	pos                  *board.Position
	c                    board.Color
	ksq                  board.Square
	occ, own, enemy      board.Bitboard
	eP, eN, eBQ, eRQ, eK board.Bitboard
	checkMask            board.Bitboard // targets that resolve check (all when not in check)
	pinned               board.Bitboard // own pieces pinned to the king
}

var (
	betweenBB [64][64]board.Bitboard // squares strictly between two aligned squares
	lineThru  [64][64]board.Bitboard // the whole line through two aligned squares
)

func init() {
	for a := board.Square(0); a < 64; a++ {
		for _, att := range [2]func(board.Square, board.Bitboard) board.Bitboard{board.RookAttacks, board.BishopAttacks} {
			for bb := att(a, 0); bb != 0; {
				b := bb.PopFirst()
				betweenBB[a][b] = att(a, board.SquareBB(b)) & att(b, board.SquareBB(a))
				lineThru[a][b] = att(a, 0)&att(b, 0) | board.SquareBB(a) | board.SquareBB(b)
			}
		}
	}
}

// newMobCtx returns false when c has no king or more than one (then no piece of c has
// any target).
func newMobCtx(pos *board.Position, c board.Color, x *mobCtx) bool {
	kings := pos.Pieces(c, board.King)
	if kings.Count() != 1 {
		return false
	}
	them := c.Other()
	*x = mobCtx{
		pos: pos, c: c, ksq: kings.First(),
		occ: pos.Occupied(), own: pos.ByColor(c), enemy: pos.ByColor(them),
		eP:  pos.Pieces(them, board.Pawn),
		eN:  pos.Pieces(them, board.Knight),
		eBQ: pos.Pieces(them, board.Bishop) | pos.Pieces(them, board.Queen),
		eRQ: pos.Pieces(them, board.Rook) | pos.Pieces(them, board.Queen),
		eK:  pos.Pieces(them, board.King),
	}
	k := x.ksq
	checkers := board.KnightAttacks(k)&x.eN | board.KingAttacks(k)&x.eK |
		board.PawnAttacks(c, k)&x.eP |
		board.BishopAttacks(k, x.occ)&x.eBQ | board.RookAttacks(k, x.occ)&x.eRQ
	switch {
	case checkers == 0:
		x.checkMask = ^board.Bitboard(0)
	case checkers&(checkers-1) == 0:
		s := checkers.First()
		x.checkMask = betweenBB[k][s] | checkers
	}
	for snipers := board.RookAttacks(k, 0)&x.eRQ | board.BishopAttacks(k, 0)&x.eBQ; snipers != 0; {
		s := snipers.PopFirst()
		if b := betweenBB[k][s] & x.occ; b != 0 && b&(b-1) == 0 && b&x.own != 0 {
			x.pinned |= b
		}
	}
	return true
}

// attacked reports whether square k is attacked by the enemy with occupancy o, ignoring
// enemy pieces outside keep (a captured piece).
func (x *mobCtx) attacked(k board.Square, o, keep board.Bitboard) bool {
	return board.KnightAttacks(k)&x.eN&keep != 0 || board.KingAttacks(k)&x.eK&keep != 0 ||
		board.PawnAttacks(x.c, k)&x.eP&keep != 0 ||
		board.BishopAttacks(k, o)&x.eBQ&keep != 0 || board.RookAttacks(k, o)&x.eRQ&keep != 0
}

// pseudo returns the piece's attack set (pawns: captures of enemy pieces plus the single
// push) minus own pieces.
func (x *mobCtx) pseudo(from board.Square, role board.Role) board.Bitboard {
	var t board.Bitboard
	switch role {
	case board.Pawn:
		t = board.PawnAttacks(x.c, from) & x.enemy
		push := int(from) + 8
		if x.c == board.Black {
			push = int(from) - 8
		}
		if push >= 0 && push < 64 && !x.occ.Has(board.Square(push)) {
			t |= board.SquareBB(board.Square(push))
		}
	case board.Knight:
		t = board.KnightAttacks(from)
	case board.Bishop:
		t = board.BishopAttacks(from, x.occ)
	case board.Rook:
		t = board.RookAttacks(from, x.occ)
	case board.Queen:
		t = board.QueenAttacks(from, x.occ)
	case board.King:
		t = board.KingAttacks(from)
	}
	return t &^ x.own
}

// targets returns the mobility targets of the piece of role on from (real squares).
func (x *mobCtx) targets(from board.Square, role board.Role) board.Bitboard {
	t := x.pseudo(from, role)
	if role != board.King {
		t &= x.checkMask
		if x.pinned.Has(from) {
			t &= lineThru[x.ksq][from]
		}
		return t
	}
	var safe board.Bitboard
	o := x.occ &^ board.SquareBB(from)
	for cand := t; cand != 0; {
		to := cand.PopFirst()
		toBB := board.SquareBB(to)
		if !x.attacked(to, o|toBB, ^toBB) {
			safe |= toBB
		}
	}
	return safe
}

// mobility sets out[role] to the union of the mobility targets of all color c's pieces of
// that role (real squares).
func mobility(pos *board.Position, c board.Color, out *[board.NumRoles]board.Bitboard) {
	*out = [board.NumRoles]board.Bitboard{}
	var x mobCtx
	if !newMobCtx(pos, c, &x) {
		return
	}
	for bb := x.own; bb != 0; {
		from := bb.PopFirst()
		role := pos.PieceAt(from).Role()
		out[role] |= x.targets(from, role)
	}
}

// pieceMobility returns the mobility targets of the piece on sq (none for an empty square).
func pieceMobility(pos *board.Position, sq board.Square) board.Bitboard {
	pc := pos.PieceAt(sq)
	var x mobCtx
	if pc == board.NoPiece || !newMobCtx(pos, pc.Color(), &x) {
		return 0
	}
	return x.targets(sq, pc.Role())
}

// mbBlock is MB (thesis §6.4, Table 6): (SQUARES × ROLES × COLORS) with
// P(⟨s, r, c⟩) = "a piece of role r and color c can move to s"; index
// (rank·8 + file)·12 + role·2 + color on the oriented board — rank-major squares, unlike
// ALL (thesis-models/README.md).
type mbBlock struct{ leaf }

// MB returns the mobility-bitset block: 768 features.
func MB(o Orientation) Block { return &mbBlock{newLeaf("mb", "MB", o, Flip, Squares, Roles, Colors)} }

// MaxActive: per color, pawns reach at most 24 squares, the king 8, the other four roles
// at most 64 each.
func (b *mbBlock) MaxActive() int { return 2 * (24 + 4*64 + 8) }

// RequiresRefresh is false: MB has no incremental path, but its diff is exact anyway.
func (b *mbBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

// activeSet sets bit i of set for every active feature i of pos seen from persp.
func (b *mbBlock) activeSet(pos *board.Position, persp board.Color, set *[12]uint64) {
	m := b.orient.Mask(pos, persp)
	var mob [board.NumRoles]board.Bitboard
	for c := board.White; c <= board.Black; c++ {
		mobility(pos, c, &mob)
		rc := int(c ^ persp)
		for r, bb := range mob {
			for bb != 0 {
				i := int(bb.PopFirst()^m)*12 + r*2 + rc
				set[i>>6] |= 1 << (i & 63)
			}
		}
	}
}

func (b *mbBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	var set [12]uint64
	b.activeSet(pos, persp, &set)
	return appendBits(dst, set[:], off)
}

// AppendDiff recomputes both positions' features (a move changes mobility all over the
// board) as 768-bit sets and lists after &^ before and before &^ after: the same ascending
// lists as the generic diff of the two active lists, without listing the unchanged features.
func (b *mbBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	var sb, sa, add, rem [12]uint64
	b.activeSet(before, persp, &sb)
	b.activeSet(after, persp, &sa)
	for i := range sa {
		add[i] = sa[i] &^ sb[i]
		rem[i] = sb[i] &^ sa[i]
	}
	return appendBits(added, add[:], off), appendBits(removed, rem[:], off)
}

// Mobility-count buckets of MC (thesis §6.4): counts 0 … mcCount[r] per role, the last
// bucket meaning "mcCount[r] or more"; mcOffset[r] is the first element of role r.
var (
	mcCount  = [board.NumRoles]int{8, 15, 16, 25, 25, 8}
	mcOffset = [board.NumRoles]int{0, 9, 25, 42, 68, 94}
)

func mobilityLabels() []string {
	var l []string
	for r := 0; r < board.NumRoles; r++ {
		for n := 0; n <= mcCount[r]; n++ {
			s := fmt.Sprintf("%s %d", board.Role(r), n)
			if n == mcCount[r] && r != int(board.King) {
				s += "+"
			}
			l = append(l, s)
		}
	}
	return l
}

// mcBlock is MC (thesis §6.4, Table 6): (MOBILITY × COLORS) where for each (role, color)
// exactly one feature is active, the bucket min(popcount(union of targets), CNT[role]);
// index (OFF[role] + bucket)·2 + color with CNT = [8,15,16,25,25,8], OFF = [0,9,25,42,68,94].
type mcBlock struct{ leaf }

// MC returns the mobility-count block: 206 features.
func MC(o Orientation) Block { return &mcBlock{newLeaf("mc", "MC", o, Flip, MobilityCounts, Colors)} }

// MaxActive is 12: one count per (role, color).
func (b *mcBlock) MaxActive() int { return 12 }

func (b *mcBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.kingRefresh(d, p)
}

func (b *mcBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	var set [4]uint64
	var mob [board.NumRoles]board.Bitboard
	for c := board.White; c <= board.Black; c++ {
		mobility(pos, c, &mob)
		rc := int(c ^ persp)
		for r, bb := range mob {
			i := (mcOffset[r]+min(bb.Count(), mcCount[r]))*2 + rc
			set[i>>6] |= 1 << (i & 63)
		}
	}
	return appendBits(dst, set[:], off)
}

// AppendDiff recomputes.
func (b *mcBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	return genericDiff(b, before, after, persp, off, added, removed)
}
