package nnue

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/simd"
	"pgregory.net/rapid"
)

// TestBulletBucketTable: Alexandria's output-bucket formula min((63 − n)(32 − n)/225, 7) as
// a declared table gives the formula's bucket for every piece count, and counts beyond the
// table take its last entry.
func TestBulletBucketTable(t *testing.T) {
	a := bulletArchs()[1]
	b := Buckets{N: 8, Table: make([]uint8, len(a.BucketTable))}
	for i, x := range a.BucketTable {
		b.Table[i] = uint8(x)
	}
	for n := 0; n <= 40; n++ {
		want := min((63-n)*(32-n)/225, 7)
		if n > 32 {
			want = 0
		}
		if got := b.OfPieces(n); got != want {
			t.Errorf("pieces %d: bucket %d, want %d", n, got, want)
		}
	}
	// A table entry not below the bucket count is refused by NewNetwork and by the loader.
	if _, _, err := (BulletArch{Hidden: 32, OutputBuckets: 2, BucketTable: []int{0, 2}}).Declare(); err == nil {
		t.Error("bucket 2 of 2 accepted")
	}
}

// TestBulletKingTable: a 32-entry map with mirroring gives the same bucket on a square and
// its horizontal mirror; a 64-entry map is used as it is; an asymmetric 64-entry map with
// mirroring is refused.
func TestBulletKingTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		mirror := rapid.Bool().Draw(t, "mirror")
		n := 64
		if mirror {
			n = 32
		}
		kb := rapid.SliceOfN(rapid.IntRange(0, 9), n, n).Draw(t, "kb")
		if mirror && rapid.Bool().Draw(t, "64 symmetric") {
			// The same map written out for all 64 squares.
			full := make([]int, 64)
			for sq := range full {
				f := sq % 8
				full[sq] = kb[(sq/8)*4+min(f, 7-f)]
			}
			kb, n = full, 64
		}
		a := BulletArch{Hidden: 32, KingBuckets: kb, Mirror: mirror}
		table, count, err := a.kingTable()
		if err != nil {
			t.Fatal(err)
		}
		maxB := 0
		for sq := range 64 {
			want := kb[sq%n]
			if mirror && n == 32 {
				f := sq % 8
				want = kb[(sq/8)*4+min(f, 7-f)]
			}
			if mirror {
				if table[sq] != table[sq^7] {
					t.Fatalf("square %d bucket %d, mirror %d", sq, table[sq], table[sq^7])
				}
			}
			if table[sq] != want {
				t.Fatalf("square %d: bucket %d, want %d", sq, table[sq], want)
			}
			maxB = max(maxB, want)
		}
		if count != maxB+1 {
			t.Fatalf("%d buckets, want %d", count, maxB+1)
		}
	})
	asym := make([]int, 64)
	asym[4] = 1 // e1 in bucket 1, d1 in bucket 0
	if _, _, err := (BulletArch{Hidden: 32, KingBuckets: asym, Mirror: true}).kingTable(); err == nil || !strings.Contains(err.Error(), "symmetric") {
		t.Errorf("asymmetric mirrored map: %v", err)
	}
	if _, _, err := (BulletArch{Hidden: 32, KingBuckets: asym}).kingTable(); err != nil {
		t.Errorf("asymmetric map without mirroring: %v", err)
	}
}

// TestBulletSymmetry: every shared bullet net evaluates a position and its colour-flipped
// mirror image (Position.Flip: the other side to move, seen from its own side) the same,
// as perspective-relative inputs and king buckets of both perspectives must give; the
// horizontally mirrored nets also evaluate a position and its a ↔ h mirror the same.
func TestBulletSymmetry(t *testing.T) {
	for _, c := range bulletNets {
		t.Run(c.file, func(t *testing.T) {
			net, rows := loadBulletCase(t, c.file, c.csv, c.spec, c.layout)
			mirrored := strings.Contains(c.spec, "@hm")
			e := net.NewEvaluator()
			rapid.Check(t, func(t *rapid.T) {
				r := rows[rapid.IntRange(0, len(rows)-1).Draw(t, "row")]
				v := e.Evaluate(&r.pos)
				f := r.pos.Flip()
				if w := e.Evaluate(&f); w != v {
					t.Fatalf("%s: %d, flipped %d", r.fen, v, w)
				}
				if mirrored {
					m := r.pos.MirrorFiles()
					if w := e.Evaluate(&m); w != v {
						t.Fatalf("%s: %d, mirrored %d", r.fen, v, w)
					}
				}
			})
		})
	}
}

