package featureset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// PiecePair is an unordered pair of PIECE (ALL) features: two (oriented square, role,
// own/their) tuples, each as its ALL index (file-major: (file·8 + rank)·12 + role·2 +
// color), A < B.
type PiecePair struct{ A, B int }

// topPairsBlock is the draft's TopPP (seed 004 §2.4.6, §6.5): a chosen subset of
// PIECE × PIECE (768² = 589,824 pairs); feature k is active when both pieces of pair k are
// on the board.
type topPairsBlock struct {
	name  string
	pairs []PiecePair
	o     Orientation
	idx   map[PiecePair]int
	bySq  [64][]int32 // pairs with a piece on this oriented square
}

// TopPairs returns a TopPP block named name (a spec name for Name; register nothing) over
// the given pairs in order: feature k is active iff both ALL features of pairs[k] are
// active from the perspective. It returns an error for no pairs, a pair with A ≥ B, an
// index outside 0 … 767, or a pair given twice. At most len(pairs) are active; Diff
// recomputes (cheap: two squares per pair). Source: seed 004 (thesis draft) §2.4.6 "Half-Top
// (PP)", §6.5 "Top P: a subset of PP (589824)".
func TopPairs(name string, pairs []PiecePair, o Orientation) (Block, error) {
	if len(pairs) == 0 {
		return nil, fmt.Errorf("featureset: TopPP %q without pairs", name)
	}
	b := &topPairsBlock{name: name, pairs: slices.Clone(pairs), o: o, idx: map[PiecePair]int{}}
	for k, p := range pairs {
		if p.A < 0 || p.B >= 768 || p.A >= p.B {
			return nil, fmt.Errorf("featureset: TopPP pair %d (%d, %d) is not two ALL features in order", k, p.A, p.B)
		}
		if _, dup := b.idx[p]; dup {
			return nil, fmt.Errorf("featureset: TopPP pair (%d, %d) given twice", p.A, p.B)
		}
		b.idx[p] = k
		sa, sb := allSquare(p.A), allSquare(p.B)
		b.bySq[sa] = append(b.bySq[sa], int32(k))
		if sb != sa {
			b.bySq[sb] = append(b.bySq[sb], int32(k))
		}
	}
	return b, nil
}

// ChooseTopPairs returns the k most frequent unordered pairs of distinct ALL features
// active together over the positions and both perspectives (orientation o), most frequent
// first, ties by ascending (A, B): the statistical selection of the draft's TopPP. It
// counts in a 768×768 table (2.4 MB) and takes O(positions · 32²) time.
func ChooseTopPairs(positions []board.Position, k int, o Orientation) []PiecePair {
	all := All(o)
	count := make([]int32, 768*768)
	var buf []int
	for i := range positions {
		for c := board.White; c <= board.Black; c++ {
			buf = all.AppendActive(&positions[i], c, 0, buf[:0])
			for x := 0; x < len(buf); x++ {
				for y := x + 1; y < len(buf); y++ {
					count[buf[x]*768+buf[y]]++
				}
			}
		}
	}
	var out []PiecePair
	for i, n := range count {
		if n > 0 {
			out = append(out, PiecePair{i / 768, i % 768})
		}
	}
	slices.SortStableFunc(out, func(a, b PiecePair) int {
		return int(count[b.A*768+b.B] - count[a.A*768+a.B])
	})
	return out[:min(k, len(out))]
}

func (b *topPairsBlock) Name() string {
	if b.o != Flip {
		return b.name + "@" + b.o.String()
	}
	return b.name
}
func (b *topPairsBlock) key() string       { return "toppp:" + b.name + "@" + b.o.String() }
func (b *topPairsBlock) Size() int         { return len(b.pairs) }
func (b *topPairsBlock) MaxActive() int    { return len(b.pairs) }
func (b *topPairsBlock) Dims() []Dimension { return nil }

// Orientation returns the block's orientation.
func (b *topPairsBlock) Orientation() Orientation { return b.o }

func (b *topPairsBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return b.o.KingDependent() && (d == nil || d.KingMoved(p))
}

// allSquare returns the oriented square of ALL feature i = (file·8 + rank)·12 + role·2 + color.
func allSquare(i int) board.Square { return board.NewSquare(i/96, i/12%8) }

// allActive reports whether ALL feature i is active.
func allActive(pos *board.Position, persp board.Color, m board.Square, i int) bool {
	sq := allSquare(i) ^ m
	pc := pos.PieceAt(sq)
	return pc != board.NoPiece && int(pc.Role()) == i%12/2 && int(pc.Color()^persp) == i%2
}

