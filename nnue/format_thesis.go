package nnue

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/nnuekit/nnuekit/featureset"
)

// The thesis .nn format (mlomb/cs-master-thesis, ../shared/thesis-models/README.md), all
// integers little-endian:
//
//	name      feature-set name, UTF-8, terminated by one 0x00 byte
//	u32       NF, number of features (must equal featureset.Parse(name).Size())
//	u32       L1 (accumulator width per perspective)
//	u32       L2 (hidden layer width)
//	i16[NF·L1] feature transformer weights, feature-major
//	i16[L1]   feature transformer bias
//	i8[L2·2L1] hidden weights, row-major [out][in]
//	i32[L2]   hidden bias
//	i8[L2]    output weights
//	i32       output bias
//
// Evaluation: acc int16 with wraparound; in = [clamp(acc_stm,0,127) | clamp(acc_other,0,127)];
// h = clamp((b2 + W2·in) >> 6, 0, 127); out = (b3 + W3·h) >> 4, ≈ centipawns for the side to
// move. Quantization (scripts/lib/serialize.py): W1, b1 ×127; W2 ×64, b2 ×64·127; W3 ×16/127,
// b3 ×16 — i.e. the output is 16× the float network's output in centipawns, hence >> 4.

const thesisFormat = "thesis"

// maxNameLen bounds the feature-set name of a thesis file.
const maxNameLen = 1024

// maxThesisL2 bounds the hidden width of a thesis file.
const maxThesisL2 = 4096

// ThesisQuantization describes the thesis (and Stockfish) quantization scheme.
const ThesisQuantization = "thesis §4.4.1: FT weights and bias ×127, hidden weights ×64, hidden bias ×127·64, output weights ×16/127, output bias ×16; output >>4 ≈ centipawns"

// ThesisArchitecture returns the thesis composition (F→L1)×2→L2→1 (thesis §4.3):
// Perspective, ClippedReLU (int16, no shift), hidden (2·L1→L2), ClippedReLU >> 6,
// output (L2→1), value = raw >> 4, 100 units per pawn.
func ThesisArchitecture(hidden, output *Affine) Architecture {
	return Architecture{
		Stacks: [][]Layer{{
			Perspective{},
			ClippedReLU{Input: KindInt16},
			hidden,
			ClippedReLU{Input: KindInt32, Shift: 6},
			output,
		}},
		Output:       OutputScale{Shift: 4},
		PawnValue:    100,
		Quantization: ThesisQuantization,
	}
}

// thesisLayers returns the two affine layers if n has exactly the thesis composition.
func thesisLayers(n *Network) (hidden, output *Affine, ok bool) {
	a := n.arch
	if a.Buckets.Count() != 1 || len(a.Stacks) != 1 || len(a.Stacks[0]) != 5 || n.ft.psqtBuckets != 0 ||
		a.Output != (OutputScale{Shift: 4}) {
		return nil, nil, false
	}
	s := a.Stacks[0]
	if p, ok := s[0].(Perspective); !ok || p.WhiteFirst {
		return nil, nil, false
	}
	if c, ok := s[1].(ClippedReLU); !ok || c != (ClippedReLU{Input: KindInt16}) {
		return nil, nil, false
	}
	h, ok1 := s[2].(*Affine)
	c, ok2 := s[3].(ClippedReLU)
	o, ok3 := s[4].(*Affine)
	if !ok1 || !ok2 || !ok3 || c != (ClippedReLU{Input: KindInt32, Shift: 6}) {
		return nil, nil, false
	}
	return h, o, true
}

// decodeThesis parses a whole thesis .nn file held in memory.
func decodeThesis(data []byte) (*Network, error) {
	return readThesis(bytesDecoder(thesisFormat, data))
}