// bulletToFloat writes the float32 file of a quantised bullet body: every integer parameter
// divided by its scale (a float32 division), float parameters copied.
func bulletToFloat(t testing.TB, body []byte, spec Spec, f BulletFile) []byte {
	t.Helper()
	var out []byte
	off := 0
	for _, tn := range bulletLayoutFor(t, spec, f).tensors {
		for i := range tn.count {
			var w float32
			switch {
			case tn.elem == bulletI8:
				w = float32(int8(body[off+i])) / float32(tn.scale)
			case tn.elem == bulletI16:
				w = float32(int16(binary.LittleEndian.Uint16(body[off+2*i:]))) / float32(tn.scale)
			default:
				w = math.Float32frombits(binary.LittleEndian.Uint32(body[off+4*i:]))
			}
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(w))
		}
		off += tn.bytes()
	}
	return out
}

// TestBulletFloatFile: each shared net written as bullet's float32 file (its integers divided
// by their scales) quantises back to the same bytes, loads with the declared "float" flag and
// evaluates as the engine prints; the quantisation error is below half a step.
func TestBulletFloatFile(t *testing.T) {
	for _, c := range bulletNets {
		t.Run(c.file, func(t *testing.T) {
			net0, rows := loadBulletCase(t, c.file, c.csv, c.spec, c.layout)
			_ = net0
			spec, _ := ParseSpec(c.spec)
			data, err := os.ReadFile(filepath.Join(sharedDir, "nets", "bullet", c.file))
			if err != nil {
				t.Fatal(err)
			}
			fa := c.layout
			fa.Float, fa.QA, fa.QB = true, c.qa, c.qb
			body, err := bulletLayoutFor(t, spec, c.layout).body(data, c.layout)
			if err != nil {
				t.Fatal(err)
			}
			fa.Header = 0
			fl := bulletToFloat(t, body, spec, fa)
			q, report, err := QuantiseBullet(fl, spec, fa)
			if err != nil {
				t.Fatal(err)
			}
			if string(q) != string(body) {
				t.Fatal("float file does not quantise back to the engine's integers")
			}
			for _, r := range report {
				if r.Wrapped != 0 || r.MaxAbs > 0.5/r.Scale+1e-9 || r.MeanAbs > r.MaxAbs {
					t.Errorf("%+v", r)
				}
			}
			net, err := ParseBullet(fl, spec, fa)
			if err != nil {
				t.Fatal(err)
			}
			if q := net.Architecture().Quantization; !strings.Contains(q, fmt.Sprintf("quantised at load from float32 (QA %d, QB %d): l0w max |err| ", c.qa, c.qb)) {
				t.Errorf("quantization text %q does not report the error", q)
			}
			e := net.NewEvaluator()
			for i := 0; i < len(rows); i += 50 {
				if v := e.Evaluate(&rows[i].pos); v != rows[i].raw {
					t.Fatalf("%s: %d, engine %d", rows[i].fen, v, rows[i].raw)
				}
			}
		})
	}
}

// TestBulletQuantisationError: a random float32 network quantises with an error of at most
// half a step per parameter (round to nearest), reported per array.
func TestBulletQuantisationError(t *testing.T) {
	spec, f := declareBullet(t, BulletArch{Hidden: 32, SCReLU: true, OutputBuckets: 2, Float: true})
	size, err := BulletFileSize(spec, f)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var fl []byte
	for range size / 4 {
		fl = binary.LittleEndian.AppendUint32(fl, math.Float32bits(float32(rng.Float64()*3.9-1.95)/2))
	}
	_, report, err := QuantiseBullet(fl, spec, f)
	if err != nil {
		t.Fatal(err)
	}
	names := ""
	for _, r := range report {
		names += r.Tensor + " "
		if r.MaxAbs <= 0 || r.MaxAbs > 0.5/r.Scale*(1+1e-6) || r.MeanAbs <= 0 || r.MeanAbs > r.MaxAbs {
			t.Errorf("%+v: want 0 < mean ≤ max ≤ half a step (%g)", r, 0.5/r.Scale)
		}
	}
	if names != "l0w l0b l1w l1b " {
		t.Errorf("arrays %q", names)
	}
}

