package nnue

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/simd"
)

// Bullet's quantised network file (the `quantised.bin` of a bullet checkpoint) for the CPW
// family of networks — (768·K → N)×2 → B with SCReLU or CReLU — as bullet's examples save it
// (github.com/jw1912/bullet at commit cebc78a093d92cbc87e56cfef049184c225270b0:
// examples/simple.rs, examples/progression/{1_simple,2_output_buckets,3_input_buckets}.rs,
// docs/4-saved-networks.md; input indices from crates/bullet_lib/src/game/inputs/chess768.rs
// and chess_buckets.rs, output buckets from crates/bullet_lib/src/game/outputs.rs):
//
//	l0w  i16 [768·K][N]   feature-major (bullet's column-major N×768K), × QA
//	l0b  i16 [N]          × QA
//	l1w  i16 [2N][B]      column-major (default), or [B][2N] when saved with .transpose(), × QB
//	l1b  i16 [B]          × QA·QB
//	zero padding to a multiple of 64 bytes, all little-endian.
//
// Feature index in bullet (Chess768): 384·c + 64·piece + sq with c = 0 for the perspective's
// own pieces, piece 0–5 = pawn … king, sq the square seen from the perspective (flipped
// vertically for Black); with king buckets (ChessBuckets) 768·bucket[own king square] is
// added; with horizontal mirroring (ChessBucketsMirrored) sq ^= 7 when the perspective's own
// king stands on files e–h. Output bucket (MaterialCount<B>): (pieces − 2) / ⌈32/B⌉.
// Evaluation (examples/simple.rs): SCReLU: (Σ clamp(a,0,QA)²·w / QA + bias)·SCALE / (QA·QB);
// CReLU: (Σ clamp(a,0,QA)·w + bias)·SCALE / (QA·QB), side to move's accumulator first.
//
// The multi-layer family (Alexandria, ../shared/nets/bullet/README.md §1) keeps l0w and l0b
// and follows them with, per hidden layer k, lkw [In][B][Out] (int8 × QB for the first, which
// reads the N pairwise outputs, float32 after) and lkb f32 [B][Out]. Files may start with a
// header (BulletFile.Header, skipped) and may be bullet's unquantised float32 raw.bin
// (BulletFile.Float, QuantiseBullet).
//
// The file does not record the architecture: a loader takes it declared as a Spec (the
// project's architecture string, doc/nnue.md; doc/bullet.md has every shared net's) and the
// file's layout as a BulletFile. The Spec's parameter arrays are read in bullet's order:
//
//	stage                      file arrays (all buckets)
//	the transformer            l0w i16 [768·K][N], l0b i16 [N]
//	screlu_affine.i16(…,…,1)   l1w i16 [2N][B] (or [B][2N]: BulletFile.Transposed), l1b i16 [B]
//	crelu_affine.i16(QA)       the same
//	affine.i8(O)               lkw i8 [In][B][O] (its int32 bias is zero)
//	dequant.f32(num,den)       lkb f32 [B][O], the bias of the affine.i8 before it
//	affine.f32(O), dot.f32(L)  lkw f32 [In][B][O], lkb f32 [B][O]
//
// with k counting the weighted layers from 1; the other stages have no parameters.