func (b *topPairsBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	m := b.o.Mask(pos, persp)
	for k, p := range b.pairs {
		if allActive(pos, persp, m, p.A) && allActive(pos, persp, m, p.B) {
			dst = append(dst, off+k)
		}
	}
	return dst
}

// AppendDiff is the DirtyPieces fast path: only pairs with a piece on a dirty square can
// change; each is evaluated before and after. It recomputes when the orientation changes.
func (b *topPairsBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	m := b.o.Mask(before, persp)
	if !dirtyOK(dirty) || m != b.o.Mask(after, persp) {
		return genericDiff(b, before, after, persp, off, added, removed)
	}
	var s board.Bitboard
	for _, d := range dirty.Pieces[:dirty.N] {
		if d.From != board.NoSquare {
			s |= board.SquareBB(d.From ^ m)
		}
		if d.To != board.NoSquare {
			s |= board.SquareBB(d.To ^ m)
		}
	}
	var done board.Bitboard // dirty squares whose pairs are handled
	for s != 0 {
		sq := s.PopFirst()
		for _, k := range b.bySq[sq] {
			p := b.pairs[k]
			if done.Has(allSquare(p.A)) || done.Has(allSquare(p.B)) {
				continue // handled with the pair's other dirty square
			}
			was := allActive(before, persp, m, p.A) && allActive(before, persp, m, p.B)
			is := allActive(after, persp, m, p.A) && allActive(after, persp, m, p.B)
			switch {
			case was && !is:
				removed = append(removed, off+int(k))
			case is && !was:
				added = append(added, off+int(k))
			}
		}
		done |= board.SquareBB(sq)
	}
	return added, removed
}

// Describe returns "TOPPP[ALL[…], ALL[…]]".
func (b *topPairsBlock) Describe(i int) string {
	if i < 0 || i >= len(b.pairs) {
		return fmt.Sprintf("TOPPP[?%d]", i)
	}
	all := All(b.o)
	return "TOPPP[" + all.Describe(b.pairs[i].A) + ", " + all.Describe(b.pairs[i].B) + "]"
}

func (b *topPairsBlock) Lookup(desc string) (int, error) {
	d := strings.TrimSpace(desc)
	bad := fmt.Errorf("featureset: %q names no feature of %s", desc, b.name)
	if !strings.HasPrefix(strings.ToUpper(d), "TOPPP[") || !strings.HasSuffix(d, "]") {
		return 0, bad
	}
	inner := d[len("TOPPP[") : len(d)-1]
	j := strings.Index(inner, "], ")
	if j < 0 {
		return 0, bad
	}
	all := All(b.o)
	x, err1 := all.Lookup(inner[:j+1])
	y, err2 := all.Lookup(inner[j+3:])
	if err1 != nil || err2 != nil {
		return 0, bad
	}
	k, ok := b.idx[PiecePair{min(x, y), max(x, y)}]
	if !ok {
		return 0, bad
	}
	return k, nil
}

// DefaultTopPairs are the 64 most frequent pairs of ALL features (orientation Flip) over
// the 6,000 positions of ../shared/data/positions.epd, both perspectives
// (ChooseTopPairs(positions, 64, Flip); TestTopPPDefault recomputes them). The draft's
// Table 1 gives TopPP 64 features.
var DefaultTopPairs = []PiecePair{
	{684, 745}, {492, 553}, {12, 73}, {492, 745}, {553, 684}, {492, 684}, {553, 745}, {6, 91},
	{12, 108}, {73, 169}, {12, 684}, {73, 745}, {12, 745}, {73, 684}, {6, 108}, {91, 169},
	{6, 745}, {91, 684}, {588, 745}, {649, 684}, {6, 553}, {91, 492}, {6, 684}, {91, 745},
	{6, 73}, {12, 91}, {6, 492}, {91, 553}, {6, 12}, {73, 91}, {108, 684}, {169, 745},
	{492, 649}, {553, 588}, {12, 169}, {73, 108}, {588, 684}, {649, 745}, {12, 553}, {73, 492},
	{12, 492}, {73, 553}, {492, 588}, {553, 649}, {6, 169}, {91, 108}, {108, 745}, {169, 684},
	{108, 553}, {169, 492}, {108, 492}, {169, 553}, {6, 649}, {91, 588}, {108, 169}, {12, 588},
	{73, 649}, {12, 649}, {73, 588}, {588, 649}, {6, 588}, {91, 649}, {108, 649}, {169, 588},
}

func init() {
	register("toppp", "TOPPP, 64: the 64 most frequent PIECE×PIECE pairs of positions.epd (draft §2.4.6)", func(o Orientation) Block {
		b, err := TopPairs("toppp", DefaultTopPairs, o)
		if err != nil {
			panic(err)
		}
		return b
	})
}
