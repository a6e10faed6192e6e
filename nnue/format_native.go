package nnue

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"unicode/utf8"
)

// The native nnuekit format stores any network whose architecture can be declared (Spec):
// the canonical architecture string, then every parameter array in the order the Spec
// defines. All integers are little-endian; strings are a u32 length followed by UTF-8 bytes.
//
//	magic        8 bytes "NNUEKIT\x00"
//	u32          version (NativeVersion, 2)
//	u32 + bytes  architecture (Spec.String, ≤ 64 KiB; ParseSpec gives every size below)
//	u32 + bytes  description (≤ 1 MiB)
//	u32 + bytes  quantization scheme (≤ 64 KiB)
//	i8[R8·M]     int8 feature rows (the int8-row inputs, R8 features), feature-major
//	i16[R16·M]   int16 feature rows, feature-major
//	i16[M]       feature transformer bias
//	i32[NF·B]    PSQT weights, feature-major (B = psqt, absent without PSQT)
//	per bucket, per stage of the stack (nested stages in order): the stage's arrays
//	u32          CRC-32C (Castagnoli) of every preceding byte
//
// The stages' arrays (spec_ops.go layerParams): affine.i8(out) i8[out·pad32(in)] weights
// (row-major, each row padded with zeros to a multiple of 32) and i32[out] bias;
// screlu_affine.i16 i16[out·in] weights and i32[out] bias; crelu_affine.i16 i16[in]
// weights and one i32 bias; dense the arrays of its three affine stages; the other
// stages have none. The file must end right after the checksum.
//
// The checksum is CRC-32C: it detects every error of up to 3 flipped bits in files up
// to 2^31 bits (256 MiB, MaxFileSize), and every burst of up to 32 bits, which covers
// the accidental corruption (storage, transfer, truncation) a network file meets; it is
// not a defence against deliberate tampering, which a signature would be. Go's
// hash/crc32 computes it with the CPU's CRC32 instruction (SSE 4.2, ARMv8), so checking
// a 45 MB network costs a few milliseconds.

// NativeMagic starts every native nnuekit network file.
const NativeMagic = "NNUEKIT\x00"

// NativeVersion is the version written by WriteNative and the only one Decode accepts.
const NativeVersion = 2

const nativeFormat = "nnuekit"

const (
	maxStacks      = 64
	maxStackLayers = 32
	maxDescription = 1 << 20
	maxQuantText   = 1 << 16
)

// castagnoli is the CRC-32C table of the native format's checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteNative writes n in the native nnuekit format. It returns an error, and writes
// nothing, when n's architecture cannot be declared (Network.Spec's error: a feature set
// that does not parse back, stacks that differ between buckets) or its texts exceed the
// format's limits; otherwise the error of w.Write.
func WriteNative(w io.Writer, n *Network) error {
	spec, err := n.Spec()
	if err != nil {
		return fmt.Errorf("nnue: WriteNative: %w", err)
	}
	arch := spec.String()
	if len(arch) > maxSpecLen || len(n.description) > maxDescription || len(n.arch.Quantization) > maxQuantText {
		return fmt.Errorf("nnue: WriteNative: architecture, description or quantization text too long")
	}
	e := &encoder{}
	e.buf = append(e.buf, NativeMagic...)
	e.u32(NativeVersion)
	for _, t := range []string{arch, n.description, n.arch.Quantization} {
		e.u32(uint32(len(t)))
		e.buf = append(e.buf, t...)
	}
	ftArraysOf(n.ft).params(e.param)
	for _, st := range n.arch.Stacks {
		for _, l := range st {
			layerParams(l, e.param)
		}
	}
	e.u32(crc32.Checksum(e.buf, castagnoli))
	_, err = w.Write(e.buf)
	return err
}

// param appends one parameter array (*[]int8, *[]int16, *[]int32 or *[]float32).
func (e *encoder) param(p any) {
	switch p := p.(type) {
	case *[]int8:
		e.i8s(*p)
	case *[]int16:
		e.i16s(*p)
	case *[]int32:
		e.i32s(*p)
	case *[]float32:
		e.f32s(*p)
	}
}

