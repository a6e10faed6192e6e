package simd

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
	PairwiseMul = pairwiseMulGeneric
	Affine = affineGeneric
	SCReLUDot = screluDotGeneric
}
