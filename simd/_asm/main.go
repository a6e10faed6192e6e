// Command _asm generates the amd64 assembly kernels of package simd with avo
// (github.com/mmcloughlin/avo). Run it with
//
//	cd simd/_asm && go generate
//
// which writes ../kernels_amd64.s and ../kernels_amd64_stubs.go (build constraint
// amd64 && !purego). The generated files are committed; this module is separate (its own
// go.mod) so that the root module does not depend on avo, and the leading underscore keeps
// `go build ./...` in the root module out of it.
//
// Every generated function works on whole vectors only; the Go wrappers in
// simd/kernels_amd64.go check slice lengths, pass lengths rounded down to what a function
// documents, and finish tails with the pure-Go kernels. See doc/simd.md.
package main

//go:generate go run . -out ../kernels_amd64.s -stubs ../kernels_amd64_stubs.go -pkg simd

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// isa describes one vector width.
type isa struct {
	name  string // suffix of generated function names: "AVX2", "AVX512"
	bytes int    // vector width in bytes: 32 or 64
	wide  bool   // 512-bit (EVEX) vectors
}

var (
	avx2   = isa{name: "AVX2", bytes: 32}
	avx512 = isa{name: "AVX512", bytes: 64, wide: true}
)

// vec returns a new virtual vector register of the ISA's width.
func (s isa) vec() reg.VecVirtual {
	if s.wide {
		return ZMM()
	}
	return YMM()
}

// mov moves a vector (any width: X, Y or Z) between memory and a register. The AVX-512
// functions use the EVEX form so that registers X16–X31 are usable.
func (s isa) mov(src, dst Op) {
	if s.wide {
		VMOVDQU64(src, dst)
	} else {
		VMOVDQU(src, dst)
	}
}

// zero clears a vector register (any width).
func (s isa) zero(r Op) {
	if s.wide {
		VPXORD(r, r, r)
	} else {
		VPXOR(r, r, r)
	}
}

// half returns the 256-bit alias of a vector register (itself for AVX2).
func half(r reg.VecVirtual) reg.VecVirtual {
	return r.AsY().(reg.VecVirtual)
}

func main() {
	ConstraintExpr("amd64,!purego")

	for _, s := range []isa{avx2, avx512} {
		accumulate(s, "addSub", 1, 1)
		accumulate(s, "addSubSub", 1, 2)
		accumulate(s, "addAddSubSub", 2, 2)
		accumulate(s, "add", 1, 0)
		accumulate(s, "sub", 0, 1)
		refresh(s)
		clippedReLU16(s)
		clippedReLU32(s)
		sqrClippedReLU32(s)
		screluDot(s)
	}
	sqrCReLUPair()
	for _, nx := range []int{16, 32} {
		dualActTail(nx, 32)
		dualActTail(nx, 64)
	}
	clippedReLUDot32()
	affineAVX2()
	affineAVX512(false)
	affineAVX512(true)
	sparseKernels()
	tailKernels()
	reluStackAVX2(Mem{Symbol: NewStaticSymbol("nnzTable"), Base: reg.StaticBase})
	affineVNNI16()
	refreshPlanesKernels()
	sf19Kernels()
	for _, s := range []isa{avx2, avx512} {
		accumulateI8(s, "addI8", true, false)
		accumulateI8(s, "subI8", false, true)
		accumulateI8(s, "addSubI8", true, true)
		updateI8(s)
	}
	float32Kernels()
	for _, s := range []isa{avx2, avx512} {
		updateRows(s)
		updatePair(s)
		addSubPSQT(s)
	}

	bulletKernels()
	prefetchLine()

	Generate()
}

// ld loads a 64-bit argument into a new virtual register.
func ld(name string) reg.GPVirtual {
	r := GP64()
	Load(Param(name), r)
	return r
}

// argAddr is the frame address of the argument or result c, for the VEX moves below.
func argAddr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// ldF32 loads the float32 argument name into the low lane of a new XMM register with
// VMOVSS. Every move between general registers, memory and vector registers in these
// kernels is VEX-encoded: a legacy SSE instruction while a YMM register's upper half is
// dirty costs about 130 ns on the AMD EPYC VM of doc/benchmarks.md (the SSE/AVX transition),
// and TestKernelsVEXOnly keeps the generated file free of them.
func ldF32(name string) reg.VecVirtual {
	x := XMM()
	VMOVSS(argAddr(Param(name)), x)
	return x
}

// alignLoop emits PCALIGN $32 so that the loop that follows starts on a 32-byte boundary.
// On Skylake-derived cores (this one is a Cascade Lake) the JCC-erratum microcode keeps
// any 32-byte block whose jump crosses or ends on its boundary out of the decoded-uop
// cache; an unaligned loop then runs from the legacy decoders, which cannot feed the long
// EVEX instructions fast enough (measured: AddSub/2048 at AVX-512 went from 72 to 51
// cpu-ns/op with the alignment alone).
func alignLoop() {
	Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []Op{U8(32)}})
}
