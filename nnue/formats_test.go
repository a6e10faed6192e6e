package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/internal/testenv"
	"pgregory.net/rapid"
)

func encodeThesis(t testing.TB, n *Network) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteThesis(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeNative(t testing.TB, n *Network) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteNative(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sameEvals checks that a and b evaluate every position identically.
func sameEvals(t *testing.T, a, b *Network, ps []board.Position) {
	t.Helper()
	ea, eb := a.NewEvaluator(), b.NewEvaluator()
	for _, p := range ps {
		if x, y := ea.Evaluate(&p), eb.Evaluate(&p); x != y {
			t.Fatalf("%s: %d vs %d", p.FEN(), x, y)
		}
	}
}

// TestThesisFilesRoundTrip writes every thesis network back and compares with the file
// bytes, and converts it to the native format and back (hv and all+mc only unless
// NNUEKIT_FULL: decoding recomputes the accumulator bound, seconds for the mobility nets).
func TestThesisFilesRoundTrip(t *testing.T) {
	requireShared(t)
	ps := testPositions(t)
	for _, name := range thesisNetNames(t) {
		if raceEnabled && name != "hv" {
			continue
		}
		orig, err := os.ReadFile(filepath.Join(sharedDir, "thesis-models", name+".nn"))
		if err != nil {
			t.Fatal(err)
		}
		n := thesisNet(t, name)
		got := encodeThesis(t, n)
		// The name written is the canonical spec; the rest must be byte-identical.
		i, j := bytes.IndexByte(orig, 0), bytes.IndexByte(got, 0)
		if !bytes.Equal(orig[i:], got[j:]) {
			t.Errorf("%s: thesis re-encoding differs", name)
		}
		if !testenv.Full() && name != "hv" && name != "all+mc" {
			continue
		}
		nat, err := Decode(encodeNative(t, n))
		if err != nil {
			t.Fatalf("%s: native round trip: %v", name, err)
		}
		if name == "hv" || name == "all+mc" {
			sameEvals(t, n, nat, ps)
		}
	}
}

// TestNativeRoundTrip stores thesis-, SFNNv5- and CPW-shaped networks natively; decoding
// gives the same evaluations and re-encoding the same bytes.
func TestNativeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ps := testPositions(t)
	for _, n := range []*Network{
		randomThesisNet(t, rng, "all+ph", 64, 32, 200),
		randomThesisNet(t, rng, "h+v", 32, 8, 200),
		randomSFNNv5(t, rng, "hv", 128),
		randomCPW(t, rng, 64),
	} {
		b := encodeNative(t, n)
		m, err := Load(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%v: %v", n, err)
		}
		if m.Description() != n.Description() || m.Architecture().Quantization != n.Architecture().Quantization {
			t.Errorf("metadata lost: %q %q", m.Description(), m.Architecture().Quantization)
		}
		sameEvals(t, n, m, ps)
		if !bytes.Equal(encodeNative(t, m), b) {
			t.Errorf("%v: re-encoding differs", n)
		}
		if _, _, ok := thesisLayers(n); ok {
			tn, err := Decode(encodeThesis(t, n))
			if err != nil {
				t.Fatal(err)
			}
			sameEvals(t, n, tn, ps)
		} else if err := WriteThesis(new(bytes.Buffer), n); err == nil {
			t.Errorf("%v: WriteThesis accepted a non-thesis network", n)
		}
	}
}

// tinyThesis is a small thesis file for error and fuzz tests.
func tinyThesis(t testing.TB) []byte {
	return encodeThesis(t, randomThesisNet(t, rand.New(rand.NewPCG(1, 1)), "h", 32, 4, 100))
}

func tinyNatives(t testing.TB) [][]byte {
	rng := rand.New(rand.NewPCG(2, 2))
	return [][]byte{
		encodeNative(t, randomThesisNet(t, rng, "v", 32, 4, 100)),
		encodeNative(t, randomCPW(t, rng, 32)),
		encodeNative(t, randomSFNNv5(t, rng, "h", 64)),
	}
}

// fixCRC replaces the last four bytes of b by the CRC-32C of the rest.
func fixCRC(b []byte) []byte {
	if len(b) < 4 {
		return b
	}
	c := bytes.Clone(b)
	binary.LittleEndian.PutUint32(c[len(c)-4:], crc32.Checksum(c[:len(c)-4], castagnoli))
	return c
}

// TestDecodeRejectsTruncated cuts files at many points; every non-empty prefix must fail
// with a *FormatError naming a field (the empty one is not a network).
func TestDecodeRejectsTruncated(t *testing.T) {
	check := func(b []byte, what string) {
		_, err := Decode(b)
		var fe *FormatError
		if err == nil {
			t.Fatalf("%s: accepted", what)
		}
		if len(b) < len(NativeMagic)+4 && errors.Is(err, ErrNotNetwork) {
			return // a checksum written over the magic's first bytes
		}
		if !errors.As(err, &fe) || fe.Field == "" || fe.Offset < 0 || fe.Offset > int64(len(b)) {
			t.Fatalf("%s: error %v does not name a field and offset", what, err)
		}
	}
	if _, err := Decode(nil); !errors.Is(err, ErrNotNetwork) {
		t.Fatalf("empty input: %v", err)
	}
	th := tinyThesis(t)
	for k := 1; k < len(th); k += 1 + k/50 {
		check(th[:k], "thesis prefix")
	}
	check(append(bytes.Clone(th), 0), "thesis with trailing byte")
	for _, nat := range tinyNatives(t) {
		for k := 1; k < len(nat); k += 1 + k/50 {
			check(nat[:k], "native prefix")
			check(fixCRC(nat[:k]), "native prefix with valid CRC")
		}
		bad := bytes.Clone(nat)
		bad[len(bad)/2] ^= 1
		check(bad, "native with a flipped bit")
	}
}

func TestDecodeErrorMessages(t *testing.T) {
	th := tinyThesis(t)
	hdr := bytes.IndexByte(th, 0) + 1
	set := func(b []byte, off int, v uint32) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint32(c[off:], v)
		return c
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("h"), "feature-set name at byte 0: no terminating 0x00"},
		{append([]byte("nonsense\x00"), th[hdr:]...), "feature-set name at byte 0"},
		{set(th, hdr, 97), "num_features at byte 2: 97 features stored, feature set \"h\" has 96"},
		{set(th, hdr+4, 48), "L1 at byte 6: 48 must be a positive multiple of 32"},
		{set(th, hdr+4, 1<<14), "body at byte 14: truncated"},
		{set(th, hdr+8, 0), "L2 at byte 10"},
		{th[:len(th)-1], "truncated"},
		{append([]byte(NativeMagic), 1, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9), "checksum at byte 16"},
		{fixCRC(append(append([]byte(NativeMagic), 3, 0, 0, 0), 0, 0, 0, 0)), "version at byte 8: version 3 not supported"},
		{fixCRC(append(nativeHead("ft=all:i16 width=0 stack=stm"), 0, 0, 0, 0)), "architecture at byte 16: nnue: architecture \"ft=all:i16 width=0 stack=stm\" at offset 17: 0 out of range"},
		{fixCRC(append(nativeHead("ft=all:i16 width=32 stack=stm>crelu.i16>affine.i8(1)"), 0, 0, 0, 0)), "description length at byte"},
	} {
		_, err := Decode(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want it to contain %q", err, c.want)
		}
	}
}

