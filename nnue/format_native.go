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

// decodeNative parses a whole native file.
func decodeNative(data []byte) (*Network, error) {
	d := &decoder{format: nativeFormat, data: data}
	if len(data) < len(NativeMagic)+4+4 {
		return nil, d.errf("header", "file of %d bytes is too short", len(data))
	}
	body := data[:len(data)-4]
	if sum, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(data)-4:]); sum != want {
		d.off = len(body)
		return nil, d.errf("checksum", "CRC-32C %08x stored, %08x computed", want, sum)
	}
	d.data = body // the checksum is not part of the fields
	return readNative(d)
}

// readNative reads a native file from d, starting at the magic, straight into the
// network's arrays. For an in-memory decoder the checksum has been verified and removed
// by the caller; for a stream it is computed while reading and compared at the end. The
// architecture string declares every size; the bytes it declares are checked against the
// input's size (when known) before anything is allocated.
func readNative(d *decoder) (*Network, error) {
	magic, err := d.bytes("magic", len(NativeMagic))
	if err != nil {
		return nil, err
	}
	if string(magic) != NativeMagic {
		d.off = 0
		return nil, d.errf("magic", "not %q", NativeMagic)
	}
	v, err := d.u32("version")
	if err != nil {
		return nil, err
	}
	if v != NativeVersion {
		d.off -= 4
		return nil, d.errf("version", "version %d not supported (want %d)", v, NativeVersion)
	}
	str := func(field string, limit int) (string, error) {
		n, err := d.u32(field + " length")
		if err != nil {
			return "", err
		}
		if int64(n) > int64(limit) {
			d.off -= 4
			return "", d.errf(field+" length", "%d exceeds %d", n, limit)
		}
		b, err := d.bytes(field, int(n))
		if err != nil {
			return "", err
		}
		if !utf8.Valid(b) {
			d.off -= len(b)
			return "", d.errf(field, "not valid UTF-8")
		}
		return string(b), nil
	}
	archText, err := str("architecture", maxSpecLen)
	if err != nil {
		return nil, err
	}
	archOff := d.off - len(archText)
	spec, err := ParseSpec(archText)
	if err != nil {
		d.off = archOff
		return nil, d.errf("architecture", "%v", err)
	}
	sh, _ := spec.shape()
	desc, err := str("description", maxDescription)
	if err != nil {
		return nil, err
	}
	quant, err := str("quantization", maxQuantText)
	if err != nil {
		return nil, err
	}
	if err := d.need("parameters", sh.params, 1); err != nil {
		return nil, err
	}
	fa, a, err := spec.build(true)
	if err != nil {
		d.off = archOff
		return nil, d.errf("architecture", "%v", err)
	}
	a.Quantization = quant
	field := "feature transformer"
	read := func(p any) {
		if err != nil {
			return
		}
		switch p := p.(type) {
		case *[]int8:
			err = d.i8s(field, *p)
		case *[]int16:
			err = d.i16s(field, *p)
		case *[]int32:
			err = d.i32s(field, *p)
		case *[]float32:
			err = d.f32s(field, *p)
		}
	}
	fa.params(read)
	for b, st := range a.Stacks {
		for i, l := range st {
			field = fmt.Sprintf("bucket %d stage %d %v", b, i, spec.Stack[i])
			layerParams(l, read)
		}
	}
	if err != nil {
		return nil, err
	}
	if d.r == nil {
		if d.remaining() != 0 {
			return nil, d.errf("end", "%d unexpected bytes before the checksum", d.remaining())
		}
	} else {
		sum := d.crc.Sum32()
		d.crc = nil
		if d.size >= 0 && d.remaining() != 4 {
			return nil, d.errf("end", "%d unexpected bytes before the checksum", d.remaining()-4)
		}
		stored, err := d.u32("checksum")
		if err != nil {
			return nil, err
		}
		if stored != sum {
			d.off -= 4
			return nil, d.errf("checksum", "CRC-32C %08x stored, %08x computed", stored, sum)
		}
		if !d.atEOF() {
			return nil, d.errf("end", "trailing bytes after the checksum")
		}
	}
	net, err := NewNetwork(fa.transformer(), a, desc)
	if err != nil {
		return nil, &FormatError{Format: nativeFormat, Field: "architecture", Offset: int64(archOff), Msg: err.Error()}
	}
	return net, nil
}
