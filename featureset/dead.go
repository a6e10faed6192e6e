package featureset

import (
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
// claimed to be complete: features no rule covers may still never occur.
func (s *Set) DeadFeatures() []DeadFeature {
	d := appendDeadOf(s.root, 0, nil)
	slices.SortFunc(d, func(a, b DeadFeature) int { return a.Index - b.Index })
	return slices.CompactFunc(d, func(a, b DeadFeature) bool { return a.Index == b.Index })
}

func appendDeadOf(b Block, off int, dst []DeadFeature) []DeadFeature {
	if dl, ok := b.(deadLister); ok {
		return dl.appendDead(off, dst)
	}
	return dst
}

func (s *sumBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	for k, b := range s.parts {
		dst = appendDeadOf(b, off+s.offs[k], dst)
	}
	return dst
}

// A product's feature is dead when either factor is dead; KSQ × ALL-like blocks with the
// same orientation add the consistency rules between the king square and the pieces.
func (p *productBlock) appendDead(off int, dst []DeadFeature) []DeadFeature {
	na, nb := p.a.Size(), p.b.Size()
	deadA := appendDeadOf(p.a, 0, nil)
	for _, d := range deadA {
		for j := 0; j < nb; j++ {
			dst = append(dst, DeadFeature{off + d.Index*nb + j, d.Reason})
		}
	}
	deadB := appendDeadOf(p.b, 0, nil)
	for i := 0; i < na; i++ {
		for _, d := range deadB {
			dst = append(dst, DeadFeature{off + i*nb + d.Index, d.Reason})
		}
	}
	k, ok1 := p.a.(*kingBlock)
	l, ok2 := p.b.(*lineBlock)
	if !ok1 || !ok2 || l.kind != lineSquare || k.orient != l.orient || !k.identity() {
		return dst
	}
	for ksq := board.Square(0); ksq < 64; ksq++ {
		base := off + int(k.bucket[ksq])*nb
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
