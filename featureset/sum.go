package featureset

import (
	"fmt"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// sumBlock is A ⊕ B ⊕ … (thesis §3.1): the summands' features one after another, in the
// order written; summand k's feature i has index Offset(k) + i.
type sumBlock struct {
	parts []Block
	offs  []int
	size  int
	maxA  int
}

// Sum returns the sum (concatenation) of the blocks in the order given; nested sums are
// flattened (⊕ is associative). It returns an
// error for fewer than two blocks, a block appearing twice (its features would be
// duplicated and Describe ambiguous) or a total size above MaxSize.
func Sum(blocks ...Block) (Block, error) {
	if len(blocks) < 2 {
		return nil, fmt.Errorf("featureset: a sum needs at least two blocks, got %d", len(blocks))
	}
	var flat []Block
	for _, b := range blocks {
		if inner, ok := b.(*sumBlock); ok {
			flat = append(flat, inner.parts...)
		} else {
			flat = append(flat, b)
		}
	}
	s := &sumBlock{}
	seen := map[string]bool{}
	for _, b := range flat {
		k := blockKey(b)
		if seen[k] {
			return nil, fmt.Errorf("featureset: block %q appears twice in a sum", b.Name())
		}
		seen[k] = true
		s.parts = append(s.parts, b)
		s.offs = append(s.offs, s.size)
		s.size += b.Size()
		s.maxA += b.MaxActive()
		if s.size > MaxSize {
			return nil, fmt.Errorf("featureset: sum has more than %d features", MaxSize)
		}
	}
	return s, nil
}

// Name joins the summands' names with '+'.
func (s *sumBlock) Name() string {
	var sb strings.Builder
	for i, b := range s.parts {
		if i > 0 {
			sb.WriteByte('+')
		}
		sb.WriteString(b.Name())
	}
	return sb.String()
}

func (s *sumBlock) Size() int         { return s.size }
func (s *sumBlock) MaxActive() int    { return s.maxA }
func (s *sumBlock) Dims() []Dimension { return nil }

func (s *sumBlock) AppendActive(pos *board.Position, persp board.Color, off int, dst []int) []int {
	for i, b := range s.parts {
		dst = b.AppendActive(pos, persp, off+s.offs[i], dst)
	}
	return dst
}

func (s *sumBlock) AppendDiff(before, after *board.Position, dirty *board.DirtyPieces, persp board.Color, off int, added, removed []int) ([]int, []int) {
	for i, b := range s.parts {
		added, removed = b.AppendDiff(before, after, dirty, persp, off+s.offs[i], added, removed)
	}
	return added, removed
}

func (s *sumBlock) RequiresRefresh(d *board.DirtyPieces, p board.Color) bool {
	for _, b := range s.parts {
		if b.RequiresRefresh(d, p) {
			return true
		}
	}
	return false
}

// part returns the summand holding index i and i's local index.
func (s *sumBlock) part(i int) (int, int) {
	k := len(s.offs) - 1
	for k > 0 && s.offs[k] > i {
		k--
	}
	return k, i - s.offs[k]
}

func (s *sumBlock) Describe(i int) string {
	if i < 0 || i >= s.size {
		return fmt.Sprintf("?%d", i)
	}
	k, j := s.part(i)
	return s.parts[k].Describe(j)
}

func (s *sumBlock) Lookup(desc string) (int, error) {
	for k, b := range s.parts {
		if j, err := b.Lookup(desc); err == nil {
			return s.offs[k] + j, nil
		}
	}
	return 0, fmt.Errorf("featureset: %q names no feature of %s", desc, s.Name())
}

func (s *sumBlock) stable(d *board.DirtyPieces, p board.Color) bool {
	for _, b := range s.parts {
		if !isStable(b, d, p) {
			return false
		}
	}
	return true
}
