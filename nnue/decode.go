package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"math"
	"unsafe"
)

// FormatError reports malformed network data: the format, the field being read and the byte
// offset where it starts.
type FormatError struct {
	Format string // "thesis", "nnuekit", …
	Field  string // e.g. "L2 weights"
	Offset int64  // byte offset of the field in the input
	Msg    string // what is wrong
}

// Error formats the error as "nnue: <format> format: <field> at byte <offset>: <msg>".
func (e *FormatError) Error() string {
	return fmt.Sprintf("nnue: %s format: %s at byte %d: %s", e.Format, e.Field, e.Offset, e.Msg)
}

// decoder is the one binary reader of the loaders (native, thesis, Stockfish): it reads
// little-endian fields from a stream straight into their final arrays (in bulk on a
// little-endian host), checks every declared size against the bytes that remain before
// allocating when the input's size is known, and reports the first error as a
// *FormatError naming the format, the field and its byte offset. Errors are sticky: after
// one, every read returns zero values and false, and err holds the error, so a reader
// checks err once after a run of fields. For a stream of unknown size (size −1),
// allocations are bounded by the counts the header declares (themselves bounded by each
// format's limits). It reads no byte beyond the last field it is asked for (the one-byte
// look-ahead of atEOF on a stream of unknown size excepted), so a network can be read from
// a longer stream.
type decoder struct {
	format  string
	r       io.Reader
	ahead   []byte      // bytes peeked from r, not yet consumed
	off     int64       // bytes consumed
	size    int64       // total input size (−1: unknown)
	crc     hash.Hash32 // when non-nil, every byte read is added
	err     error
	scratch []byte
}

// newDecoder returns a decoder of format over r, which holds size bytes (−1: unknown).
func newDecoder(format string, r io.Reader, size int64) *decoder {
	return &decoder{format: format, r: r, size: size}
}

// bytesDecoder returns a decoder of format over data.
func bytesDecoder(format string, data []byte) *decoder {
	return newDecoder(format, bytes.NewReader(data), int64(len(data)))
}

// failAt records the error for field at byte off unless an error is already recorded.
func (d *decoder) failAt(off int64, field, format string, a ...any) {
	if d.err == nil {
		d.err = &FormatError{Format: d.format, Field: field, Offset: off, Msg: fmt.Sprintf(format, a...)}
	}
}

// fail records the error for field at the current offset.
func (d *decoder) fail(field, format string, a ...any) { d.failAt(d.off, field, format, a...) }

// remaining returns the bytes left (math.MaxInt64 when the size is unknown).
func (d *decoder) remaining() int64 {
	if d.size < 0 {
		return math.MaxInt64
	}
	return d.size - d.off
}

// need checks that n more bytes exist.
func (d *decoder) need(field string, n int64) bool {
	if d.err != nil {
		return false
	}
	if rem := d.remaining(); n > rem || n < 0 {
		d.fail(field, "truncated: needs %d bytes, %d remain", n, rem)
		return false
	}
	return true
}

// read fills dst.
func (d *decoder) read(field string, dst []byte) bool {
	if !d.need(field, int64(len(dst))) {
		return false
	}
	n := copy(dst, d.ahead)
	d.ahead = d.ahead[n:]
	var err error
	if n < len(dst) {
		var k int
		k, err = io.ReadFull(d.r, dst[n:])
		n += k
	}
	if err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			d.fail(field, "truncated: needs %d bytes, %d remain", len(dst), n)
		} else {
			d.fail(field, "reading %d bytes: %v", len(dst), err)
		}
		return false
	}
	if d.crc != nil {
		d.crc.Write(dst)
	}
	d.off += int64(n)
	return true
}

// peek returns the next n bytes without consuming them, or nil when fewer remain.
func (d *decoder) peek(n int) []byte {
	if d.err != nil || d.remaining() < int64(n) {
		return nil
	}
	if k := len(d.ahead); k < n {
		d.ahead = append(d.ahead, make([]byte, n-k)...)
		m, _ := io.ReadFull(d.r, d.ahead[k:])
		d.ahead = d.ahead[:k+m]
		if k+m < n {
			return nil
		}
	}
	return d.ahead[:n]
}

// atEOF reports whether the input ends at the current offset.
func (d *decoder) atEOF() bool {
	if d.size >= 0 {
		return d.remaining() == 0
	}
	return d.peek(1) == nil
}

func (d *decoder) u8(field string) uint8 {
	var b [1]byte
	d.read(field, b[:])
	return b[0]
}

func (d *decoder) u32(field string) uint32 {
	var b [4]byte
	if !d.read(field, b[:]) {
		return 0
	}
	return binary.LittleEndian.Uint32(b[:])
}

// hostLittleEndian reports a little-endian host, where arrays are read in bulk.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// fill reads len(dst) elements into dst, a []int8, []int16, []int32 or []float32.
func (d *decoder) fill(field string, dst any) bool {
	var b []byte
	var size int
	switch v := dst.(type) {
	case []int8:
		b, size = int8Bytes(v), 1
	case []int16:
		b, size = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 2*len(v)), 2
	case []int32:
		b, size = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v)), 4
	case []float32:
		b, size = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v)), 4
	default:
		panic(fmt.Sprintf("nnue: decoder.fill of %T", dst))
	}
	if !d.read(field, b) {
		return false
	}
	if !hostLittleEndian {
		switch size {
		case 2:
			for i := 0; i < len(b); i += 2 {
				binary.NativeEndian.PutUint16(b[i:], binary.LittleEndian.Uint16(b[i:]))
			}
		case 4:
			for i := 0; i < len(b); i += 4 {
				binary.NativeEndian.PutUint32(b[i:], binary.LittleEndian.Uint32(b[i:]))
			}
		}
	}
	return true
}

// i8s, i16s and i32s read n elements into a new 64-byte-aligned array, allocated only
// after the bytes have been checked against what remains (nil after an error).
func (d *decoder) i8s(field string, n int) []int8 { return readArray(d, field, n, alignedInt8) }

func (d *decoder) i16s(field string, n int) []int16 { return readArray(d, field, n, alignedInt16) }

func (d *decoder) i32s(field string, n int) []int32 { return readArray(d, field, n, alignedInt32) }

// readArray is i8s, i16s and i32s: n elements of T into alloc(n).
func readArray[T int8 | int16 | int32](d *decoder, field string, n int, alloc func(int) []T) []T {
	if !d.need(field, int64(n)*int64(unsafe.Sizeof(T(0)))) {
		return nil
	}
	out := alloc(n)
	if !d.fill(field, out) {
		return nil
	}
	return out
}

// int8Bytes views an int8 slice as bytes.
func int8Bytes(v []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// encoder appends little-endian fields.
type encoder struct{ buf []byte }

func (e *encoder) u8(v uint8)   { e.buf = append(e.buf, v) }
func (e *encoder) u32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) i16s(v []int16) {
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(x))
	}
}
func (e *encoder) i32s(v []int32) {
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(x))
	}
}
func (e *encoder) f32s(v []float32) {
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, math.Float32bits(x))
	}
}
func (e *encoder) i8s(v []int8) {
	for _, x := range v {
		e.buf = append(e.buf, byte(x))
	}
}
