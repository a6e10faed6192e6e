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
// header (BulletArch.Header, skipped) and may be bullet's unquantised float32 raw.bin
// (BulletArch.Float, QuantiseBullet).

// BulletArch describes a bullet network, which the file does not record: the single-layer
// CPW family above, and the multi-layer family (pairwise → int8 L1 → float32 layers, each per
// output bucket; doc/bullet.md). The zero values of QA, QB, Scale and OutputBuckets mean
// CPW's defaults; ParseBulletArch reads and String prints the declared form.
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
	// TransposedOutput is set when l1w was saved with .transpose() (bullet's output-bucket
	// examples do so): [B][2N] instead of [2N][B]. Single layer only.
	TransposedOutput bool
	// Header is the number of bytes before the parameters, skipped (Stormphrax's CBNF
	// header: 64). The parameters after it may be padded to a multiple of 64 bytes.
	Header int
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
	// Float declares a file of bullet's unquantised float32 parameters (raw.bin), quantised at
	// load by QuantiseBullet with QA and QB.
	Float bool
	// Wrap makes a quantised value outside its integer type wrap around (keep its low bits),
	// as a C++ static_cast of round(w·Q) does on x86-64, instead of being an error.
	Wrap bool
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

// String returns the layer as ParseBulletArch reads it, e.g. "16/i8/screlu", "1/f32/lanes16".
func (l BulletLayer) String() string {
	s := strconv.Itoa(l.Out) + "/i8"
	if l.Float {
		s = strconv.Itoa(l.Out) + "/f32"
	}
	if l.Act != 0 {
		s += "/" + l.Act.String()
	}
	if l.Lanes != 0 {
		s += "/lanes" + strconv.Itoa(l.Lanes)
	}
	return s
}

