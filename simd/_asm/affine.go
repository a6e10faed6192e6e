package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The affine kernels compute out[j] = bias[j] + Σ_i in[i]·W[j·nin + i] for row-major int8
// weights. Rows are taken in groups (four for AVX2; eight, then four, for AVX-512, whose
// 32 registers hold eight accumulators and enough independent VPDPBUSD chains to cover its
// latency) so each input vector is loaded once per group; remaining rows (out widths 1, 2,
// 3 mod 4) are done one at a time.
//
// Exactness: VPMADDUBSW multiplies unsigned input bytes by signed weight bytes and adds
// adjacent pairs with int16 saturation. With inputs ≤ 127 a pair sum lies in
// [2·127·(−128), 2·127·127] = [−32512, 32258], so it never saturates; VPMADDWD by ones
// widens to int32 exactly, and VPADDD wraps like Go's int32. Two VPMADDUBSW results are
// never added in int16. VPDPBUSD (AVX512-VNNI) sums four products straight into int32
// without saturation.

// reduce4 folds four int32 accumulators (Y registers) into one XMM holding their four
// totals, using only instructions with EVEX forms (unpacks and adds, not VPHADDD).
func reduce4(s isa, a [4]reg.VecVirtual) reg.VecVirtual {
	t0, t1 := YMM(), YMM()
	VPUNPCKLDQ(a[1], a[0], t0) // a0₀ a1₀ a0₁ a1₁ per lane
	VPUNPCKHDQ(a[1], a[0], t1) // a0₂ a1₂ a0₃ a1₃
	VPADDD(t1, t0, t0)
	t2, t3 := YMM(), YMM()
	VPUNPCKLDQ(a[3], a[2], t2)
	VPUNPCKHDQ(a[3], a[2], t3)
	VPADDD(t3, t2, t2)
	VPUNPCKLQDQ(t2, t0, t1) // a0 a1 a2 a3 partial sums
	VPUNPCKHQDQ(t2, t0, t3)
	VPADDD(t3, t1, t1)
	x := XMM()
	if s.wide {
		VEXTRACTI32X4(U8(1), t1, x)
	} else {
		VEXTRACTI128(U8(1), t1, x)
	}
	VPADDD(t1.AsX(), x, x)
	return x
}

type affineRegs struct {
	out, in, w, bias, nin, nout, n3 reg.GPVirtual
}

func affineParams() affineRegs {
	var r affineRegs
	r.out = ld("out")
	r.in = ld("in")
	r.w = ld("weights")
	r.bias = ld("bias")
	r.nin = ld("nin")
	r.nout = ld("nout")
	r.n3 = GP64()
	LEAQ(Mem{Base: r.nin, Index: r.nin, Scale: 2}, r.n3)
	return r
}

// cols is the column position inside a group of rows: p points into the group's first
// row, p4 (groups of eight) into its fifth.
type cols struct{ p, p4 reg.GPVirtual }

// newCols starts a group at the weight pointer a.w.
func (a affineRegs) newCols(rows int) cols {
	c := cols{p: GP64()}
	MOVQ(a.w, c.p)
	if rows > 4 {
		c.p4 = GP64()
		LEAQ(Mem{Base: a.w, Index: a.nin, Scale: 4}, c.p4)
	}
	return c
}

func (c cols) advance(bytes int) {
	ADDQ(U8(bytes), c.p)
	if c.p4 != nil {
		ADDQ(U8(bytes), c.p4)
	}
}

// next sets a.w to the first row after a group of rows whose first-row pointer has
// reached the end of that row.
func (a affineRegs) next(c cols, rows int) {
	switch rows {
	case 1:
		MOVQ(c.p, a.w)
	case 4:
		LEAQ(Mem{Base: c.p, Index: a.n3, Scale: 1}, a.w)
	case 8:
		LEAQ(Mem{Base: c.p4, Index: a.n3, Scale: 1}, a.w)
	}
}

// rowMem addresses row r (0..7) of a group at the current column position.
func (a affineRegs) rowMem(c cols, r int, disp int) Mem {
	p := c.p
	if r >= 4 {
		p, r = c.p4, r-4
	}
	switch r {
	case 0:
		return Mem{Base: p, Disp: disp}
	case 1:
		return Mem{Base: p, Index: a.nin, Scale: 1, Disp: disp}
	case 2:
		return Mem{Base: p, Index: a.nin, Scale: 2, Disp: disp}
	}
	return Mem{Base: p, Index: a.n3, Scale: 1, Disp: disp}
}

const affineSig = "func(out *int32, in *uint8, weights *int8, bias *int32, nin, nout int)"

// affineAVX2 uses VPMADDUBSW + VPMADDWD(ones) + VPADDD per 32 weight bytes.
func affineAVX2() {
	s := avx2
	fn := "affineAVX2"
	TEXT(fn, NOSPLIT, affineSig)
	Pragma("noescape")
	Doc(fn+" sets out[j] = bias[j] + Σ_i in[i]·weights[j·nin + i] for j < nout; nin is a",
		"positive multiple of 32 and every input ≤ 127.")
	a := affineParams()
	ones := YMM()
	VPCMPEQW(ones, ones, ones)
	VPSRLW(U8(15), ones, ones)

	group := func(rows int, lbl string) (p cols, accs []reg.VecVirtual) {
		accs = make([]reg.VecVirtual, rows)
		for r := range accs {
			accs[r] = YMM()
			VPXOR(accs[r], accs[r], accs[r])
		}
		p = a.newCols(rows)
		q, c := GP64(), GP64()
		MOVQ(a.in, q)
		MOVQ(a.nin, c)
		alignLoop()
		Label(lbl)
		x := YMM()
		VMOVDQU(Mem{Base: q}, x)
		for r := range accs {
			t := YMM()
			VPMADDUBSW(a.rowMem(p, r, 0), x, t)
			VPMADDWD(ones, t, t)
			VPADDD(t, accs[r], accs[r])
		}
		p.advance(32)
		ADDQ(U8(32), q)
		SUBQ(U8(32), c)
		JNZ(LabelRef(lbl))
		return p, accs
	}
	affineDriver(s, fn, a, []int{4}, group)
}