// nativeHead returns the start of a native file: magic, version and the architecture
// string arch.
func nativeHead(arch string) []byte {
	b := append([]byte(NativeMagic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[len(NativeMagic):], NativeVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(arch)))
	return append(b, arch...)
}

// TestDecodeHostileAllocation: headers announcing huge dimensions must not allocate them:
// a native architecture declaring 1.6 GB of weights, one declaring 100 MB in a file of a
// few bytes, and a thesis header declaring a wide transformer.
func TestDecodeHostileAllocation(t *testing.T) {
	var hostile [][]byte
	for _, arch := range []string{
		"ft=ka:i16 width=16384 stack=stm>crelu.i16>affine.i8(1)",
		"ft=all+ph+pv:i16 width=16384 stack=stm>crelu.i16>affine.i8(65536)>crelu.i32(6)>affine.i8(1)",
	} {
		b := nativeHead(arch)
		for range 3 {
			b = binary.LittleEndian.AppendUint32(b, 0) // empty description and quantization
		}
		hostile = append(hostile, fixCRC(b))
	}
	hostile = append(hostile, append([]byte("all+ph+pv\x00"), 0, 12, 0, 0, 0, 0x40, 0, 0, 0, 0x10, 0, 0))
	for _, b := range hostile {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Decode(b)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatal("hostile header accepted")
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
			t.Errorf("decoding a %d-byte hostile file allocated %d bytes (%v)", len(b), d, err)
		}
		t.Logf("%d bytes: %v", len(b), err)
	}
}