// BulletArch constructs the declaration of a bullet network from bullet's own terms (hidden
// size, activation, king-bucket map, output buckets, quantisation constants, hidden layers)
// for Go callers: Declare returns its Spec and BulletFile, which is what the loaders take.
// It covers the single-layer CPW family above and the multi-layer family (pairwise → int8 L1
// → float32 layers, each per output bucket; doc/bullet.md). The zero values of QA, QB, Scale
// and OutputBuckets mean CPW's defaults.
type BulletArch struct {
	// Hidden is N, the feature transformer width per perspective (a multiple of 32; of 64
	// with Pairwise).
	Hidden int
	// OutputBuckets is B, the number of output buckets (0 or 1: none).
	OutputBuckets int
	// SCReLU selects the squared clipped ReLU; false means CReLU (single layer only).
	SCReLU bool
	// QA, QB and Scale are the quantisation constants (0: 255, 64, 400, CPW's defaults):
	// QA scales the feature transformer, QB the output weights (single layer) or the int8
	// L1 weights (multi-layer), Scale turns the network's output into its printed value.
	QA, QB, Scale int32
	// KingBuckets maps the perspective's own king square (a1 = 0, seen from the perspective)
	// to an input bucket: nil for plain 768 inputs, 64 entries (ChessBuckets; symmetric under
	// a ↔ h when Mirror is set), or 32 entries of four files a–d per rank when Mirror is set
	// (ChessBucketsMirrored's layout). Every bucket 0 … max must be used.
	KingBuckets []int
	// Mirror selects horizontal mirroring (ChessBucketsMirrored): every square is mirrored
	// (sq ^ 7) when the perspective's own king stands on files e–h.
	Mirror bool
	// TransposedOutput and Header are BulletFile's Transposed and Header.
	TransposedOutput bool
	Header           int
	// BucketTable maps the piece count (kings included; counts beyond the table take its last
	// entry) to the output bucket, replacing bullet's (pieces − 2)/⌈32/B⌉; at most 33 entries,
	// each below B.
	BucketTable []int
	// Pairwise selects the feature-transformer activation of the multi-layer family: for each
	// perspective (side to move first) and i < N/2,
	// out[i] = clamp(acc[i], 0, Clip)·clamp(acc[i+N/2], 0, Clip) >> Shift, a uint8 ≤ 127.
	Pairwise    bool
	Clip, Shift int
	// Layers are the hidden layers after a pairwise activation, in order (multi-layer family):
	// the first has int8 weights (× QB) read from the N pairwise outputs, its int32 sums
	// rescaled to float32 by 2^Shift/(QA²·QB) plus its float32 bias; the rest are float32;
	// the last has one output and no activation, and its value × Scale truncated is the
	// network's output.
	Layers []BulletLayer
	// FMA selects fused multiply-adds in the float stages (the engine's FMA build).
	FMA bool
	// Float and Wrap are BulletFile's Float and Wrap (the float file is quantised with QA
	// and QB).
	Float, Wrap bool
}

// BulletLayer is one hidden layer of a multi-layer bullet network, per output bucket.
type BulletLayer struct {
	// Out is the number of outputs.
	Out int
	// Float selects float32 weights; false means int8 weights quantised by QB (the first
	// layer only).
	Float bool
	// Act is the activation after the layer (0: none, for the last layer).
	Act FloatAct
	// Lanes is the summation order of a float layer (FloatAffine.Lanes: 0 = one running sum
	// per output starting at the bias; L = L lanes added in halves, then the bias, for a
	// layer with one output).
	Lanes int
}

func (a BulletArch) withDefaults() BulletArch {
	if a.QA == 0 {
		a.QA = CPWQA
	}
	if a.QB == 0 {
		a.QB = CPWQB
	}
	if a.Scale == 0 {
		a.Scale = CPWScale
	}
	if a.OutputBuckets == 0 {
		a.OutputBuckets = 1
	}
	return a
}

// kingTable expands the architecture's king buckets to 64 squares (bucket count n).
func (a BulletArch) kingTable() (t [64]int, n int, err error) {
	switch {
	case len(a.KingBuckets) == 0:
		return t, 1, nil
	case len(a.KingBuckets) == 64:
		copy(t[:], a.KingBuckets)
		for sq := range t {
			if a.Mirror && t[sq] != t[sq^7] {
				return t, 0, fmt.Errorf("nnue: bullet: mirrored king buckets must be symmetric: square %d has bucket %d, its mirror %d", sq, t[sq], t[sq^7])
			}
		}
	case len(a.KingBuckets) == 32 && a.Mirror:
		for sq := range t {
			t[sq] = a.KingBuckets[(sq/8)*4+[8]int{0, 1, 2, 3, 3, 2, 1, 0}[sq%8]]
		}
	default:
		return t, 0, fmt.Errorf("nnue: bullet: %d king buckets with mirror=%v, want 64, or 32 (files a–d of each rank) with mirroring", len(a.KingBuckets), a.Mirror)
	}
	for _, x := range t {
		n = max(n, x+1)
	}
	return t, n, nil
}

