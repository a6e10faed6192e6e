package nnue

import (
	"fmt"

	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/simd"
)

// PairwiseClip is the feature transformer output of Stockfish 19
// (nnue_feature_transformer.h transform, FtMaxVal 255): for each perspective part p of
// width M (side to move first),
//
//	out[p·M/2 + j] = clamp(p[j], 0, Max) · clamp(p[j + M/2], 0, Max) >> Shift   for j < M/2,
//
// Max 255 and Shift 9 (÷512) giving values in 0…127. PairwiseMul is the Max 127,
// Shift 7 case of Stockfish 15.1 and 16. Input: KindInt16 (after Perspective), output:
// KindUint8 of M values. Computed by simd.PairwiseClip (assembly at AVX2 and above, the Go
// twin otherwise); stage pairwise(Max,Shift).
type PairwiseClip struct {
	Max   int16
	Shift uint8
}

// InputKind reports the element type read (Layer).
func (PairwiseClip) InputKind() Kind { return KindInt16 }

// OutputKind reports the element type written (Layer).
func (PairwiseClip) OutputKind() Kind { return KindUint8 }

// String describes the layer and its parameters.
func (l PairwiseClip) String() string {
	return fmt.Sprintf("PairwiseClip(0..%d, >>%d)", l.Max, l.Shift)
}

// OutputSize returns n/2; the products must fit in uint8 (Max² >> Shift ≤ 255).
func (l PairwiseClip) OutputSize(n int) (int, error) {
	if err := checkParts(l.String(), n, 64); err != nil {
		return 0, err
	}
	if l.Max <= 0 || l.Shift > 30 || (int64(l.Max)*int64(l.Max))>>l.Shift > 255 {
		return 0, fmt.Errorf("%v: products do not fit in uint8", l)
	}
	return n / 2, nil
}

func (l PairwiseClip) propagate(in, out *tensor, _ *evalState) {
	m := len(in.acc[0])
	h := m / 2
	for k := 0; k < 2; k++ {
		simd.PairwiseClip(out.u8[k*h:(k+1)*h], in.acc[k][:h], in.acc[k][h:m], l.Max, l.Shift)
	}
}

// denseScratch holds DenseStack's intermediate values and the tensor views over them
// (here, in the Evaluator, so that a forward pass does not allocate); one per Evaluator.
type denseScratch struct {
	x, y [maxDense]int32
	c    [4 * maxDense]uint8
	// views of x, c0 = c[:2·FC0.Out], y, c1 and both = c0 ++ c1 (padded)
	tx, tc0, ty, tc1, tboth tensor
}

// maxDense bounds the hidden widths of a DenseStack.
const maxDense = 64

// DenseStack is Stockfish 19's layer stack after the feature transformer
// (nnue_architecture.h NetworkArchitecture::propagate), built from existing layers:
//
//	x  = FC0(in)                    (int32, FC0.Out values)
//	c0 = Act0(x)                    (uint8, 2·FC0.Out: SqrClippedReLU(>>21) ++ ClippedReLU(>>7))
//	y  = FC1(c0)                    (int32, FC1.Out)
//	c1 = Act1(y)                    (uint8, 2·FC1.Out: SqrClippedReLU(>>19) ++ ClippedReLU(>>6))
//	z  = FC2(c0 ++ c1)              (int32, 1)
//	out = (z + x[n−2] − x[n−1]) · Mul / Div    (int64, truncated; n = FC0.Out)
//
// with Mul/Div = 600·16 / (128·64·2) = 9600/16384 for Stockfish 19. Input: KindUint8 of
// FC0.In values; output: KindInt32, one value (the positional term). FC0.Out and FC1.Out
// are at most 64; Act0 and Act1 must write 2·FC0.Out and 2·FC1.Out values. Stage
// dense(fc0,act0,fc1,act1,fc2,Mul,Div).
type DenseStack struct {
	FC0, FC1, FC2 *Affine
	Act0, Act1    *Concat
	Mul, Div      int32
}

// InputKind reports the element type read (Layer).
func (*DenseStack) InputKind() Kind { return KindUint8 }

// OutputKind reports the element type written (Layer).
func (*DenseStack) OutputKind() Kind { return KindInt32 }

