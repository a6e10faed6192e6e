package featureset

import (
	"fmt"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// MaxSize is the largest number of features a composed block may have (2³⁰); larger
// products are rejected so that no spec can ask for unbounded memory.
const MaxSize = 1 << 30

// maxProductActive bounds MaxActive of a product, for the same reason.
const maxProductActive = 1 << 16

// productBlock is A × B (thesis §3.2): feature ⟨a, b⟩ is active iff a is active in A and
// b in B; index = i_A·|B| + i_B (thesis §3.4 strides).
type productBlock struct {
	a, b Block
	name string // "" → a.Name()*b.Name()
	size int
}

// Product returns A × B. It returns an error when the size would exceed MaxSize or the
// bound on active features (MaxActive(A)·MaxActive(B)) would exceed 65536.
func Product(a, b Block) (Block, error) {
	return product("", a, b)
}

func product(name string, a, b Block) (*productBlock, error) {
	if a.Size() == 0 || b.Size() > MaxSize/max(a.Size(), 1) {
		return nil, fmt.Errorf("featureset: product %s*%s has more than %d features", a.Name(), b.Name(), MaxSize)
	}
	if a.MaxActive() > 0 && b.MaxActive() > maxProductActive/a.MaxActive() {
		return nil, fmt.Errorf("featureset: product %s*%s may have more than %d active features", a.Name(), b.Name(), maxProductActive)
	}
	return &productBlock{a: a, b: b, name: name, size: a.Size() * b.Size()}, nil
}

func namedProduct(name string, a, b Block) Block {
	p, err := product(name, a, b)
	if err != nil {
		panic(err)
	}
	return p
}

// Name returns the product's own name ("ka") or "A*B", parenthesising sums and an unnamed
// product on the right ("ksq*(all*h)"): the parser groups "A*B*C" as (A*B)*C, so without
// the parentheses A*(B*C) would read back as a different (if index-equivalent) block.
func (p *productBlock) Name() string {
	if p.name != "" {
		return p.name
	}
	return factorName(p.a, false) + "*" + factorName(p.b, true)
}

func factorName(b Block, right bool) string {
	switch x := b.(type) {
	case *sumBlock:
		return "(" + b.Name() + ")"
	case *productBlock:
		if right && x.name == "" {
			return "(" + b.Name() + ")"
		}
	}
	return b.Name()
}

// Factors returns the factors A and B of a product block A × B (index = i_A·|B| + i_B) and
// true, or false for any other block. A trainer's factoriser uses it to share one virtual
// row per B feature across every A value (e.g. every king bucket of KING-ALL).
func Factors(b Block) (left, right Block, ok bool) {
	p, ok := b.(*productBlock)
	if !ok {
		return nil, nil, false
	}
	return p.a, p.b, true
}

func (p *productBlock) Size() int         { return p.size }
func (p *productBlock) MaxActive() int    { return p.a.MaxActive() * p.b.MaxActive() }
func (p *productBlock) Dims() []Dimension { return nil }

// AppendActive appends every pair, in ascending order (A's list and each B list are
// ascending). A's indices are parked at the end of dst, then moved away; no scratch memory.
func (p *productBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	s := len(dst)
	dst = p.a.AppendActive(pos, persp, 0, dst)
	k := len(dst) - s
	nb := p.b.Size()
	for i := 0; i < k; i++ {
		dst = p.b.AppendActive(pos, persp, off+dst[s+i]*nb, dst)
	}
	n := copy(dst[s:], dst[s+k:])
	return dst[:s+n]
}

// AppendDiff: when A's active set cannot change with this move (e.g. the own king did not
// move, for KING-ALL), the diff is {a} × diff(B) for every active a, using B's fast path;
// otherwise the generic diff.
func (p *productBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	if !isStable(p.a, dirty, persp) {
		return genericDiff(p, before, after, persp, off, added, removed)
	}
	s := len(added)
	added = p.a.AppendActive(after, persp, 0, added)
	k := len(added) - s
	nb := p.b.Size()
	for i := 0; i < k; i++ {
		added, removed = p.b.AppendDiff(before, after, dirty, persp, off+added[s+i]*nb, added, removed)
	}
	n := copy(added[s:], added[s+k:])
	return added[:s+n], removed
}

func (p *productBlock) RequiresRefresh(d *board.DirtyPieces, persp board.Color) bool {
	return p.a.RequiresRefresh(d, persp) || p.b.RequiresRefresh(d, persp)
}

func (p *productBlock) Describe(i int) string {
	if i < 0 || i >= p.size {
		return fmt.Sprintf("?%d", i)
	}
	nb := p.b.Size()
	return p.a.Describe(i/nb) + "×" + p.b.Describe(i%nb)
}

func (p *productBlock) Lookup(desc string) (int, error) {
	for i := 0; i < len(desc); {
		j := strings.Index(desc[i:], "×")
		if j < 0 {
			break
		}
		j += i
		if ia, err := p.a.Lookup(desc[:j]); err == nil {
			if ib, err := p.b.Lookup(desc[j+len("×"):]); err == nil {
				return ia*p.b.Size() + ib, nil
			}
		}
		i = j + len("×")
	}
	return 0, fmt.Errorf("featureset: %q names no feature of %s", desc, p.Name())
}

func (p *productBlock) stable(d *board.DirtyPieces, persp board.Color) bool {
	return isStable(p.a, d, persp) && isStable(p.b, d, persp)
}

// stabler is implemented by blocks that can tell that a move leaves their active set
// unchanged (the king-square block when the own king did not move).
type stabler interface {
	stable(d *board.DirtyPieces, persp board.Color) bool
}

func isStable(b Block, d *board.DirtyPieces, persp board.Color) bool {
	s, ok := b.(stabler)
	return ok && s.stable(d, persp)
}

type keyer interface{ key() string }

// blockKey returns a canonical structural name of b: two blocks with equal keys have the
// same features in the same order.
func blockKey(b Block) string {
	switch t := b.(type) {
	case keyer:
		return t.key()
	case *sumBlock:
		parts := make([]string, len(t.parts))
		for i, p := range t.parts {
			parts[i] = blockKey(p)
		}
		return "(" + strings.Join(parts, "+") + ")"
	case *productBlock:
		return "(" + blockKey(t.a) + "*" + blockKey(t.b) + ")"
	}
	return b.Name()
}
