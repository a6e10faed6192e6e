package simd

// The pure-Go kernels (*_generic.go) define every kernel's exact result; every assembly
// level is tested bit for bit against them. They are also what arm64, other platforms and
// -tags purego builds run, so they are written for the Go compiler: each operand is
// resliced to the destination's length before the loop, which lets the compiler drop every
// bounds check inside it (verified with -gcflags=-d=ssa/check_bce). Manual unrolling was
// tried and made the Go compiler's code worse (slice-pointer masking and spills), so the
// loops stay simple.

func installGeneric() {
	AddSub = addSubGeneric
	AddSubSub = addSubSubGeneric
	AddAddSubSub = addAddSubSubGeneric
	Add = addGeneric
	Sub = subGeneric
	Refresh = refreshGeneric
	ClippedReLU16 = clippedReLU16Generic
	ClippedReLU32 = clippedReLU32Generic
	SqrClippedReLU32 = sqrClippedReLU32Generic
	SqrCReLUPair16 = sqrCReLUPair16Generic
	ClippedReLUDot32 = clippedReLUDot32Generic
	PairwiseMul = pairwiseMulGeneric
	UpdateMixed = updateMixedGeneric
	Affine = affineGeneric
	SCReLUDot = screluDotGeneric
	installI8Generic()
	installSparseGeneric()
	installTailGeneric()
	installF32Generic()
}
