package featureset

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// Block is a feature block (thesis §3.1): a feature set that can be summed with others.
// Leaf blocks (ALL, H, …) are declared by their dimensions and a predicate; Sum and
// Product are blocks too, so composition is recursive. Implementations are immutable and
// safe for concurrent use.
//
// Indices are block-local, in [0, Size()); the methods that append indices add off to each
// so that a Sum can place its summands one after another.
type Block interface {
	// Name returns the block's spec (what Parse accepts), e.g. "all", "ka", "all+ph".
	Name() string
	// Size returns the number of features.
	Size() int
	// MaxActive returns an upper bound of the number of indices AppendActive appends for
	// any legal position and either perspective.
	MaxActive() int
	// Dims returns the dimensions whose strided product the block's indices enumerate
	// (thesis §3.4), or nil for composite blocks (Sum, Product).
	Dims() []Dimension
	// AppendActive appends off + i for every active feature i of pos seen from persp,
	// in ascending order, each once (binary semantics).
	AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int
	// AppendDiff appends to added the features (plus off) active in after but not in
	// before, and to removed those active in before but not in after, where after is
	// before with the move described by dirty played. The result is exact in every case
	// (a block that cannot update incrementally recomputes); the order within added and
	// removed is unspecified.
	AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int)
	// RequiresRefresh reports whether, for the move described by dirty, recomputing the
	// perspective's accumulator from scratch is required or cheaper than an update
	// (e.g. KING-ALL when persp's own king moved).
	RequiresRefresh(dirty *board.DirtyPieces, persp board.Color) bool
	// Describe returns a readable name of feature i, e.g. "ALL[e4, pawn, own]",
	// or an error text when i is out of range.
	Describe(i int) string
	// Lookup is the inverse of Describe: it returns the index described by desc.
	Lookup(desc string) (int, error)
}

// leaf holds what every leaf block shares: names, dimensions and orientation.
type leaf struct {
	name   string // spec name without orientation suffix, lower-case ("all")
	alias  string // spelling kept for Name ("hv" for ALL), "" = name
	label  string // Describe prefix ("ALL")
	dims   []Dimension
	size   int
	orient Orientation
	def    Orientation // the block's default orientation (not printed in Name)
}

func newLeaf(name, label string, o, def Orientation, dims ...Dimension) leaf {
	return leaf{name: name, label: label, dims: dims, size: dimsSize(dims), orient: o, def: def}
}

// Name returns the spec name, with "@orientation" when it is not the block's default.
func (l *leaf) Name() string {
	n := l.name
	if l.alias != "" {
		n = l.alias
	}
	if l.orient != l.def {
		return n + "@" + l.orient.String()
	}
	return n
}

// key is the canonical structural name: aliases resolved, orientation always written.
func (l *leaf) key() string { return l.name + "@" + l.orient.String() }

func (l *leaf) Size() int         { return l.size }
func (l *leaf) Dims() []Dimension { return l.dims }

// Orientation returns the leaf block's orientation; every leaf block of this package
// implements interface{ Orientation() Orientation }.
func (l *leaf) Orientation() Orientation { return l.orient }
func (l *leaf) kingRefresh(d *board.DirtyPieces, p board.Color) bool {
	return l.orient.KingDependent() && (d == nil || d.KingMoved(p))
}

// Describe returns "LABEL[e1, e2, …]" with the labels of the tuple's elements.
func (l *leaf) Describe(i int) string {
	if i < 0 || i >= l.size {
		return fmt.Sprintf("%s[?%d]", l.label, i)
	}
	var t [8]int
	tup := strideTuple(l.dims, i, t[:0])
	var sb strings.Builder
	sb.WriteString(l.label)
	sb.WriteByte('[')
	for k, e := range tup {
		if k > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(l.dims[k].Label(e))
	}
	sb.WriteByte(']')
	return sb.String()
}

// Lookup parses "LABEL[e1, e2, …]".
func (l *leaf) Lookup(desc string) (int, error) {
	desc = strings.TrimSpace(desc)
	if len(desc) < len(l.label)+2 || !strings.EqualFold(desc[:len(l.label)], l.label) ||
		desc[len(l.label)] != '[' || desc[len(desc)-1] != ']' {
		return 0, fmt.Errorf("featureset: %q is not a %s feature", desc, l.label)
	}
	parts := strings.Split(desc[len(l.label)+1:len(desc)-1], ",")
	if len(parts) != len(l.dims) {
		return 0, fmt.Errorf("featureset: %q: want %d elements, got %d", desc, len(l.dims), len(parts))
	}
	i := 0
	for k, p := range parts {
		e, ok := l.dims[k].Lookup(strings.TrimSpace(p))
		if !ok {
			return 0, fmt.Errorf("featureset: %q: %q is not an element of %s", desc, strings.TrimSpace(p), l.dims[k].Name)
		}
		i = i*l.dims[k].Size() + e
	}
	return i, nil
}

// appendBits appends off + i for every set bit i of the bitset, ascending.
func appendBits(dst []int, set []uint64, off int) []int {
	n := 0
	for _, x := range set {
		n += bits.OnesCount64(x)
	}
	k := len(dst)
	dst = slices.Grow(dst, n)[:k+n]
	out := dst[k:]
	j := 0
	for w, x := range set {
		base := off + w*64
		for x != 0 && j < len(out) {
			out[j] = base + bits.TrailingZeros64(x)
			j++
			x &= x - 1
		}
	}
	return dst
}

// sortTail sorts dst[from:] ascending and removes duplicates there (insertion sort: the
// tails are short and nearly sorted).
func sortTail(dst []int, from int) []int {
	t := dst[from:]
	for i := 1; i < len(t); i++ {
		v := t[i]
		j := i
		for j > 0 && t[j-1] > v {
			t[j] = t[j-1]
			j--
		}
		t[j] = v
	}
	n := 0
	for i := range t {
		if i == 0 || t[i] != t[n-1] {
			t[n] = t[i]
			n++
		}
	}
	return dst[:from+n]
}