// validate checks a (with defaults applied) for consistency.
func (a BulletArch) validate() error {
	n, nb := a.Hidden, a.OutputBuckets
	if n <= 0 || n%32 != 0 || n > maxWidth {
		return fmt.Errorf("nnue: bullet: hidden size %d must be a positive multiple of 32 ≤ %d", n, maxWidth)
	}
	if nb < 1 || nb > 32 {
		return fmt.Errorf("nnue: bullet: %d output buckets, want 1…32", nb)
	}
	if a.QA <= 0 || a.QA > 32767 || a.QB <= 0 || a.QB > 32767 || a.Scale <= 0 {
		return fmt.Errorf("nnue: bullet: QA %d, QB %d, SCALE %d must be positive (QA, QB < 2^15)", a.QA, a.QB, a.Scale)
	}
	if len(a.BucketTable) > 33 {
		return fmt.Errorf("nnue: bullet: output bucket table of %d entries, at most 33 (0…32 pieces)", len(a.BucketTable))
	}
	for i, b := range a.BucketTable {
		if b < 0 || b >= nb {
			return fmt.Errorf("nnue: bullet: output bucket %d for %d pieces, want 0…%d", b, i, nb-1)
		}
	}
	if _, _, err := a.kingTable(); err != nil {
		return err
	}
	if a.Pairwise != (len(a.Layers) > 0) {
		return fmt.Errorf("nnue: bullet: hidden layers need the pairwise activation and it needs them (pairwise %v, %d layers)", a.Pairwise, len(a.Layers))
	}
	if !a.Pairwise {
		if a.FMA {
			return fmt.Errorf("nnue: bullet: fma declared for a network without float layers")
		}
		return nil
	}
	if a.TransposedOutput {
		return fmt.Errorf("nnue: bullet: transposed applies to single-layer networks only")
	}
	if n%64 != 0 {
		return fmt.Errorf("nnue: bullet: pairwise needs a hidden size that is a multiple of 64, not %d", n)
	}
	if a.Clip < 1 || a.Clip > 32767 || a.Shift < 0 || a.Shift > 30 || (a.Clip*a.Clip)>>a.Shift > 127 {
		return fmt.Errorf("nnue: bullet: pairwise clip %d, shift %d: clip²>>shift must be ≤ 127", a.Clip, a.Shift)
	}
	if len(a.Layers) > 8 {
		return fmt.Errorf("nnue: bullet: %d hidden layers, at most 8", len(a.Layers))
	}
	in := n
	for i, l := range a.Layers {
		last := i == len(a.Layers)-1
		switch {
		case l.Out < 1 || l.Out > maxAffineDim:
			return fmt.Errorf("nnue: bullet: layer %d has %d outputs", i+1, l.Out)
		case (i == 0) == l.Float:
			return fmt.Errorf("nnue: bullet: layer %d: the first layer must be i8 and the others f32", i+1)
		case last && (l.Out != 1 || l.Act != 0):
			return fmt.Errorf("nnue: bullet: the last layer must have one output and no activation, not %v", l)
		case !last && l.Act == 0:
			return fmt.Errorf("nnue: bullet: layer %d (%v) needs an activation", i+1, l)
		case l.Act > FloatSCReLU:
			return fmt.Errorf("nnue: bullet: layer %d: unknown activation %d", i+1, uint8(l.Act))
		case l.Lanes != 0 && (!l.Float || l.Out != 1 || l.Lanes < 2 || l.Lanes > maxFloatLanes || l.Lanes&(l.Lanes-1) != 0 || in%l.Lanes != 0):
			return fmt.Errorf("nnue: bullet: layer %d (%v): lanes must be a power of two ≤ %d dividing its %d inputs, on a float layer with one output", i+1, l, maxFloatLanes, in)
		}
		in = l.Out
	}
	return nil
}

// BulletFile is the layout of a bullet network file beyond its declared architecture.
type BulletFile struct {
	// Header is the number of bytes before the parameters, skipped (Stormphrax's CBNF
	// header: 64). The parameters after it may be padded to a multiple of 64 bytes.
	Header int
	// Transposed is set when l1w of a single-layer net was saved with .transpose() (bullet's
	// output-bucket examples do so): [B][2N] instead of [2N][B].
	Transposed bool
	// Float declares a file of bullet's unquantised float32 parameters (raw.bin), quantised
	// at load by QuantiseBullet: the transformer ×QA, int16 output weights and int8 L1
	// weights ×QB, int16 output biases ×QA·QB.
	Float  bool
	QA, QB int32
	// Wrap makes a quantised value outside its integer type wrap around (keep its low bits),
	// as a C++ static_cast of round(w·Q) does on x86-64, instead of being an error.
	Wrap bool
}

// maxBulletHeader bounds BulletFile.Header.
const maxBulletHeader = 1 << 20

