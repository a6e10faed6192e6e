package nnue

import "fmt"

// Stockfish 19 feature-set hashes (Stockfish features/full_threats.h, pp_3wide.h,
// half_ka_v2_hm.h at stockfish-dev-20260803-762dd1da).
const (
	sfHashFullThreats uint32 = 0x2e6b9d04
	sfHashPP3Wide     uint32 = 0x86f2b1dd
)

// Stockfish 19 input dimensions per perspective.
const (
	// sfThreatFeatures is the number of FullThreats features (Stockfish
	// features/full_threats.h Dimensions).
	sfThreatFeatures = 59808
	// sfPairFeatures is the number of PP_3Wide pawn-pair features, 96·95/2
	// (Stockfish features/pp_3wide.h Dimensions).
	sfPairFeatures = 4560
)

// sfCombineHash is Stockfish's FeatureTransformer::combine_hash: rotate left by one and
// xor each component hash in turn.
func sfCombineHash(hs ...uint32) uint32 {
	var h uint32
	for _, c := range hs {
		h = h<<1 | h>>31
		h ^= c
	}
	return h
}

var sfShapeThreats = sfShape{
	version: sfVersionThreats, arch: sfThreats,
	featureHash: sfCombineHash(sfHashFullThreats, sfHashPP3Wide, sfHashHalfKAv2hm),
	inputs:      22528, half: 1024, psqt: 8, stacks: 8, layers: [3]int{32, 32, 1}, fc1In: 64, fc2In: 128,
}

// sfThreatRows is the threat and pawn-pair part of a Stockfish 19 feature
// transformer: one shared int8 matrix, feature-major, whose first ThreatFeatures rows
// belong to the FullThreats features and whose next PairFeatures rows to the PP_3Wide
// features (row i at Weights[i·HalfDims : (i+1)·HalfDims]), and the int32 PSQT weights of
// the same features (row i at PSQT[i·8 : (i+1)·8]). In the file (Stockfish
// nnue_feature_transformer.h read_parameters) the threat rows are raw int8, then their
// PSQT as COMPRESSED_LEB128, then the pair rows raw, then their PSQT compressed.
type sfThreatRows struct {
	ThreatFeatures int     // 59,808
	PairFeatures   int     // 4,560
	Weights        []int8  // (ThreatFeatures + PairFeatures)·HalfDims
	PSQT           []int32 // (ThreatFeatures + PairFeatures)·8
}

// readThreatTransformer reads the Stockfish 19 feature transformer after its hash:
// LEB i16 biases, raw i8 threat rows, LEB i32 threat PSQT, raw i8 pair rows, LEB i32
// pair PSQT, LEB i16 HalfKAv2_hm rows, LEB i32 HalfKAv2_hm PSQT.
func readThreatTransformer(r *decoder, f *sfFile) {
	half, nb := f.HalfDims, f.PSQTBuckets
	t := &sfThreatRows{ThreatFeatures: sfThreatFeatures, PairFeatures: sfPairFeatures}
	nt, np := t.ThreatFeatures, t.PairFeatures
	f.Threats = t
	f.Compressed = [3]bool{true, true, true}
	f.FTBiases = sfReadLEB(r, "feature transformer biases", half, alignedInt16)
	// Both raw int8 blocks must fit in what remains before the shared matrix is made.
	if !r.need("threat weights", int64(nt+np)*int64(half)) {
		return
	}
	t.Weights = alignedInt8((nt + np) * half)
	if !r.read("threat weights", int8Bytes(t.Weights[:nt*half])) {
		return
	}
	t.PSQT = sfReadLEB(r, "threat PSQT weights", nt*nb, func(int) []int32 {
		return alignedInt32((nt + np) * nb)[:nt*nb]
	})
	if r.err != nil {
		return
	}
	t.PSQT = t.PSQT[:(nt+np)*nb]
	if !r.read("pawn-pair weights", int8Bytes(t.Weights[nt*half:])) {
		return
	}
	sfReadLEB(r, "pawn-pair PSQT weights", np*nb, func(int) []int32 { return t.PSQT[nt*nb:] })
	f.FTWeights = sfReadLEB(r, "feature transformer weights", f.Features*half, alignedInt16)
	f.PSQTWeights = sfReadLEB(r, "PSQT weights", f.Features*nb, alignedInt32)
}

// appendThreatTransformer writes what readThreatTransformer reads.
func appendThreatTransformer(b []byte, f *sfFile) ([]byte, error) {
	t := f.Threats
	half, nb := f.HalfDims, f.PSQTBuckets
	if t == nil || t.ThreatFeatures != sfThreatFeatures || t.PairFeatures != sfPairFeatures ||
		len(t.Weights) != (t.ThreatFeatures+t.PairFeatures)*half || len(t.PSQT) != (t.ThreatFeatures+t.PairFeatures)*nb ||
		len(f.FTBiases) != half || len(f.FTWeights) != f.Features*half || len(f.PSQTWeights) != f.Features*nb {
		return nil, fmt.Errorf("nnue: stockfish: feature transformer slice lengths do not match the Stockfish 19 architecture")
	}
	nt := t.ThreatFeatures
	b = sfAppendLEB(b, f.FTBiases)
	b = append(b, int8Bytes(t.Weights[:nt*half])...)
	b = sfAppendLEB(b, t.PSQT[:nt*nb])
	b = append(b, int8Bytes(t.Weights[nt*half:])...)
	b = sfAppendLEB(b, t.PSQT[nt*nb:])
	b = sfAppendLEB(b, f.FTWeights)
	b = sfAppendLEB(b, f.PSQTWeights)
	return b, nil
}
