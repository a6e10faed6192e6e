package nnue

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"unicode/utf8"

	"github.com/nnuekit/nnuekit/featureset"
)

// The native nnuekit format stores any composition of this package's layers. All integers
// are little-endian; strings are a length followed by UTF-8 bytes.
//
//	magic        8 bytes "NNUEKIT\x00"
//	u32          version (NativeVersion)
//	u16 + bytes  feature-set spec (featureset.Parse; its Size() gives NF)
//	u32 + bytes  description (≤ 1 MiB)
//	u32 + bytes  quantization scheme (≤ 64 KiB)
//	u32          accumulator width M
//	u32          PSQT buckets B (0: none)
//	i16[NF·M]    feature transformer weights, feature-major
//	i16[M]       feature transformer bias
//	i32[NF·B]    PSQT weights, feature-major
//	u32, i32, i32  Buckets N, Sub, Div
//	i32          PSQTDiv
//	u8, i32, i32   OutputScale Shift, Mul, Div
//	i32          PawnValue
//	u32          number of layer stacks, then per stack: u32 layer count, then the layers
//	u32          CRC-32 (IEEE) of every preceding byte
//
// A layer is a tag byte and its fields:
//
//	1 Perspective     u8 WhiteFirst
//	2 ClippedReLU     u8 Input kind, u8 Shift
//	3 SqrClippedReLU  u8 Shift
//	4 PairwiseMul     —
//	5 Affine          u32 In, u32 Out, i8[Out·pad32(In)] weights, i32[Out] bias
//	6 SCReLU          i16 QA, i32 Div, u32 In (2M), u32 Out, i16[Out·In] weights, i32[Out] bias
//	7 Concat          u8 part count (1–8), then the parts (not Concat)
//	8 Forward         i32 Mul, i32 Div
//
// The file must end right after the checksum.

// NativeMagic starts every native nnuekit network file.
const NativeMagic = "NNUEKIT\x00"

// NativeVersion is the version written by WriteNative and the only one Decode accepts.
const NativeVersion = 1

const nativeFormat = "nnuekit"

const (
	tagPerspective = 1 + iota
	tagClippedReLU
	tagSqrClippedReLU
	tagPairwiseMul
	tagAffine
	tagSCReLU
	tagConcat
	tagForward
)

const (
	maxStacks      = 64
	maxStackLayers = 32
	maxDescription = 1 << 20
	maxQuantText   = 1 << 16
)

func init() {
	registerFormat(format{
		name:   nativeFormat,
		detect: func(h []byte) bool { return bytes.HasPrefix(h, []byte(NativeMagic)) },
		decode: decodeNative,
	})
}

