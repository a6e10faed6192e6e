package featureset

import (
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// Dimension is a finite labelled set of concepts (thesis §3: FILES, RANKS, SQUARES, ROLES,
// COLORS, …). Its elements are numbered 0 … Size−1 (the bijection I(e) of thesis §3.4) and
// each has a short human-readable label used by Describe.
//
// A leaf block's features are the tuples of the cartesian product of its dimensions; the
// strided indexer turns the tuple (e₀, …, eₙ) into e₀·|D₁|·…·|Dₙ| + … + eₙ (thesis §3.4).
type Dimension struct {
	// Name is the upper-case name of the set, e.g. "SQUARES".
	Name   string
	labels []string
}

// NewDimension returns a dimension named name whose elements carry the given labels
// (element i has label labels[i]). Labels must be distinct, non-empty and free of the
// characters ",[]×" for Lookup to invert Describe; NewDimension panics otherwise, since
// dimensions are built once at package or program start.
func NewDimension(name string, labels []string) Dimension {
	seen := make(map[string]bool, len(labels))
	for _, l := range labels {
		if l == "" || seen[l] || strings.ContainsAny(l, ",[]×") {
			panic("featureset: bad label " + strconv.Quote(l) + " in dimension " + name)
		}
		seen[l] = true
	}
	return Dimension{Name: name, labels: append([]string(nil), labels...)}
}

// Size returns the number of elements.
func (d Dimension) Size() int { return len(d.labels) }

// Label returns the label of element i, or "?" when i is out of range.
func (d Dimension) Label(i int) string {
	if i < 0 || i >= len(d.labels) {
		return "?"
	}
	return d.labels[i]
}

// Lookup returns the element whose label is label (case-insensitive), or false.
func (d Dimension) Lookup(label string) (int, bool) {
	for i, l := range d.labels {
		if strings.EqualFold(l, label) {
			return i, true
		}
	}
	return 0, false
}

func makeLabels(n int, f func(i int) string) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = f(i)
	}
	return s
}

// The standard dimensions of the thesis blocks. Squares are always those of the oriented
// board (the perspective's view), colors are relative to the perspective.
var (
	// Squares is SQUARES in rank-major order, element = a1=0, b1=1, …, h8=63 (used by MB and
	// the king-square blocks).
	Squares = NewDimension("SQUARES", makeLabels(64, func(i int) string { return board.Square(i).String() }))
	// SquaresFileMajor is SQUARES in file-major order, element = file·8 + rank (a1=0, a2=1, …,
	// h8=63): the order of the thesis code's ALL block (thesis-models/README.md).
	SquaresFileMajor = NewDimension("SQUARES(file-major)", makeLabels(64, func(i int) string {
		return board.NewSquare(i/8, i%8).String()
	}))
	// Files is FILES, a … h.
	Files = NewDimension("FILES", makeLabels(8, func(i int) string { return string(rune('a' + i)) }))
	// Ranks is RANKS, 1 … 8 (element = rank − 1).
	Ranks = NewDimension("RANKS", makeLabels(8, func(i int) string { return string(rune('1' + i)) }))
	// Diags1 is DIAGS1, the 15 lines file+rank = k (k = 0 … 14), labelled by their lowest
	// and highest square ("a1", "b1-a2", …, "h1-a8", …, "h8"). Thesis §6.2, block D1.
	Diags1 = NewDimension("DIAGS1", makeLabels(15, func(k int) string {
		return lineLabel(func(sq board.Square) bool { return sq.Diag1() == k })
	}))
	// Diags2 is DIAGS2, the 15 lines file+7−rank = k (k = 0 … 14), labelled by their lowest
	// and highest square ("a8", "a7-b8", …, "a1-h8", …, "h1"). Thesis §6.2, block D2.
	Diags2 = NewDimension("DIAGS2", makeLabels(15, func(k int) string {
		return lineLabel(func(sq board.Square) bool { return sq.Diag2() == k })
	}))
	// Roles is ROLES: pawn, knight, bishop, rook, queen, king (board.Role order).
	Roles = NewDimension("ROLES", makeLabels(6, func(i int) string { return board.Role(i).String() }))
	// NonKingRoles is ROLES without the king: pawn … queen.
	NonKingRoles = NewDimension("ROLES-NK", makeLabels(5, func(i int) string { return board.Role(i).String() }))
	// Colors is COLORS relative to the perspective: 0 = own, 1 = their.
	Colors = NewDimension("COLORS", []string{"own", "their"})
	// PairColors is COLORS in the pairwise blocks' encoding: 0 = their, 1 = own
	// (thesis-models/README.md: the code's shakmaty White=1 after a colour swap).
	PairColors = NewDimension("COLORS(pair)", []string{"their", "own"})
	// MobilityCounts is the (role, mobility count) axis of MC: for each role r the counts
	// 0 … mcCount[r], the last meaning "that many or more" (thesis §6.4, Table 6).
	MobilityCounts = NewDimension("MOBILITY", mobilityLabels())
)

func lineLabel(on func(board.Square) bool) string {
	first, last := board.NoSquare, board.NoSquare
	for sq := board.Square(0); sq < 64; sq++ {
		if on(sq) {
			if first == board.NoSquare {
				first = sq
			}
			last = sq
		}
	}
	if first == last {
		return first.String()
	}
	return first.String() + "-" + last.String()
}

// strideTuple appends to dst the tuple of index i under dims' strides (thesis §3.4: the
// last dimension varies fastest), the inverse of i = Σ tuple[k]·Π_{j>k} |dims[j]|.
func strideTuple(dims []Dimension, i int, dst []int) []int {
	n := len(dst)
	for range dims {
		dst = append(dst, 0)
	}
	for k := len(dims) - 1; k >= 0; k-- {
		s := dims[k].Size()
		dst[n+k] = i % s
		i /= s
	}
	return dst
}

func dimsSize(dims []Dimension) int {
	n := 1
	for _, d := range dims {
		n *= d.Size()
	}
	return n
}