// String describes the layer and its parameters.
func (l *DenseStack) String() string {
	return fmt.Sprintf("DenseStack(%v → %v → %v → %v → %v over both, + x[-2] − x[-1], ·%d/%d)", l.FC0, l.Act0, l.FC1, l.Act1, l.FC2, l.Mul, l.Div)
}

// OutputSize checks the parts' shapes and returns 1.
func (l *DenseStack) OutputSize(n int) (int, error) {
	if l.FC0 == nil || l.FC1 == nil || l.FC2 == nil || l.Act0 == nil || l.Act1 == nil || l.Div == 0 {
		return 0, fmt.Errorf("DenseStack: missing part or zero divisor")
	}
	x, err := l.FC0.OutputSize(n)
	if err != nil {
		return 0, err
	}
	if x < 2 || x > maxDense {
		return 0, fmt.Errorf("DenseStack: fc0 has %d outputs, want 2..%d", x, maxDense)
	}
	c0, err := l.Act0.OutputSize(x)
	if err != nil {
		return 0, err
	}
	if l.Act0.InputKind() != KindInt32 || c0 != 2*x {
		return 0, fmt.Errorf("DenseStack: %v writes %d values, want %d", l.Act0, c0, 2*x)
	}
	y, err := l.FC1.OutputSize(c0)
	if err != nil {
		return 0, err
	}
	if y > maxDense {
		return 0, fmt.Errorf("DenseStack: fc1 has %d outputs, want ≤ %d", y, maxDense)
	}
	c1, err := l.Act1.OutputSize(y)
	if err != nil {
		return 0, err
	}
	if l.Act1.InputKind() != KindInt32 || c1 != 2*y {
		return 0, fmt.Errorf("DenseStack: %v writes %d values, want %d", l.Act1, c1, 2*y)
	}
	if c0%32 != 0 {
		return 0, fmt.Errorf("DenseStack: %d activations of fc0 must be a multiple of 32", c0)
	}
	z, err := l.FC2.OutputSize(c0 + c1)
	if err != nil {
		return 0, err
	}
	if z != 1 {
		return 0, fmt.Errorf("DenseStack: fc2 has %d outputs, want 1", z)
	}
	return 1, nil
}

func (l *DenseStack) propagate(in, out *tensor, st *evalState) {
	d := st.dense
	nx, ny := l.FC0.Out, l.FC1.Out
	d.tx = tensor{n: nx, i32: d.x[:nx]}
	l.FC0.propagate(in, &d.tx, st)
	d.tc0 = tensor{n: 2 * nx, u8: d.c[:2*nx]}
	l.Act0.propagate(&d.tx, &d.tc0, st)
	d.ty = tensor{n: ny, i32: d.y[:ny]}
	l.FC1.propagate(&d.tc0, &d.ty, st)
	d.tc1 = tensor{n: 2 * ny, u8: d.c[2*nx : 2*nx+2*ny]}
	l.Act1.propagate(&d.ty, &d.tc1, st)
	d.tboth = tensor{n: 2*nx + 2*ny, u8: d.c[:pad32(2*nx+2*ny)]}
	clear(d.c[2*nx+2*ny : pad32(2*nx+2*ny)])
	l.FC2.propagate(&d.tboth, out, st)
	v := int64(out.i32[0]) + int64(d.x[nx-2]) - int64(d.x[nx-1])
	out.i32[0] = int32(v * int64(l.Mul) / int64(l.Div))
}

// prepare readies the parts for evaluation once, when NewNetwork takes the layer in, as
// it does for the Affine layers of a stack: fc_0 (1024 → 32 for Stockfish 19) gets the
// chunk-major copy of its weights for the sparse-input kernel (Affine.prepare).
func (l *DenseStack) prepare() {
	for _, a := range []*Affine{l.FC0, l.FC1, l.FC2} {
		if a != nil {
			a.prepare()
		}
	}
}

// sfThreatsPawnValue is Stockfish 19's pawn value at its anchor material 58, a(1) =
// a0 + a1 + a2 + a3 ≈ 304.15, used by Network.Centipawns, which has no position; the
// engine's own conversion depends on the material (PawnScale, StockfishMaterialPawnDivisor).
const sfThreatsPawnValue = 304

