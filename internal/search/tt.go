package search

// tt.go: the transposition table (thesis §2.3 "Transposition table"; CPW "Transposition
// Table", "Shared Hash Table"). One table is shared by all search threads without locks:
// every entry is two 64-bit words written with atomic stores, the first holding
// key XOR data (Hyatt and Mann's "lockless transposition table", CPW "Shared Hash
// Table#Lockless"), so a torn entry (key of one write, data of another) fails the key
// check and reads as a miss instead of corrupting the search.

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
)

// Bounds of a stored score.
const (
	boundNone  = 0 // no score: the entry holds its position's static evaluation only
	boundUpper = 1 // score ≤ true value … fail-low: at most score
	boundLower = 2 // fail-high: at least score
	boundExact = 3
)

type ttSlot struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

// ttWays is the number of slots in a bucket: 4 × 16 bytes, one 64-byte cache line (the
// table's memory is page-aligned), so a probe costs one line whichever slot holds the
// position (CPW "Transposition Table#Bucket Systems"; Stockfish tt.cpp clusters of 3).
const ttWays = 4

// TT is the transposition table: a power-of-two array of slots (16 bytes each) in memory
// from mapTable, in buckets of ttWays; a key's bucket is key & mask.
type TT struct {
	slots []ttSlot
	mask  uint64        // buckets − 1
	gen   atomic.Uint32 // search generation (6 bits), for replacement and hashfull
	mem   *ttMem
}

// ttMem owns a table's memory; it is released once, by release or by the cleanup that
// runs when the table becomes unreachable.
type ttMem struct {
	b    []byte
	done atomic.Bool
}

func (m *ttMem) free() {
	if m.done.CompareAndSwap(false, true) {
		unmapTable(m.b)
	}
}

// ttEntry is an unpacked entry.
type ttEntry struct {
	move  board.Move
	score int
	eval  int
	depth int
	bound int
}

// ttBytes returns the size of the table allocTT(mb) makes: the largest power-of-two
// number of 16-byte slots that fits in mb MiB (at least one slot).
func ttBytes(mb int) uint64 {
	n := uint64(1)
	for n*2*16 <= uint64(max(mb, 1))<<20 {
		n *= 2
	}
	return n * 16
}

// allocTT returns a zeroed table of ttBytes(mb) bytes. The memory comes from mapTable
// (mem_linux.go: outside the Go heap, so a refusal is an error, not a fatal runtime
// error); it is returned by release, or when the table is no longer referenced.
func allocTT(mb int) (*TT, error) {
	size := ttBytes(mb)
	if size > uint64(math.MaxInt) {
		return nil, fmt.Errorf("%d MiB does not fit in this platform's address space", mb)
	}
	b, err := mapTable(int(size))
	if err != nil {
		return nil, err
	}
	n := size / 16
	t := &TT{slots: unsafe.Slice((*ttSlot)(unsafe.Pointer(unsafe.SliceData(b))), n), mask: n/ttWays - 1, mem: &ttMem{b: b}}
	runtime.AddCleanup(t, (*ttMem).free, t.mem)
	return t, nil
}

// release returns the table's memory now; the table must not be used afterwards.
func (t *TT) release() {
	t.slots = nil
	t.mem.free()
}

// clear empties the table (ucinewgame, bench; no search may be running). On Linux the
// pages are dropped (madvise), not written: instant for any size.
func (t *TT) clear() {
	zeroTable(t.mem.b)
	t.gen.Store(0)
}

// newSearch advances the generation.
func (t *TT) newSearch() { t.gen.Store((t.gen.Load() + 1) & 63) }

// data layout: move 16 | score int16 16 | eval int16 16 | depth uint8 8 | bound 2 | gen 6.
func pack(e ttEntry, gen uint32) uint64 {
	return uint64(e.move) | uint64(uint16(int16(e.score)))<<16 | uint64(uint16(int16(e.eval)))<<32 |
		uint64(uint8(e.depth))<<48 | uint64(e.bound&3)<<56 | uint64(gen&63)<<58
}

func unpack(d uint64) ttEntry {
	return ttEntry{
		move:  board.Move(d),
		score: int(int16(d >> 16)),
		eval:  int(int16(d >> 32)),
		depth: int(uint8(d >> 48)),
		bound: int(d>>56) & 3,
	}
}

// prefetch asks for the slot of key in the cache (simd.Prefetch): the search calls it
// with board.Position.KeyAfter before it makes a move, so that the child's probe finds the
// line loaded (Stockfish do_move's prefetch of the child's entry). A miss in a large
// table costs a memory latency per node.
func (t *TT) prefetch(key uint64) {
	simd.Prefetch(uintptr(unsafe.Pointer(&t.slots[(key&t.mask)*ttWays])))
}

// bucket returns the ttWays slots key may be stored in.
func (t *TT) bucket(key uint64) []ttSlot {
	i := (key & t.mask) * ttWays
	return t.slots[i : i+ttWays : i+ttWays]
}

// probe returns the entry stored for key, if any.
func (t *TT) probe(key uint64) (ttEntry, bool) {
	b := t.bucket(key)
	for i := range b {
		if d := b[i].data.Load(); d != 0 && b[i].check.Load()^d == key {
			return unpack(d), true
		}
	}
	return ttEntry{}, false
}

// store writes e for key. The position's own slot, if the bucket has one, is rewritten
// unless it holds a search more than 2 plies deeper of the current generation and e is
// not exact; it keeps its move when e has none. Otherwise e replaces the bucket's least
// valuable slot: an empty one, else the one with the lowest depth − 8·age, age being the
// number of searches since it was written (Stockfish tt.cpp's replacement value).
func (t *TT) store(key uint64, e ttEntry) {
	b := t.bucket(key)
	gen := t.gen.Load()
	v, worst := 0, math.MaxInt
	for i := range b {
		old := b[i].data.Load()
		if old == 0 {
			if worst > math.MinInt {
				v, worst = i, math.MinInt
			}
			continue
		}
		if b[i].check.Load()^old == key {
			oe := unpack(old)
			if e.move == board.NullMove {
				e.move = oe.move
			}
			if e.bound != boundExact && oe.depth > e.depth+2 && uint32(old>>58) == gen {
				return
			}
			v = i
			break
		}
		if val := int(uint8(old>>48)) - 8*int((gen-uint32(old>>58))&63); val < worst {
			v, worst = i, val
		}
	}
	d := pack(e, gen)
	b[v].data.Store(d)
	b[v].check.Store(key ^ d)
}

// hashfull returns the permille of the first 1000 slots used in the current search.
func (t *TT) hashfull() int {
	gen := t.gen.Load()
	n, used := min(1000, len(t.slots)), 0
	for i := 0; i < n; i++ {
		if d := t.slots[i].data.Load(); d != 0 && uint32(d>>58) == gen {
			used++
		}
	}
	return used * 1000 / n
}
