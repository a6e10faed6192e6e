package featureset

import (
	"iter"
	"slices"

	"github.com/nnuekit/nnuekit/board"
)

// DeadFeature is a feature no legal position can activate (thesis §3.5), with the rule
// that kills it.
type DeadFeature struct {
	Index  int
	Reason string
}

// Reasons used by DeadFeatures.
const (
	DeadPawnBackRank  = "pawn on rank 1 or 8"
	DeadTwoKings      = "pair of two kings of one color (one king per side)"
	DeadPawnTarget    = "pawn target behind the pawn's start (own pawns move up, theirs down)"
	DeadMirroredKing  = "own king on files a-d after the horizontal mirror"
	DeadKingElsewhere = "own king not on the king square"
	DeadOnKingSquare  = "another piece on the own king's square"
	DeadKingsAdjacent = "enemy king next to the own king"
)

// deadLister is implemented by blocks that know dead-feature rules.
type deadLister interface {
	appendDead(off int, dst []DeadFeature) []DeadFeature
}

// DeadFeatures returns, in ascending index order, the features of s that no legal
// position can activate, by rule (thesis §3.5 names the pawns on the last rank; here both
// back ranks, since pawns never stand on their own first rank either). The list is not
// claimed to be complete: features no rule covers may still never occur. It is
// slices.Collect(s.Dead()): memory is the result itself (24 bytes per dead feature, e.g.
// 0.5 GB for ka*(ph+pv)); use Dead to stream or DeadCount to count without a list.
func (s *Set) DeadFeatures() []DeadFeature {
	return slices.Collect(s.Dead())
}

// Dead streams the features of DeadFeatures, in ascending index order, each once (with
// the first rule that kills it: a factor's rule before the product's king rules). Memory
// is bounded by the dead lists of the product factors that are leaves (a few thousand
// entries), not by the output: ka*(ph+pv) (21 million dead features) streams in a few
// MB.
func (s *Set) Dead() iter.Seq[DeadFeature] {
	return func(yield func(DeadFeature) bool) { deadSeq(s.root, 0, yield) }
}

// DeadCount returns len(s.DeadFeatures()) without building the list.
func (s *Set) DeadCount() int {
	n := 0
	deadSeq(s.root, 0, func(DeadFeature) bool { n++; return true })
	return n
}

// deadSeq yields b's dead features (plus off) in ascending index order, each once; it
// returns false when yield asked to stop.
func deadSeq(b Block, off int, yield func(DeadFeature) bool) bool {
	switch b := b.(type) {
	case *sumBlock:
		for k, p := range b.parts {
			if !deadSeq(p, off+b.offs[k], yield) {
				return false
			}
		}
		return true
	case *productBlock:
		return b.deadSeq(off, yield)
	case deadLister:
		d := b.appendDead(off, nil)
		slices.SortStableFunc(d, func(a, b DeadFeature) int { return a.Index - b.Index })
		for i, x := range d {
			if i > 0 && x.Index == d[i-1].Index {
				continue
			}
			if !yield(x) {
				return false
			}
		}
	}
	return true
}

// smallDead bounds the dead list of a product factor kept in memory; a factor with more
// is streamed again for each row instead.
const smallDead = 1 << 16

// factorDead returns f's dead list when it has at most smallDead entries, else nil and
// false.
func factorDead(f Block) ([]DeadFeature, bool) {
	var d []DeadFeature
	ok := deadSeq(f, 0, func(x DeadFeature) bool {
		d = append(d, x)
		return len(d) <= smallDead
	})
	if !ok {
		return nil, false
	}
	return d, true
}