// WriteNative writes n in the native nnuekit format.
func WriteNative(w io.Writer, n *Network) error {
	if len(n.arch.Buckets.Table) > 0 {
		return fmt.Errorf("nnue: WriteNative: a piece-count bucket table cannot be stored in the native format")
	}
	e := &encoder{}
	e.buf = append(e.buf, NativeMagic...)
	e.u32(NativeVersion)
	spec := n.ft.set.String()
	if len(spec) > 0xffff {
		return fmt.Errorf("nnue: WriteNative: feature-set spec longer than 65535 bytes")
	}
	if len(n.description) > maxDescription || len(n.arch.Quantization) > maxQuantText {
		return fmt.Errorf("nnue: WriteNative: description or quantization text too long")
	}
	e.u16(uint16(len(spec)))
	e.buf = append(e.buf, spec...)
	e.u32(uint32(len(n.description)))
	e.buf = append(e.buf, n.description...)
	e.u32(uint32(len(n.arch.Quantization)))
	e.buf = append(e.buf, n.arch.Quantization...)
	ft := n.ft
	e.u32(uint32(ft.width))
	e.u32(uint32(ft.psqtBuckets))
	e.i16s(ft.weights)
	e.i16s(ft.bias)
	e.i32s(ft.psqt)
	a := n.arch
	e.u32(uint32(a.Buckets.N))
	e.i32(int32(a.Buckets.Sub))
	e.i32(int32(a.Buckets.Div))
	e.i32(a.PSQTDiv)
	e.u8(a.Output.Shift)
	e.i32(a.Output.Mul)
	e.i32(a.Output.Div)
	e.i32(a.PawnValue)
	e.u32(uint32(len(a.Stacks)))
	for b, st := range a.Stacks {
		e.u32(uint32(len(st)))
		size := ft.width
		for i, l := range st {
			if err := l.encode(e, size); err != nil {
				return fmt.Errorf("nnue: WriteNative: stack %d layer %d: %w", b, i, err)
			}
			size = n.sizes[b][i]
		}
	}
	e.u32(crc32.ChecksumIEEE(e.buf))
	_, err := w.Write(e.buf)
	return err
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// decodeNative parses a whole native file.
func decodeNative(data []byte) (*Network, error) {
	d := &decoder{format: nativeFormat, data: data}
	if len(data) < len(NativeMagic)+4+4 {
		return nil, d.errf("header", "file of %d bytes is too short", len(data))
	}
	body := data[:len(data)-4]
	if sum, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(data)-4:]); sum != want {
		d.off = len(body)
		return nil, d.errf("checksum", "CRC-32 %08x stored, %08x computed", want, sum)
	}
	d.data = body // the checksum is not part of the fields
	return readNative(d)
}

