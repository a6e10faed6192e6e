package nnue

import (
	"bytes"
	"encoding/gob"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// shippedSpecs are the architecture strings of the networks nnuekit ships or loads from
// ../shared (doc/nnue.md repeats this table).
var shippedSpecs = map[string]string{
	"default":                      "ft=all:i16 width=256 stack=stm>screlu_affine.i16(255,255,1) buckets=pieces(8,2,4) out=*400/16320 pawn=361",
	"thesis hv":                    "ft=hv:i16 width=512 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=>>4 pawn=100",
	sfNetHalfKP:                    "ft=halfkp:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=/16 pawn=208",
	sfNetSFNNv5:                    "ft=halfkav2_hm:i16 width=1024 psqt=8 stack=stm>pairwise(127,7)>affine.i8(16)>skip(concat(sqrcrelu(19),crelu.i32(6)),affine.i8(32),crelu.i32(6),affine.i8(1),9600,8128) buckets=pieces(8,1,4) psqtdiv=2 out=/16 pawn=361",
	sfNetSF16:                      "ft=halfkav2_hm:i16 width=1536 psqt=8 stack=stm>pairwise(127,7)>affine.i8(16)>skip(concat(sqrcrelu(19),crelu.i32(6)),affine.i8(32),crelu.i32(6),affine.i8(1),9600,8128) buckets=pieces(8,1,4) psqtdiv=2 out=/16 pawn=328",
	sfNetSF19:                      "ft=threats+pawnpairs:i8,halfkav2_hm:i16 width=1024 psqt=8 stack=stm>pairwise(255,9)>affine.i8(32)>skipdiff(concat(sqrcrelu(21),crelu.i32(7)),append(affine.i8(32),concat(sqrcrelu(19),crelu.i32(6))),affine.i8(1),9600,16384) buckets=pieces(8,1,4) psqtdiv=2 out=/16 perterm pawn=material:304",
	"alexandria-ml-33184b6.net":    bulletNets[0].spec,
	"alexandria-sl-hm-cba722a.net": bulletNets[1].spec,
	"maelstrom-512.bin":            "ft=all:i16 width=512 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100",
	"stormphrax-net013.nnue":       bulletNets[3].spec,
}

// shippedNet loads one of shippedSpecs' networks.
func shippedNet(t testing.TB, name string) *Network {
	t.Helper()
	switch name {
	case "default":
		n, err := Default()
		if err != nil {
			t.Fatal(err)
		}
		return n
	case "thesis hv":
		return thesisNet(t, "hv")
	}
	for _, c := range bulletNets {
		if c.file == name {
			requireShared(t)
			spec, err := ParseSpec(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			n, err := LoadBulletFile(filepath.Join(sharedDir, "nets", "bullet", c.file), spec, c.layout)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	return sfTestNetwork(t, name)
}

// TestShippedSpecs: every shipped network declares the architecture of the table, and
// each string parses back to the network's Spec.
func TestShippedSpecs(t *testing.T) {
	for name, want := range shippedSpecs {
		if raceEnabled && name == sfNetSF19 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			n := shippedNet(t, name)
			s, err := n.Spec()
			if err != nil {
				t.Fatal(err)
			}
			if got := s.String(); got != want {
				t.Fatalf("architecture\n got %s\nwant %s", got, want)
			}
			p, err := ParseSpec(want)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p, s) {
				t.Fatalf("ParseSpec(%q) = %#v, want %#v", want, p, s)
			}
			if d := s.Describe(); strings.Contains(d, "error") || !strings.Contains(d, "layer stack") {
				t.Fatalf("Describe:\n%s", d)
			}
		})
	}
	for _, name := range thesisNetNames(t) {
		s, err := thesisNet(t, name).Spec()
		if err != nil {
			t.Fatal(err)
		}
		want := "ft=" + name + ":i16 width=512 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(1) out=>>4 pawn=100"
		if name == "best" {
			want = strings.Replace(want, "ft=best", "ft=hv", 1)
		}
		if s.String() != want {
			t.Errorf("%s: %s, want %s", name, s, want)
		}
	}
}

// TestDescribeBulletMultiLayer: the bullet multi-layer layout is described stage by stage
// with its sizes, bucket table and fma.
func TestDescribeBulletMultiLayer(t *testing.T) {
	s, err := ParseSpec(bulletNets[0].spec)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Describe()
	for _, w := range []string{"1536 → 3072", "3072 → 1536", "1536 → 16", "16 → 16", "32 → 1", "table", "fused multiply-add", "trunc.f32"} {
		if !strings.Contains(d, w) {
			t.Errorf("Describe lacks %q:\n%s", w, d)
		}
	}
	// fma without a float stage, and a float stack without trunc.f32, are refused.
	for _, bad := range []string{
		"ft=all:i16 width=64 stack=stm>crelu_affine.i16(255) fma",
		"ft=all:i16 width=64 stack=stm>pairwise(362,10)>affine.i8(8)>dequant.f32(1,2)>dot.f32(8)",
		"ft=all:i16 width=64 stack=stm>pairwise(362,10)>affine.i8(8)>dequant.f32(1,2)>dot.f32(3)>trunc.f32(400)",
		"ft=all:i16 width=64 stack=stm>pairwise(362,10)>affine.i8(8)>dequant.f32(0,2)>dot.f32(8)>trunc.f32(400)",
		"ft=all:i16 width=64 stack=stm>pairwise(362,10)>affine.i8(8)>relu.f32>dot.f32(8)>trunc.f32(400)",
	} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// drawSpec draws a valid architecture of one of the families: thesis/HalfKP, SFNNv5,
// SF19-like skipdiff/append, CPW SCReLU, bullet CReLU, bullet multi-layer (float stages).
func drawSpec(t *rapid.T) Spec {
	sets := []string{"all", "hv", "h+v", "ksq*all", "halfkp", "halfkav2_hm", "all@hm", "d1+d2",
		"kings(" + strings.TrimSuffix(strings.Repeat("0.1.", 32), ".") + ")@hm*all@hm"}
	s := Spec{
		Inputs: []Input{{Set: rapid.SampledFrom(sets).Draw(t, "set")}},
		Width:  64 * rapid.IntRange(1, 8).Draw(t, "width64"),
	}
	if rapid.Bool().Draw(t, "int8 rows") {
		s.Inputs = append([]Input{{Set: rapid.SampledFrom([]string{"pawnpairs", "mc", "threats+pawnpairs"}).Draw(t, "set8"), Rows: RowsInt8}}, s.Inputs...)
	}
	persp := Stage{Op: rapid.SampledFrom([]string{"stm", "white"}).Draw(t, "perspective")}
	aff := func(name string, lo, hi int) Stage {
		return Stage{Op: "affine.i8", Args: []int64{int64(rapid.IntRange(lo, hi).Draw(t, name))}}
	}
	crelu := func(name string) Stage {
		return Stage{Op: "crelu.i32", Args: []int64{int64(rapid.IntRange(0, 31).Draw(t, name))}}
	}
	dual := func(name string) Stage {
		return Stage{Op: "concat", Parts: []Stage{{Op: "sqrcrelu", Args: []int64{int64(rapid.IntRange(0, 63).Draw(t, name+" sqr"))}}, crelu(name)}}
	}
	pairwise := Stage{Op: "pairwise", Args: []int64{127, 7}}
	if rapid.Bool().Draw(t, "sf19 pairwise") {
		pairwise.Args = []int64{255, 9}
	}
	switch rapid.IntRange(0, 5).Draw(t, "family") {
	case 0:
		s.Stack = []Stage{persp, {Op: "crelu.i16"}, aff("l2", 1, 64), crelu("c2"), aff("l3", 1, 1)}
	case 1:
		s.Stack = []Stage{persp, pairwise, aff("l1", 2, 33), {Op: "skip",
			Parts: []Stage{dual("d1"), aff("l2", 1, 64), crelu("c2"), {Op: "affine.i8", Args: []int64{1}}},
			Args:  []int64{rapid.Int64Range(-1000, 10000).Draw(t, "mul"), rapid.Int64Range(1, 10000).Draw(t, "div")}}}
	case 2:
		s.Stack = []Stage{persp, pairwise, aff("fc0", 2, 64), {Op: "skipdiff", Parts: []Stage{dual("a0"),
			{Op: "append", Parts: []Stage{aff("fc1", 1, 64), dual("a1")}}, {Op: "affine.i8", Args: []int64{1}}},
			Args: []int64{rapid.Int64Range(-1000, 10000).Draw(t, "mul"), rapid.Int64Range(1, 20000).Draw(t, "div")}}}
	case 3:
		s.Stack = []Stage{persp, {Op: "screlu_affine.i16", Args: []int64{255, int64(rapid.SampledFrom([]int{1, 255}).Draw(t, "div")), 1}}}
	case 4:
		s.Stack = []Stage{persp, {Op: "crelu_affine.i16", Args: []int64{int64(rapid.IntRange(1, 32767).Draw(t, "qa"))}}}
	default:
		act := func(name string) Stage {
			return Stage{Op: rapid.SampledFrom([]string{"relu.f32", "clamp.f32", "sqrclamp.f32"}).Draw(t, name)}
		}
		last := Stage{Op: "affine.f32", Args: []int64{1}}
		if rapid.Bool().Draw(t, "lanes") {
			last = Stage{Op: "dot.f32", Args: []int64{int64(rapid.SampledFrom([]int{2, 4, 8, 16}).Draw(t, "lanes"))}}
		}
		s.Stack = []Stage{persp, pairwise, aff("l1", 16, 16), {Op: "dequant.f32", Args: []int64{1024, int64(rapid.IntRange(1, 1<<30).Draw(t, "den"))}}, act("a1"),
			{Op: "affine.f32", Args: []int64{int64(16 * rapid.IntRange(1, 2).Draw(t, "l2"))}}, act("a2"), last,
			{Op: "trunc.f32", Args: []int64{int64(rapid.IntRange(1, 1<<24).Draw(t, "scale"))}}}
		s.FMA = rapid.Bool().Draw(t, "fma")
	}
	switch rapid.IntRange(0, 2).Draw(t, "buckets") {
	case 1:
		s.Buckets.Pieces = Buckets{N: rapid.IntRange(2, 16).Draw(t, "n"), Sub: rapid.IntRange(-4, 4).Draw(t, "sub"), Div: rapid.IntRange(1, 8).Draw(t, "bdiv")}
	case 2:
		s.Buckets.Table = make([]uint8, 33)
		for i := range s.Buckets.Table {
			s.Buckets.Table[i] = uint8(i * 4 / 33)
		}
	}
	if rapid.Bool().Draw(t, "psqt") {
		s.PSQT = s.Buckets.Count()
		s.PSQTDiv = int32(rapid.IntRange(0, 4).Draw(t, "psqtdiv"))
		s.PerTerm = rapid.Bool().Draw(t, "perterm")
	}
	s.Output = OutputScale{Shift: uint8(rapid.IntRange(0, 31).Draw(t, "shift")), Mul: int32(rapid.IntRange(0, 1000).Draw(t, "omul")), Div: int32(rapid.IntRange(0, 20000).Draw(t, "odiv"))}
	s.PawnValue = int32(rapid.IntRange(0, 1000).Draw(t, "pawn"))
	if s.PawnValue > 0 {
		s.PawnByMaterial = rapid.Bool().Draw(t, "material")
	}
	return s
}

// TestSpecRoundTrip: ParseSpec(String(s)) == s for generated architectures of every family.
func TestSpecRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawSpec(t)
		if err := s.Check(); err != nil {
			t.Fatalf("generated spec refused: %v", err)
		}
		p, err := ParseSpec(s.String())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p, s) {
			t.Fatalf("round trip\n got %#v\nwant %#v", p, s)
		}
		if p.String() != s.String() {
			t.Fatalf("prints %s, want %s", p, s)
		}
	})
}

