package nnue

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// countingReader counts the bytes read through it and hides the size of what it wraps
// (Load then cannot check sizes up front and must stop by the header alone).
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type randReader struct{ rng *rand.Rand }

func (r randReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r.rng.Uint32())
	}
	return len(p), nil
}

// allocDuring returns the bytes allocated while f runs.
func allocDuring(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestLoadLooksFirst: 256 MiB of zeros, random bytes or /dev/zero are refused after the
// header (before the fix, Load read the whole input: 1.05 GB RSS); a valid header followed
// by an endless stream is refused one byte after the declared size.
func TestLoadLooksFirst(t *testing.T) {
	const big = 256 << 20
	for name, src := range map[string]io.Reader{
		"zeros":  io.LimitReader(zeroReader{}, big),
		"random": io.LimitReader(randReader{rand.New(rand.NewPCG(3, 4))}, big),
	} {
		cr := &countingReader{r: src}
		var err error
		alloc := allocDuring(func() { _, err = Load(cr) })
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		if cr.n > 2048 || alloc > 1<<20 {
			t.Errorf("%s: read %d bytes, allocated %d bytes before refusing (%v)", name, cr.n, alloc, err)
		}
	}
	if f, err := os.Open("/dev/zero"); err == nil {
		cr := &countingReader{r: f}
		if _, err := Load(cr); err == nil || cr.n > 2048 {
			t.Errorf("/dev/zero: err %v after %d bytes", err, cr.n)
		}
		f.Close()
		if _, err := LoadFile("/dev/zero"); err == nil {
			t.Error("LoadFile(/dev/zero) accepted")
		}
	}
	// real headers followed by zeros forever: read at most what the header claims + 1
	// (the look-ahead that finds the zeros)
	th := tinyThesis(t)
	for name, file := range map[string][]byte{"thesis": th, "native": tinyNatives(t)[0], "native sfnnv5": tinyNatives(t)[2]} {
		cr := &countingReader{r: io.MultiReader(bytes.NewReader(file), zeroReader{})}
		if _, err := Load(io.LimitReader(cr, big)); err == nil || cr.n > int64(len(file))+1 {
			t.Errorf("%s + zeros: err %v after %d bytes (file %d)", name, err, cr.n, len(file))
		}
		// without the tail it loads, from a stream and from memory, to the same network
		a, err := Load(&countingReader{r: bytes.NewReader(file)})
		if err != nil {
			t.Fatalf("%s stream: %v", name, err)
		}
		b, err := Decode(file)
		if err != nil {
			t.Fatalf("%s memory: %v", name, err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: stream %v, memory %v", name, a, b)
		}
	}
	// a size-known file whose header declares more than the file holds: refused before
	// the weights are allocated
	bad := bytes.Clone(th)
	hdr := bytes.IndexByte(bad, 0) + 1
	bad[hdr+4+1] = 0x10 // L1 = 32 + 4096
	path := filepath.Join(t.TempDir(), "bad.nn")
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	var err error
	if alloc := allocDuring(func() { _, err = LoadFile(path) }); err == nil || alloc > 256<<10 {
		t.Errorf("oversized header: err %v, allocated %d", err, alloc)
	}
}

// BenchmarkLoadReal reports the bytes allocated per load of each real network, and the
// ratio to the file size (alloc/file; the aim is ≤ 1.2).
func BenchmarkLoadReal(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(sharedDir, "nets", "*.nnue"))
	for _, n := range []string{"best.nn", "all+ph+pv.nn"} {
		paths = append(paths, filepath.Join(sharedDir, "thesis-models", n))
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			b.Skip("nnue: ../shared absent")
		}
		b.Run(filepath.Base(p), func(b *testing.B) {
			if _, err := LoadFile(p); err != nil {
				b.Skipf("%v", err)
			}
			b.ReportAllocs()
			b.SetBytes(st.Size())
			var total uint64
			for b.Loop() {
				total += allocDuring(func() {
					if _, err := LoadFile(p); err != nil {
						b.Fatal(err)
					}
				})
			}
			b.ReportMetric(float64(total)/float64(b.N)/float64(st.Size()), "alloc/file")
		})
	}
}

// TestReadStopsAtEnd: the readers consume a network from a longer stream without reading
// past its last byte (size known: not at all; the thesis and native tail checks: one byte
// of look-ahead), so the rest of the stream is the caller's.
func TestReadStopsAtEnd(t *testing.T) {
	tail := bytes.Repeat([]byte{0xEE}, 1<<17)
	dir := sfSharedDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, "nets", sfNetHalfKP))
	if err != nil {
		t.Fatal(err)
	}
	cr := &countingReader{r: bytes.NewReader(append(raw, tail...))}
	if _, err := readSFFileSize(cr, int64(len(raw))); err != nil {
		t.Fatal(err)
	}
	if cr.n != int64(len(raw)) {
		t.Errorf("Stockfish: %d bytes read for a %d-byte file", cr.n, len(raw))
	}
}
