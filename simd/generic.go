package simd

// The pure-Go kernels (*_generic.go) define every kernel's exact result; every assembly
// level is tested bit for bit against them. They are also what arm64, other platforms and
// -tags purego builds run, so they are written for the Go compiler: each operand is
// resliced to the destination's length before the loop, which lets the compiler drop every
// bounds check inside it (verified with -gcflags=-d=ssa/check_bce). Manual unrolling
// makes the Go compiler's code worse (slice-pointer masking and spills), so the
// loops stay simple.

func installGeneric() {
	addSubFn = addSubGeneric
	addSubSubFn = addSubSubGeneric
	addAddSubSubFn = addAddSubSubGeneric
	addFn = addGeneric
	subFn = subGeneric
	refreshFn = refreshGeneric
	clippedReLU16Fn = clippedReLU16Generic
	clippedReLU32Fn = clippedReLU32Generic
	sqrClippedReLU32Fn = sqrClippedReLU32Generic
	sqrCReLUPair16Fn = sqrCReLUPair16Generic
	clippedReLUDot32Fn = clippedReLUDot32Generic
	updateMixedFn = updateMixedGeneric
	prefetchMixedFn = prefetchMixedGeneric
	affineFn = affineGeneric
	screluDotFn = screluDotGeneric
	installI8Generic()
	installSparseGeneric()
	installTailGeneric()
	installF32Generic()
}