// TestSpecHostile: malformed or hostile strings get a *SpecError naming the problem, and
// parsing one allocates little.
func TestSpecHostile(t *testing.T) {
	const ok = "ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(32)>crelu.i32(6)>affine.i8(1)"
	for _, c := range []struct{ spec, want string }{
		{"", "missing field ft"},
		{"ft=all:i16 width=0 stack=stm", "0 out of range [1, 16384]"},
		{"ft=all:i16 width=100 stack=stm>crelu.i16>affine.i8(1)", "accumulator width 100 must be a positive multiple of 32"},
		{"ft=all:i16 width=99999999999999999999 stack=stm", "is not a decimal integer"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(0)", "argument 1 is 0, want 1…65536"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(65536)>crelu.i32(6)>affine.i8(65536)>crelu.i32(6)>affine.i8(1)", "bytes of parameters, more than"},
		{"ft=ka:i16 width=16384 stack=stm>crelu.i16>affine.i8(1)", "bytes of parameters"},
		{"ft=all:i16 width=256 stack=stm>affine.i8(1)", "reads uint8 but receives int16"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(32)", "must end with one value"},
		{"ft=all:i16 width=256 psqt=8 stack=stm>crelu.i16>affine.i8(1)", "8 PSQT columns for 1 buckets"},
		{"ft=nosuch:i16 width=256 stack=stm", "unknown block"},
		{"ft=all:i32 width=256 stack=stm", "row type \"i32\""},
		{"ft=all:i16,pawnpairs:i8 width=256 stack=stm>crelu.i16>affine.i8(1)", "int8-row inputs must come before"},
		{ok + " width=256", "given twice"},
		{"width=256 ft=all:i16 stack=stm", "out of order"},
		{ok + " colour=blue", "unknown field \"colour\""},
		{"ft=all:i16 width=256 stack=stm>relu", "unknown operation \"relu\""},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(1", "missing ')'"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8()", "want an operation name"},
		{"ft=all:i16 width=256 stack=stm>pairwise(255,7)>affine.i8(1)", "exceed 255"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(2)>skip(crelu.i32(0),affine.i8(1),1,0)", "zero divisor"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(2)>skip(crelu.i32(0),1,2)", "the body must end with one int32"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(2)>skip(stm,1,2)", "stm cannot be part of a body"},
		{"ft=all:i16 width=256 stack=stm>concat(concat(concat(concat(concat(stm)))))", "nested deeper than 4"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(1)>skipdiff(affine.i8(1),1,2)", "needs at least 2 inputs"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(2)>skipdiff(crelu.i32(0),affine.i8(1),1,0)", "zero divisor"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>affine.i8(2)>skipdiff(skip(crelu.i32(0),affine.i8(1),1,1),1,2)", "skip cannot be part of a body"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>append(affine.i8(4))>affine.i8(1)", "the body must end with uint8"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>append(skipdiff(affine.i8(1),1,2))>affine.i8(1)", "skipdiff cannot be part of a body"},
		{"ft=all:i16 width=256 stack=stm>append(crelu.i16)>affine.i8(1)", "reads uint8 but receives int16"},
		{"ft=all:i16 width=256 stack=stm>crelu.i16>append(affine.i8(65536),crelu.i32(0))>affine.i8(1)", "more than 65536"},
		{ok + " buckets=pieces(1,0,0)", "want 2 ≤ N ≤ 64 and Div > 0"},
		{ok + " buckets=table(0,1)", "bucket table has 2 entries"},
		{ok + " out=/0", "0 out of range"},
		{ok + " out=/16>>4", "want [>>shift][*mul][/div]"},
		{ok + " pawn=material:0", "out of range"},
		{ok + " perterm=1", "perterm takes no value"},
		{strings.Repeat("x", 1<<17), "longer than 65536 bytes"},
		{"ft=kings(1.2)*all:i16 width=32 stack=stm>crelu.i16>affine.i8(1)", "kings(…) has 2 buckets, want 64"},
		{"ft=kings(" + strings.Repeat("99.", 63) + "99)*all:i16 width=32 stack=stm>crelu.i16>affine.i8(1)", "bucket \"99\" of square 0"},
		{"ft=kings(" + strings.Repeat("0.", 63) + "0)@up*all:i16 width=32 stack=stm>crelu.i16>affine.i8(1)", "unknown orientation \"up\""},
		{"ft=kings(" + strings.Repeat("1.", 63) + "1)*(all+h):i16 width=32 stack=stm>crelu.i16>affine.i8(1)", "king bucket 0 is unused"},
		{"ft=all:i16 width=256 stack=" + strings.Repeat("stm>", 40) + "stm", "more than 32 stages"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ParseSpec(c.spec)
		runtime.ReadMemStats(&after)
		var se *SpecError
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSpec(%.80q): %v, want an error containing %q", c.spec, err, c.want)
		} else if !asSpecError(err, &se) {
			t.Errorf("ParseSpec(%.80q): %T is not a *SpecError", c.spec, err)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20+4*uint64(len(c.spec)) {
			t.Errorf("ParseSpec(%.80q) allocated %d bytes", c.spec, d)
		}
	}
	if _, err := ParseSpec(ok); err != nil {
		t.Fatal(err)
	}
}

func asSpecError(err error, se **SpecError) bool {
	e, ok := err.(*SpecError)
	*se = e
	return ok
}

// FuzzParseSpec: ParseSpec never panics; what it accepts prints to a string that parses
// to the same value and prints identically.
func FuzzParseSpec(f *testing.F) {
	for _, s := range shippedSpecs {
		f.Add(s)
	}
	f.Add("ft=all:i16 width=0 stack=stm")
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			if _, ok := err.(*SpecError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		p, err := ParseSpec(sp.String())
		if err != nil {
			t.Fatalf("reparsing %q: %v", sp.String(), err)
		}
		if !reflect.DeepEqual(p, sp) || p.String() != sp.String() {
			t.Fatalf("%q: round trip gives %q", s, p.String())
		}
		_ = sp.Describe()
	})
}

// TestNativeShippedRoundTrip: every shipped network written in the native format reads
// back to the same architecture and evaluations, and rewriting gives the same bytes.
func TestNativeShippedRoundTrip(t *testing.T) {
	ps := testPositions(t)
	if len(ps) > 40 {
		ps = ps[:40]
	}
	for name := range shippedSpecs {
		if raceEnabled && name == sfNetSF19 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			n := shippedNet(t, name)
			b := encodeNative(t, n)
			m, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			sn, _ := n.Spec()
			sm, _ := m.Spec()
			if sn.String() != sm.String() || m.Description() != n.Description() || m.Architecture().Quantization != n.Architecture().Quantization {
				t.Fatalf("read back as %s (%q)", sm, m.Description())
			}
			sameEvals(t, n, m, ps)
			if !bytes.Equal(encodeNative(t, m), b) {
				t.Fatal("rewriting gives other bytes")
			}
		})
	}
}

// TestNativeKeepsOutputPerTerm: the native format stores Architecture.OutputPerTerm. On
// Stockfish 15.1's net with the flag set, 2 of the first 5 test positions evaluate
// differently with and without it (2303 vs 2302, 101 vs 102), so a writer that drops it
// fails here.
func TestNativeKeepsOutputPerTerm(t *testing.T) {
	n := sfTestNetwork(t, sfNetSFNNv5)
	a := n.Architecture()
	a.OutputPerTerm = true
	pt, err := NewNetwork(n.FeatureTransformer(), a, n.Description())
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(encodeNative(t, pt))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Architecture().OutputPerTerm {
		t.Error("OutputPerTerm lost")
	}
	ps := testPositions(t)[:5]
	differ := 0
	for i := range ps {
		if n.Evaluate(&ps[i]) != pt.Evaluate(&ps[i]) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("the flag changes no evaluation of these positions: the test proves nothing")
	}
	sameEvals(t, pt, m, ps)
}

// TestNativeBitFlips flips every bit of a small native network, one at a time: every flip
// must be detected (an error) or harmless (the same evaluations). The counts are in
// doc/nnue.md.
func TestNativeBitFlips(t *testing.T) {
	n := randomThesisNet(t, rand.New(rand.NewPCG(5, 5)), "h", 32, 4, 100)
	b := encodeNative(t, n)
	ps := testPositions(t)[:8]
	detected, harmless := 0, 0
	for i := range 8 * len(b) {
		c := bytes.Clone(b)
		c[i/8] ^= 1 << (i % 8)
		m, err := Decode(c)
		if err != nil {
			detected++
			continue
		}
		sameEvals(t, n, m, ps)
		harmless++
	}
	t.Logf("%d-byte native file: %d single-bit flips detected, %d harmless, 0 undetected", len(b), detected, harmless)
	if detected+harmless != 8*len(b) || detected != 8*len(b) {
		t.Errorf("%d of %d flips detected", detected, 8*len(b))
	}
}

// TestNotANetwork: inputs no format recognises get an error wrapping ErrNotNetwork that
// says what was found and names the known formats, from Decode and Load alike.
func TestNotANetwork(t *testing.T) {
	var cp bytes.Buffer
	if err := gob.NewEncoder(&cp).Encode(struct {
		Version  int
		Params   [][]float32
		Features string
	}{1, [][]float32{{1, 2}}, "all"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"), `starts with "rnbqkbnr/ppppppp" (text)`},
		{[]byte("[Event \"?\"]\n1. e4 e5"), `starts with "[Event \"?\"]" (text)`},
		{[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "starts with 89 50 4E 47 0D 0A 1A 0A (PNG image)"},
		{nil, "empty input"},
		{[]byte("hello, world"), `starts with "hello, world" (text)`},
		{cp.Bytes(), "(binary)"},
	} {
		for _, load := range []func([]byte) (*Network, error){Decode, func(b []byte) (*Network, error) { return Load(bytes.NewReader(b)) }} {
			_, err := load(c.data)
			if !errors.Is(err, ErrNotNetwork) || !strings.Contains(err.Error(), c.want) ||
				!strings.Contains(err.Error(), `known formats: native (magic "NNUEKIT\x00"), Stockfish .nnue (version 0x7AF32F16`) {
				t.Errorf("%.20q: %v, want ErrNotNetwork with %q", c.data, err, c.want)
			}
		}
	}
}

// TestBulletSpecs: bullet's single-layer networks of every variant (CReLU/SCReLU, output
// buckets, mirroring, king buckets) declare their architecture, store in the native format
// and read back to the same evaluations and bytes.
func TestBulletSpecs(t *testing.T) {
	mirrored := make([]int, 32)
	for i := range mirrored {
		mirrored[i] = min(i/8, 2) // ranks 1–2: 0, 3–4: 1, 5–8: 2
	}
	plain := make([]int, 64)
	for i := range plain {
		plain[i] = i % 3
	}
	kings := "kings(" + strings.Repeat("0.1.2.", 21) + "0)"
	// Stormphrax net013's declaration (../shared/nets/bullet/README.md §4, doc/nnue.md)
	const stormphrax = "ft=kings(0.0.0.0.1.1.1.1.0.0.0.0.1.1.1.1.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3.2.2.2.2.3.3.3.3)*all:i16 width=512 stack=stm>crelu_affine.i16(255) out=*400/16320 pawn=100"
	if s, err := ParseSpec(stormphrax); err != nil || s.String() != stormphrax {
		t.Errorf("Stormphrax: %v", err)
	} else if sh, _ := s.shape(); sh.set.Size() != 4*768 {
		t.Errorf("Stormphrax: %d features, want 4×768", sh.set.Size())
	}
	for _, c := range []struct {
		a    BulletArch
		want string
	}{
		{BulletArch{Hidden: 32}, "ft=all:i16 width=32 stack=stm>crelu_affine.i16(255) out=*400/16320 pawn=100"},
		{BulletArch{Hidden: 32, SCReLU: true, OutputBuckets: 8, Mirror: true}, "ft=all@hm:i16 width=32 stack=stm>screlu_affine.i16(255,255,1) buckets=pieces(8,2,4) out=*400/16320 pawn=100"},
		{BulletArch{Hidden: 64, SCReLU: true, OutputBuckets: 8, KingBuckets: mirrored, Mirror: true, TransposedOutput: true},
			"ft=kings(" + strings.Repeat("0.", 16) + strings.Repeat("1.", 16) + strings.TrimSuffix(strings.Repeat("2.", 32), ".") + ")@hm*all@hm:i16 width=64 stack=stm>screlu_affine.i16(255,255,1) buckets=pieces(8,2,4) out=*400/16320 pawn=100"},
		{BulletArch{Hidden: 32, OutputBuckets: 4, KingBuckets: plain}, "ft=" + kings + "*all:i16 width=32 stack=stm>crelu_affine.i16(255) buckets=pieces(4,2,8) out=*400/16320 pawn=100"},
	} {
		tb := newTinyBullet(t, c.a, 7)
		spec, f := declareBullet(t, c.a)
		n, err := ParseBullet(tb.fileData, spec, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := n.Spec()
		if err != nil {
			t.Fatalf("%v: %v", c.a, err)
		}
		if s.String() != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.a, s, c.want)
		}
		if p, err := ParseSpec(c.want); err != nil || !reflect.DeepEqual(p, s) {
			t.Errorf("ParseSpec(%q): %v", c.want, err)
		}
		b := encodeNative(t, n)
		m, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		sameEvals(t, n, m, randomPositions(60, 3))
		if !bytes.Equal(encodeNative(t, m), b) {
			t.Errorf("%v: rewriting gives other bytes", c.a)
		}
	}
}

// randomNetwork builds the network s declares with random parameters (int8 and int16
// values in ±bound, biases in ±64·bound).
func randomNetwork(t interface{ Fatal(...any) }, s Spec, rng *rand.Rand, bound int) *Network {
	fa, a, err := s.build(true)
	if err != nil {
		t.Fatal(err)
	}
	fill := func(p any) {
		switch p := p.(type) {
		case *[]int8:
			for i := range *p {
				(*p)[i] = int8(rng.IntN(2*bound+1) - bound)
			}
		case *[]int16:
			for i := range *p {
				(*p)[i] = int16(rng.IntN(2*bound+1) - bound)
			}
		case *[]int32:
			for i := range *p {
				(*p)[i] = int32(rng.IntN(128*bound+1) - 64*bound)
			}
		case *[]float32:
			for i := range *p {
				(*p)[i] = float32(rng.Float64()*2 - 1)
			}
		}
	}
	fa.params(fill)
	for _, st := range a.Stacks {
		for _, l := range st {
			layerParams(l, fill)
		}
	}
	n, err := NewNetwork(fa.transformer(), a, "random "+s.String())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNativeRoundTripDeclared: random small networks of every buildable family that
// drawSpec declares (thesis/HalfKP-like, SFNNv5-like with skip, Stockfish 19-like dense
// stack with int8 rows, CPW SCReLU, bullet CReLU, king-bucket inputs) are built from their
// Spec with random weights, written natively and read back: same Spec, same evaluations,
// same bytes on rewriting.
func TestNativeRoundTripDeclared(t *testing.T) {
	ps := testPositions(t)[:10]
	rapid.Check(t, func(rt *rapid.T) {
		s := drawSpec(rt)
		small := []string{"h", "v", "all", "all@hm", "kings(" + strings.TrimSuffix(strings.Repeat("0.1.", 32), ".") + ")@hm*all@hm"}
		for i := range s.Inputs {
			if s.Inputs[i].Rows == RowsInt16 {
				s.Inputs[i].Set = rapid.SampledFrom(small).Draw(rt, "small set")
			} else {
				s.Inputs[i].Set = rapid.SampledFrom([]string{"mc", "pawnpairs"}).Draw(rt, "small int8 set")
			}
		}
		s.Width = 64
		if s.Output.Div == 0 && s.Output.Shift == 0 {
			s.Output.Div = 16
		}
		if err := s.Check(); err != nil {
			rt.Fatal(err)
		}
		n := randomNetwork(rt, s, rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 9)), 40)
		if got, err := n.Spec(); err != nil || !reflect.DeepEqual(got, s) {
			rt.Fatalf("built network declares %v (%v), want %v", got, err, s)
		}
		var buf bytes.Buffer
		if err := WriteNative(&buf, n); err != nil {
			rt.Fatal(err)
		}
		b := bytes.Clone(buf.Bytes())
		m, err := Load(&buf)
		if err != nil {
			rt.Fatal(err)
		}
		ea, eb := n.NewEvaluator(), m.NewEvaluator()
		for i := range ps {
			if x, y := ea.Evaluate(&ps[i]), eb.Evaluate(&ps[i]); x != y {
				rt.Fatalf("%s: %d before, %d after the round trip", ps[i].FEN(), x, y)
			}
		}
		buf.Reset()
		if err := WriteNative(&buf, m); err != nil || !bytes.Equal(buf.Bytes(), b) {
			rt.Fatalf("rewriting gives other bytes (%v)", err)
		}
	})
}

// TestWriteNativeRefuses: a network whose architecture cannot be declared (here: output
// buckets with different stacks) is refused with an error naming why, and nothing is
// written.
func TestWriteNativeRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	n := randomThesisNet(t, rng, "h", 32, 4, 100)
	hidden, out, _ := thesisLayers(n)
	a := n.Architecture()
	a.Buckets = Buckets{N: 2, Sub: 0, Div: 16}
	a.Stacks = [][]Layer{a.Stacks[0], {Perspective{WhiteFirst: true}, ClippedReLU{Input: KindInt16}, hidden, ClippedReLU{Input: KindInt32, Shift: 6}, out}}
	m, err := NewNetwork(n.FeatureTransformer(), a, "two different stacks")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	err = WriteNative(&buf, m)
	if err == nil || !strings.Contains(err.Error(), "stack 1 differs from stack 0 at layer 0 (Perspective(white first))") || buf.Len() != 0 {
		t.Fatalf("WriteNative: %v (%d bytes written)", err, buf.Len())
	}
}