// Declare returns the architecture a declares and the layout of its file. Errors: an
// inconsistent declaration (hidden size, buckets, king map, layers, constants) or one the
// Spec refuses.
func (a BulletArch) Declare() (Spec, BulletFile, error) {
	a = a.withDefaults()
	if err := a.validate(); err != nil {
		return Spec{}, BulletFile{}, err
	}
	table, _, _ := a.kingTable()
	o := featureset.Flip
	if a.Mirror {
		o = featureset.FlipMirror
	}
	set := featureset.All(o)
	if len(a.KingBuckets) > 0 {
		kb, err := featureset.KingBucketMap(table, o)
		if err != nil {
			return Spec{}, BulletFile{}, fmt.Errorf("nnue: bullet: %w", err)
		}
		if set, err = featureset.Product(kb, set); err != nil {
			return Spec{}, BulletFile{}, fmt.Errorf("nnue: bullet: %w", err)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ft=%s:i16 width=%d stack=stm", featureset.NewSet(set), a.Hidden)
	switch {
	case a.Pairwise:
		fmt.Fprintf(&b, ">pairwise(%d,%d)", a.Clip, a.Shift)
		for i, l := range a.Layers {
			switch {
			case i == 0:
				fmt.Fprintf(&b, ">affine.i8(%d)>dequant.f32(%d,%d)", l.Out, int64(1)<<a.Shift, int64(a.QA)*int64(a.QA)*int64(a.QB))
			case l.Lanes != 0:
				fmt.Fprintf(&b, ">dot.f32(%d)", l.Lanes)
			default:
				fmt.Fprintf(&b, ">affine.f32(%d)", l.Out)
			}
			if l.Act != 0 {
				b.WriteString(map[FloatAct]string{FloatReLU: ">relu.f32", FloatCReLU: ">clamp.f32", FloatSCReLU: ">sqrclamp.f32"}[l.Act])
			}
		}
		fmt.Fprintf(&b, ">trunc.f32(%d)", a.Scale)
	case a.SCReLU:
		fmt.Fprintf(&b, ">screlu_affine.i16(%d,%d,1)", a.QA, a.QA)
	default:
		fmt.Fprintf(&b, ">crelu_affine.i16(%d)", a.QA)
	}
	if nb := a.OutputBuckets; nb > 1 && len(a.BucketTable) > 0 {
		b.WriteString(" buckets=table(")
		for n := range 33 {
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(a.BucketTable[min(n, len(a.BucketTable)-1)]))
		}
		b.WriteByte(')')
	} else if nb > 1 {
		fmt.Fprintf(&b, " buckets=pieces(%d,2,%d)", nb, (32+nb-1)/nb)
	}
	if !a.Pairwise {
		fmt.Fprintf(&b, " out=*%d/%d", a.Scale, a.QA*a.QB)
	}
	if a.FMA {
		b.WriteString(" fma")
	}
	b.WriteString(" pawn=100")
	spec, err := ParseSpec(b.String())
	if err != nil {
		return Spec{}, BulletFile{}, fmt.Errorf("nnue: bullet: %w", err)
	}
	return spec, BulletFile{Header: a.Header, Transposed: a.TransposedOutput, Float: a.Float, QA: a.QA, QB: a.QB, Wrap: a.Wrap}, nil
}

// bulletElem is the element type of a parameter array in a quantised bullet file.
type bulletElem uint8

const (
	bulletI16 bulletElem = iota
	bulletI8
	bulletF32
)

// bulletTensor is one parameter array of a bullet file, in file order.
type bulletTensor struct {
	name  string
	count int
	elem  bulletElem
	scale float64 // quantisation scale of its float32 value (1 for float arrays)
}

func (t bulletTensor) bytes() int {
	return t.count * [...]int{bulletI16: 2, bulletI8: 1, bulletF32: 4}[t.elem]
}

// bulletLayout is a checked Spec's bullet file: its input map and its arrays in file order.
type bulletLayout struct {
	table   [64]int
	kb      int
	mirror  bool
	n, nb   int
	in, out []int          // per stage: input and output size
	tensors []bulletTensor // file order
	w, b    []int          // per stage: index of its weights and bias in tensors, or −1
}

// bulletLayoutOf checks that spec and f describe a bullet file (see the table above) and
// returns its layout. Errors: a Spec Check refuses, inputs other than all or all@hm (with
// or without kings(…)), PSQT columns, a stage without a bullet file array layout, bad
// header or quantisation constants, or more than MaxFileSize bytes of parameters.
func bulletLayoutOf(spec Spec, f BulletFile) (*bulletLayout, error) {
	sh, err := spec.shape()
	if err != nil {
		return nil, err
	}
	if f.Header < 0 || f.Header > maxBulletHeader {
		return nil, fmt.Errorf("nnue: bullet: header of %d bytes, want 0…%d", f.Header, maxBulletHeader)
	}
	if f.Float && (f.QA <= 0 || f.QA > 32767 || f.QB <= 0 || f.QB > 32767) {
		return nil, fmt.Errorf("nnue: bullet: a float file needs QA and QB in 1…32767, has %d and %d", f.QA, f.QB)
	}
	if len(spec.Inputs) != 1 || spec.Inputs[0].Rows != RowsInt16 || spec.PSQT != 0 {
		return nil, fmt.Errorf("nnue: bullet: %v: a bullet file has one int16-row input and no PSQT", spec)
	}
	L := &bulletLayout{n: spec.Width, nb: spec.Buckets.Count(), in: sh.in, out: sh.out}
	if L.table, L.kb, L.mirror, err = bulletInputs(spec.Inputs[0].Set); err != nil {
		return nil, err
	}
	qa, qb := float64(f.QA), float64(f.QB)
	add := func(name string, count int, elem bulletElem, scale float64) int {
		L.tensors = append(L.tensors, bulletTensor{name: name, count: count, elem: elem, scale: scale})
		return len(L.tensors) - 1
	}
	add("l0w", 768*L.kb*L.n, bulletI16, qa)
	add("l0b", L.n, bulletI16, qa)
	layer := 0
	for i, st := range spec.Stack {
		w, b := -1, -1
		in, out := sh.in[i], sh.out[i]
		switch st.Op {
		case "stm":
			if i != 0 {
				return nil, fmt.Errorf("nnue: bullet: stm must be the first stage only")
			}
		case "pairwise", "relu.f32", "clamp.f32", "sqrclamp.f32", "trunc.f32":
		case "screlu_affine.i16", "crelu_affine.i16":
			if out != 1 {
				return nil, fmt.Errorf("nnue: bullet: %v: the single-layer output has one value per bucket", st)
			}
			layer++
			w = add(fmt.Sprintf("l%dw", layer), in*L.nb, bulletI16, qb)
			b = add(fmt.Sprintf("l%db", layer), L.nb, bulletI16, qa*qb)
		case "affine.i8":
			if i+1 == len(spec.Stack) || spec.Stack[i+1].Op != "dequant.f32" {
				return nil, fmt.Errorf("nnue: bullet: %v must be followed by dequant.f32 (its float32 bias)", st)
			}
			layer++
			w = add(fmt.Sprintf("l%dw", layer), in*L.nb*out, bulletI8, qb)
		case "dequant.f32":
			if i == 0 || spec.Stack[i-1].Op != "affine.i8" {
				return nil, fmt.Errorf("nnue: bullet: %v must follow affine.i8", st)
			}
			b = add(fmt.Sprintf("l%db", layer), L.nb*out, bulletF32, 1)
		case "affine.f32", "dot.f32":
			layer++
			w = add(fmt.Sprintf("l%dw", layer), in*L.nb*out, bulletF32, 1)
			b = add(fmt.Sprintf("l%db", layer), L.nb*out, bulletF32, 1)
		default:
			return nil, fmt.Errorf("nnue: bullet: stage %v has no array layout in a bullet file", st)
		}
		L.w, L.b = append(L.w, w), append(L.b, b)
	}
	return L, nil
}

// bulletInputs reads the king-bucket map and mirroring of a bullet input set: all or
// all@hm, optionally as kings(…)*all with the same orientation.
func bulletInputs(set string) (table [64]int, kb int, mirror bool, err error) {
	body := set
	kings, kmirror := false, false
	if rest, ok := strings.CutPrefix(set, "kings("); ok {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return table, 0, false, fmt.Errorf("nnue: bullet: input %q: missing ')'", set)
		}
		fields := strings.Split(rest[:end], ".")
		if len(fields) != 64 {
			return table, 0, false, fmt.Errorf("nnue: bullet: input %q: %d king buckets, want 64", set, len(fields))
		}
		for i, x := range fields {
			if table[i], err = strconv.Atoi(x); err != nil {
				return table, 0, false, fmt.Errorf("nnue: bullet: input %q: %w", set, err)
			}
		}
		kings, body = true, rest[end+1:]
		switch {
		case strings.HasPrefix(body, "@hm*"):
			kmirror, body = true, body[len("@hm*"):]
		case strings.HasPrefix(body, "*"):
			body = body[1:]
		default:
			return table, 0, false, fmt.Errorf("nnue: bullet: input %q: kings(…) must be flipped or @hm", set)
		}
	}
	switch body {
	case "all":
	case "all@hm":
		mirror = true
	default:
		return table, 0, false, fmt.Errorf("nnue: bullet: input %q: a bullet file holds 768 inputs per king bucket, all or all@hm, optionally kings(…)*all", set)
	}
	if kings && kmirror != mirror {
		return table, 0, false, fmt.Errorf("nnue: bullet: input %q: the king buckets and the pieces must be oriented alike", set)
	}
	for sq, x := range table {
		if mirror && x != table[sq^7] {
			return table, 0, false, fmt.Errorf("nnue: bullet: mirrored king buckets must be symmetric: square %d has bucket %d, its mirror %d", sq, x, table[sq^7])
		}
		kb = max(kb, x+1)
	}
	return table, kb, mirror, nil
}

