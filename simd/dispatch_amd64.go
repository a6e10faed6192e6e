//go:build amd64 && !purego

package simd

import "github.com/klauspost/cpuid/v2"

// detect reports the best level the CPU and operating system support. cpuid clears the
// AVX and AVX-512 feature bits when the OS does not save YMM/ZMM state (XGETBV), so a
// feature reported here is usable.
func detect() ISA {
	c := &cpuid.CPU
	if !c.Supports(cpuid.AVX, cpuid.AVX2) {
		return Generic
	}
	if !c.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL) {
		return AVX2
	}
	if !c.Supports(cpuid.AVX512VNNI) {
		return AVX512
	}
	return AVX512VNNI
}

// wide selects the AVX-512 assembly in the wrappers of kernels_amd64.go; vnni selects
// VPDPBUSD for Affine.
var wide, vnni bool

// install points the kernels' dispatch variables (kernels.go and the other kernel files) at
// level l.
func install(l ISA) {
	installGeneric()
	if l < AVX2 {
		return
	}
	wide = l >= AVX512
	vnni = l >= AVX512VNNI
	addSubFn = addSubAsm
	addSubSubFn = addSubSubAsm
	addAddSubSubFn = addAddSubSubAsm
	addFn = addAsm
	subFn = subAsm
	refreshFn = refreshAsm
	clippedReLU16Fn = clippedReLU16Asm
	clippedReLU32Fn = clippedReLU32Asm
	sqrClippedReLU32Fn = sqrClippedReLU32Asm
	sqrCReLUPair16Fn = sqrCReLUPair16Asm
	clippedReLUDot32Fn = clippedReLUDot32Asm
	updateMixedFn = updateMixedAsm
	prefetchMixedFn = prefetchMixedAsm
	affineFn = affineAsm
	screluDotFn = screluDotAsm
	installI8Asm()
	installSparseAsm()
	installTailAsm()
	installF32Asm()
}
