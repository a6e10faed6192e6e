package simd

import (
	"testing"
	"unsafe"

	"github.com/nnuekit/nnuekit/internal/block"
)

// The prepared stacks keep their arrays in one block (block.Block): the first starts on a
// 4 KiB page, each is Alignment-aligned and follows the previous one in the order the
// forward pass reads them, and nothing refers to the caller's slices.
func TestStackBlockLayout(t *testing.T) {
	addr := func(p unsafe.Pointer) uintptr { return uintptr(p) }
	check := func(name string, arrays []unsafe.Pointer, sizes []int) {
		t.Helper()
		if a := addr(arrays[0]); a%block.Page != 0 {
			t.Errorf("%s: block starts at %#x, not on a 4 KiB page", name, a)
		}
		for i := 1; i < len(arrays); i++ {
			want := addr(arrays[i-1]) + uintptr(block.Len(sizes[i-1]))
			if got := addr(arrays[i]); got != want || got%Alignment != 0 {
				t.Errorf("%s: array %d at %#x, want %#x (right after array %d)", name, i, got, want, i-1)
			}
		}
	}
	const m = 256
	w0 := make([]int8, 32*2*m)
	for i := range w0 {
		w0[i] = int8(i*7%61 - 30)
	}
	w1, w2 := make([]int8, 32*32), make([]int8, 32)
	b0, b1 := make([]int32, 32), make([]int32, 32)
	s, err := NewReLUStack(m, w0, b0, 6, w1, b1, 6, w2, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := func(x any) unsafe.Pointer {
		switch v := x.(type) {
		case []int8:
			return unsafe.Pointer(unsafe.SliceData(v))
		case []int32:
			return unsafe.Pointer(unsafe.SliceData(v))
		case []uint8:
			return unsafe.Pointer(unsafe.SliceData(v))
		}
		panic("type")
	}
	check("ReLUStack", []unsafe.Pointer{p(s.wt0), p(s.b0), p(s.wt1), p(s.b1), p(s.w2), p(s.w0)},
		[]int{64 * m, 128, 1024, 128, 32, 64 * m})
	if &s.w0[0] == &w0[0] {
		t.Error("ReLUStack refers to the caller's w0")
	}
	score := make([]int32, 2*m)
	for i := range score {
		score[i] = int32(i % 5)
	}
	o, err := s.WithActivity(score)
	if err != nil {
		t.Fatal(err)
	}
	check("ReLUStack.WithActivity", []unsafe.Pointer{p(o.wtS), p(o.b0), p(o.wt1), p(o.b1), p(o.w2), p(o.masks), p(o.w0), p(o.wt0)},
		[]int{64 * m, 128, 1024, 128, 32, 2 * m, 64 * m, 64 * m})
	if o.pw0 != &o.w0[0] || o.pwt0 != &o.wt0[0] || o.k.pwt1 != &o.wt1[0] || o.k.pw2 != &o.w2[0] || o.k.pb0 != &o.b0[0] || o.k.pb1 != &o.b1[0] || o.k.pwt0 != &o.wtS[0] {
		t.Error("ReLUStack.WithActivity: assembly pointers not into its own block")
	}
	q, err := NewPairwiseStack(2*m, w0[:16*2*m], b0[:16], 7, 6, w1, b1, 6, w2, 0)
	if err != nil {
		t.Fatal(err)
	}
	check("PairwiseStack", []unsafe.Pointer{p(q.wt0), p(q.b0), p(q.wt1), p(q.b1), p(q.w2)},
		[]int{16 * 2 * m, 64, 1024, 128, 32})
}