// size returns the bytes of the unpadded parameters, float32 throughout when float.
func (L *bulletLayout) size(float bool) (int, error) {
	size := 0
	for _, t := range L.tensors {
		if float {
			size += 4 * t.count
		} else {
			size += t.bytes()
		}
	}
	if size > MaxFileSize {
		return 0, fmt.Errorf("nnue: bullet: %d bytes of parameters, more than MaxFileSize %d", size, MaxFileSize)
	}
	return size, nil
}

// BulletFileSize returns the size of the unpadded parameter data of a bullet file of spec
// with layout f, header excluded (the file is the header followed by this, possibly rounded
// up to a multiple of 64 bytes); with f.Float the size of the float32 file. Errors: those of
// the loaders for spec and f.
func BulletFileSize(spec Spec, f BulletFile) (int, error) {
	L, err := bulletLayoutOf(spec, f)
	if err != nil {
		return 0, err
	}
	return L.size(f.Float)
}

// body checks the size of a bullet file and returns its parameter bytes.
func (L *bulletLayout) body(data []byte, f BulletFile) ([]byte, error) {
	size, err := L.size(f.Float)
	if err != nil {
		return nil, err
	}
	if len(data) < f.Header {
		return nil, fmt.Errorf("nnue: bullet: file of %d bytes is shorter than its %d-byte header", len(data), f.Header)
	}
	body := data[f.Header:]
	if len(body) != size && len(body) != (size+63)/64*64 {
		return nil, fmt.Errorf("nnue: bullet: file has %d bytes after its %d-byte header, want %d (or %d padded)", len(body), f.Header, size, (size+63)/64*64)
	}
	return body[:size], nil
}

