package featureset

import "github.com/nnuekit/nnuekit/board"

// Orientation says how a perspective sees the board: which transform of the squares is
// applied before a block looks at the position. Every transform used by real networks is
// an XOR of the square index with a mask (56: vertical flip, 63: 180° rotation, 7:
// horizontal mirror), so an orientation is a function (position, perspective) → mask.
// Colors are always relative to the perspective (own / their), whatever the orientation.
//
// Orientation is a parameter of a block, not code in each block (thesis §4.2 for Flip,
// Stockfish 12/13 HalfKP for Rotate, Stockfish 15.1 HalfKAv2_hm for FlipMirror).
type Orientation uint8

const (
	// Flip: White sees the board as is, Black sees it flipped vertically (sq ^ 56) — the
	// thesis's Black perspective (thesis §4.2, thesis code correct_square). Default of the
	// thesis blocks.
	Flip Orientation = iota
	// Rotate: Black sees the board rotated by 180° (sq ^ 63), as Stockfish 12/13 HalfKP.
	Rotate
	// FlipMirror: as Flip, then mirrored horizontally (sq ^ 7) when the perspective's own
	// king stands on files a–d, so the own king is always on files e–h (Stockfish 15.1
	// HalfKAv2_hm OrientTBL); no mirror unless the perspective has exactly one king. The
	// mask changes only when the own king moves.
	FlipMirror
	// Absolute: no transform for either perspective (colors are still own/their).
	Absolute
	numOrientations
)

var orientationNames = [numOrientations]string{"flip", "rotate", "hm", "abs"}

// String returns the name used in feature-set specs after '@': "flip", "rotate", "hm", "abs".
func (o Orientation) String() string {
	if o < numOrientations {
		return orientationNames[o]
	}
	return "?"
}

// ParseOrientation parses the name returned by String (case-insensitive).
func ParseOrientation(s string) (Orientation, bool) {
	for i, n := range orientationNames {
		if equalFoldASCII(s, n) {
			return Orientation(i), true
		}
	}
	return 0, false
}

// Mask returns the XOR mask applied to every square of pos seen from persp:
// the perspective sees the piece on square sq on square sq ^ Mask(pos, persp).
func (o Orientation) Mask(pos *board.Position, persp board.Color) board.Square {
	switch o {
	case Flip:
		return board.Square(56 * int(persp))
	case Rotate:
		return board.Square(63 * int(persp))
	case FlipMirror:
		m := board.Square(56 * int(persp))
		if k := ownKing(pos, persp); k != board.NoSquare && k.File() < 4 {
			m ^= 7
		}
		return m
	}
	return 0
}

// KingDependent reports whether the mask can change when the perspective's own king moves
// (then an incremental update across a king move is not offered: RequiresRefresh).
func (o Orientation) KingDependent() bool { return o == FlipMirror }

// orientBB applies a square XOR mask to every square of b.
func orientBB(b board.Bitboard, m board.Square) board.Bitboard {
	if m&56 == 56 {
		b = b.FlipRanks()
	}
	if m&7 == 7 {
		b = b.MirrorFiles()
	}
	return b
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