// readThesis reads a thesis .nn file from d: the header first (at most maxNameLen+13
// bytes), then — after checking the declared body size against the input size when it is
// known — the weights straight into the network's arrays.
func readThesis(d *decoder) (*Network, error) {
	var name []byte
	for {
		if len(name) > maxNameLen {
			d.failAt(0, "feature-set name", "no terminating 0x00 within %d bytes", maxNameLen+1)
			return nil, d.err
		}
		c := d.u8("feature-set name")
		if d.err != nil {
			d.err = nil // reported as the name's error, at its start
			d.failAt(0, "feature-set name", "no terminating 0x00 within %d bytes", len(name))
			return nil, d.err
		}
		if c == 0 {
			break
		}
		name = append(name, c)
		// a name is a feature-set spec: refuse binary garbage at its first byte
		if c < 0x20 || c == 0x7f {
			d.failAt(0, "feature-set name", "control byte 0x%02x at byte %d: not a feature-set name", c, len(name)-1)
			return nil, d.err
		}
	}
	if !utf8.Valid(name) {
		d.failAt(0, "feature-set name", "not valid UTF-8")
		return nil, d.err
	}
	set, err := featureset.Parse(string(name))
	if err != nil {
		d.failAt(0, "feature-set name", "%q: %v", name, err)
		return nil, d.err
	}
	nf := d.u32("num_features")
	if d.err == nil && int64(nf) != int64(set.Size()) {
		d.failAt(d.off-4, "num_features", "%d features stored, feature set %q has %d", nf, name, set.Size())
	}
	l1 := d.u32("L1")
	if d.err == nil && (l1 == 0 || l1%32 != 0 || l1 > maxWidth) {
		d.failAt(d.off-4, "L1", "%d must be a positive multiple of 32 ≤ %d", l1, maxWidth)
	}
	l2 := d.u32("L2")
	if d.err == nil && (l2 == 0 || l2 > maxThesisL2) {
		d.failAt(d.off-4, "L2", "%d out of range [1, %d]", l2, maxThesisL2)
	}
	if d.err != nil {
		return nil, d.err
	}
	n1, m, h := int64(nf), int64(l1), int64(l2)
	want := 2*n1*m + 2*m + 2*m*h + 4*h + h + 4
	if rem := d.remaining(); rem != want && d.size >= 0 {
		what := "truncated"
		if rem > want {
			what = "trailing bytes"
		}
		d.fail("body", "%s: header %q NF=%d L1=%d L2=%d needs %d bytes after the header, %d present",
			what, name, nf, l1, l2, want, rem)
		return nil, d.err
	}
	if want > MaxFileSize {
		d.fail("body", "header %q NF=%d L1=%d L2=%d declares %d bytes, more than MaxFileSize", name, nf, l1, l2, want)
		return nil, d.err
	}
	spec, err := ParseSpec(thesisSpec(set.String(), int(m), int(h)))
	if err != nil {
		d.fail("header", "%v", err)
		return nil, d.err
	}
	fa, a, err := spec.build(true)
	if err != nil {
		d.fail("header", "%v", err)
		return nil, d.err
	}
	a.Quantization = ThesisQuantization
	hidden, out := a.Stacks[0][2].(*Affine), a.Stacks[0][4].(*Affine)
	d.fill("L1 weights", fa.w16)
	d.fill("L1 bias", fa.bias)
	d.fill("L2 weights", hidden.Weights)
	d.fill("L2 bias", hidden.Bias)
	d.fill("output weights", out.Weights[:h])
	d.fill("output bias", out.Bias)
	if d.err == nil && !d.atEOF() {
		d.fail("end", "trailing bytes after the output bias")
	}
	if d.err != nil {
		return nil, d.err
	}
	return NewNetwork(fa.transformer(), a, "")
}

// thesisSpec declares the thesis architecture (thesis §4.3, ThesisArchitecture) over the
// feature set set with width m and hidden width h.
func thesisSpec(set string, m, h int) string {
	return fmt.Sprintf("ft=%s:i16 width=%d stack=stm>crelu.i16>affine.i8(%d)>crelu.i32(6)>affine.i8(1) out=>>4 pawn=100", set, m, h)
}

// WriteThesis writes n in the thesis .nn format. n must have exactly the thesis composition
// (ThesisArchitecture, no PSQT); otherwise it returns an error and writes nothing. The
// feature-set name written is n.FeatureSet().String().
func WriteThesis(w io.Writer, n *Network) error {
	hidden, out, ok := thesisLayers(n)
	if !ok {
		return fmt.Errorf("nnue: WriteThesis: network %v is not the thesis composition", n)
	}
	ft := n.ft
	m := ft.width
	if hidden.In != 2*m || out.In != hidden.Out || out.Out != 1 {
		return fmt.Errorf("nnue: WriteThesis: inconsistent layer sizes")
	}
	name := ft.set.String()
	if bytes.IndexByte([]byte(name), 0) >= 0 {
		return fmt.Errorf("nnue: WriteThesis: feature-set name contains 0x00")
	}
	e := &encoder{buf: make([]byte, 0, len(name)+13+2*len(ft.weights)+2*m+len(hidden.Weights)+5*hidden.Out+4)}
	e.buf = append(e.buf, name...)
	e.u8(0)
	e.u32(uint32(ft.Features()))
	e.u32(uint32(m))
	e.u32(uint32(hidden.Out))
	e.i16s(ft.weights)
	e.i16s(ft.bias)
	e.i8s(hidden.Weights)
	e.i32s(hidden.Bias)
	e.i8s(out.Weights[:out.In])
	e.i32s(out.Bias)
	_, err := w.Write(e.buf)
	return err
}
