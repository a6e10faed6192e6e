package nnue

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// tinyBullet is a small network in bullet's parameter layout, kept as integers.
type tinyBullet struct {
	a        BulletArch
	kb       int
	table    [64]int
	l0w      []int16 // [768·kb][N], bullet's feature order
	l0b      []int16
	l1w      []int16 // [2N][B] or [B][2N] as a.TransposedOutput says
	l1b      []int16
	fileData []byte
}

func newTinyBullet(t *testing.T, a BulletArch, seed uint64) *tinyBullet {
	t.Helper()
	a = a.withDefaults()
	table, kb, err := a.kingTable()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	r := func(lo, hi int) int16 { return int16(lo + rng.IntN(hi-lo+1)) }
	n, nb := a.Hidden, a.OutputBuckets
	tb := &tinyBullet{a: a, kb: kb, table: table}
	for range 768 * kb * n {
		tb.l0w = append(tb.l0w, r(-60, 60))
	}
	for range n {
		tb.l0b = append(tb.l0b, r(-40, 200))
	}
	for range 2 * n * nb {
		tb.l1w = append(tb.l1w, r(-128, 128))
	}
	for range nb {
		tb.l1b = append(tb.l1b, r(-8000, 8000))
	}
	var buf []byte
	for _, v := range [][]int16{tb.l0w, tb.l0b, tb.l1w, tb.l1b} {
		for _, x := range v {
			buf = binary.LittleEndian.AppendUint16(buf, uint16(x))
		}
	}
	for len(buf)%64 != 0 {
		buf = append(buf, 0)
	}
	tb.fileData = buf
	return tb
}

// features returns bullet's active input indices of pos from perspective persp (bullet's
// Chess768 / ChessBuckets / ChessBucketsMirrored indexing, written out from its definition).
func (tb *tinyBullet) features(pos *board.Position, persp board.Color) []int {
	flip := board.Square(0)
	if persp == board.Black {
		flip = 56
	}
	ksq := pos.KingSquare(persp) ^ flip
	mirror := board.Square(0)
	if tb.a.Mirror && ksq.File() > 3 {
		mirror = 7
	}
	base := 768 * tb.table[ksq]
	var out []int
	for b := pos.Occupied(); b != 0; {
		sq := b.PopFirst()
		pc := pos.PieceAt(sq)
		c := 0
		if pc.Color() != persp {
			c = 1
		}
		out = append(out, base+384*c+64*int(pc.Role())+int(sq^flip^mirror))
	}
	return out
}

func (tb *tinyBullet) outWeight(bucket, k int) float64 {
	if tb.a.TransposedOutput {
		return float64(tb.l1w[bucket*2*tb.a.Hidden+k])
	}
	return float64(tb.l1w[k*tb.a.OutputBuckets+bucket])
}

// floatEval is the float network the integers quantise (weights ÷ QA, ÷ QB, bias ÷ QA·QB),
// evaluated in float64: (Σ act(acc)·w + b)·SCALE, act = clamp(·, 0, 1)² or clamp(·, 0, 1).
func (tb *tinyBullet) floatEval(pos *board.Position) float64 {
	a := tb.a
	n := a.Hidden
	qa, qb := float64(a.QA), float64(a.QB)
	stm := pos.SideToMove()
	bucket := 0
	if a.OutputBuckets > 1 {
		bucket = (pos.PieceCount() - 2) / ((32 + a.OutputBuckets - 1) / a.OutputBuckets)
	}
	out := float64(tb.l1b[bucket]) / (qa * qb)
	for p, persp := range []board.Color{stm, stm.Other()} {
		acc := make([]float64, n)
		for j := range acc {
			acc[j] = float64(tb.l0b[j]) / qa
		}
		for _, f := range tb.features(pos, persp) {
			for j := range acc {
				acc[j] += float64(tb.l0w[f*n+j]) / qa
			}
		}
		for j, x := range acc {
			v := math.Min(math.Max(x, 0), 1)
			if a.SCReLU {
				v *= v
			}
			out += v * tb.outWeight(bucket, p*n+j) / qb
		}
	}
	return out * float64(a.Scale)
}

// intEval is bullet's integer inference (examples/simple.rs), written out.
func (tb *tinyBullet) intEval(pos *board.Position) int64 {
	a := tb.a
	n := a.Hidden
	stm := pos.SideToMove()
	bucket := 0
	if a.OutputBuckets > 1 {
		bucket = (pos.PieceCount() - 2) / ((32 + a.OutputBuckets - 1) / a.OutputBuckets)
	}
	var out int64
	for p, persp := range []board.Color{stm, stm.Other()} {
		acc := make([]int16, n)
		copy(acc, tb.l0b)
		for _, f := range tb.features(pos, persp) {
			for j := range acc {
				acc[j] += tb.l0w[f*n+j]
			}
		}
		for j, x := range acc {
			v := min(max(int64(x), 0), int64(a.QA))
			if a.SCReLU {
				v *= v
			}
			out += v * int64(tb.outWeight(bucket, p*n+j))
		}
	}
	if a.SCReLU {
		out /= int64(a.QA)
	}
	out += int64(tb.l1b[bucket])
	return out * int64(a.Scale) / int64(a.QA*a.QB)
}

