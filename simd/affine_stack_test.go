package simd

import (
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"
)

// ReLUStack.Forward equals the layers it replaces (Go kernels: ClippedReLU16 ×2, Affine,
// ClippedReLU32, Affine, ClippedReLUDot32 + bias) at every level, with fc_0 weights small
// and large enough for every SparseGroup (1, 2, 3), any share of zero inputs and the
// stack's Go path, with and without WithActivity's input order, and without fc_1 (the
// thesis nets' 2m→32→1); dst holds the ClippedReLU afterwards (at AVX2 in WithActivity's
// order).
func TestReLUStackMatchesLayers(t *testing.T) {
	forLevels(t, func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			f := drawFiller(t)
			m := 32 * rapid.IntRange(1, 24).Draw(t, "m32")
			wmax := rapid.SampledFrom([]int{20, 40, 60, 127}).Draw(t, "wmax")
			zeroPct := rapid.IntRange(0, 100).Draw(t, "zero%")
			a, b := drawAccumulator(t, f, "a", m, zeroPct), drawAccumulator(t, f, "b", m, zeroPct)
			w0 := make([]int8, 32*2*m)
			for i := range w0 {
				w0[i] = int8(max(min(int(f.i8()), wmax), -wmax))
			}
			b0, _ := buffer(t, "b0", 32, f.i32)
			w1max := rapid.SampledFrom([]int{40, 127}).Draw(t, "w1max") // 40: int16 pairs in the tail
			w1, _ := buffer(t, "w1", 32*32, func() int8 { return int8(max(min(int(f.i8()), w1max), -w1max)) })
			b1, _ := buffer(t, "b1", 32, f.i32)
			w2, _ := buffer(t, "w2", 32, f.i8)
			b2 := f.i32()
			sh0 := uint(rapid.IntRange(0, 31).Draw(t, "sh0"))
			sh1 := uint(rapid.IntRange(0, 31).Draw(t, "sh1"))
			if rapid.Bool().Draw(t, "sf") {
				sh0, sh1 = 6, 6
			}
			depth1 := rapid.Bool().Draw(t, "no fc_1")
			var s *ReLUStack
			var err error
			if depth1 {
				s, err = NewReLUStack(m, w0, b0, sh0, nil, nil, sh1, w2, b2)
			} else {
				s, err = NewReLUStack(m, w0, b0, sh0, w1, b1, sh1, w2, b2)
			}
			if err != nil {
				t.Fatal(err)
			}
			if depth1 != (s.Depth() == 1) {
				t.Fatalf("Depth %d", s.Depth())
			}
			if depth1 {
				if _, err := s.WithActivity(make([]int32, 2*m)); err == nil {
					t.Fatal("WithActivity accepted a stack without fc_1")
				}
			} else if w1max == 40 && s.k.group1 < 2 {
				t.Fatalf("fc_1 weights ≤ 40: group %d", s.k.group1)
			}
			if !depth1 && rapid.Bool().Draw(t, "ordered") { // WithActivity: fc_0's input reordered at AVX2
				score, _ := buffer(t, "score", 2*m, func() int32 { return int32(f.r.IntN(8)) })
				if s, err = s.WithActivity(score); err != nil {
					t.Fatal(err)
				}
			}
			s.generic = rapid.Bool().Draw(t, "go path")

			wantDst := make([]uint8, 2*m)
			clippedReLU16Generic(wantDst[:m], a)
			clippedReLU16Generic(wantDst[m:], b)
			var o0, o1 [32]int32
			var u [32]uint8
			affineGeneric(o0[:], wantDst, w0, b0)
			clippedReLU32Generic(u[:], o0[:], sh0)
			affineGeneric(o1[:], u[:], w1, b1)
			want := b2 + clippedReLUDot32Generic(o1[:], w2, sh1)
			if depth1 {
				want = b2 + clippedReLUDot32Generic(o0[:], w2, sh0)
			}

			dst, _ := buffer(t, "dst", 2*m, func() uint8 { return 0xAA })
			idx := make([]uint16, m/2)
			if got := s.Forward(a, b, dst, idx); got != want {
				t.Fatalf("Forward %d, layers %d (group %d)", got, want, s.group)
			}
			if s.ord != nil && level == AVX2 && !s.generic {
				perm := make([]uint8, 2*m)
				for j, src := range s.ord {
					perm[j] = wantDst[src]
				}
				wantDst = perm
			}
			if !slices.Equal(dst, wantDst) {
				t.Fatalf("dst is not the ClippedReLU of a and b")
			}
		})
	})
}

