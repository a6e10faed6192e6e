package featureset

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// ThreatVariant parameterizes the FullThreats block: which (attacker role, attacked role)
// pairs are features, and in which slot. Stockfish 18 and Stockfish 19 use two values of
// it (ThreatsSF18, ThreatsSF19); everything else — the orientation, the index formula,
// blocked rays, mutual same-type pairs counted once — is common.
type ThreatVariant struct {
	// Name is the block's spec name ("threats"; Parse knows the two predefined variants
	// only), Label the Describe prefix ("FT").
	Name, Label string
	// Map[a][t] is the slot of attacked role t among attacker role a's targets of one
	// color (0, 1, …), or −1 when a piece of role a attacking one of role t is no feature.
	// The non-negative entries of a row must be 0 … k−1, each once; the attacker then has
	// 2k valid targets (k per color). A row without entries means the role never attacks
	// (kings in Stockfish 19); a column without entries is never a target, only a blocker.
	// Source: Stockfish full_threats.h FullThreats::map.
	Map [board.NumRoles][board.NumRoles]int8
}

// ThreatsSF19 is Stockfish 19's FullThreats variant (59,808 features): pawns attack only
// knights and rooks (pawn–pawn relations are PawnPairs' job), knights and queens attack
// P N B R Q, bishops and rooks attack P N B R; kings neither attack nor are attacked
// (they still block rays). Source: Stockfish 19 (dev 2026-08) src/nnue/features/full_threats.h,
// ../shared/nets/README.md "FullThreats v2".
var ThreatsSF19 = ThreatVariant{
	Name: "threats", Label: "FT",
	Map: [6][6]int8{
		{-1, 0, -1, 1, -1, -1},
		{0, 1, 2, 3, 4, -1},
		{0, 1, 2, 3, -1, -1},
		{0, 1, 2, 3, -1, -1},
		{0, 1, 2, 3, 4, -1},
		{-1, -1, -1, -1, -1, -1},
	},
}

// ThreatsSF18 is Stockfish 18's FullThreats variant (79,856 features, "Full_Threats(Friend)",
// hash 0x8F234CB8): every role attacks, pawns hit P N R K, knights and queens everything,
// bishops and rooks everything but queens, kings P N B R; kings are targets.
// Source: Stockfish 18 (tag sf_18) src/nnue/features/full_threats.h.
var ThreatsSF18 = ThreatVariant{
	Name: "threats18", Label: "FT18",
	Map: [6][6]int8{
		{0, 1, -1, 2, -1, -1},
		{0, 1, 2, 3, 4, 5},
		{0, 1, 2, 3, -1, 4},
		{0, 1, 2, 3, -1, 4},
		{0, 1, 2, 3, 4, 5},
		{0, 1, 2, 3, -1, -1},
	},
}

// threatBlock is FullThreats for one ThreatVariant. Pieces are numbered relative to the
// perspective, rel = (color ^ persp)·6 + role (0–5 own P…K, 6–11 their P…K), and squares
// are oriented with threatMask.
type threatBlock struct {
	v     ThreatVariant
	size  int
	maxA  int
	tmask [board.NumRoles]uint8 // target roles of each attacker role (bit set)
	// tsel[a][t]: all ones where t is a target role of attacker role a, else 0 (targetsOf)
	tsel    [board.NumRoles][board.NumRoles]board.Bitboard
	attRole uint8                  // roles that attack something
	np      [12]int                // Σ_s |A_X(s)| (pawns: ranks 2–7 only)
	base    [12]int                // first index of attacker rel
	valid   [12]int                // 2·(number of target roles)
	off     [12][64]int32          // Σ_{s'<s} |A_X(s')|
	att     [12][64]board.Bitboard // empty-board attacks of rel on oriented squares
	lut     [12][12][2]int32       // BASE + slot·NP, −1 = none; [.][.][from' < to']
}