// BulletQuantError reports the quantisation of one parameter array of a float32 bullet file:
// Count values, quantised as round(w·Scale) (w·Scale a float32 product, rounded half away
// from zero); MaxAbs and MeanAbs are the largest and mean |q/Scale − w| in float units, and
// Wrapped counts the values outside the integer type that wrapped (BulletArch.Wrap).
// Float arrays (Scale 1, kept as float32) have no error.
type BulletQuantError struct {
	Tensor          string
	Count           int
	Scale           float64
	MaxAbs, MeanAbs float64
	Wrapped         int
}

// QuantiseBullet converts a file of bullet's unquantised float32 parameters (raw.bin: the
// arrays of spec, every one float32, after f.Header bytes) to the quantised file of spec
// (without header), and reports the quantisation error of every array. Integer arrays are
// quantised as round(w·Q) with Q the array's scale (f.QA, f.QB or f.QA·f.QB); float arrays
// are copied. f.Float is implied.
//
// Errors: those of BulletFileSize, a file of the wrong size, a NaN or infinite value, a value
// whose quantised magnitude reaches 2^31, and — unless f.Wrap — a quantised value outside its
// integer type (int16, int8), each naming the array and index. With f.Wrap such a value keeps
// its low bits, as an x86-64 C++ static_cast<int16_t>/static_cast<int8_t> of the rounded
// float does.
func QuantiseBullet(data []byte, spec Spec, f BulletFile) ([]byte, []BulletQuantError, error) {
	f.Float = true
	L, err := bulletLayoutOf(spec, f)
	if err != nil {
		return nil, nil, err
	}
	body, err := L.body(data, f)
	if err != nil {
		return nil, nil, err
	}
	var out []byte
	var report []BulletQuantError
	off := 0
	for _, t := range L.tensors {
		r := BulletQuantError{Tensor: t.name, Count: t.count, Scale: t.scale}
		lo, hi := int64(math.MinInt16), int64(math.MaxInt16)
		if t.elem == bulletI8 {
			lo, hi = math.MinInt8, math.MaxInt8
		}
		sum := 0.0
		for i := range t.count {
			w := math.Float32frombits(binary.LittleEndian.Uint32(body[off+4*i:]))
			if !finite32(w) {
				return nil, nil, fmt.Errorf("nnue: bullet: float file: %s[%d] is %v", t.name, i, w)
			}
			if t.elem == bulletF32 {
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(w))
				continue
			}
			q := math.Round(float64(w * float32(t.scale)))
			if math.Abs(q) >= 1<<31 {
				return nil, nil, fmt.Errorf("nnue: bullet: float file: %s[%d] = %g quantises to %g, beyond any integer type", t.name, i, w, q)
			}
			v := int64(q)
			if v < lo || v > hi {
				if !f.Wrap {
					return nil, nil, fmt.Errorf("nnue: bullet: float file: %s[%d] = %g quantises to %d, outside [%d, %d] (declare wrap to keep the low bits as a C++ cast does)", t.name, i, w, v, lo, hi)
				}
				r.Wrapped++
			}
			var back float64
			if t.elem == bulletI8 {
				out = append(out, uint8(v))
				back = float64(int8(v))
			} else {
				out = binary.LittleEndian.AppendUint16(out, uint16(v))
				back = float64(int16(v))
			}
			e := math.Abs(back/t.scale - float64(w))
			r.MaxAbs = max(r.MaxAbs, e)
			sum += e
		}
		if t.elem != bulletF32 && t.count > 0 {
			r.MeanAbs = sum / float64(t.count)
		}
		off += 4 * t.count
		report = append(report, r)
	}
	return out, report, nil
}

