package main

import (
	"fmt"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Sparse-input affine kernels (simd/affine_sparse.go; Stockfish 16's
// affine_transform_sparse_input.h). nnzChunks lists the non-zero 4-byte chunks of the
// input without branches; sparseAcc* multiply-add the listed chunks against chunk-major
// weights into the int32 outputs.

// nnzTable: entry m (16 bytes) holds, as eight uint16, the positions of the set bits of m
// in increasing order (unused slots zero).
func nnzTable() Mem {
	t := GLOBL("nnzTable", RODATA|NOPTR)
	for m := 0; m < 256; m++ {
		k := 0
		for b := 0; b < 8; b++ {
			if m>>b&1 == 1 {
				DATA(16*m+2*k, U16(b))
				k++
			}
		}
		for ; k < 8; k++ {
			DATA(16*m+2*k, U16(0))
		}
	}
	return t
}

// nnzChunks (AVX2, VEX only, so it serves every level) writes the indices of the non-zero
// dwords of in[0:nin] to idx and returns their count. Each 32-byte block stores 16 bytes at
// idx[count], so idx needs 8 entries of slack.
func nnzChunks(tbl Mem) {
	TEXT("nnzChunks", NOSPLIT, "func(in *uint8, nin int, idx *uint16) int")
	Pragma("noescape")
	Doc("nnzChunks writes the indices of the non-zero 4-byte chunks of in[0:nin] (nin a positive",
		"multiple of 32) to idx in increasing order and returns their count; idx needs nin/4 + 8 entries.")
	in, nin, idx := ld("in"), ld("nin"), ld("idx")
	cnt := GP64()
	XORQ(cnt, cnt)
	t := GP64()
	LEAQ(tbl, t)
	zero, base, eight := YMM(), XMM(), XMM()
	VPXOR(zero, zero, zero)
	VPXOR(base, base, base)
	c := GP32()
	MOVL(U32(0x00080008), c)
	VMOVD(c, eight)
	VPBROADCASTD(eight, eight)
	alignLoop()
	Label("nnz_loop")
	y := YMM()
	VPCMPEQD(Mem{Base: in}, zero, y)
	m := GP64()
	VMOVMSKPS(y, m.As32())
	XORL(U32(0xFF), m.As32())
	nnzList{t: t, cnt: cnt, base: base, eight: eight}.add(avx2, m, idx)
	ADDQ(U8(32), in)
	SUBQ(U8(32), nin)
	JNZ(LabelRef("nnz_loop"))
	VZEROUPPER()
	Store(cnt, ReturnIndex(0))
	RET()
}

// sparseAcc emits sparseAcc<kind><ISA><nout>: out[j] = bias[j] + Σ over the n listed chunks c of
// Σ_k in[4c+k]·wt[(c·nout + j)·4 + k]. kind "" is VPMADDUBSW + VPMADDWD(ones) + VPADDD per
// chunk, "Pairs"/"Triples" add two/three chunks' VPMADDUBSW results in int16 first, "VNNI"
// uses VPDPBUSD with enough independent accumulator sets to cover its latency.
func sparseAcc(s isa, kind string, nout int) {
	fn := fmt.Sprintf("sparseAcc%s%s%d", kind, s.name, nout)
	if kind == "VNNI" {
		fn = fmt.Sprintf("sparseAccVNNI%d", nout)
	}
	TEXT(fn, NOSPLIT, "func(out *int32, bias *int32, in *uint8, wt *int8, idx *uint16, n int)")
	Pragma("noescape")
	Doc(fn+" sets out[0:"+fmt.Sprint(nout)+"] to bias[0:"+fmt.Sprint(nout)+"] plus the products of the n input chunks listed in",
		"idx with their chunk-major weights (simd.AffineSparse); bias may be out.")
	out, bias, in, wt, idx, n := ld("out"), ld("bias"), ld("in"), ld("wt"), ld("idx"), ld("n")
	nv := nout * 4 / s.bytes // vectors per chunk
	sets := 1
	if kind == "VNNI" {
		sets = max(1, 4/nv) // independent VPDPBUSD chains, one chunk each per iteration
	}
	acc := make([][]reg.VecVirtual, sets)
	for u := range acc {
		acc[u] = make([]reg.VecVirtual, nv)
		for v := range acc[u] {
			acc[u][v] = s.vec()
			if u == 0 {
				s.mov(Mem{Base: bias, Disp: v * s.bytes}, acc[u][v])
			} else {
				s.zero(acc[u][v])
			}
		}
	}
	var ones reg.VecVirtual
	if kind != "VNNI" {
		ones = onesWords(s)
	}
	sparseAccLoops(s, kind, fn, nout, acc, ones, in, wt, idx, n)
	for v := 0; v < nv; v++ {
		for u := 1; u < sets; u++ {
			VPADDD(acc[u][v], acc[0][v], acc[0][v])
		}
		s.mov(acc[0][v], Mem{Base: out, Disp: v * s.bytes})
	}
	VZEROUPPER()
	RET()
}

// onesWords returns a new vector of s's width with 1 in every int16 word (VPMADDWD's
// partner that sums pairs of words into dwords).
func onesWords(s isa) reg.VecVirtual {
	ones := s.vec()
	c := GP32()
	MOVL(U32(0x00010001), c)
	if s.wide {
		VPBROADCASTD(c, ones)
	} else {
		x := XMM()
		VMOVD(c, x)
		VPBROADCASTD(x, ones)
	}
	return ones
}

// sparseAccLoops emits sparseAcc's loops with fn as their label prefix: acc (sets of
// nout·4/s.bytes vectors; set 0 holds the running sums, the others start at zero) gains
// the products of the n input chunks listed at idx (chunk c: the 4 bytes at in + 4c, its
// weights the nout·4 bytes at wt + nout·4·c); idx and n are advanced to the end. ones is
// onesWords' vector (nil for "VNNI"). The sets are not yet added together.
func sparseAccLoops(s isa, kind, fn string, nout int, acc [][]reg.VecVirtual, ones reg.VecVirtual, in, wt, idx, n reg.GPVirtual) {
	nv := nout * 4 / s.bytes
	shift := bits.TrailingZeros(uint(nout * 4))
	per := 1
	switch kind {
	case "Pairs":
		per = 2
	case "Triples":
		per = 3
	case "VNNI":
		per = len(acc)
	}
	wmem := func(c reg.GPVirtual, v int) Mem { return Mem{Base: wt, Index: c, Scale: 1, Disp: v * s.bytes} }
	// load broadcasts chunk idx[k] of the input and returns the weight offset register.
	load := func(k int) (reg.GPVirtual, reg.VecVirtual) {
		c := GP64()
		MOVWQZX(Mem{Base: idx, Disp: 2 * k}, c)
		x := s.vec()
		VPBROADCASTD(Mem{Base: in, Index: c, Scale: 4}, x)
		SHLQ(U8(shift), c)
		return c, x
	}
	madd := func(w Mem, x, a reg.VecVirtual) {
		if kind == "VNNI" {
			VPDPBUSD(w, x, a)
			return
		}
		t := s.vec()
		VPMADDUBSW(w, x, t)
		VPMADDWD(ones, t, t)
		VPADDD(t, a, a)
	}
	main, tail, done := fn+"_main", fn+"_tail", fn+"_done"
	if per > 1 {
		CMPQ(n, U8(per))
		JB(LabelRef(tail))
		alignLoop()
		Label(main)
		cs := make([]reg.GPVirtual, per)
		xs := make([]reg.VecVirtual, per)
		for k := range cs {
			cs[k], xs[k] = load(k)
		}
		for v := 0; v < nv; v++ {
			if kind == "Pairs" || kind == "Triples" {
				t0 := s.vec()
				VPMADDUBSW(wmem(cs[0], v), xs[0], t0)
				for k := 1; k < per; k++ {
					t := s.vec()
					VPMADDUBSW(wmem(cs[k], v), xs[k], t)
					VPADDW(t, t0, t0)
				}
				VPMADDWD(ones, t0, t0)
				VPADDD(t0, acc[0][v], acc[0][v])
				continue
			}
			for u := 0; u < per; u++ {
				madd(wmem(cs[u], v), xs[u], acc[u][v])
			}
		}
		ADDQ(U8(2*per), idx)
		SUBQ(U8(per), n)
		CMPQ(n, U8(per))
		JAE(LabelRef(main))
	}
	// one emits a step over one listed chunk, then jumps back to label next.
	one := func(next string) {
		c, x := load(0)
		for v := 0; v < nv; v++ {
			madd(wmem(c, v), x, acc[0][v])
		}
		ADDQ(U8(2), idx)
		DECQ(n)
		JMP(LabelRef(next))
	}
	if per == 1 {
		// One chunk per step, the weights of the chunk pfAhead places on prefetched
		// while more than pfAhead chunks remain.
		ahead := fn + "_ahead"
		Label(ahead)
		CMPQ(n, U8(pfAhead))
		JBE(LabelRef(tail))
		pf := GP64()
		MOVWQZX(Mem{Base: idx, Disp: 2 * pfAhead}, pf)
		SHLQ(U8(shift), pf)
		for l := 0; l < nout*4; l += 64 {
			PREFETCHT0(Mem{Base: wt, Index: pf, Scale: 1, Disp: l})
		}
		one(ahead)
	}
	Label(tail)
	TESTQ(n, n)
	JZ(LabelRef(done))
	one(tail)
	Label(done)
}

// pfAhead is how many listed chunks ahead the one-chunk sparse loops prefetch weights.
const pfAhead = 8

func sparseKernels() {
	tbl := nnzTable()
	nnzChunks(tbl)
	for _, relu := range []bool{false, true} {
		pairwiseMulNNZ(avx2, tbl, relu)
		pairwiseMulNNZ(avx512, tbl, relu)
	}
	for _, nout := range []int{16, 32} {
		for _, s := range []isa{avx2, avx512} {
			sparseAcc(s, "", nout)
			sparseAcc(s, "Pairs", nout)
			sparseAcc(s, "Triples", nout)
		}
		sparseAcc(avx512, "VNNI", nout)
	}
}

// nnzList is the chunk listing shared by the non-zero scans (pairwiseMulNNZ,
// clippedReLU16NNZ, reluStackAVX2): the address of nnzTable, the count of chunks
// listed and the running chunk number of the current 32-byte block in 8 words.
type nnzList struct {
	t, cnt      reg.GPVirtual
	base, eight reg.VecVirtual
}

// newNNZList emits the listing's set-up: the table address, a zero count and first
// broadcast to 8 words, with the step of 8 chunks per 32 bytes.
func newNNZList(tbl Mem, first reg.GPVirtual) nnzList {
	l := nnzList{t: GP64()}
	LEAQ(tbl, l.t)
	l.cnt = GP64()
	XORQ(l.cnt, l.cnt)
	l.base, l.eight = XMM(), XMM()
	VMOVD(first.As32(), l.base)
	VPBROADCASTW(l.base, l.base)
	c := GP32()
	MOVL(U32(0x00080008), c)
	VMOVD(c, l.eight)
	VPBROADCASTD(l.eight, l.eight)
	return l
}

// add emits the listing of one 32-byte block: the numbers of the chunks set in the 8-bit
// non-zero mask m (clobbered) appended at idx[cnt] (one 16-byte store with s's move),
// cnt advanced by their count and the chunk number moved on by 8.
func (l nnzList) add(s isa, m, idx reg.GPVirtual) {
	o := GP64()
	MOVQ(m, o)
	SHLQ(U8(4), o)
	x := XMM()
	VPADDW(Mem{Base: l.t, Index: o, Scale: 1}, l.base, x)
	s.mov(x, Mem{Base: idx, Index: l.cnt, Scale: 2})
	POPCNTL(m.As32(), m.As32())
	ADDQ(m, l.cnt)
	VPADDW(l.eight, l.base, l.base)
}

// block emits the listing of the w bytes (32 or 64) just stored from r: the non-zero
// 4-byte chunks of r (z a zero vector of r's width, for AVX2's compare) appended at idx.
func (l nnzList) block(s isa, r, z reg.VecVirtual, w int, idx reg.GPVirtual) {
	m := GP64()
	if s.wide {
		k := K()
		VPTESTMD(r, r, k)
		KMOVW(k, m.As32())
	} else {
		y := YMM()
		VPCMPEQD(r, z, y)
		VMOVMSKPS(y, m.As32())
		XORL(U32(0xFF), m.As32())
	}
	if w == 64 {
		hi := GP64()
		MOVL(m.As32(), hi.As32())
		SHRL(U8(8), hi.As32())
		ANDL(U32(0xFF), m.As32())
		l.add(s, m, idx)
		l.add(s, hi, idx)
	} else {
		l.add(s, m, idx)
	}
}

// pairwiseMulNNZ generates pairwiseMulNNZ+ISA(dst *uint8, a, b *int16, n int, idx *uint16,
// first int) int: pairwiseMul's products (dst[i] = (clamp(a[i],0,127)·clamp(b[i],0,127)) >> 7,
// i < n, n a multiple of 32) and, from the same registers, nnzChunks' list of the non-zero
// 4-byte chunks of dst, numbered from first, so that fc_0's sparse kernel reads the list
// without a second pass over dst (Stockfish 16 lists them while it writes the transformed
// features too, affine_transform_sparse_input.h find_nnz). Every 32 bytes store 8 index
// entries at idx[count], so idx needs n/4 entries and no slack. With relu it generates
// clippedReLU16NNZ+ISA(dst *uint8, src *int16, n int, idx *uint16, first int) int instead:
// clippedReLU16's dst = clamp(src, 0, 127) (HalfKP's transform) with the same listing.
func pairwiseMulNNZ(s isa, tbl Mem, relu bool) {
	fn := "pairwiseMulNNZ" + s.name
	var dst, pa, pb, n, idx, first reg.GPVirtual
	if relu {
		fn = "clippedReLU16NNZ" + s.name
		TEXT(fn, NOSPLIT, "func(dst *uint8, src *int16, n int, idx *uint16, first int) int")
		Pragma("noescape")
		Doc(fn+" sets dst[i] = clamp(src[i], 0, 127) for i < n, n a positive multiple of 32,",
			"writes first + c for every non-zero 4-byte chunk c of dst[0:n] to idx in increasing",
			"order (n/4 entries of room) and returns their count.")
		dst, pa, n, idx, first = ld("dst"), ld("src"), ld("n"), ld("idx"), ld("first")
	} else {
		TEXT(fn, NOSPLIT, "func(dst *uint8, a, b *int16, n int, idx *uint16, first int) int")
		Pragma("noescape")
		Doc(fn+" sets dst[i] = (clamp(a[i], 0, 127)·clamp(b[i], 0, 127)) >> 7 for i < n, n a",
			"positive multiple of 32, writes first + c for every non-zero 4-byte chunk c of dst[0:n] to",
			"idx in increasing order (n/4 entries of room) and returns their count.")
		dst, pa, pb, n, idx, first = ld("dst"), ld("a"), ld("b"), ld("n"), ld("idx"), ld("first")
	}
	perm := permQ(s)
	zero, c127 := s.vec(), s.vec()
	s.zero(zero)
	if !relu {
		allOnes(s, c127)
		VPSRLW(U8(9), c127, c127) // 127 in every word
	}
	nz := newNNZList(tbl, first)
	block := func(w int, wide bool, dOff, sOff int) {
		vec := YMM
		if wide {
			vec = ZMM
		}
		z, c := width(zero, w), width(c127, w)
		var r [2]reg.VecVirtual
		if relu {
			a, b := vec(), vec()
			s.mov(Mem{Base: pa, Disp: sOff}, a)
			s.mov(Mem{Base: pa, Disp: sOff + w}, b)
			VPACKSSWB(b, a, a)
			VPMAXSB(z, a, a)
			r[0] = a
		}
		for k := range r {
			if relu {
				break
			}
			r[k] = pairProduct(s, vec, pa, pb, sOff+k*w, z, c)
		}
		if !relu {
			VPACKUSWB(r[1], r[0], r[0])
		}
		packFixQ(r[0], perm, wide)
		s.mov(r[0], Mem{Base: dst, Disp: dOff})
		nz.block(s, r[0], z, w, idx)
	}
	w := s.bytes
	loops(fn, n, w, 1, func(u int) { block(w, s.wide, u*w, 2*u*w) },
		func(k int) {
			ADDQ(U32(k*w), dst)
			ADDQ(U32(2*k*w), pa)
			if !relu {
				ADDQ(U32(2*k*w), pb)
			}
		})
	if s.wide {
		TESTQ(n, n)
		JZ(LabelRef(fn + "_done"))
		block(32, false, 0, 0)
	}
	Label(fn + "_done")
	VZEROUPPER()
	Store(nz.cnt, ReturnIndex(0))
	RET()
}