// Short operands panic before any arithmetic; bad shapes are errors.
func TestReLUStackRejects(t *testing.T) {
	m := 64
	w0, b0 := make([]int8, 64*m), make([]int32, 32)
	w1, b1, w2 := make([]int8, 1024), make([]int32, 32), make([]int8, 32)
	for _, c := range []struct {
		name string
		f    func() (*ReLUStack, error)
	}{
		{"m 0", func() (*ReLUStack, error) { return NewReLUStack(0, nil, b0, 6, w1, b1, 6, w2, 0) }},
		{"m 48", func() (*ReLUStack, error) { return NewReLUStack(48, make([]int8, 64*48), b0, 6, w1, b1, 6, w2, 0) }},
		{"w0", func() (*ReLUStack, error) { return NewReLUStack(m, w0[1:], b0, 6, w1, b1, 6, w2, 0) }},
		{"b0", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0[1:], 6, w1, b1, 6, w2, 0) }},
		{"w1", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0, 6, w1[1:], b1, 6, w2, 0) }},
		{"b1", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0, 6, w1, b1[:0], 6, w2, 0) }},
		{"b1 nil", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0, 6, w1, nil, 6, w2, 0) }},
		{"w1 nil", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0, 6, nil, b1, 6, w2, 0) }},
		{"w2", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0, 6, w1, b1, 6, w2[:31], 0) }},
		{"shift", func() (*ReLUStack, error) { return NewReLUStack(m, w0, b0, 32, w1, b1, 6, w2, 0) }},
	} {
		if s, err := c.f(); err == nil || s != nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	s, err := NewReLUStack(m, w0, b0, 6, w1, b1, 6, w2, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, dst, idx := make([]int16, m), make([]uint8, 2*m), make([]uint16, m/2)
	forLevels(t, func(t *testing.T) {
		for name, f := range map[string]func(){
			"a":   func() { s.Forward(a[:m-1], a, dst, idx) },
			"b":   func() { s.Forward(a, nil, dst, idx) },
			"dst": func() { s.Forward(a, a, dst[:2*m-1], idx) },
			"idx": func() { s.Forward(a, a, dst, idx[:m/2-1]) },
		} {
			mustPanic(t, name, f)
		}
	})
}

// TestStackKernelLayout: stackKernel's fields lie at the offsets reluStackAVX2 reads (sk*
// in simd/_asm/relu_stack.go), and NewReLUStack and WithActivity fill it from the stack
// (WithActivity's order in place of fc_0's own after WithActivity).
func TestStackKernelLayout(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the assembly is amd64's")
	}
	var k stackKernel
	got := []uintptr{unsafe.Offsetof(k.masks), unsafe.Offsetof(k.pb0), unsafe.Offsetof(k.pwt0),
		unsafe.Offsetof(k.group), unsafe.Offsetof(k.sh0), unsafe.Offsetof(k.pwt1), unsafe.Offsetof(k.pb1),
		unsafe.Offsetof(k.sh1), unsafe.Offsetof(k.pw2), unsafe.Offsetof(k.group1), unsafe.Offsetof(k.m)}
	if want := []uintptr{0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80}; !slices.Equal(got, want) {
		t.Fatalf("stackKernel offsets %v, want %v", got, want)
	}
	m := 64
	s, err := NewReLUStack(m, make([]int8, 64*m), make([]int32, 32), 6, make([]int8, 1024), make([]int32, 32), 5, make([]int8, 32), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := stackKernel{pb0: &s.b0[0], pwt0: &s.wt0[0], group: s.group, sh0: 6, pwt1: &s.wt1[0], pb1: &s.b1[0],
		sh1: 5, pw2: &s.w2[0], group1: SparseGroup(s.wt1, 32, 32), m: m}
	if s.k != want {
		t.Fatalf("kernel fields %+v, want %+v", s.k, want)
	}
	o, err := s.WithActivity(make([]int32, 2*m))
	if err != nil {
		t.Fatal(err)
	}
	if o.k.masks != &o.masks[0] || o.k.pwt0 != &o.wtS[0] || o.k.group != SparseGroup(o.wtS, 2*m, 32) || o.k.pb0 != &o.b0[0] || o.k.m != m {
		t.Fatalf("after WithActivity: kernel fields %+v", o.k)
	}
}