func randomPositions(n int, seed uint64) []board.Position {
	rng := rand.New(rand.NewPCG(seed, 2))
	var out []board.Position
	for len(out) < n {
		p := board.StartPosition()
		plies := rng.IntN(160)
		for range plies {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Play(ms[rng.IntN(len(ms))])
		}
		if len(p.LegalMoves()) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// TestBulletNetwork builds tiny networks in bullet's layout for the CPW family and checks
// nnuekit's evaluation against bullet's integer inference (exactly) and the float network
// the integers quantise (within the truncations: |Δ| ≤ 1.1 cp).
func TestBulletNetwork(t *testing.T) {
	mirrored := make([]int, 32)
	for i := range mirrored {
		mirrored[i] = min(i/8, 2) // ranks 1–2: 0, 3–4: 1, 5–8: 2
	}
	plain := make([]int, 64)
	for i := range plain {
		plain[i] = i % 3
	}
	cases := []struct {
		name string
		a    BulletArch
	}{
		{"768-32-1 screlu", BulletArch{Hidden: 32, SCReLU: true}},
		{"768-32-1 crelu", BulletArch{Hidden: 32}},
		{"768-32-8 screlu", BulletArch{Hidden: 32, SCReLU: true, OutputBuckets: 8}},
		{"768-32-8 screlu transposed", BulletArch{Hidden: 32, SCReLU: true, OutputBuckets: 8, TransposedOutput: true}},
		{"768x3hm-64-8 screlu", BulletArch{Hidden: 64, SCReLU: true, OutputBuckets: 8, KingBuckets: mirrored, Mirror: true, TransposedOutput: true}},
		{"768x3-32-4 crelu", BulletArch{Hidden: 32, OutputBuckets: 4, KingBuckets: plain}},
		{"768hm-32-1 screlu qa181", BulletArch{Hidden: 32, SCReLU: true, Mirror: true, KingBuckets: make([]int, 32), QA: 181, QB: 64, Scale: 350}},
	}
	positions := randomPositions(150, 5)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTinyBullet(t, tc.a, uint64(i))
			// The declaration survives its text form.
			spec, f := declareBullet(t, tc.a)
			back, err := ParseSpec(spec.String())
			if err != nil || back.String() != spec.String() {
				t.Fatalf("ParseSpec(%q) = %v, %v", spec.String(), back, err)
			}
			net, err := ParseBullet(tb.fileData, back, f)
			if err != nil {
				t.Fatal(err)
			}
			ev := net.NewEvaluator()
			maxDiff := 0.0
			for k := range positions {
				p := &positions[k]
				got := ev.Evaluate(p)
				if want := tb.intEval(p); int64(got) != want {
					t.Fatalf("%s: nnuekit %d, bullet integer inference %d", p.FEN(), got, want)
				}
				d := math.Abs(float64(got) - tb.floatEval(p))
				maxDiff = max(maxDiff, d)
			}
			if maxDiff > 1.1 {
				t.Errorf("max |integer − float| = %.3f cp", maxDiff)
			}
		})
	}
}

// TestBulletHandComputed: a check by hand. With all input weights zero the accumulators equal
// the biases: N = 32, l0b = 255 (1.0) for j < 16, else 0; output weights 64 (1.0) for the
// side to move's first 16 values and 0 otherwise; output bias −QA·QB (−1.0). Float output:
// (16·1·1.0 − 1.0)·400 = 6000 cp, for SCReLU (1² = 1) and CReLU alike; the integers give
// 16·255²·64/255 − 16320 = 244800, ×400/16320 = 6000 exactly.
func TestBulletHandComputed(t *testing.T) {
	for _, screlu := range []bool{true, false} {
		a := BulletArch{Hidden: 32, SCReLU: screlu}
		var buf []byte
		buf = append(buf, make([]byte, 2*768*32)...)
		for j := range 32 {
			v := uint16(0)
			if j < 16 {
				v = 255
			}
			buf = binary.LittleEndian.AppendUint16(buf, v)
		}
		for k := range 64 {
			v := uint16(0)
			if k < 16 {
				v = 64
			}
			buf = binary.LittleEndian.AppendUint16(buf, v)
		}
		bias := int16(-255 * 64)
		buf = binary.LittleEndian.AppendUint16(buf, uint16(bias))
		spec, f := declareBullet(t, a)
		net, err := ParseBullet(buf, spec, f)
		if err != nil {
			t.Fatal(err)
		}
		p := board.StartPosition()
		if got := net.Evaluate(&p); got != 6000 {
			t.Errorf("screlu=%v: %d, want (16 − 1)·400 = 6000", screlu, got)
		}
	}
}

func TestBulletErrors(t *testing.T) {
	spec, f := declareBullet(t, BulletArch{Hidden: 32, SCReLU: true})
	size, _ := BulletFileSize(spec, f)
	if size != 2*(768*32+32+64+1) {
		t.Errorf("size %d", size)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"short", make([]byte, size-2)},
		{"long", make([]byte, size+200)},
	} {
		if _, err := ParseBullet(tc.data, spec, f); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	for _, a := range []BulletArch{{Hidden: 30}, {Hidden: 32, KingBuckets: make([]int, 32)}, {Hidden: 32, KingBuckets: []int{1, 99}}} {
		if _, _, err := a.Declare(); err == nil {
			t.Errorf("%+v declared", a)
		}
	}
	// Output weights beyond ±128 are refused for SCReLU.
	data := make([]byte, (size+63)/64*64)
	binary.LittleEndian.PutUint16(data[2*(768*32+32):], uint16(200))
	if _, err := ParseBullet(data, spec, f); err == nil {
		t.Error("weight 200 accepted")
	}
}