func FuzzDecode(f *testing.F) {
	// small seeds (≤ 5 KB, smallNets) keep the target at ≥ 10⁵ executions per minute;
	// testdata/fuzz/FuzzDecode holds the same
	for _, b := range smallNets(f) {
		f.Add(b)
		f.Add(b[:len(b)/3])
	}
	f.Add([]byte("hv\x00"))
	f.Add([]byte(NativeMagic))
	start := board.StartPosition()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, fixCRC(data)} {
			n, err := Decode(b)
			if err != nil {
				var fe *FormatError
				if n != nil || (!errors.As(err, &fe) && !strings.Contains(err.Error(), "nnue:")) {
					t.Fatalf("bad error result: %v", err)
				}
				continue
			}
			v := n.Evaluate(&start)
			m, err := Decode(encodeNative(t, n))
			if err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
			if w := m.Evaluate(&start); w != v {
				t.Fatalf("round trip changed eval %d → %d", v, w)
			}
		}
	})
}

func FuzzDecodeThesis(f *testing.F) {
	f.Add(smallNets(f)["thesis-ksq"])
	f.Add([]byte("hv\x00\x00\x03\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if n, err := decodeThesis(data); err == nil {
			enc := encodeThesis(t, n)
			if !bytes.Equal(enc[bytes.IndexByte(enc, 0):], data[bytes.IndexByte(data, 0):]) {
				t.Fatal("thesis re-encoding differs")
			}
		}
	})
}

func FuzzDecodeNative(f *testing.F) {
	f.Add(smallNets(f)["native-ksq"])
	// one SFNNv5-shaped seed (29 KB: eight layer stacks) for the layer decoders
	f.Add(encodeNative(f, randomSFNNv5(f, rand.New(rand.NewPCG(12, 12)), "ksq", 64)))
	f.Fuzz(func(t *testing.T, data []byte) {
		data = fixCRC(data) // reach the field parser, not only the checksum
		if len(data) < len(NativeMagic) {
			return
		}
		copy(data, NativeMagic)
		if n, err := decodeNative(data); err == nil {
			enc := encodeNative(t, n) // the spec string may be canonicalized once
			m, err := decodeNative(enc)
			if err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
			if !bytes.Equal(encodeNative(t, m), enc) {
				t.Fatal("native re-encoding is not stable")
			}
		}
	})
}

// TestNativeRoundTripProperty: for random compositions (thesis, SFNNv5 and CPW shapes with
// random sizes and weights), writing then reading gives identical evaluations.
func TestNativeRoundTripProperty(t *testing.T) {
	ps := testPositions(t)
	if len(ps) > 12 {
		ps = ps[:12]
	}
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		spec := rapid.SampledFrom([]string{"h", "v+d1", "all", "all+mc"}).Draw(rt, "spec")
		var n *Network
		switch rapid.IntRange(0, 2).Draw(rt, "shape") {
		case 0:
			n = randomThesisNet(t, rng, spec, 32*rapid.IntRange(1, 3).Draw(rt, "m"), rapid.IntRange(1, 40).Draw(rt, "l2"), 300)
		case 1:
			n = randomSFNNv5(t, rng, spec, 64)
		default:
			n = randomCPW(t, rng, 32*rapid.IntRange(1, 3).Draw(rt, "m"))
		}
		var buf bytes.Buffer
		if err := WriteNative(&buf, n); err != nil {
			rt.Fatal(err)
		}
		m, err := Load(&buf)
		if err != nil {
			rt.Fatal(err)
		}
		ea, eb := n.NewEvaluator(), m.NewEvaluator()
		for _, p := range ps {
			if x, y := ea.Evaluate(&p), eb.Evaluate(&p); x != y {
				rt.Fatalf("%s: %d before, %d after the round trip", p.FEN(), x, y)
			}
		}
	})
}

// TestDecodeMutations is a deterministic stand-in for fuzzing in ordinary test runs: random
// byte mutations of valid files (with the native CRC repaired half of the time) must decode
// or fail with an error, never panic; decoded networks must evaluate.
func TestDecodeMutations(t *testing.T) {
	seeds := append([][]byte{tinyThesis(t)}, tinyNatives(t)...)
	rng := rand.New(rand.NewPCG(1, 2))
	start := board.StartPosition()
	ok := 0
	for i := 0; i < 600; i++ {
		b := bytes.Clone(seeds[rng.IntN(len(seeds))])
		for k := 0; k < 1+rng.IntN(3); k++ {
			b[rng.IntN(min(len(b), 200+rng.IntN(len(b))))] = byte(rng.IntN(256))
		}
		if rng.IntN(2) == 0 {
			b = fixCRC(b)
		}
		n, err := Decode(b)
		if err == nil {
			n.Evaluate(&start)
			ok++
		}
	}
	t.Logf("%d of 600 mutated files decoded", ok)
}
