package featureset

import "github.com/nnuekit/nnuekit/board"

// GenericDiff is the reference AppendDiff of any block: the set difference of
// b.AppendActive(before) and b.AppendActive(after) (both ascending), appended with offset
// off to added and removed. It needs no scratch memory — both active lists are appended to
// the callers' slices and the common elements cancelled in place — and allocates only when
// those slices lack capacity. Custom blocks without a fast path can return it from their
// AppendDiff.
func GenericDiff(b Block, before, after *board.Position, persp board.Color, off int, added, removed []int) ([]int, []int) {
	return genericDiff(b, before, after, persp, off, added, removed)
}

func genericDiff(b Block, before, after *board.Position, persp board.Color, off int, added, removed []int) ([]int, []int) {
	a0, r0 := len(added), len(removed)
	added = b.AppendActive(after, persp, off, added)
	removed = b.AppendActive(before, persp, off, removed)
	na, nr := cancelSorted(added[a0:], removed[r0:])
	return added[:a0+na], removed[:r0+nr]
}

// cancelSorted removes the elements common to the ascending, duplicate-free slices a and
// b, compacting both in place; it returns their new lengths.
func cancelSorted(a, b []int) (int, int) {
	i, j, wa, wb := 0, 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i++
			j++
		case a[i] < b[j]:
			a[wa] = a[i]
			wa++
			i++
		default:
			b[wb] = b[j]
			wb++
			j++
		}
	}
	for ; i < len(a); i++ {
		a[wa] = a[i]
		wa++
	}
	for ; j < len(b); j++ {
		b[wb] = b[j]
		wb++
	}
	return wa, wb
}

// dirtyOK reports whether every entry of d names a real piece and squares in range, so
// that a fast path may trust it.
func dirtyOK(d *board.DirtyPieces) bool {
	if d == nil || d.N < 0 || d.N > len(d.Pieces) {
		return false
	}
	for _, p := range d.Pieces[:d.N] {
		if !p.Piece.Valid() || !(p.From == board.NoSquare || p.From.Valid()) || !(p.To == board.NoSquare || p.To.Valid()) {
			return false
		}
	}
	return true
}