// decodeNative parses a whole native file: its checksum first, then its fields.
func decodeNative(data []byte) (*Network, error) {
	d := bytesDecoder(nativeFormat, data)
	if len(data) < len(NativeMagic)+4+4 {
		d.fail("header", "file of %d bytes is too short", len(data))
		return nil, d.err
	}
	body := data[:len(data)-4]
	if sum, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(data)-4:]); sum != want {
		d.failAt(int64(len(body)), "checksum", "CRC-32C %08x stored, %08x computed", want, sum)
		return nil, d.err
	}
	return readNative(bytesDecoder(nativeFormat, body)) // the checksum is not part of the fields
}

// readNative reads a native file from d, starting at the magic, straight into the
// network's arrays. Without d.crc the checksum has been verified and removed by the
// caller; with it, it is computed while reading and compared at the end. The
// architecture string declares every size; the bytes it declares are checked against the
// input's size (when known) before anything is allocated.
func readNative(d *decoder) (*Network, error) {
	var magic [len(NativeMagic)]byte
	if !d.read("magic", magic[:]) {
		return nil, d.err
	}
	if string(magic[:]) != NativeMagic {
		d.failAt(0, "magic", "not %q", NativeMagic)
		return nil, d.err
	}
	if v := d.u32("version"); d.err == nil && v != NativeVersion {
		d.failAt(d.off-4, "version", "version %d not supported (want %d)", v, NativeVersion)
	}
	str := func(field string, limit int) string {
		n := d.u32(field + " length")
		if d.err != nil {
			return ""
		}
		if int64(n) > int64(limit) {
			d.failAt(d.off-4, field+" length", "%d exceeds %d", n, limit)
			return ""
		}
		b := make([]byte, n)
		if !d.read(field, b) {
			return ""
		}
		if !utf8.Valid(b) {
			d.failAt(d.off-int64(n), field, "not valid UTF-8")
			return ""
		}
		return string(b)
	}
	archText := str("architecture", maxSpecLen)
	archOff := d.off - int64(len(archText))
	if d.err != nil {
		return nil, d.err
	}
	spec, err := ParseSpec(archText)
	if err != nil {
		d.failAt(archOff, "architecture", "%v", err)
		return nil, d.err
	}
	sh, _ := spec.shape()
	desc := str("description", maxDescription)
	quant := str("quantization", maxQuantText)
	if !d.need("parameters", sh.params) {
		return nil, d.err
	}
	fa, a, err := spec.build(true)
	if err != nil {
		d.failAt(archOff, "architecture", "%v", err)
		return nil, d.err
	}
	a.Quantization = quant
	field := "feature transformer"
	read := func(p any) {
		switch p := p.(type) {
		case *[]int8:
			d.fill(field, *p)
		case *[]int16:
			d.fill(field, *p)
		case *[]int32:
			d.fill(field, *p)
		case *[]float32:
			d.fill(field, *p)
		}
	}
	fa.params(read)
	for b, st := range a.Stacks {
		for i, l := range st {
			field = fmt.Sprintf("bucket %d stage %d %v", b, i, spec.Stack[i])
			layerParams(l, read)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if d.crc == nil {
		if d.remaining() != 0 {
			d.fail("end", "%d unexpected bytes before the checksum", d.remaining())
		}
	} else {
		sum := d.crc.Sum32()
		d.crc = nil
		if d.size >= 0 && d.remaining() != 4 {
			d.fail("end", "%d unexpected bytes before the checksum", d.remaining()-4)
		}
		if stored := d.u32("checksum"); d.err == nil && stored != sum {
			d.failAt(d.off-4, "checksum", "CRC-32C %08x stored, %08x computed", stored, sum)
		}
		if d.err == nil && !d.atEOF() {
			d.fail("end", "trailing bytes after the checksum")
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	net, err := NewNetwork(fa.transformer(), a, desc)
	if err != nil {
		return nil, &FormatError{Format: nativeFormat, Field: "architecture", Offset: int64(archOff), Msg: err.Error()}
	}
	return net, nil
}