// ParseBullet builds the Network spec declares from a bullet network file with layout f
// (see the table above). The input is all or all@hm (flip orientation, or hm: mirrored when
// the perspective's own king stands on files e–h), optionally times kings(…); bullet's
// feature rows are permuted into nnuekit's ALL index order, and with mirroring nnuekit's
// convention is bullet's with every square mirrored, a fixed permutation too. The layers are
// the Spec's (Spec.assemble); Evaluate returns the engine's printed value (centipawns for
// the CPW family, the truncated float output for trunc.f32).
//
// With f.Float the file holds float32 parameters, quantised first by QuantiseBullet; the
// quantisation error of every integer array is appended to Architecture.Quantization.
//
// Errors: those of BulletFileSize and QuantiseBullet, a file whose size after the header is
// neither the data size nor that size padded to 64 bytes, non-finite float parameters, and,
// for screlu_affine.i16, output weights with |w| > 128 (nnuekit's SCReLU kernel is exact only
// up to that bound, which bullet's default weight clipping ±1.98·QB respects).
func ParseBullet(data []byte, spec Spec, f BulletFile) (*Network, error) {
	L, err := bulletLayoutOf(spec, f)
	if err != nil {
		return nil, err
	}
	quant := "bullet file"
	if f.Float {
		q, report, err := QuantiseBullet(data, spec, f)
		if err != nil {
			return nil, err
		}
		quant += fmt.Sprintf(", quantised at load from float32 (QA %d, QB %d):", f.QA, f.QB)
		data, f = q, BulletFile{Transposed: f.Transposed}
		for _, r := range report {
			if r.Scale != 1 {
				quant += fmt.Sprintf(" %s max |err| %.3g mean %.3g", r.Tensor, r.MaxAbs, r.MeanAbs)
				if r.Wrapped > 0 {
					quant += fmt.Sprintf(" (%d wrapped)", r.Wrapped)
				}
			}
		}
	}
	body, err := L.body(data, f)
	if err != nil {
		return nil, err
	}
	arrays := make([][]byte, len(L.tensors))
	off := 0
	for i, t := range L.tensors {
		arrays[i] = body[off : off+t.bytes()]
		off += t.bytes()
	}
	w := L.transformerRows(arrays[0])
	var params []any
	nb := L.nb
	for b := range nb {
		for i, st := range spec.Stack {
			in, out := L.in[i], L.out[i]
			switch st.Op {
			case "screlu_affine.i16", "crelu_affine.i16":
				l1w := i16s(arrays[L.w[i]])
				ws := alignedInt16(in)
				for k := range ws {
					if f.Transposed {
						ws[k] = l1w[b*in+k]
					} else {
						ws[k] = l1w[k*nb+b]
					}
					if st.Op == "screlu_affine.i16" && (ws[k] > 128 || ws[k] < -128) {
						return nil, fmt.Errorf("nnue: bullet: output weight %d of bucket %d exceeds ±128, beyond nnuekit's exact SCReLU kernel", ws[k], b)
					}
				}
				params = append(params, ws, []int32{int32(i16s(arrays[L.b[i]])[b])})
			case "affine.i8":
				wb := arrays[L.w[i]]
				p := pad32(in)
				ws := alignedInt8(out * p)
				for k := range in {
					for j := range out {
						ws[j*p+k] = int8(wb[(k*nb+b)*out+j])
					}
				}
				params = append(params, ws, alignedInt32(out))
			case "dequant.f32":
				params = append(params, f32s(arrays[L.b[i]])[b*out:(b+1)*out])
			case "affine.f32", "dot.f32":
				all := f32s(arrays[L.w[i]])
				ws := make([]float32, in*out)
				for k := range in {
					copy(ws[k*out:(k+1)*out], all[(k*nb+b)*out:])
				}
				params = append(params, ws, f32s(arrays[L.b[i]])[b*out:(b+1)*out])
			}
		}
	}
	return spec.assemble(nil, w, alignedCopy(i16s(arrays[1])), nil, params, "bullet "+spec.String(), quant)
}