// StockfishThreatsSpec is the featureset spec of Stockfish 19's inputs, in the order of
// the file's rows: FullThreats (59,808) ⊕ PP_3Wide (4,560) ⊕ HalfKAv2_hm (22,528).
const StockfishThreatsSpec = "threats+pawnpairs+halfkav2_hm"

// sfThreatsMaxActive16 is the HalfKAv2_hm block's maximum of active features (32
// pieces); the rest of the set's MaxActive belongs to the int8 rows.
const sfThreatsMaxActive16 = 32

// newStockfishThreatsNetwork builds the Stockfish 19 network of f:
//
//	Perspective → PairwiseClip(0..255, >>9) → DenseStack(Affine(1024→32) →
//	Concat(SqrClippedReLU(>>21), ClippedReLU(>>7)) → Affine(64→32) →
//	Concat(SqrClippedReLU(>>19), ClippedReLU(>>6)) → Affine(128→1), ·9600/16384)
//
// with 8 stacks selected by (pieces − 1)/4, PSQT (stm − other)/2, and
// Value = psqt/16 + positional/16 (each truncated; Stockfish network.cpp evaluate).
func newStockfishThreatsNetwork(f *StockfishFile) (*Network, error) {
	set, err := featureset.Parse(StockfishThreatsSpec)
	if err != nil {
		return nil, fmt.Errorf("nnue: stockfish 19 feature set: %w", err)
	}
	t := f.Threats
	rows8 := t.ThreatFeatures + t.PairFeatures
	if set.Size() != rows8+f.Features {
		return nil, fmt.Errorf("nnue: stockfish: feature set %s has %d features, file has %d", set, set.Size(), rows8+f.Features)
	}
	if err := checkFTDims(set.Size(), f.HalfDims, f.PSQTBuckets); err != nil {
		return nil, err
	}
	psqt := alignedInt32(len(t.PSQT) + len(f.PSQTWeights))
	copy(psqt, t.PSQT)
	copy(psqt[len(t.PSQT):], f.PSQTWeights)
	ft := newFT8(set, f.HalfDims, rows8, t.Weights, max(set.MaxActive()-sfThreatsMaxActive16, 0),
		f.FTWeights, sfThreatsMaxActive16, f.FTBiases, f.PSQTBuckets, psqt)
	arch := Architecture{
		Buckets:        Buckets{N: len(f.Stacks), Sub: 1, Div: 4},
		PSQTDiv:        2,
		Output:         OutputScale{Div: StockfishOutputScale},
		OutputPerTerm:  true,
		PawnValue:      sfThreatsPawnValue, // at the anchor material: the exact divisor is PawnScale's
		PawnByMaterial: true,
		Quantization:   "stockfish 19: accumulator 255, pairwise /512, hidden weights 64 (>>7, >>6), output ·9600/16384 then /16",
	}
	affine := func(a *StockfishAffine) *Affine {
		return &Affine{In: a.In, Out: a.Out, Weights: a.Weights, Bias: a.Biases}
	}
	const wsb = StockfishWeightScaleBits
	for k := range f.Stacks {
		st := &f.Stacks[k]
		arch.Stacks = append(arch.Stacks, []Layer{
			Perspective{}, PairwiseClip{Max: 255, Shift: 9},
			&DenseStack{
				FC0:  affine(&st.FC0),
				Act0: &Concat{Parts: []Layer{SqrClippedReLU{Shift: 2*(wsb+1) + 7}, ClippedReLU{Input: KindInt32, Shift: wsb + 1}}},
				FC1:  affine(&st.FC1),
				Act1: &Concat{Parts: []Layer{SqrClippedReLU{Shift: 2*wsb + 7}, ClippedReLU{Input: KindInt32, Shift: wsb}}},
				FC2:  affine(&st.FC2),
				Mul:  600 * StockfishOutputScale,
				Div:  128 * (1 << wsb) * 2,
			},
		})
	}
	desc := fmt.Sprintf("Stockfish %s net, version 0x%08X, hash 0x%08X: %s", f.Arch, f.Version, f.Hash, f.Description)
	return NewNetwork(ft, arch, desc)
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
