package nnue

import (
	"encoding/binary"
	"fmt"
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

// decoder reads little-endian fields from an in-memory file. Every read checks the remaining
// length first, so no allocation exceeds what the input actually contains.
type decoder struct {
	format string
	data   []byte
	off    int
}

func (d *decoder) errf(field, format string, args ...any) error {
	return &FormatError{Format: d.format, Field: field, Offset: int64(d.off), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) remaining() int { return len(d.data) - d.off }

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

func (d *decoder) u8(field string) (uint8, error) {
	if err := d.need(field, 1, 1); err != nil {
		return 0, err
	}
	v := d.data[d.off]
	d.off++
	return v, nil
}

func (d *decoder) u16(field string) (uint16, error) {
	if err := d.need(field, 1, 2); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint16(d.data[d.off:])
	d.off += 2
	return v, nil
}

func (d *decoder) u32(field string) (uint32, error) {
	if err := d.need(field, 1, 4); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint32(d.data[d.off:])
	d.off += 4
	return v, nil
}

func (d *decoder) i32(field string) (int32, error) {
	v, err := d.u32(field)
	return int32(v), err
}

func (d *decoder) i16s(field string, dst []int16) error {
	if err := d.need(field, int64(len(dst)), 2); err != nil {
		return err
	}
	b := d.data[d.off:]
	for i := range dst {
		dst[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	d.off += 2 * len(dst)
	return nil
}

func (d *decoder) i32s(field string, dst []int32) error {
	if err := d.need(field, int64(len(dst)), 4); err != nil {
		return err
	}
	b := d.data[d.off:]
	for i := range dst {
		dst[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	d.off += 4 * len(dst)
	return nil
}

func (d *decoder) i8s(field string, dst []int8) error {
	if err := d.need(field, int64(len(dst)), 1); err != nil {
		return err
	}
	for i, b := range d.data[d.off : d.off+len(dst)] {
		dst[i] = int8(b)
	}
	d.off += len(dst)
	return nil
}

func (d *decoder) bytes(field string, n int) ([]byte, error) {
	if err := d.need(field, int64(n), 1); err != nil {
		return nil, err
	}
	b := d.data[d.off : d.off+n]
	d.off += n
	return b, nil
}

// encoder appends little-endian fields.
type encoder struct{ buf []byte }

func (e *encoder) u8(v uint8)   { e.buf = append(e.buf, v) }
func (e *encoder) u16(v uint16) { e.buf = binary.LittleEndian.AppendUint16(e.buf, v) }
func (e *encoder) u32(v uint32) { e.buf = binary.LittleEndian.AppendUint32(e.buf, v) }
func (e *encoder) i32(v int32)  { e.u32(uint32(v)) }
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
func (e *encoder) i8s(v []int8) {
	for _, x := range v {
		e.buf = append(e.buf, byte(x))
	}
}