// readNative reads a native file from d, starting at the magic, straight into the
// network's arrays. For an in-memory decoder the checksum has been verified and removed
// by the caller; for a stream it is computed while reading and compared at the end.
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
	sl, err := d.u16("feature-set spec length")
	if err != nil {
		return nil, err
	}
	sb, err := d.bytes("feature-set spec", int(sl))
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(sb) {
		d.off -= len(sb)
		return nil, d.errf("feature-set spec", "not valid UTF-8")
	}
	set, err := featureset.Parse(string(sb))
	if err != nil {
		d.off -= len(sb)
		return nil, d.errf("feature-set spec", "%v", err)
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
	desc, err := str("description", maxDescription)
	if err != nil {
		return nil, err
	}
	quant, err := str("quantization", maxQuantText)
	if err != nil {
		return nil, err
	}
	width, err := d.u32("width")
	if err != nil {
		return nil, err
	}
	nb, err := d.u32("PSQT buckets")
	if err != nil {
		return nil, err
	}
	nf := set.Size()
	if width > maxWidth || nb > 64 {
		d.off -= 8
		return nil, d.errf("width", "width %d or PSQT buckets %d out of range", width, nb)
	}
	if err := checkFTDims(nf, int(width), int(nb)); err != nil {
		d.off -= 8
		return nil, d.errf("width", "%v", err)
	}
	m := int(width)
	if err := d.need("feature transformer weights", int64(nf)*int64(m), 2); err != nil {
		return nil, err
	}
	w := alignedInt16(nf * m)
	if err := d.i16s("feature transformer weights", w); err != nil {
		return nil, err
	}
	bias := alignedInt16(m)
	if err := d.i16s("feature transformer bias", bias); err != nil {
		return nil, err
	}
	var psqt []int32
	if nb > 0 {
		if err := d.need("PSQT weights", int64(nf)*int64(nb), 4); err != nil {
			return nil, err
		}
		psqt = alignedInt32(nf * int(nb))
		if err := d.i32s("PSQT weights", psqt); err != nil {
			return nil, err
		}
	}
	var a Architecture
	a.Quantization = quant
	var u uint32
	var i int32
	if u, err = d.u32("buckets N"); err != nil {
		return nil, err
	}
	if u > maxStacks {
		d.off -= 4
		return nil, d.errf("buckets N", "%d exceeds %d", u, maxStacks)
	}
	a.Buckets.N = int(u)
	if i, err = d.i32("buckets Sub"); err != nil {
		return nil, err
	}
	a.Buckets.Sub = int(i)
	if i, err = d.i32("buckets Div"); err != nil {
		return nil, err
	}
	a.Buckets.Div = int(i)
	if a.PSQTDiv, err = d.i32("PSQT divisor"); err != nil {
		return nil, err
	}
	if a.Output.Shift, err = d.u8("output shift"); err != nil {
		return nil, err
	}
	if a.Output.Shift > 31 {
		d.off--
		return nil, d.errf("output shift", "%d exceeds 31", a.Output.Shift)
	}
	if a.Output.Mul, err = d.i32("output multiplier"); err != nil {
		return nil, err
	}
	if a.Output.Div, err = d.i32("output divisor"); err != nil {
		return nil, err
	}
	if a.PawnValue, err = d.i32("pawn value"); err != nil {
		return nil, err
	}
	ns, err := d.u32("stack count")
	if err != nil {
		return nil, err
	}
	if ns == 0 || ns > maxStacks {
		d.off -= 4
		return nil, d.errf("stack count", "%d out of range [1, %d]", ns, maxStacks)
	}
	for b := 0; b < int(ns); b++ {
		nl, err := d.u32(fmt.Sprintf("stack %d layer count", b))
		if err != nil {
			return nil, err
		}
		if nl == 0 || nl > maxStackLayers {
			d.off -= 4
			return nil, d.errf(fmt.Sprintf("stack %d layer count", b), "%d out of range [1, %d]", nl, maxStackLayers)
		}
		st := make([]Layer, 0, nl)
		kind, size := KindAccumulator, m
		for k := 0; k < int(nl); k++ {
			field := fmt.Sprintf("stack %d layer %d", b, k)
			start := d.off
			l, err := decodeLayer(d, field, size, false)
			if err != nil {
				return nil, err
			}
			if l.InputKind() != kind {
				d.off = start
				return nil, d.errf(field, "%v reads %v but receives %v", l, l.InputKind(), kind)
			}
			n, err := l.OutputSize(size)
			if err != nil {
				d.off = start
				return nil, d.errf(field, "%v", err)
			}
			kind, size = l.OutputKind(), n
			st = append(st, l)
		}
		a.Stacks = append(a.Stacks, st)
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
			return nil, d.errf("checksum", "CRC-32 %08x stored, %08x computed", stored, sum)
		}
		if !d.atEOF() {
			return nil, d.errf("end", "trailing bytes after the checksum")
		}
	}
	ft := newFT(set, m, w, bias, int(nb), psqt)
	net, err := NewNetwork(ft, a, desc)
	if err != nil {
		return nil, &FormatError{Format: nativeFormat, Field: "architecture", Offset: int64(d.off), Msg: err.Error()}
	}
	return net, nil
}

// decodeLayer reads one layer record whose input has inSize logical elements, dispatching
// on the tag to the reader in the layer's own file.
func decodeLayer(d *decoder, field string, inSize int, inConcat bool) (Layer, error) {
	tag, err := d.u8(field + " tag")
	if err != nil {
		return nil, err
	}
	switch tag {
	case tagPerspective:
		return decodePerspective(d, field)
	case tagClippedReLU:
		return decodeClippedReLU(d, field)
	case tagSqrClippedReLU:
		return decodeSqrClippedReLU(d, field)
	case tagPairwiseMul:
		return PairwiseMul{}, nil
	case tagAffine:
		return decodeAffine(d, field)
	case tagSCReLU:
		return decodeSCReLU(d, field, inSize)
	case tagConcat:
		if inConcat {
			d.off--
			return nil, d.errf(field, "nested Concat")
		}
		return decodeConcat(d, field, inSize)
	case tagForward:
		return decodeForward(d, field)
	}
	d.off--
	return nil, d.errf(field+" tag", "unknown layer tag %d", tag)
}