// TestBulletFloatHostile: NaN, ±Inf, a value beyond any integer type and a value outside
// int16 each give an error naming the array and index; with wrap the last keeps its low bits
// (a C++ static_cast<int16_t> on x86-64), and an int8 L1 weight likewise.
func TestBulletFloatHostile(t *testing.T) {
	spec, a := declareBullet(t, BulletArch{Hidden: 32, SCReLU: true, Float: true})
	size, _ := BulletFileSize(spec, a)
	base := make([]byte, size)
	put := func(data []byte, i int, v float32) []byte {
		d := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(d[4*i:], math.Float32bits(v))
		return d
	}
	l1w0 := 768*32 + 32 // index of l1w[0]
	for _, tc := range []struct {
		name string
		i    int
		v    float32
		want string
	}{
		{"nan", 5, float32(math.NaN()), "l0w[5] is NaN"},
		{"+inf", 768 * 32, float32(math.Inf(1)), "l0b[0] is +Inf"},
		{"-inf", l1w0 + 3, float32(math.Inf(-1)), "l1w[3] is -Inf"},
		{"huge", 7, 1e30, "l0w[7] = 1e+30 quantises to 2.5499999975697924e+32, beyond any integer type"},
		{"int16", l1w0, 600, "l1w[0] = 600 quantises to 38400, outside [-32768, 32767]"},
	} {
		_, err := ParseBullet(put(base, tc.i, tc.v), spec, a)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// wrap: 600·64 = 38400 keeps its low 16 bits, −27136.
	w := a
	w.Wrap = true
	q, report, err := QuantiseBullet(put(base, l1w0, 600), spec, w)
	if err != nil {
		t.Fatal(err)
	}
	if v := int16(binary.LittleEndian.Uint16(q[2*l1w0:])); v != -27136 || report[2].Wrapped != 1 {
		t.Errorf("wrapped to %d (%d wrapped), want −27136 (1)", v, report[2].Wrapped)
	}
	// An int8 L1 weight of 5.0 × QB 32 = 160 wraps to −96.
	mspec, ml := declareBullet(t, BulletArch{Hidden: 64, Pairwise: true, Clip: 362, Shift: 10, QA: 362, QB: 32,
		Layers: []BulletLayer{{Out: 8, Act: FloatSCReLU}, {Out: 1, Float: true}}, Float: true, Wrap: true})
	msize, _ := BulletFileSize(mspec, ml)
	l1 := 768*64 + 64
	q, _, err = QuantiseBullet(put(make([]byte, msize), l1+2, 5), mspec, ml)
	if err != nil {
		t.Fatal(err)
	}
	if v := int8(q[2*(768*64+64)+2]); v != -96 {
		t.Errorf("int8 wrapped to %d, want −96", v)
	}
	ml.Wrap = false
	if _, _, err := QuantiseBullet(put(make([]byte, msize), l1+2, 5), mspec, ml); err == nil || !strings.Contains(err.Error(), "l1w[2] = 5 quantises to 160, outside [-128, 127]") {
		t.Errorf("int8 overflow without wrap: %v", err)
	}
}

// TestBulletArchErrors: inconsistent BulletArch declarations of the multi-layer family, and
// architecture strings without a bullet file layout, are refused.
func TestBulletArchErrors(t *testing.T) {
	l8 := BulletLayer{Out: 8, Act: FloatSCReLU}
	l1 := BulletLayer{Out: 1, Float: true}
	ml := func(mod func(a *BulletArch), layers ...BulletLayer) BulletArch {
		a := BulletArch{Hidden: 64, Pairwise: true, Clip: 362, Shift: 10, Layers: layers}
		if mod != nil {
			mod(&a)
		}
		return a
	}
	for i, a := range []BulletArch{
		ml(nil), // no layers
		{Hidden: 64, SCReLU: true, Layers: []BulletLayer{l8, l1}},                   // layers without pairwise
		ml(func(a *BulletArch) { a.Shift = 9 }, l8, l1),                             // 362²>>9 > 127
		ml(func(a *BulletArch) { a.Hidden = 32 }, l8, l1),                           // 32 not a multiple of 64
		ml(nil, BulletLayer{Out: 8, Float: true, Act: FloatSCReLU}, l1),             // first layer float
		ml(nil, l8, BulletLayer{Out: 1}),                                            // later layer int8
		ml(nil, l8, BulletLayer{Out: 2, Float: true}),                               // two outputs at the end
		ml(nil, l8, BulletLayer{Out: 1, Float: true, Act: FloatSCReLU}),             // activation at the end
		ml(nil, BulletLayer{Out: 8}, l1),                                            // no activation in between
		ml(nil, l8, BulletLayer{Out: 1, Float: true, Lanes: 16}),                    // 16 lanes over 8 inputs
		ml(nil, BulletLayer{Out: 8, Act: FloatSCReLU, Lanes: 2}, l1),                // lanes on the int8 layer
		ml(nil, l8, BulletLayer{Out: 4, Float: true, Act: FloatReLU, Lanes: 2}, l1), // lanes with 4 outputs
		ml(func(a *BulletArch) { a.TransposedOutput = true }, l8, l1),
		ml(func(a *BulletArch) { a.Clip = 0 }, l8, l1), // clip left out
		{Hidden: 64, SCReLU: true, FMA: true},
		{Hidden: 64, OutputBuckets: 2, BucketTable: []int{0, 1, 2}},
	} {
		if _, _, err := a.Declare(); err == nil {
			t.Errorf("case %d: %+v accepted", i, a)
		}
	}
	// Valid architectures that a bullet file cannot hold.
	for _, s := range []string{
		"ft=all:i16 width=64 stack=white>crelu_affine.i16(255) out=*400/16320",                  // White's accumulator first
		"ft=all:i16 width=64 psqt=1 stack=stm>crelu_affine.i16(255) out=*400/16320",             // PSQT
		"ft=all:i8 width=64 stack=stm>crelu_affine.i16(255) out=*400/16320",                     // int8 rows
		"ft=halfkp:i16 width=64 stack=stm>crelu_affine.i16(255) out=*400/16320",                 // not 768 inputs
		"ft=all:i16 width=64 stack=stm>screlu_affine.i16(255,255,2)>affine.i8(1)",               // two outputs
		"ft=all:i16 width=64 stack=stm>pairwise(362,10)>affine.i8(8)>crelu.i32(6)>affine.i8(1)", // no dequant.f32
		"ft=all:i16 width=64 stack=stm>crelu.i16>affine.i8(1)",                                  // crelu.i16
	} {
		spec, err := ParseSpec(s)
		if err != nil {
			continue // refused already by the grammar
		}
		if _, err := BulletFileSize(spec, BulletFile{}); err == nil || !strings.Contains(err.Error(), "bullet") {
			t.Errorf("%q: %v", s, err)
		}
	}
	// A declaration beyond MaxFileSize, and a file of the wrong size, refused before reading.
	kb := make([]string, 64)
	for i := range kb {
		kb[i] = strconv.Itoa(i % 32) // 32 buckets × 768 × 16384 × 2 bytes = 768 MiB
	}
	if _, err := ParseSpec("ft=kings(" + strings.Join(kb, ".") + ")*all:i16 width=16384 stack=stm>crelu_affine.i16(255) out=*400/16320"); err == nil {
		t.Error("huge declaration accepted")
	}
	small, f := declareBullet(t, BulletArch{Hidden: 32})
	path := filepath.Join(t.TempDir(), "short.bin")
	if err := os.WriteFile(path, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadBulletFile(path, small, f); err == nil || !strings.Contains(err.Error(), "has 1000 bytes") {
		t.Errorf("wrong size: %v", err)
	}
	// A header longer than the file; a header and float constants out of range.
	if _, err := ParseBullet(make([]byte, 10), small, BulletFile{Header: 64}); err == nil || !strings.Contains(err.Error(), "header") {
		t.Errorf("short header: %v", err)
	}
	for _, bad := range []BulletFile{{Header: -1}, {Header: maxBulletHeader + 1}, {Float: true}, {Float: true, QA: 255, QB: 40000}} {
		if _, err := BulletFileSize(small, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// declareBullet returns a's declaration, failing the test on an error.
func declareBullet(t testing.TB, a BulletArch) (Spec, BulletFile) {
	t.Helper()
	spec, f, err := a.Declare()
	if err != nil {
		t.Fatal(err)
	}
	return spec, f
}

// bulletLayoutFor returns the file layout of spec and f, failing the test on an error.
func bulletLayoutFor(t testing.TB, spec Spec, f BulletFile) *bulletLayout {
	t.Helper()
	L, err := bulletLayoutOf(spec, f)
	if err != nil {
		t.Fatal(err)
	}
	return L
}

// tinyMultiLayer writes a random multi-layer bullet file for a (pairwise, int8 L1, float
// layers) and returns it.
func tinyMultiLayer(t testing.TB, a BulletArch, seed uint64) []byte {
	spec, f := declareBullet(t, a)
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []byte
	for _, tn := range bulletLayoutFor(t, spec, f).tensors {
		for range tn.count {
			switch {
			case tn.elem == bulletI8:
				out = append(out, uint8(int8(rng.IntN(121)-60)))
			case tn.elem == bulletI16:
				lo, hi := -150, 150
				if tn.name == "l0b" {
					lo, hi = -20, 400
				}
				out = binary.LittleEndian.AppendUint16(out, uint16(int16(lo+rng.IntN(hi-lo+1))))
			default:
				out = binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(rng.Float64()*2-1)))
			}
		}
	}
	return out
}

// refMultiLayer evaluates a multi-layer bullet net for pos from its file, written from the
// documented order (doc/bullet.md) without nnuekit's layers: features by bullet's definition,
// pairwise in int32, L1 in int32, then the float stages literally.
func refMultiLayer(t testing.TB, a BulletArch, data []byte, pos *board.Position) int32 {
	spec, f := declareBullet(t, a)
	a = a.withDefaults()
	n, nb := a.Hidden, a.OutputBuckets
	arrays := map[string][]byte{}
	off := 0
	for _, tn := range bulletLayoutFor(t, spec, f).tensors {
		arrays[tn.name] = data[off : off+tn.bytes()]
		off += tn.bytes()
	}
	l0w, l0b := i16s(arrays["l0w"]), i16s(arrays["l0b"])
	var acc [2][]int32
	for persp := board.White; persp <= board.Black; persp++ {
		flip := board.Square(0)
		if persp == board.Black {
			flip = 56
		}
		mir := board.Square(0)
		if a.Mirror && (pos.KingSquare(persp)^flip).File() > 3 {
			mir = 7
		}
		v := make([]int32, n)
		for j := range v {
			v[j] = int32(l0b[j])
		}
		for b := pos.Occupied(); b != 0; {
			sq := b.PopFirst()
			pc := pos.PieceAt(sq)
			c := 0
			if pc.Color() != persp {
				c = 1
			}
			f := 384*c + 64*int(pc.Role()-board.Pawn) + int(sq^flip^mir)
			for j := range v {
				v[j] += int32(l0w[f*n+j])
			}
		}
		acc[persp] = v
	}
	bucket := 0
	if nb > 1 {
		pc := pos.PieceCount()
		if len(a.BucketTable) > 0 {
			bucket = a.BucketTable[min(pc, len(a.BucketTable)-1)]
		} else {
			bucket = min(max((pc-2)/((32+nb-1)/nb), 0), nb-1)
		}
	}
	stm := int(pos.SideToMove())
	var x []float32
	ft := make([]int32, 0, n)
	for _, p := range []int{stm, stm ^ 1} {
		for i := range n / 2 {
			u := min(max(acc[p][i], 0), int32(a.Clip))
			w := min(max(acc[p][i+n/2], 0), int32(a.Clip))
			ft = append(ft, (u*w)>>a.Shift)
		}
	}
	mul := float32(int64(1)<<a.Shift) / float32(int64(a.QA)*int64(a.QA)*int64(a.QB))
	fmadd := func(p, q, r float32) float32 {
		if a.FMA {
			return simd.FMA32(p, q, r)
		}
		return float32(p*q) + r
	}
	in := n
	for li, l := range a.Layers {
		wb := arrays["l"+string(rune('1'+li))+"w"]
		bias := f32s(arrays["l"+string(rune('1'+li))+"b"])
		y := make([]float32, l.Out)
		for j := range y {
			if !l.Float {
				var s int32
				for i := range in {
					s += ft[i] * int32(int8(wb[(i*nb+bucket)*l.Out+j]))
				}
				y[j] = fmadd(float32(s), mul, bias[bucket*l.Out+j])
				continue
			}
			w := f32s(wb)
			if l.Lanes == 0 {
				t := bias[bucket*l.Out+j]
				for i := range in {
					t = fmadd(x[i], w[(i*nb+bucket)*l.Out+j], t)
				}
				y[j] = t
				continue
			}
			lanes := make([]float32, l.Lanes)
			for i := range in {
				lanes[i%l.Lanes] = fmadd(x[i], w[(i*nb+bucket)*l.Out+j], lanes[i%l.Lanes])
			}
			for h := l.Lanes / 2; h > 0; h /= 2 {
				for i := range h {
					lanes[i] += lanes[i+h]
				}
			}
			y[j] = lanes[0] + bias[bucket*l.Out+j]
		}
		for j, v := range y {
			switch l.Act {
			case FloatReLU:
				y[j] = max(v, 0)
			case FloatCReLU:
				y[j] = min(max(v, 0), 1)
			case FloatSCReLU:
				c := min(max(v, 0), 1)
				y[j] = c * c
			}
		}
		x, in = y, l.Out
	}
	return int32(float32(x[0] * float32(a.Scale)))
}

// TestBulletMultiLayerTiny: random small multi-layer nets of every declared variant (both
// activations' lanes, with and without fma, mirroring, bucket formula or table) evaluate as
// the literal reference on random positions.
func TestBulletMultiLayerTiny(t *testing.T) {
	outmap := bulletArchs()[0].BucketTable
	for i, a := range []BulletArch{
		{Hidden: 64, Pairwise: true, Clip: 362, Shift: 10, OutputBuckets: 8, QA: 362, QB: 32, Scale: 400, BucketTable: outmap,
			Layers: []BulletLayer{{Out: 16, Act: FloatSCReLU}, {Out: 32, Float: true, Act: FloatSCReLU}, {Out: 1, Float: true, Lanes: 16}}, Mirror: true, FMA: true},
		{Hidden: 64, Pairwise: true, Clip: 255, Shift: 9, OutputBuckets: 4, QA: 255, QB: 64, Scale: 300,
			Layers: []BulletLayer{{Out: 8, Act: FloatCReLU}, {Out: 1, Float: true, Lanes: 4}}},
		{Hidden: 128, Pairwise: true, Clip: 181, Shift: 8, QB: 64,
			Layers: []BulletLayer{{Out: 16, Act: FloatReLU}, {Out: 16, Float: true, Act: FloatSCReLU}, {Out: 8, Float: true, Act: FloatCReLU}, {Out: 1, Float: true, Lanes: 2}}, FMA: true},
	} {
		spec, f := declareBullet(t, a)
		data := tinyMultiLayer(t, a, uint64(i))
		net, err := ParseBullet(data, spec, f)
		if err != nil {
			t.Fatal(err)
		}
		e := net.NewEvaluator()
		for _, p := range randomPositions(100, uint64(i)) {
			if got, want := e.Evaluate(&p), refMultiLayer(t, a, data, &p); got != want {
				t.Fatalf("%v: %s: %d, reference %d", spec, p.FEN(), got, want)
			}
		}
	}
}

// FuzzParseBullet: a fuzzed file under small declared architectures of every family loads or
// fails with an error, never panics; what loads evaluates.
func FuzzParseBullet(f *testing.F) {
	decls := []struct {
		spec   string
		layout BulletFile
	}{
		{"ft=all:i16 width=32 stack=stm>screlu_affine.i16(255,255,1) buckets=pieces(2,2,16) out=*400/16320 pawn=100", BulletFile{}},
		{"ft=kings(0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.0.0)@hm*all@hm:i16 width=32 stack=stm>crelu_affine.i16(255) out=*400/16320 pawn=100", BulletFile{Header: 8}},
		{"ft=all:i16 width=64 stack=stm>pairwise(362,10)>affine.i8(8)>dequant.f32(1024,4193408)>sqrclamp.f32>dot.f32(8)>trunc.f32(400) buckets=table(1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0) fma pawn=100", BulletFile{}},
		{"ft=all:i16 width=64 stack=stm>pairwise(255,9)>affine.i8(8)>dequant.f32(512,4161600)>clamp.f32>affine.f32(4)>relu.f32>affine.f32(1)>trunc.f32(400) pawn=100", BulletFile{Float: true, QA: 255, QB: 64}},
	}
	f.Add(uint8(0), []byte{1, 2, 3})
	f.Add(uint8(2), make([]byte, 100))
	f.Fuzz(func(t *testing.T, k uint8, data []byte) {
		d := decls[int(k)%len(decls)]
		spec, err := ParseSpec(d.spec)
		if err != nil {
			t.Fatal(err)
		}
		// Stretch short inputs to the declared size so that the parameter paths run too.
		if size, err := BulletFileSize(spec, d.layout); err == nil && len(data) < size+d.layout.Header && len(data) > 0 {
			s := make([]byte, size+d.layout.Header)
			for i := range s {
				s[i] = data[i%len(data)]
			}
			data = s
		}
		net, err := ParseBullet(data, spec, d.layout)
		if err != nil {
			return
		}
		p := board.StartPosition()
		net.Evaluate(&p)
	})
}