func i16s(b []byte) []int16 {
	v := make([]int16, len(b)/2)
	for i := range v {
		v[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return v
}

func f32s(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// transformerRows permutes bullet's l0w [768·K][N] into the rows of nnuekit's
// kings(…)*ALL order (rowPairs).
func (L *bulletLayout) transformerRows(l0w []byte) []int16 {
	n := L.n
	w := alignedInt16(768 * L.kb * n)
	L.rowPairs(func(ours, theirs int) {
		src := l0w[2*theirs*n : 2*(theirs+1)*n]
		dst := w[ours*n : (ours+1)*n]
		for j := range dst {
			dst[j] = int16(binary.LittleEndian.Uint16(src[2*j:]))
		}
	})
	return w
}

// rowPairs calls f for every feature-transformer row with its index in nnuekit's
// kings(…)*ALL order (ALL index (file·8 + rank)·12 + role·2 + color, per king bucket) and in
// bullet's l0w order (bucket·768 + 384·color + 64·role + square, the square mirrored a↔h
// when the layout mirrors).
func (L *bulletLayout) rowPairs(f func(ours, theirs int)) {
	for b := range L.kb {
		for sq := range 64 {
			bsq := sq
			if L.mirror {
				bsq ^= 7
			}
			for role := range 6 {
				for c := range 2 {
					f(b*768+((sq&7)*8+sq>>3)*12+role*2+c, b*768+384*c+64*role+bsq)
				}
			}
		}
	}
}

func alignedCopy(v []int16) []int16 {
	w := alignedInt16(len(v))
	copy(w, v)
	return w
}

// LoadBulletFile reads a bullet network file and calls ParseBullet. The file's size is checked
// against the declaration before it is read, so a file of the wrong size (however large) is
// refused without reading it.
func LoadBulletFile(path string, spec Spec, f BulletFile) (*Network, error) {
	size, err := BulletFileSize(spec, f)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if n := fi.Size() - int64(f.Header); n != int64(size) && n != int64((size+63)/64*64) {
		return nil, fmt.Errorf("nnue: bullet: %s has %d bytes, want %d-byte header + %d (or %d padded)", path, fi.Size(), f.Header, size, (size+63)/64*64)
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(file, data); err != nil {
		return nil, fmt.Errorf("nnue: bullet: reading %s: %w", path, err)
	}
	return ParseBullet(data, spec, f)
}

// BulletCReLU is the output layer of a CReLU network of the CPW family as bullet trains it:
// out = Σ clamp(v_i, 0, QA)·W[i] + Bias over the 2N perspective-ordered int16 accumulator
// values (side to move first, simd.CReLUDot), summed in int64 and saturated to int32; the bias is at scale
// QA·QB. Input KindInt16, output KindInt32 (one value); stage crelu_affine.i16(QA).
type BulletCReLU struct {
	QA      int16
	Weights []int16 // 2N
	Bias    []int32 // 1
}

// InputKind reports the element type read (Layer).
func (*BulletCReLU) InputKind() Kind { return KindInt16 }

// OutputKind reports the element type written (Layer).
func (*BulletCReLU) OutputKind() Kind { return KindInt32 }

// String describes the layer.
func (l *BulletCReLU) String() string {
	return fmt.Sprintf("BulletCReLU(QA=%d, %d→1)", l.QA, len(l.Weights))
}

// OutputSize checks the weights against n = 2N inputs and returns 1.
func (l *BulletCReLU) OutputSize(n int) (int, error) {
	if err := checkParts(l.String(), n, 16); err != nil {
		return 0, err
	}
	if l.QA <= 0 || len(l.Weights) != n || len(l.Bias) != 1 {
		return 0, fmt.Errorf("%v: QA must be positive and there must be %d weights and 1 bias", l, n)
	}
	return 1, nil
}

func (l *BulletCReLU) propagate(in, out *tensor, _ *evalState) {
	m := len(in.acc[0])
	s := simd.CReLUDot(in.acc[0][:m], l.Weights[:m], l.QA) + simd.CReLUDot(in.acc[1][:m], l.Weights[m:2*m], l.QA)
	s += int64(l.Bias[0])
	out.i32[0] = int32(min(max(s, math.MinInt32), math.MaxInt32))
}