// A product's feature (i, j) — index off + i·|B| + j — is dead when A's feature i or B's
// feature j is dead; KSQ × ALL-like blocks with the same orientation add the consistency
// rules between the king square and the pieces. Rows are produced one at a time.
func (p *productBlock) deadSeq(off int, yield func(DeadFeature) bool) bool {
	na, nb := p.a.Size(), p.b.Size()
	// A's dead features, walked alongside the rows
	deadA, smallA := factorDead(p.a)
	var nextA func() (DeadFeature, bool)
	if smallA {
		k := 0
		nextA = func() (DeadFeature, bool) {
			if k == len(deadA) {
				return DeadFeature{}, false
			}
			k++
			return deadA[k-1], true
		}
	} else {
		next, stop := iter.Pull(func(y func(DeadFeature) bool) { deadSeq(p.a, 0, y) })
		defer stop()
		nextA = next
	}
	deadB, smallB := factorDead(p.b)
	k, ok1 := p.a.(*kingBlock)
	l, ok2 := p.b.(*lineBlock)
	kingRules := ok1 && ok2 && l.kind == lineSquare && k.orient == l.orient && k.identity()
	var row []DeadFeature // the current row's dead entries of B and of the king rules
	curA, haveA := nextA()
	for i := 0; i < na; i++ {
		base := off + i*nb
		if haveA && curA.Index == i {
			for j := 0; j < nb; j++ {
				if !yield(DeadFeature{base + j, curA.Reason}) {
					return false
				}
			}
			curA, haveA = nextA()
			continue
		}
		if !kingRules {
			if smallB {
				for _, d := range deadB {
					if !yield(DeadFeature{base + d.Index, d.Reason}) {
						return false
					}
				}
			} else if !deadSeq(p.b, base, yield) {
				return false
			}
			continue
		}
		row = append(row[:0], deadB...) // a line block's dead list is small
		for j := range row {
			row[j].Index += base
		}
		row = appendKingRules(row, base, board.Square(i), l)
		slices.SortStableFunc(row, func(a, b DeadFeature) int { return a.Index - b.Index })
		for j, d := range row {
			if j > 0 && d.Index == row[j-1].Index {
				continue
			}
			if !yield(d) {
				return false
			}
		}
	}
	return true
}

// appendKingRules appends the dead features of row base (own king on oriented square
// ksq) of a KSQ × line-square product: the own king elsewhere, another piece on the own
// king's square, the enemy king next to the own king.
func appendKingRules(dst []DeadFeature, base int, ksq board.Square, l *lineBlock) []DeadFeature {
	for sq := board.Square(0); sq < 64; sq++ {
		line := int(lineOf[lineSquare][sq])
		for r := board.Pawn; r <= board.King; r++ {
			if l.noKing && r == board.King {
				continue
			}
			for c := 0; c < 2; c++ {
				i := base + line*l.stride + int(r)*2 + c
				switch {
				case r == board.King && c == 0 && sq != ksq:
					dst = append(dst, DeadFeature{i, DeadKingElsewhere})
				case sq == ksq && !(r == board.King && c == 0):
					dst = append(dst, DeadFeature{i, DeadOnKingSquare})
				case r == board.King && c == 1 && board.KingAttacks(ksq).Has(sq):
					dst = append(dst, DeadFeature{i, DeadKingsAdjacent})
				}
			}
		}
	}
	return dst
}

func (b *kingBlock) identity() bool {
	for i, x := range b.bucket {
		if int(x) != i {
			return false
		}
	}
	return true
}

func (b *kingBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	if b.orient != FlipMirror || !b.identity() {
		return dst
	}
	for sq := board.Square(0); sq < 64; sq++ {
		if sq.File() < 4 {
			dst = append(dst, DeadFeature{off + int(sq), DeadMirroredKing})
		}
	}
	return dst
}

// Line blocks: pawns on lines made only of rank-1/rank-8 squares (every orientation maps
// ranks 1 and 8 onto ranks 1 and 8).
func (b *lineBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	back := board.Bitboard(0xff000000000000ff)
	for line := 0; line < 64; line++ {
		bb := lineBB[b.kind][line]
		if bb == 0 || bb&^back != 0 {
			continue
		}
		for c := 0; c < 2; c++ {
			dst = append(dst, DeadFeature{off + line*b.stride + c, DeadPawnBackRank})
		}
	}
	return dst
}

// Pairwise: two kings of one color never share a line; on ranks 1 and 8 (PV) no pawn.
func (b *pairBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	k := int(board.King) * 2
	for line := 0; line < 8; line++ {
		for c := 0; c < 2; c++ {
			dst = append(dst, DeadFeature{off + line*144 + (k+c)*12 + k + c, DeadTwoKings})
		}
		if b.kind != lineRank || (line != 0 && line != 7) {
			continue
		}
		for x := 0; x < 12; x++ {
			for y := 0; y < 12; y++ {
				if x/2 == int(board.Pawn) || y/2 == int(board.Pawn) {
					dst = append(dst, DeadFeature{off + line*144 + x*12 + y, DeadPawnBackRank})
				}
			}
		}
	}
	return dst
}

// MB: with an orientation that makes own pawns move up (all but Absolute), own pawn
// targets are on ranks 3–8 and the opponent's on ranks 1–6.
func (b *mbBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	if b.orient == Absolute {
		return dst
	}
	for sq := 0; sq < 64; sq++ {
		r := sq / 8
		if r <= 1 {
			dst = append(dst, DeadFeature{off + sq*12 + 0, DeadPawnTarget})
		}
		if r >= 6 {
			dst = append(dst, DeadFeature{off + sq*12 + 1, DeadPawnTarget})
		}
	}
	return dst
}