func parseBulletLayer(v string) (BulletLayer, error) {
	parts := strings.Split(v, "/")
	var l BulletLayer
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 1 || n > maxAffineDim || len(parts) < 2 {
		return l, fmt.Errorf("nnue: bullet architecture: layer %q, want OUT/i8|f32[/relu|crelu|screlu][/lanesL]", v)
	}
	l.Out = n
	switch parts[1] {
	case "i8":
	case "f32":
		l.Float = true
	default:
		return l, fmt.Errorf("nnue: bullet architecture: layer %q: weight type %q, want i8 or f32", v, parts[1])
	}
	for _, p := range parts[2:] {
		switch {
		case p == "relu" && l.Act == 0:
			l.Act = FloatReLU
		case p == "crelu" && l.Act == 0:
			l.Act = FloatCReLU
		case p == "screlu" && l.Act == 0:
			l.Act = FloatSCReLU
		case strings.HasPrefix(p, "lanes") && l.Lanes == 0:
			n, err := strconv.Atoi(p[len("lanes"):])
			if err != nil || n < 2 || n > maxFloatLanes || n&(n-1) != 0 {
				return l, fmt.Errorf("nnue: bullet architecture: layer %q: %q, want lanes2…lanes%d, a power of two", v, p, maxFloatLanes)
			}
			l.Lanes = n
		default:
			return l, fmt.Errorf("nnue: bullet architecture: layer %q: unknown or repeated part %q", v, p)
		}
	}
	return l, nil
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

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// String returns the description in the form ParseBulletArch reads.
func (a BulletArch) String() string {
	a = a.withDefaults()
	var b strings.Builder
	act := "crelu"
	if a.SCReLU {
		act = "screlu"
	}
	if a.Pairwise {
		act = fmt.Sprintf("pairwise clip=%d shift=%d", a.Clip, a.Shift)
	}
	fmt.Fprintf(&b, "hidden=%d act=%s out=%d qa=%d qb=%d scale=%d", a.Hidden, act, a.OutputBuckets, a.QA, a.QB, a.Scale)
	if len(a.KingBuckets) > 0 {
		b.WriteString(" kb=" + joinInts(a.KingBuckets))
	}
	if len(a.BucketTable) > 0 {
		b.WriteString(" outmap=" + joinInts(a.BucketTable))
	}
	for _, l := range a.Layers {
		b.WriteString(" layer=" + l.String())
	}
	if a.Header != 0 {
		fmt.Fprintf(&b, " header=%d", a.Header)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{a.Mirror, "mirror"}, {a.TransposedOutput, "transposed"}, {a.FMA, "fma"}, {a.Float, "float"}, {a.Wrap, "wrap"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	return b.String()
}

// maxBulletHeader bounds BulletArch.Header.
const maxBulletHeader = 1 << 20

// ParseBulletArch reads a BulletArch from space-separated fields: hidden=N,
// act=screlu|crelu|pairwise (pairwise with clip=C shift=S), out=B, qa=, qb=, scale=,
// kb=comma-separated king buckets (32 or 64), outmap=comma-separated output bucket per piece
// count (up to 33), layer=OUT/i8|f32[/relu|crelu|screlu][/lanesL] (repeated, in order),
// header=BYTES, and the flags mirror, transposed, fma, float and wrap; e.g.
// "hidden=256 act=screlu out=8 transposed". Unknown or inconsistent fields are an error.
func ParseBulletArch(s string) (BulletArch, error) {
	var a BulletArch
	a.SCReLU = true
	ints := func(k, v string, lo, hi, maxLen int) ([]int, error) {
		var out []int
		for _, x := range strings.Split(v, ",") {
			n, e := strconv.Atoi(x)
			if e != nil || n < lo || n > hi || len(out) == maxLen {
				return nil, fmt.Errorf("nnue: bullet architecture: %s entry %q, want at most %d integers in [%d, %d]", k, x, maxLen, lo, hi)
			}
			out = append(out, n)
		}
		return out, nil
	}
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		num := func(lo, hi int) (int, error) {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return 0, fmt.Errorf("nnue: bullet architecture: %s=%q, want an integer in [%d, %d]", k, v, lo, hi)
			}
			return n, nil
		}
		var err error
		var n int
		switch k {
		case "hidden":
			n, err = num(1, maxWidth)
			a.Hidden = n
		case "out":
			n, err = num(1, 64)
			a.OutputBuckets = n
		case "qa":
			n, err = num(1, 32767)
			a.QA = int32(n)
		case "qb":
			n, err = num(1, 32767)
			a.QB = int32(n)
		case "scale":
			n, err = num(1, 1<<20)
			a.Scale = int32(n)
		case "clip":
			a.Clip, err = num(0, 32767) // 0 (undeclared) prints and parses; validate refuses it
		case "shift":
			a.Shift, err = num(0, 30)
		case "header":
			a.Header, err = num(0, maxBulletHeader)
		case "act":
			switch v {
			case "screlu":
				a.SCReLU, a.Pairwise = true, false
			case "crelu":
				a.SCReLU, a.Pairwise = false, false
			case "pairwise":
				a.SCReLU, a.Pairwise = false, true
			default:
				err = fmt.Errorf("nnue: bullet architecture: act=%q, want screlu, crelu or pairwise", v)
			}
		case "kb":
			a.KingBuckets, err = ints(k, v, 0, 63, 64)
		case "outmap":
			a.BucketTable, err = ints(k, v, 0, 63, 33)
		case "layer":
			var l BulletLayer
			if len(a.Layers) == 8 {
				err = fmt.Errorf("nnue: bullet architecture: more than 8 layers")
				break
			}
			l, err = parseBulletLayer(v)
			a.Layers = append(a.Layers, l)
		case "mirror":
			a.Mirror = true
		case "transposed":
			a.TransposedOutput = true
		case "fma":
			a.FMA = true
		case "float":
			a.Float = true
		case "wrap":
			a.Wrap = true
		default:
			err = fmt.Errorf("nnue: bullet architecture: unknown field %q", f)
		}
		if err == nil && strings.Contains(f, "=") != (k != "mirror" && k != "transposed" && k != "fma" && k != "float" && k != "wrap") {
			err = fmt.Errorf("nnue: bullet architecture: malformed field %q", f)
		}
		if err != nil {
			return BulletArch{}, err
		}
	}
	if a.Hidden == 0 {
		return BulletArch{}, fmt.Errorf("nnue: bullet architecture %q: hidden=N missing", s)
	}
	return a, nil
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
	if a.Header < 0 || a.Header > maxBulletHeader {
		return fmt.Errorf("nnue: bullet: header of %d bytes, want 0…%d", a.Header, maxBulletHeader)
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

// tensors lists a's parameter arrays in file order (a validated, with defaults).
func (a BulletArch) tensors() []bulletTensor {
	_, kb, _ := a.kingTable()
	n, nb := a.Hidden, a.OutputBuckets
	qa, qb := float64(a.QA), float64(a.QB)
	ts := []bulletTensor{
		{name: "l0w", count: 768 * kb * n, elem: bulletI16, scale: qa},
		{name: "l0b", count: n, elem: bulletI16, scale: qa},
	}
	if !a.Pairwise {
		return append(ts,
			bulletTensor{name: "l1w", count: 2 * n * nb, elem: bulletI16, scale: qb},
			bulletTensor{name: "l1b", count: nb, elem: bulletI16, scale: qa * qb})
	}
	in := n
	for i, l := range a.Layers {
		w := bulletTensor{name: fmt.Sprintf("l%dw", i+1), count: in * nb * l.Out, elem: bulletF32, scale: 1}
		if !l.Float {
			w.elem, w.scale = bulletI8, qb
		}
		ts = append(ts, w, bulletTensor{name: fmt.Sprintf("l%db", i+1), count: nb * l.Out, elem: bulletF32, scale: 1})
		in = l.Out
	}
	return ts
}

// BulletFileSize returns the size of the unpadded parameter data of a network with
// architecture a, header excluded (the file is the header followed by this, possibly rounded
// up to a multiple of 64 bytes). With a.Float it is the size of the float32 file.
func BulletFileSize(a BulletArch) (int, error) {
	a = a.withDefaults()
	if err := a.validate(); err != nil {
		return 0, err
	}
	size := 0
	for _, t := range a.tensors() {
		if a.Float {
			size += 4 * t.count
		} else {
			size += t.bytes()
		}
	}
	if size > MaxFileSize {
		return 0, fmt.Errorf("nnue: bullet: %v declares %d bytes of parameters, more than MaxFileSize %d", a, size, MaxFileSize)
	}
	return size, nil
}

// bulletData checks the size of a bullet file and returns its parameter bytes.
func bulletData(data []byte, a BulletArch) ([]byte, error) {
	size, err := BulletFileSize(a)
	if err != nil {
		return nil, err
	}
	if len(data) < a.Header {
		return nil, fmt.Errorf("nnue: bullet: file of %d bytes is shorter than its %d-byte header", len(data), a.Header)
	}
	body := data[a.Header:]
	if len(body) != size && len(body) != (size+63)/64*64 {
		return nil, fmt.Errorf("nnue: bullet: file has %d bytes after its %d-byte header, want %d (or %d padded) for %v", len(body), a.Header, size, (size+63)/64*64, a)
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

// QuantiseBullet converts a file of bullet's unquantised float32 parameters (raw.bin, the
// layout of a with every array float32, after a.Header bytes) to the quantised file of a
// (without header), and reports the quantisation error of every array. Integer arrays are
// quantised as round(w·Q) with Q the array's scale (QA, QB or QA·QB); float arrays are copied.
//
// Errors: a file of the wrong size, a NaN or infinite value, a value whose quantised
// magnitude reaches 2^31, and — unless a.Wrap — a quantised value outside its integer type
// (int16, int8), each naming the array and index. With a.Wrap such a value keeps its low
// bits, as an x86-64 C++ static_cast<int16_t>/static_cast<int8_t> of the rounded float does.
func QuantiseBullet(data []byte, a BulletArch) ([]byte, []BulletQuantError, error) {
	a = a.withDefaults()
	a.Float = true
	body, err := bulletData(data, a)
	if err != nil {
		return nil, nil, err
	}
	var out []byte
	var report []BulletQuantError
	off := 0
	for _, t := range a.tensors() {
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
				if !a.Wrap {
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

// ParseBullet builds a Network from a bullet network file (see the layout above and
// doc/bullet.md) and its declared architecture. The feature set is ALL (flip orientation),
// ALL with the hm (mirrored) orientation, or a product KB × ALL of king buckets and ALL;
// bullet's feature rows are permuted into nnuekit's ALL index order, and with mirroring
// nnuekit's convention (own king on files e–h) is bullet's (files a–d) with every square
// mirrored, a fixed permutation too.
//
// Single layer: the stack per bucket is [Perspective, SCReLU] (CPWArchitecture) or
// [Perspective, BulletCReLU]; Evaluate returns centipawns as bullet's inference does.
// Multi-layer: [Perspective, PairwiseClip, Affine (int8 L1, zero bias), Dequantise,
// FloatActivation, (FloatAffine, FloatActivation)…, FloatAffine, FloatOutput]; Evaluate
// returns trunc(float32(out·Scale)).
//
// With a.Float the file holds float32 parameters, quantised first by QuantiseBullet; the
// quantisation error of every integer array is appended to Architecture.Quantization.
//
// Errors: an inconsistent architecture, a file whose size after the header is neither the
// data size nor that size padded to 64 bytes, non-finite float parameters, and, for SCReLU,
// output weights with |w| > 128 (nnuekit's SCReLU kernel is exact only up to that bound,
// which bullet's default weight clipping ±1.98·QB respects).
func ParseBullet(data []byte, a BulletArch) (*Network, error) {
	a = a.withDefaults()
	if err := a.validate(); err != nil {
		return nil, err
	}
	declared := a
	var quantNote string
	if a.Float {
		q, report, err := QuantiseBullet(data, a)
		if err != nil {
			return nil, err
		}
		data = q
		a.Float, a.Header, a.Wrap = false, 0, false
		quantNote = "; quantised at load from float32:"
		for _, r := range report {
			if r.Scale != 1 {
				quantNote += fmt.Sprintf(" %s max |err| %.3g mean %.3g", r.Tensor, r.MaxAbs, r.MeanAbs)
				if r.Wrapped > 0 {
					quantNote += fmt.Sprintf(" (%d wrapped)", r.Wrapped)
				}
			}
		}
	}
	body, err := bulletData(data, a)
	if err != nil {
		return nil, err
	}
	// Split the parameter arrays.
	arrays := map[string][]byte{}
	off := 0
	for _, t := range a.tensors() {
		arrays[t.name] = body[off : off+t.bytes()]
		off += t.bytes()
	}
	ft, err := bulletTransformer(a, arrays["l0w"], arrays["l0b"])
	if err != nil {
		return nil, err
	}
	nb := a.OutputBuckets
	buckets := Buckets{N: nb, Sub: 2, Div: (32 + nb - 1) / nb}
	if nb == 1 {
		buckets = Buckets{}
	} else if len(a.BucketTable) > 0 {
		buckets = Buckets{N: nb, Table: make([]uint8, len(a.BucketTable))}
		for i, b := range a.BucketTable {
			buckets.Table[i] = uint8(b)
		}
	}
	var arch Architecture
	if a.Pairwise {
		arch, err = bulletMultiLayer(a, buckets, arrays)
	} else {
		arch, err = bulletSingleLayer(a, buckets, i16s(arrays["l1w"]), i16s(arrays["l1b"]))
	}
	if err != nil {
		return nil, err
	}
	arch.Quantization += quantNote
	return NewNetwork(ft, arch, "bullet "+declared.String())
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

// bulletTransformer builds the feature transformer from bullet's l0w [768·K][N] and l0b [N].
func bulletTransformer(a BulletArch, l0w, l0bBytes []byte) (*FeatureTransformer, error) {
	table, kb, _ := a.kingTable()
	n := a.Hidden
	o := featureset.Flip
	if a.Mirror {
		o = featureset.FlipMirror
	}
	var set *featureset.Set
	all := featureset.All(o)
	if len(a.KingBuckets) > 0 {
		kbBlock, err := featureset.KingBuckets(kingsName(table, o), "KINGS", table, o)
		if err != nil {
			return nil, fmt.Errorf("nnue: bullet: %w", err)
		}
		prod, err := featureset.Product(kbBlock, all)
		if err != nil {
			return nil, fmt.Errorf("nnue: bullet: %w", err)
		}
		set = featureset.NewSet(prod)
	} else {
		set = featureset.NewSet(all)
	}
	if set.Size() != 768*kb {
		return nil, fmt.Errorf("nnue: bullet: feature set %v has %d features, want %d", set, set.Size(), 768*kb)
	}
	// Permute bullet's rows into ALL's order: ALL index (file·8 + rank)·12 + role·2 + color.
	w := make([]int16, 768*kb*n)
	for b := range kb {
		for sq := range 64 {
			bsq := sq
			if a.Mirror {
				bsq ^= 7
			}
			for role := range 6 {
				for c := range 2 {
					ours := b*768 + ((sq&7)*8+sq>>3)*12 + role*2 + c
					theirs := b*768 + 384*c + 64*role + bsq
					src := l0w[2*theirs*n : 2*(theirs+1)*n]
					dst := w[ours*n : (ours+1)*n]
					for j := range dst {
						dst[j] = int16(binary.LittleEndian.Uint16(src[2*j:]))
					}
				}
			}
		}
	}
	return NewFeatureTransformer(set, n, w, i16s(l0bBytes), 0, nil)
}

// bulletSingleLayer builds the stacks of the single-layer family.
func bulletSingleLayer(a BulletArch, buckets Buckets, l1w, l1b []int16) (Architecture, error) {
	n, nb := a.Hidden, a.OutputBuckets
	weightsOf := func(bucket int) []int16 {
		out := make([]int16, 2*n)
		for k := range out {
			if a.TransposedOutput {
				out[k] = l1w[bucket*2*n+k]
			} else {
				out[k] = l1w[k*nb+bucket]
			}
		}
		return out
	}
	if a.SCReLU {
		outs := make([]*SCReLU, nb)
		for b := range outs {
			ws := weightsOf(b)
			for _, x := range ws {
				if x > 128 || x < -128 {
					return Architecture{}, fmt.Errorf("nnue: bullet: output weight %d of bucket %d exceeds ±128, beyond nnuekit's exact SCReLU kernel", x, b)
				}
			}
			outs[b] = &SCReLU{QA: int16(a.QA), Div: a.QA, Out: 1, Weights: alignedCopy(ws), Bias: []int32{int32(l1b[b])}}
		}
		return CPWArchitecture(buckets, outs, a.QA, a.QB, a.Scale)
	}
	arch := Architecture{
		Buckets:      buckets,
		Output:       OutputScale{Mul: a.Scale, Div: a.QA * a.QB},
		PawnValue:    100,
		Quantization: fmt.Sprintf("bullet CReLU: QA=%d, QB=%d, output bias ×QA·QB, SCALE=%d", a.QA, a.QB, a.Scale),
	}
	for b := range nb {
		arch.Stacks = append(arch.Stacks, []Layer{Perspective{}, &BulletCReLU{QA: int16(a.QA), Weights: alignedCopy(weightsOf(b)), Bias: []int32{int32(l1b[b])}}})
	}
	return arch, nil
}

// bulletMultiLayer builds the stacks of the multi-layer family. Every layer's weights are
// stored [In][B][Out] (bullet's column-major output-bucketed matrices) and its biases [B][Out].
func bulletMultiLayer(a BulletArch, buckets Buckets, arrays map[string][]byte) (Architecture, error) {
	nb := a.OutputBuckets
	arch := Architecture{
		Buckets:   buckets,
		PawnValue: 100,
		Quantization: fmt.Sprintf("bullet multi-layer: FT ×QA=%d, pairwise clip %d >>%d, L1 int8 ×QB=%d rescaled by 2^%d/(QA²·QB), float32 after, output ×%d truncated",
			a.QA, a.Clip, a.Shift, a.QB, a.Shift, a.Scale),
	}
	mul := float32(int64(1)<<a.Shift) / float32(int64(a.QA)*int64(a.QA)*int64(a.QB))
	for b := range nb {
		st := []Layer{Perspective{}, PairwiseClip{Max: int16(a.Clip), Shift: uint8(a.Shift)}}
		in := a.Hidden
		for i, l := range a.Layers {
			wb := arrays[fmt.Sprintf("l%dw", i+1)]
			bias := f32s(arrays[fmt.Sprintf("l%db", i+1)])[b*l.Out : (b+1)*l.Out]
			if !allFinite32(bias) {
				return Architecture{}, fmt.Errorf("nnue: bullet: layer %d bucket %d: biases not finite", i+1, b)
			}
			if !l.Float {
				af := NewAffine(in, l.Out)
				p := pad32(in)
				for k := range in {
					for j := range l.Out {
						af.Weights[j*p+k] = int8(wb[(k*nb+b)*l.Out+j])
					}
				}
				st = append(st, af, &Dequantise{Mul: mul, Bias: bias, FMA: a.FMA})
			} else {
				all := f32s(wb)
				fa := &FloatAffine{In: in, Out: l.Out, Weights: make([]float32, in*l.Out), Bias: bias, Lanes: l.Lanes, FMA: a.FMA}
				for k := range in {
					copy(fa.Weights[k*l.Out:(k+1)*l.Out], all[(k*nb+b)*l.Out:])
				}
				st = append(st, fa)
			}
			if l.Act != 0 {
				st = append(st, FloatActivation{Act: l.Act})
			}
			in = l.Out
		}
		st = append(st, FloatOutput{Scale: float32(a.Scale)})
		arch.Stacks = append(arch.Stacks, st)
	}
	return arch, nil
}

func alignedCopy(v []int16) []int16 {
	w := alignedInt16(len(v))
	copy(w, v)
	return w
}

// LoadBulletFile reads a bullet network file and calls ParseBullet. The file's size is checked
// against the declaration before it is read, so a file of the wrong size (however large) is
// refused without reading it.
func LoadBulletFile(path string, a BulletArch) (*Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	a = a.withDefaults()
	size, err := BulletFileSize(a)
	if err != nil {
		return nil, err
	}
	if n := fi.Size() - int64(a.Header); n != int64(size) && n != int64((size+63)/64*64) {
		return nil, fmt.Errorf("nnue: bullet: %s has %d bytes, want %d-byte header + %d (or %d padded) for %v", path, fi.Size(), a.Header, size, (size+63)/64*64, a)
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("nnue: bullet: reading %s: %w", path, err)
	}
	return ParseBullet(data, a)
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