// FullThreats returns the FullThreats block of variant v: one feature per (attacker X on
// from, attacked piece Y on to) for every non-excluded pair where X attacks the occupied
// square to (targets of either color: defences count; a slider's ray stops at the first
// occupied square, kings included; no x-rays). With squares oriented by
// o = (own king on files e–h ? 7 : 0) ^ 56·persp — the horizontal mirror is the opposite of
// HalfKAv2_hm's — f' = from^o, t' = to^o and relative pieces X', Y' (own first):
//
//	idx = BASE[X'] + (color(Y')·valid[X']/2 + Map[X'][Y'])·NP[X'] + OFF[X'][f'] + |A_X'(f') ∩ [0, t')|
//
// where A_X(s) is X's empty-board attack set (pawns: the two capture diagonals of their
// color), OFF[X][s] = Σ_{s'<s} |A_X(s')| (pawns: squares on ranks 2–7 only), NP[X] the
// total and BASE the running sum of valid·NP over own P…K then their P…K. A pair of the
// same role (not both pawns of one color) is a feature only when f' > t', so a mutual
// attack of two same-type pieces counts once. Source: Stockfish full_threats.cpp
// make_index / init_threat_offsets / init_index_luts; ../shared/nets/README.md.
//
// MaxActive: a slider hits at most one piece per ray, so every attacker has at most 8
// targets: 8 × 30 (8 × 32 when kings attack). An own-king move across the d/e file
// boundary changes the orientation and requires a refresh. It returns an error when a
// row of v.Map is not a permutation of 0 … k−1 (with −1 gaps) or v.Name is empty.
func FullThreats(v ThreatVariant) (Block, error) {
	if v.Name == "" || v.Label == "" {
		return nil, fmt.Errorf("featureset: threat variant without a name")
	}
	b := &threatBlock{v: v}
	for a := 0; a < board.NumRoles; a++ {
		k := 0
		var seen uint8
		for t := 0; t < board.NumRoles; t++ {
			x := v.Map[a][t]
			if x < -1 || x >= board.NumRoles {
				return nil, fmt.Errorf("featureset: threat map[%d][%d] = %d out of range", a, t, x)
			}
			if x >= 0 {
				if seen&(1<<x) != 0 {
					return nil, fmt.Errorf("featureset: threat map row %d uses slot %d twice", a, x)
				}
				seen |= 1 << x
				b.tmask[a] |= 1 << t
				b.tsel[a][t] = ^board.Bitboard(0)
				k++
			}
		}
		if seen != uint8(1<<k-1) {
			return nil, fmt.Errorf("featureset: threat map row %d: slots are not 0…%d", a, k-1)
		}
		if k > 0 {
			b.attRole |= 1 << a
		}
		b.valid[a], b.valid[a+6] = 2*k, 2*k
	}
	for rel := 0; rel < 12; rel++ {
		role := board.Role(rel % 6)
		n := 0
		for s := board.Square(0); s < 64; s++ {
			b.off[rel][s] = int32(n)
			var a board.Bitboard
			switch role {
			case board.Pawn:
				if s.Rank() >= 1 && s.Rank() <= 6 {
					a = board.PawnAttacks(board.Color(rel/6), s)
				}
			default:
				a = board.Attacks(board.MakePiece(board.White, role), s, 0)
			}
			b.att[rel][s] = a
			n += a.Count()
		}
		b.np[rel] = n
		b.base[rel] = b.size
		b.size += b.valid[rel] * n
	}
	for x := 0; x < 12; x++ {
		for y := 0; y < 12; y++ {
			slot := v.Map[x%6][y%6]
			if slot < 0 {
				b.lut[x][y] = [2]int32{-1, -1}
				continue
			}
			f := int32(b.base[x] + ((y/6)*b.valid[x]/2+int(slot))*b.np[x])
			b.lut[x][y][0] = f
			b.lut[x][y][1] = f
			if x%6 == y%6 && (x != y || x%6 != int(board.Pawn)) {
				b.lut[x][y][1] = -1
			}
		}
	}
	nAtt := 30
	if b.attRole&(1<<board.King) != 0 {
		nAtt = 32
	}
	b.maxA = 8 * nAtt
	return b, nil
}