// affineDriver emits the loop over groups of rows (the first size in sizes repeats, each
// smaller one runs at most once) and then single rows. group emits the column loop for
// that many rows and returns the column position (at the end of the group's first row)
// and the accumulators.
func affineDriver(s isa, fn string, a affineRegs, sizes []int, group func(rows int, lbl string) (cols, []reg.VecVirtual)) {
	for i, rows := range sizes {
		lbl := fmt.Sprintf("%s_group%d", fn, rows)
		skip := fmt.Sprintf("%s_after%d", fn, rows)
		Label(lbl)
		CMPQ(a.nout, U8(rows))
		JB(LabelRef(skip))
		p, accs := group(rows, fmt.Sprintf("%s_cols%d", fn, rows))
		for g := 0; g < rows; g += 4 {
			var y [4]reg.VecVirtual
			for r := range y {
				y[r] = fold(s, accs[g+r])
			}
			x := reduce4(s, y)
			VPADDD(Mem{Base: a.bias, Disp: 4 * g}, x, x)
			s.mov(x, Mem{Base: a.out, Disp: 4 * g})
		}
		a.next(p, rows)
		ADDQ(U8(4*rows), a.out)
		ADDQ(U8(4*rows), a.bias)
		SUBQ(U8(rows), a.nout)
		if i == 0 {
			JMP(LabelRef(lbl))
		}
		Label(skip)
	}

	Label(fn + "_single")
	TESTQ(a.nout, a.nout)
	JZ(LabelRef(fn + "_done"))
	p1, acc1 := group(1, fn+"_cols1")
	h := hsum(s, acc1[0], s.wide)
	r := GP32()
	VMOVD(h, r)
	ADDL(Mem{Base: a.bias}, r)
	MOVL(r, Mem{Base: a.out})
	a.next(p1, 1)
	ADDQ(U8(4), a.out)
	ADDQ(U8(4), a.bias)
	DECQ(a.nout)
	JMP(LabelRef(fn + "_single"))

	Label(fn + "_done")
	VZEROUPPER()
	RET()
}

// fold returns a Y register holding v's int32 lanes folded to 256 bits.
func fold(s isa, v reg.VecVirtual) reg.VecVirtual {
	if !s.wide {
		return v
	}
	t := YMM()
	VEXTRACTI64X4(U8(1), v, t)
	y := half(v)
	VPADDD(t, y, y)
	return y
}

// affineAVX512 works on 64 weight bytes per instruction; a leading 32-byte column block
// (nin ≡ 32 mod 64) is done with zero-extended 256-bit loads. With vnni it uses one
// VPDPBUSD per 64 bytes, otherwise VPMADDUBSW + VPMADDWD(ones) + VPADDD.
func affineAVX512(vnni bool) {
	s := avx512
	fn := "affineAVX512"
	if vnni {
		fn = "affineVNNI"
	}
	TEXT(fn, NOSPLIT, affineSig)
	Pragma("noescape")
	Doc(fn+" sets out[j] = bias[j] + Σ_i in[i]·weights[j·nin + i] for j < nout; nin is a",
		"positive multiple of 32 and every input ≤ 127.")
	a := affineParams()
	var ones reg.VecVirtual
	if !vnni {
		ones = ZMM()
		c := GP32()
		MOVL(U32(0x00010001), c)
		VPBROADCASTD(c, ones)
	}
	madd := func(w Op, x, acc reg.VecVirtual) {
		if vnni {
			VPDPBUSD(w, x, acc)
			return
		}
		t := ZMM()
		VPMADDUBSW(w, x, t)
		VPMADDWD(ones, t, t)
		VPADDD(t, acc, acc)
	}
	group := func(rows int, lbl string) (p cols, accs []reg.VecVirtual) {
		accs = make([]reg.VecVirtual, rows)
		for r := range accs {
			accs[r] = ZMM()
			VPXORD(accs[r], accs[r], accs[r])
		}
		p = a.newCols(rows)
		q, c := GP64(), GP64()
		MOVQ(a.in, q)
		MOVQ(a.nin, c)
		TESTQ(U32(32), c)
		JZ(LabelRef(lbl + "_full"))
		x := ZMM()
		VMOVDQU64(Mem{Base: q}, half(x))
		for r := range accs {
			wv := ZMM()
			VMOVDQU64(a.rowMem(p, r, 0), half(wv))
			madd(wv, x, accs[r])
		}
		p.advance(32)
		ADDQ(U8(32), q)
		SUBQ(U8(32), c)
		JZ(LabelRef(lbl + "_end"))
		alignLoop()
		Label(lbl + "_full")
		Label(lbl)
		x2 := ZMM()
		VMOVDQU64(Mem{Base: q}, x2)
		for r := range accs {
			madd(a.rowMem(p, r, 0), x2, accs[r])
		}
		p.advance(64)
		ADDQ(U8(64), q)
		SUBQ(U8(64), c)
		JNZ(LabelRef(lbl))
		Label(lbl + "_end")
		return p, accs
	}
	affineDriver(s, fn, a, []int{8, 4}, group)
}
