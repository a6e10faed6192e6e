package block

import "unsafe"

// Page is the alignment of a block's first array: 4 KiB, the x86-64 base page.
const Page = 4096

// Align is the alignment of every array a block hands out: 64 bytes, one cache line and
// one AVX-512 register (simd.Alignment, nnue.Alignment).
const Align = 64

// Len is n bytes rounded up to Align: the room an array of n bytes takes in a block.
func Len(n int) int { return (n + Align - 1) &^ (Align - 1) }

// Block hands out Align-aligned arrays from one zeroed allocation starting on a Page, in
// the order they are taken. It holds no pointers, so only pointer-free element types may
// be carved from it.
type Block struct {
	buf []byte
	off int
}

// New returns a zeroed block of total bytes (the sum of Len of every array it will hand
// out).
func New(total int) *Block {
	buf := make([]byte, total+Page)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & (Page - 1))
	return &Block{buf: buf[off : off+total : off+total]}
}

// Take returns the next n bytes (n > 0) of the block, advancing by Len(n). It panics if
// n ≤ 0 or the block has less than Len(n) bytes left (a caller's size computation is wrong).
func (b *Block) Take(n int) unsafe.Pointer {
	if n <= 0 || b.off+Len(n) > len(b.buf) {
		panic("block: block too small")
	}
	p := unsafe.Pointer(&b.buf[b.off])
	b.off += Len(n)
	return p
}

// Int8s returns the next n int8 (Take(n)).
func (b *Block) Int8s(n int) []int8 { return unsafe.Slice((*int8)(b.Take(n)), n) }

// Uint8s returns the next n uint8 (Take(n)).
func (b *Block) Uint8s(n int) []uint8 { return unsafe.Slice((*uint8)(b.Take(n)), n) }

// Uint16s returns the next n uint16 (Take(2n)).
func (b *Block) Uint16s(n int) []uint16 { return unsafe.Slice((*uint16)(b.Take(2*n)), n) }

// Int32s returns the next n int32 (Take(4n)).
func (b *Block) Int32s(n int) []int32 { return unsafe.Slice((*int32)(b.Take(4*n)), n) }

// Float32s returns the next n float32 (Take(4n)).
func (b *Block) Float32s(n int) []float32 { return unsafe.Slice((*float32)(b.Take(4*n)), n) }