func mustThreats(v ThreatVariant) Block {
	b, err := FullThreats(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (b *threatBlock) Name() string      { return b.v.Name }
func (b *threatBlock) key() string       { return fmt.Sprint("threats:", b.v.Name, b.v.Map) }
func (b *threatBlock) Size() int         { return b.size }
func (b *threatBlock) MaxActive() int    { return b.maxA }
func (b *threatBlock) Dims() []Dimension { return nil }

// threatMask is the square XOR mask of Stockfish 18/19's threat and pawn-pair features:
// 56·persp, and 7 more when the perspective's own king stands on files e–h (the opposite of
// FlipMirror's mirror; Stockfish FullThreats::OrientTBL). No mirror unless the perspective
// has exactly one king.
func threatMask(pos *ThreatBoard, persp board.Color) board.Square {
	m := board.Square(56 * int(persp))
	if k := pos.king(persp); k != board.NoSquare && k.File() >= 4 {
		m ^= 7
	}
	return m
}

// threatRefresh reports whether the move changes the threat orientation of persp (own
// king crossing between files a–d and e–h), or is unknown.
func threatRefresh(d *board.DirtyPieces, persp board.Color) bool {
	if !dirtyOK(d) {
		return true
	}
	k := board.MakePiece(persp, board.King)
	for _, p := range d.Pieces[:d.N] {
		if p.Piece == k && (p.From == board.NoSquare || p.To == board.NoSquare || (p.From.File() >= 4) != (p.To.File() >= 4)) {
			return true
		}
	}
	return false
}

// RequiresRefresh is true only when the own king crosses the d/e boundary (the mirror
// changes and every feature moves).
func (b *threatBlock) RequiresRefresh(d *board.DirtyPieces, persp board.Color) bool {
	return threatRefresh(d, persp)
}

// relPiece[persp][pc] is (color ^ persp)·6 + role of a valid piece (0 for NoPiece, never
// looked up: targets are occupied squares).
var relPiece = func() (t [2][13]uint8) {
	for p := board.Piece(1); p <= 12; p++ {
		t[board.White][p] = uint8(int(p.Color())*6 + int(p.Role()))
		t[board.Black][p] = uint8(int(p.Color()^1)*6 + int(p.Role()))
	}
	return t
}()

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// targetsOf returns, per attacker role, the occupied squares it may threaten.
// Branch-free: a fixed AND-OR over the role bitboards per attacker role (tsel), not a loop
// over each role's target bits.
func (b *threatBlock) targetsOf(pos *ThreatBoard) (t [board.NumRoles]board.Bitboard) {
	by := &pos.ByRole
	for a := range t {
		sel := &b.tsel[a]
		var v board.Bitboard
		for r := range by {
			v |= by[r] & sel[r]
		}
		t[a] = v
	}
	return t
}

// appendTo appends (with off) the features of piece pc on from attacking the squares of
// to (already restricted to its targets).
func (b *threatBlock) appendTo(pos *ThreatBoard, persp board.Color, m board.Square, pc board.Piece, from board.Square, to board.Bitboard, off int, dst []int) []int {
	x := int(pc.Color()^persp)*6 + int(pc.Role())
	fo := from ^ m
	if pc.Role() == board.Pawn && (fo.Rank() == 0 || fo.Rank() == 7) {
		return dst // not a legal pawn square: no feature
	}
	lut := &b.lut[x]
	base := int(b.off[x][fo])
	att := uint64(b.att[x][fo])
	rel := &relPiece[persp]
	for to != 0 {
		t := to.PopFirst()
		to := t ^ m
		l := lut[rel[pos.pieceAt(t)]][b2i(fo < to)]
		if l >= 0 {
			dst = append(dst, off+int(l)+base+bits.OnesCount64(att&(1<<uint(to)-1)))
		}
	}
	return dst
}

// appendFrom appends (with off) every feature of the piece on from (nothing when empty or
// not an attacker); tb is targetsOf(pos).
func (b *threatBlock) appendFrom(pos *ThreatBoard, persp board.Color, m board.Square, from board.Square, occ board.Bitboard, tb *[board.NumRoles]board.Bitboard, off int, dst []int) []int {
	pc := pos.pieceAt(from)
	if pc == board.NoPiece || b.attRole&(1<<pc.Role()) == 0 {
		return dst
	}
	return b.appendTo(pos, persp, m, pc, from, board.Attacks(pc, from, occ)&tb[pc.Role()], off, dst)
}

func (b *threatBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	var v ThreatBoard
	v.SetPosition(pos)
	return b.appendActive(&v, persp, off, dst)
}

// appendActive is AppendActive on the board view.
func (b *threatBlock) appendActive(pos *ThreatBoard, persp board.Color, off int, dst []int) []int {
	m := threatMask(pos, persp)
	occ := pos.occupied()
	tb := b.targetsOf(pos)
	start := len(dst)
	for r := board.Pawn; r <= board.King; r++ {
		if b.attRole&(1<<r) == 0 {
			continue
		}
		for bb := pos.ByRole[r]; bb != 0; {
			dst = b.appendFrom(pos, persp, m, bb.PopFirst(), occ, &tb, off, dst)
		}
	}
	sortInts(dst[start:])
	return dst
}

// attackersTo returns the pieces of pos (either color) of attacking roles that attack s
// with occupancy occ, whatever stands on s.
func (b *threatBlock) attackersTo(pos *ThreatBoard, s board.Square, occ board.Bitboard) board.Bitboard {
	var a board.Bitboard
	ar := b.attRole
	if ar&(1<<board.Pawn) != 0 {
		a |= board.PawnAttacks(board.White, s)&pos.pieces(board.Black, board.Pawn) |
			board.PawnAttacks(board.Black, s)&pos.pieces(board.White, board.Pawn)
	}
	if ar&(1<<board.Knight) != 0 {
		a |= board.KnightAttacks(s) & pos.ByRole[board.Knight]
	}
	if ar&(1<<board.King) != 0 {
		a |= board.KingAttacks(s) & pos.ByRole[board.King]
	}
	q := pos.ByRole[board.Queen]
	if ar&(1<<board.Queen) == 0 {
		q = 0
	}
	bq, rq := q, q
	if ar&(1<<board.Bishop) != 0 {
		bq |= pos.ByRole[board.Bishop]
	}
	if ar&(1<<board.Rook) != 0 {
		rq |= pos.ByRole[board.Rook]
	}
	if bq != 0 {
		a |= board.BishopAttacks(s, occ) & bq
	}
	if rq != 0 {
		a |= board.RookAttacks(s, occ) & rq
	}
	return a
}

// sortInts sorts a short slice ascending (insertion sort; the lists are ≤ 256 long and
// nearly sorted by attacker).
func sortInts(t []int) {
	for i := 1; i < len(t); i++ {
		v := t[i]
		j := i
		for j > 0 && t[j-1] > v {
			t[j] = t[j-1]
			j--
		}
		t[j] = v
	}
}

// decode returns the (attacker rel, from', attacked rel, to') of slot i, ignoring the
// same-type exclusion (a slot excluded for from' < to' still decodes).
func (b *threatBlock) decode(i int) (x int, f board.Square, y int, t board.Square, ok bool) {
	if i < 0 || i >= b.size {
		return
	}
	x = 11
	for x > 0 && (b.base[x] > i || b.valid[x] == 0) {
		x--
	}
	r := i - b.base[x]
	if b.valid[x] == 0 {
		return
	}
	k := r / b.np[x]
	r %= b.np[x]
	half := b.valid[x] / 2
	col, slot := k/half, k%half
	yr := -1
	for t := 0; t < board.NumRoles; t++ {
		if int(b.v.Map[x%6][t]) == slot {
			yr = t
		}
	}
	if yr < 0 {
		return
	}
	y = col*6 + yr
	f = 63
	for f > 0 && int(b.off[x][f]) > r {
		f--
	}
	r -= int(b.off[x][f])
	a := b.att[x][f]
	for ; r > 0; r-- {
		a &= a - 1
	}
	if a == 0 {
		return
	}
	return x, f, y, a.First(), true
}

func relLabel(rel int) string {
	c := "own"
	if rel >= 6 {
		c = "their"
	}
	return board.Role(rel%6).String() + ", " + c
}

// Describe returns "FT[from, attacker role, own|their, to, attacked role, own|their]" with
// oriented squares, e.g. "FT[f3, knight, own, e5, pawn, their]".
func (b *threatBlock) Describe(i int) string {
	x, f, y, t, ok := b.decode(i)
	if !ok {
		return fmt.Sprintf("%s[?%d]", b.v.Label, i)
	}
	return fmt.Sprintf("%s[%s, %s, %s, %s]", b.v.Label, f, relLabel(x), t, relLabel(y))
}

// parseRel parses "role, own|their" elements.
func parseRel(role, col string) (int, bool) {
	r := -1
	for k := 0; k < board.NumRoles; k++ {
		if strings.EqualFold(role, board.Role(k).String()) {
			r = k
		}
	}
	switch {
	case r < 0:
		return 0, false
	case strings.EqualFold(col, "own"):
		return r, true
	case strings.EqualFold(col, "their"):
		return r + 6, true
	}
	return 0, false
}

func splitDesc(desc, label string, n int) ([]string, error) {
	desc = strings.TrimSpace(desc)
	if len(desc) < len(label)+2 || !strings.EqualFold(desc[:len(label)], label) ||
		desc[len(label)] != '[' || desc[len(desc)-1] != ']' {
		return nil, fmt.Errorf("featureset: %q is not a %s feature", desc, label)
	}
	parts := strings.Split(desc[len(label)+1:len(desc)-1], ",")
	if len(parts) != n {
		return nil, fmt.Errorf("featureset: %q: want %d elements, got %d", desc, n, len(parts))
	}
	for k := range parts {
		parts[k] = strings.TrimSpace(parts[k])
	}
	return parts, nil
}

// Lookup is the inverse of Describe.
func (b *threatBlock) Lookup(desc string) (int, error) {
	p, err := splitDesc(desc, b.v.Label, 6)
	if err != nil {
		return 0, err
	}
	f, err1 := board.ParseSquare(strings.ToLower(p[0]))
	t, err2 := board.ParseSquare(strings.ToLower(p[3]))
	x, ok1 := parseRel(p[1], p[2])
	y, ok2 := parseRel(p[4], p[5])
	if err1 != nil || err2 != nil || !ok1 || !ok2 || !b.att[x][f].Has(t) || b.v.Map[x%6][y%6] < 0 {
		return 0, fmt.Errorf("featureset: %q names no %s feature", desc, b.v.Label)
	}
	i := int(b.lut[x][y][0]) + int(b.off[x][f]) + bits.OnesCount64(uint64(b.att[x][f])&(1<<uint(t)-1))
	return i, nil
}

// Dead features of FullThreats.
const (
	DeadMutualLower = "same-type pair from the lower square (a mutual pair counts once, from the higher square)"
	DeadPawnOnBack  = "attacked pawn on rank 1 or 8"
)

func (b *threatBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	for i := 0; i < b.size; i++ {
		x, f, y, t, ok := b.decode(i)
		switch {
		case !ok:
		case x%6 == y%6 && (x != y || x%6 != int(board.Pawn)) && f < t:
			dst = append(dst, DeadFeature{off + i, DeadMutualLower})
		case y%6 == int(board.Pawn) && (t.Rank() == 0 || t.Rank() == 7):
			dst = append(dst, DeadFeature{off + i, DeadPawnOnBack})
		}
	}
	return dst
}

func init() {
	register("threats", "FT, 59808: Stockfish 19 FullThreats (attacker, from, attacked, to)", func(Orientation) Block { return mustThreats(ThreatsSF19) })
	register("threats18", "FT18, 79856: Stockfish 18 FullThreats (kings attack and are attacked)", func(Orientation) Block { return mustThreats(ThreatsSF18) })
}
