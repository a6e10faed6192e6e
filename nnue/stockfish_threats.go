package nnue

import "fmt"

// sfThreatsPawnValue is Stockfish 19's pawn value at its anchor material 58, a(1) =
// a0 + a1 + a2 + a3 ≈ 304.15, used by Network.Centipawns, which has no position; the
// engine's own conversion depends on the material (PawnScale, sfMaterialPawnDivisor).
const sfThreatsPawnValue = 304

// sfThreatsSpec is the featureset spec of Stockfish 19's inputs, in the order of
// the file's rows: FullThreats (59,808) ⊕ PP_3Wide (4,560) ⊕ HalfKAv2_hm (22,528).
const sfThreatsSpec = "threats+pawnpairs+halfkav2_hm"

// newStockfishThreatsNetwork builds the Stockfish 19 network of f from its declared
// architecture (nnue_architecture.h propagate), per bucket:
//
//	stm > pairwise(255,9) > affine.i8(32) [fc_0] >
//	skipdiff(concat(sqrcrelu(21),crelu.i32(7)) [ac_sqr_0 ‖ ac_0],
//	  append(affine.i8(32) [fc_1], concat(sqrcrelu(19),crelu.i32(6)) [ac_sqr_1 ‖ ac_1]),
//	  affine.i8(1) [fc_2], 9600, 16384)          (fc_2 + fc_0[30] − fc_0[31])·9600/16384
//
// with 8 stacks selected by (pieces − 1)/4, PSQT (stm − other)/2, and
// Value = psqt/16 + positional/16 (each truncated; Stockfish network.cpp evaluate). The
// transformer's rows are FullThreats ⊕ PP_3Wide (int8) then HalfKAv2_hm (int16), in the
// file's order; the PSQT weights of the int8 rows come first likewise.
func newStockfishThreatsNetwork(f *sfFile) (*Network, error) {
	const wsb = sfWeightScaleBits
	st0 := &f.Stacks[0]
	decl := fmt.Sprintf("ft=threats+pawnpairs:i8,halfkav2_hm:i16 width=%d psqt=%d stack=stm>pairwise(255,9)>affine.i8(%d)>skipdiff(concat(sqrcrelu(%d),crelu.i32(%d)),append(affine.i8(%d),concat(sqrcrelu(%d),crelu.i32(%d))),affine.i8(1),%d,%d) buckets=pieces(%d,1,4) psqtdiv=2 out=/%d perterm pawn=material:%d",
		f.HalfDims, f.PSQTBuckets, st0.FC0.Out, 2*(wsb+1)+7, wsb+1, st0.FC1.Out, 2*wsb+7, wsb,
		600*sfOutputScale, 128*(1<<wsb)*2, len(f.Stacks), sfOutputScale, sfThreatsPawnValue)
	spec, err := ParseSpec(decl)
	if err != nil {
		return nil, fmt.Errorf("nnue: stockfish 19: %w", err)
	}
	t := f.Threats
	rows8 := t.ThreatFeatures + t.PairFeatures
	if sh, _ := spec.shape(); sh.set.Size() != rows8+f.Features {
		return nil, fmt.Errorf("nnue: stockfish: feature set %s has %d features, file has %d", sh.set, sh.set.Size(), rows8+f.Features)
	}
	psqt := alignedInt32(len(t.PSQT) + len(f.PSQTWeights))
	copy(psqt, t.PSQT)
	copy(psqt[len(t.PSQT):], f.PSQTWeights)
	var params []any
	for k := range f.Stacks {
		for _, a := range []*sfAffine{&f.Stacks[k].FC0, &f.Stacks[k].FC1, &f.Stacks[k].FC2} {
			params = append(params, a.Weights, a.Biases)
		}
	}
	desc := fmt.Sprintf("Stockfish %s net, version 0x%08X, hash 0x%08X: %s", f.Arch, f.Version, f.Hash, f.Description)
	quant := "stockfish 19: accumulator 255, pairwise /512, hidden weights 64 (>>7, >>6), output ·9600/16384 then /16"
	return spec.assemble(t.Weights, f.FTWeights, f.FTBiases, psqt, params, desc, quant)
}

// computeBound8 is computeBound for int8 rows without bias, by a histogram of each
// column's 256 possible values (one pass over the weights; the quickselect of
// computeBound would take seconds over Stockfish 19's 64,368 × 1,024 int8 weights).
func computeBound8(nf, m, k int, w []int8) AccumulatorBound {
	k = max(0, min(k, nf))
	res := AccumulatorBound{MaxActive: k}
	hist := make([][256]int32, m)
	for f := 0; f < nf; f++ {
		row := w[f*m : (f+1)*m]
		for j, x := range row {
			hist[j][uint8(x)]++
		}
	}
	count := func(h *[256]int32, v int) int { return int(h[uint8(int8(v))]) }
	for j := range hist {
		h := &hist[j]
		var sp, sn, sa int64
		lp, ln, la := k, k, k
		for v := 128; v >= 1; v-- {
			if v <= 127 && lp > 0 {
				c := min(lp, count(h, v))
				sp += int64(c * v)
				lp -= c
			}
			if ln > 0 {
				c := min(ln, count(h, -v))
				sn += int64(c * v)
				ln -= c
			}
			if la > 0 {
				c := count(h, -v)
				if v <= 127 {
					c += count(h, v)
				}
				c = min(la, c)
				sa += int64(c * v)
				la -= c
			}
		}
		if j == 0 {
			res.Max, res.Min, res.Abs = sp, -sn, sa
		}
		res.Max = max(res.Max, sp)
		res.Min = min(res.Min, -sn)
		res.Abs = max(res.Abs, sa)
	}
	res.CanOverflow = res.Max > 32767 || res.Min < -32768
	return res
}
