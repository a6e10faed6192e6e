package nnue

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/featureset"
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

// BulletArch describes a bullet network of the CPW family, which the file does not record.
type BulletArch struct {
	// Hidden is N, the feature transformer width per perspective (a multiple of 32 here).
	Hidden int
	// OutputBuckets is B, the number of material-count output buckets (0 or 1: none).
	OutputBuckets int
	// SCReLU selects the squared clipped ReLU; false means CReLU.
	SCReLU bool
	// QA, QB and Scale are the quantisation constants (0: 255, 64, 400, CPW's defaults).
	QA, QB, Scale int32
	// KingBuckets maps the perspective's own king square (a1 = 0, seen from the perspective)
	// to an input bucket: nil for plain 768 inputs, 64 entries (ChessBuckets), or 32 entries
	// of four files a–d per rank when Mirror is set (ChessBucketsMirrored's layout).
	KingBuckets []int
	// Mirror selects horizontal mirroring (ChessBucketsMirrored).
	Mirror bool
	// TransposedOutput is set when l1w was saved with .transpose() (bullet's output-bucket
	// examples do so): [B][2N] instead of [2N][B].
	TransposedOutput bool
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

// String returns the description in the form ParseBulletArch reads.
func (a BulletArch) String() string {
	a = a.withDefaults()
	var b strings.Builder
	act := "crelu"
	if a.SCReLU {
		act = "screlu"
	}
	fmt.Fprintf(&b, "hidden=%d act=%s out=%d qa=%d qb=%d scale=%d", a.Hidden, act, a.OutputBuckets, a.QA, a.QB, a.Scale)
	if len(a.KingBuckets) > 0 {
		s := make([]string, len(a.KingBuckets))
		for i, x := range a.KingBuckets {
			s[i] = strconv.Itoa(x)
		}
		b.WriteString(" kb=" + strings.Join(s, ","))
	}
	if a.Mirror {
		b.WriteString(" mirror")
	}
	if a.TransposedOutput {
		b.WriteString(" transposed")
	}
	return b.String()
}

// ParseBulletArch reads a BulletArch from space-separated fields: hidden=N, act=screlu|crelu,
// out=B, qa=, qb=, scale=, kb=comma-separated buckets (32 or 64), and the flags mirror and
// transposed, e.g. "hidden=256 act=screlu out=8 transposed". Unknown fields are an error.
func ParseBulletArch(s string) (BulletArch, error) {
	var a BulletArch
	a.SCReLU = true
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
		case "act":
			switch v {
			case "screlu":
				a.SCReLU = true
			case "crelu":
				a.SCReLU = false
			default:
				err = fmt.Errorf("nnue: bullet architecture: act=%q, want screlu or crelu", v)
			}
		case "kb":
			for _, x := range strings.Split(v, ",") {
				n, e := strconv.Atoi(x)
				if e != nil || n < 0 || n >= 64 {
					err = fmt.Errorf("nnue: bullet architecture: king bucket %q, want 0…63", x)
					break
				}
				a.KingBuckets = append(a.KingBuckets, n)
			}
		case "mirror":
			a.Mirror = true
		case "transposed":
			a.TransposedOutput = true
		default:
			err = fmt.Errorf("nnue: bullet architecture: unknown field %q", f)
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
	case len(a.KingBuckets) == 64 && !a.Mirror:
		copy(t[:], a.KingBuckets)
	case len(a.KingBuckets) == 32 && a.Mirror:
		for sq := range t {
			t[sq] = a.KingBuckets[(sq/8)*4+[8]int{0, 1, 2, 3, 3, 2, 1, 0}[sq%8]]
		}
	default:
		return t, 0, fmt.Errorf("nnue: bullet: %d king buckets with mirror=%v, want 64 without mirroring or 32 with it", len(a.KingBuckets), a.Mirror)
	}
	for _, x := range t {
		n = max(n, x+1)
	}
	return t, n, nil
}

// BulletFileSize returns the size of the unpadded parameter data of a network with
// architecture a (the file is this rounded up to a multiple of 64 bytes).
func BulletFileSize(a BulletArch) (int, error) {
	a = a.withDefaults()
	_, kb, err := a.kingTable()
	if err != nil {
		return 0, err
	}
	n, b := a.Hidden, a.OutputBuckets
	return 2 * (768*kb*n + n + 2*n*b + b), nil
}

