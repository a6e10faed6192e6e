package nnue

import (
	"encoding/binary"
	"fmt"
	"hash"
	"io"
	"math"
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

// decoder reads little-endian fields, either from an in-memory file (data) or from a
// stream (r) straight into the destination arrays. Every read checks the remaining length
// first when it is known (data, or size ≥ 0), so no allocation exceeds what the input
// actually contains; for a stream of unknown size, allocations are bounded by the counts
// the header declares (themselves bounded by each format's limits).
type decoder struct {
	format string
	data   []byte
	off    int
	r      io.Reader   // when non-nil, fields come from r and data is unused
	size   int64       // bytes r holds from offset 0 (-1: unknown)
	crc    hash.Hash32 // when non-nil, every byte read from r is added
	buf    []byte      // scratch for r (≤ 16 KiB, or one string field)
}

func (d *decoder) errf(field, format string, args ...any) error {
	return &FormatError{Format: d.format, Field: field, Offset: int64(d.off), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) remaining() int {
	if d.r == nil {
		return len(d.data) - d.off
	}
	if d.size < 0 {
		return math.MaxInt
	}
	return int(d.size - int64(d.off))
}

// need checks that count elements of size bytes each are available.
func (d *decoder) need(field string, count int64, size int64) error {
	if count < 0 {
		return d.errf(field, "negative element count %d", count)
	}
	if count > math.MaxInt64/size || count*size > int64(d.remaining()) {
		return d.errf(field, "truncated: needs %d×%d bytes, %d remain", count, size, d.remaining())
	}
	return nil
}

// chunk is the largest piece take reads from a stream at once.
const chunk = 16 << 10

// take returns the next n bytes (n ≤ chunk for streams, except string fields) and
// advances; the slice is valid until the next call.
func (d *decoder) take(field string, n int) ([]byte, error) {
	if err := d.need(field, int64(n), 1); err != nil {
		return nil, err
	}
	if d.r == nil {
		b := d.data[d.off : d.off+n]
		d.off += n
		return b, nil
	}
	if cap(d.buf) < n {
		d.buf = make([]byte, max(n, 512))
	}
	b := d.buf[:n]
	if k, err := io.ReadFull(d.r, b); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, d.errf(field, "truncated: needs %d bytes, %d remain", n, k)
		}
		return nil, d.errf(field, "reading: %v", err)
	}
	if d.crc != nil {
		d.crc.Write(b)
	}
	d.off += n
	return b, nil
}

// atEOF reports whether the input ends at the current offset (for a stream, by trying
// to read one more byte).
func (d *decoder) atEOF() bool {
	if d.r == nil || d.size >= 0 {
		return d.remaining() == 0
	}
	var one [1]byte
	n, _ := io.ReadFull(d.r, one[:])
	return n == 0
}

func (d *decoder) u8(field string) (uint8, error) {
	b, err := d.take(field, 1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (d *decoder) u32(field string) (uint32, error) {
	b, err := d.take(field, 4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// array reads len(dst)·size bytes into dst in pieces of at most chunk bytes; put converts
// one piece starting at element i.
func (d *decoder) array(field string, count, size int, put func(i int, b []byte)) error {
	if err := d.need(field, int64(count), int64(size)); err != nil {
		return err
	}
	start := d.off
	per := chunk / size
	for i := 0; i < count; i += per {
		k := min(per, count-i)
		b, err := d.take(field, k*size)
		if err != nil {
			d.off = start
			return err
		}
		put(i, b)
	}
	return nil
}

func (d *decoder) i16s(field string, dst []int16) error {
	return d.array(field, len(dst), 2, func(i int, b []byte) {
		for j := range len(b) / 2 {
			dst[i+j] = int16(binary.LittleEndian.Uint16(b[2*j:]))
		}
	})
}

func (d *decoder) i32s(field string, dst []int32) error {
	return d.array(field, len(dst), 4, func(i int, b []byte) {
		for j := range len(b) / 4 {
			dst[i+j] = int32(binary.LittleEndian.Uint32(b[4*j:]))
		}
	})
}

func (d *decoder) f32s(field string, dst []float32) error {
	return d.array(field, len(dst), 4, func(i int, b []byte) {
		for j := range len(b) / 4 {
			dst[i+j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
		}
	})
}

func (d *decoder) i8s(field string, dst []int8) error {
	return d.array(field, len(dst), 1, func(i int, b []byte) {
		for j, x := range b {
			dst[i+j] = int8(x)
		}
	})
}

// bytes returns the next n bytes (valid until the next read).
func (d *decoder) bytes(field string, n int) ([]byte, error) { return d.take(field, n) }

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
