package featureset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// kingBlock is the king-square (or king-bucket) block: (KING-BUCKETS)_K with
// K(b) = "the perspective's own king stands on a square of bucket b" (oriented board).
// With one bucket per square it is SQUARE_K of thesis §3.3.2, the left factor of
// KING-ALL and KP.
type kingBlock struct {
	leaf
	bucket [64]uint8 // oriented square → bucket
}

// KingSquare returns the KSQ block: 64 features, index = oriented square of the
// perspective's own king (rank-major). Exactly one is active when the perspective has
// exactly one king, none otherwise (as the thesis code's king_of).
func KingSquare(o Orientation) Block {
	b := &kingBlock{leaf: newLeaf("ksq", "KSQ", o, Flip, Squares)}
	for i := range b.bucket {
		b.bucket[i] = uint8(i)
	}
	return b
}

// KingBuckets returns a king-bucket block named name (a lower-case spec name; label is the
// upper-case Describe prefix): bucket[sq] is the bucket of the own king on oriented square
// sq, buckets numbered 0 … n−1 with every bucket used (e.g. Stockfish 15.1's 32 buckets
// with the FlipMirror orientation, or CPW "king input buckets"). It returns an error when
// the table is not a surjection onto 0 … n−1 or n > 64.
//
// A product KingBuckets(…) × All(…) is a bucketed KING-ALL.
func KingBuckets(name, label string, bucket [64]int, o Orientation) (Block, error) {
	n := 0
	for _, x := range bucket {
		if x < 0 || x >= 64 {
			return nil, fmt.Errorf("featureset: king bucket %d out of range 0…63", x)
		}
		n = max(n, x+1)
	}
	used := make([]bool, n)
	for _, x := range bucket {
		used[x] = true
	}
	labels := make([]string, n)
	for i, u := range used {
		if !u {
			return nil, fmt.Errorf("featureset: king bucket %d is unused", i)
		}
		labels[i] = ""
		for sq, x := range bucket {
			if x == i {
				if labels[i] != "" {
					labels[i] += "/"
				}
				labels[i] += board.Square(sq).String()
			}
		}
	}
	b := &kingBlock{leaf: newLeaf(name, label, o, o, NewDimension("KING-BUCKETS("+name+")", labels))}
	for i, x := range bucket {
		b.bucket[i] = uint8(x)
	}
	return b, nil
}

// KingBucketMap returns the king-bucket block of a 64-entry map, the input buckets of
// bullet-trained nets (bullet examples/*: a `[usize; 64]` table by the perspective's own king
// square a1…h8) and the block Parse reads as "kings(b0.b1.….b63)[@o]": bucket[sq] is the
// bucket of the own king on square sq of the board seen from the perspective with
// orientation o (Flip: Black's squares mirrored vertically; FlipMirror: also mirrored to
// files a–d, so a map for mirrored nets needs only the e–h half to be distinct). Its
// spec name prints the map, so Parse(set.String()) rebuilds the block. It returns an error
// when the map is not a surjection onto 0 … n−1 (n ≤ 64), as KingBuckets.
func KingBucketMap(bucket [64]int, o Orientation) (Block, error) {
	b, err := KingBuckets(kingMapName(bucket), "KINGS", bucket, o)
	if err != nil {
		return nil, err
	}
	kb := b.(*kingBlock)
	kb.def = Flip // the name prints "@o" only for a non-default orientation, as other blocks
	return kb, nil
}

// kingMapName is KingBucketMap's spec name, "kings(b0.….b63)".
func kingMapName(bucket [64]int) string {
	var b strings.Builder
	b.WriteString("kings(")
	for i, x := range bucket {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(')')
	return b.String()
}

func (b *kingBlock) MaxActive() int { return 1 }

// RequiresRefresh: the active bucket changes only when the own king moves.
func (b *kingBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	return d == nil || d.KingMoved(p)
}

func (b *kingBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	k := ownKing(pos, persp)
	if k == board.NoSquare {
		return dst
	}
	return append(dst, off+int(b.bucket[k^b.orient.Mask(pos, persp)]))
}

func (b *kingBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	if dirtyOK(dirty) && !dirty.KingMoved(persp) {
		return added, removed
	}
	return genericDiff(b, before, after, persp, off, added, removed)
}

// stable reports that the block's active set is the same before and after the move.
func (b *kingBlock) stable(d *board.DirtyPieces, p board.Color) bool {
	return dirtyOK(d) && !d.KingMoved(p)
}

// KingAll returns KING-ALL ("ka", thesis §3.3.2): KSQ × ALL, 64·768 = 49152 features,
// index ownKingSquare·768 + ALL index; both factors use orientation o.
func KingAll(o Orientation) Block {
	return namedProduct(suffixed("ka", o), KingSquare(o), All(o))
}

// KP returns KING-PIECE ("kp", thesis §3.3.2, draft 004 §2.4.3): KSQ × NK, 64·640 = 40960
// features, index ownKingSquare·640 + NK index (kings are not features).
func KP(o Orientation) Block {
	return namedProduct(suffixed("kp", o), KingSquare(o), NonKing(o))
}

func suffixed(name string, o Orientation) string {
	if o != Flip {
		return name + "@" + o.String()
	}
	return name
}

// ownKing returns the square of c's king, or NoSquare unless c has exactly one.
func ownKing(pos *board.Position, c board.Color) board.Square {
	k := pos.Pieces(c, board.King)
	if k == 0 || k&(k-1) != 0 {
		return board.NoSquare
	}
	return k.First()
}