// ParseBullet builds a Network from a bullet quantised network file (see the layout above)
// and its architecture. The feature set is ALL (flip orientation), ALL with the hm (mirrored)
// orientation, or a product KB × ALL of king buckets and ALL; bullet's feature rows are
// permuted into nnuekit's ALL index order, and with mirroring nnuekit's convention (own king
// on files e–h) is bullet's (files a–d) with every square mirrored, a fixed permutation too.
// The network is built from its declared architecture (Spec), e.g. for a 768→512→1
// SCReLU net "ft=all:i16 width=512 stack=stm>screlu_affine.i16(255,255,1)
// out=*400/16320 pawn=100" (CReLU: crelu_affine.i16(QA); king buckets: the input
// kings(…)*all, parseInputSet); Evaluate returns centipawns as bullet's inference does.
//
// Errors: an inconsistent architecture (width not a multiple of 32, bad king buckets), a file
// whose size is neither the data size nor that size padded to 64 bytes, and, for SCReLU,
// output weights with |w| > 128 (nnuekit's SCReLU kernel is exact only up to that bound,
// which bullet's default weight clipping ±1.98·QB respects).
func ParseBullet(data []byte, a BulletArch) (*Network, error) {
	a = a.withDefaults()
	n, nb := a.Hidden, a.OutputBuckets
	if n <= 0 || n%32 != 0 || n > maxWidth {
		return nil, fmt.Errorf("nnue: bullet: hidden size %d must be a positive multiple of 32 ≤ %d", n, maxWidth)
	}
	if nb < 1 || nb > 32 {
		return nil, fmt.Errorf("nnue: bullet: %d output buckets, want 1…32", nb)
	}
	if a.QA <= 0 || a.QA > 32767 || a.QB <= 0 || a.Scale <= 0 {
		return nil, fmt.Errorf("nnue: bullet: QA %d, QB %d, SCALE %d must be positive (QA < 2^15)", a.QA, a.QB, a.Scale)
	}
	table, kb, err := a.kingTable()
	if err != nil {
		return nil, err
	}
	size, _ := BulletFileSize(a)
	if len(data) != size && len(data) != (size+63)/64*64 {
		return nil, fmt.Errorf("nnue: bullet: file has %d bytes, want %d (or %d padded) for %v", len(data), size, (size+63)/64*64, a)
	}
	i16s := func(off, cnt int) []int16 {
		v := make([]int16, cnt)
		for i := range v {
			v[i] = int16(binary.LittleEndian.Uint16(data[off+2*i:]))
		}
		return v
	}
	off := 0
	l0w := data[off : off+2*768*kb*n]
	off += len(l0w)
	l0b := i16s(off, n)
	off += 2 * n
	l1w := i16s(off, 2*n*nb)
	off += 4 * n * nb
	l1b := i16s(off, nb)

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
	w := alignedInt16(768 * kb * n)
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
	weightsOf := func(bucket int) []int16 {
		out := alignedInt16(2 * n)
		for k := range out {
			if a.TransposedOutput {
				out[k] = l1w[bucket*2*n+k]
			} else {
				out[k] = l1w[k*nb+bucket]
			}
		}
		return out
	}
	stage := fmt.Sprintf("crelu_affine.i16(%d)", a.QA)
	quant := fmt.Sprintf("bullet CReLU: QA=%d, QB=%d, output bias ×QA·QB, SCALE=%d", a.QA, a.QB, a.Scale)
	if a.SCReLU {
		stage = fmt.Sprintf("screlu_affine.i16(%d,%d,1)", a.QA, a.QA)
		quant = fmt.Sprintf("CPW: QA=%d (feature transformer), QB=%d (output weights), output bias ×QA·QB, SCALE=%d", a.QA, a.QB, a.Scale)
	}
	buckets := ""
	if nb > 1 {
		buckets = fmt.Sprintf(" buckets=pieces(%d,2,%d)", nb, (32+nb-1)/nb)
	}
	spec, err := ParseSpec(fmt.Sprintf("ft=%s:i16 width=%d stack=stm>%s%s out=*%d/%d pawn=100", set, n, stage, buckets, a.Scale, a.QA*a.QB))
	if err != nil {
		return nil, fmt.Errorf("nnue: bullet: %w", err)
	}
	var params []any
	for b := range nb {
		ws := weightsOf(b)
		if a.SCReLU {
			for _, x := range ws {
				if x > 128 || x < -128 {
					return nil, fmt.Errorf("nnue: bullet: output weight %d of bucket %d exceeds ±128, beyond nnuekit's exact SCReLU kernel", x, b)
				}
			}
		}
		params = append(params, ws, []int32{int32(l1b[b])})
	}
	return spec.assemble(nil, w, alignedCopy(l0b), nil, params, "bullet "+a.String(), quant)
}

func alignedCopy(v []int16) []int16 {
	w := alignedInt16(len(v))
	copy(w, v)
	return w
}

// LoadBulletFile reads a bullet quantised network file (quantised.bin) and calls ParseBullet.
func LoadBulletFile(path string, a BulletArch) (*Network, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseBullet(data, a)
}

// BulletCReLU is the output layer of a CReLU network of the CPW family as bullet trains it:
// out = Σ clamp(v_i, 0, QA)·W[i] + Bias over the 2N perspective-ordered int16 accumulator
// values (side to move first), summed in int64 and saturated to int32; the bias is at scale
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
	var s int64
	for p := range 2 {
		w := l.Weights[p*m : (p+1)*m]
		for i, x := range in.acc[p][:m] {
			v := min(max(int64(x), 0), int64(l.QA))
			s += v * int64(w[i])
		}
	}
	s += int64(l.Bias[0])
	out.i32[0] = int32(min(max(s, math.MinInt32), math.MaxInt32))
}
