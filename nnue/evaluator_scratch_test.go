package nnue

import (
	"testing"
	"unsafe"

	"github.com/nnuekit/nnuekit/internal/block"
)

// An Evaluator's layer buffers come from one page-aligned block; buckets whose stacks
// have the same shape share them (all 8 of the Stockfish 15.1 net), and the family
// forward's buffer and chunk list are the first layer's.
func TestEvaluatorScratchBlock(t *testing.T) {
	n := sfTestNetwork(t, sfNetSFNNv5)
	e := n.NewEvaluator()
	if len(e.bk) != 8 || &e.bk[0] != &e.bk0[0] {
		t.Fatalf("%d buckets, table not inline", len(e.bk))
	}
	first := e.bk[0].bufs
	if p := uintptr(unsafe.Pointer(&first[1].u8[0])); p%block.Page != 0 {
		t.Errorf("first buffer at %#x, not on a 4 KiB page", p)
	}
	for b := range e.bk {
		bk := &e.bk[b]
		if &bk.bufs[0] != &first[0] {
			t.Errorf("bucket %d has its own buffers", b)
		}
		if &bk.u8[0] != &bk.bufs[1].u8[0] || &bk.idx[0] != &bk.bufs[1].idx[0] {
			t.Errorf("bucket %d: u8/idx are not bufs[1]'s", b)
		}
		if bk.fwd != n.forwards[b] {
			t.Errorf("bucket %d: family forward differs from the network's", b)
		}
	}
	lo, hi := ^uintptr(0), uintptr(0)
	size := 0
	for i, l := range n.arch.Stacks[0] {
		size += scratchLen(l.OutputKind(), n.sizes[0][i])
		tt := first[i]
		for _, r := range [][2]uintptr{
			{uintptr(unsafe.Pointer(unsafe.SliceData(tt.u8))), uintptr(len(tt.u8))},
			{uintptr(unsafe.Pointer(unsafe.SliceData(tt.idx))), 2 * uintptr(len(tt.idx))},
			{uintptr(unsafe.Pointer(unsafe.SliceData(tt.i32))), 4 * uintptr(len(tt.i32))},
		} {
			if r[1] > 0 {
				lo, hi = min(lo, r[0]), max(hi, r[0]+r[1])
			}
		}
	}
	if hi-lo > uintptr(size) {
		t.Errorf("buffers span %d bytes, block is %d", hi-lo, size)
	}
}
