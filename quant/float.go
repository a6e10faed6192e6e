package quant

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/nnuekit/nnuekit/nnue"
)

// FloatThesis is the float32 thesis network (F→L1)×2→L2→1 with ClippedReLU (thesis §4.3,
// mlomb/cs-master-thesis scripts/lib/model.py), the model a trainer produces before Quantize:
//
//	acc_P  = B1 + Σ_{f ∈ active(P)} W1[f]                       for P = side to move, other side
//	x      = [clamp(acc_stm, 0, 1) | clamp(acc_other, 0, 1)]    2·L1 values, side to move first
//	h      = clamp(B2 + W2·x, 0, 1)                              L2 values
//	output = B3 + W3·h                                           centipawns, side to move
//
// Shapes: W1 [F][L1] (feature-major: W1[f] is the row added for feature f), B1 [L1],
// W2 [L2][2·L1] (row-major, out × in), B2 [L2], W3 [L2], B3 a scalar. The output is in the
// units of the training target (the thesis's scores, ≈ centipawns; the trainer's nnue2score
// is 1), which are also the units of the quantized network's final integer.
type FloatThesis struct {
	// FeatureSet is the feature-set spec string (featureset.Parse syntax, e.g. "hv",
	// "all+ph+pv"); it is written to the network header by Quantize. Its size must be len(W1).
	FeatureSet string
	W1         [][]float32
	B1         []float32
	W2         [][]float32
	B2         []float32
	W3         []float32
	B3         float32
}

// NewFloatThesis returns a zero model with features inputs, an L1 of width l1 and an L2 of
// width l2, all slices allocated. It panics if a size is not positive (a programming error).
func NewFloatThesis(featureSet string, features, l1, l2 int) *FloatThesis {
	if features <= 0 || l1 <= 0 || l2 <= 0 {
		panic(fmt.Sprintf("quant: NewFloatThesis(%d, %d, %d): sizes must be positive", features, l1, l2))
	}
	m := &FloatThesis{FeatureSet: featureSet}
	m.W1 = matrix(features, l1)
	m.B1 = make([]float32, l1)
	m.W2 = matrix(l2, 2*l1)
	m.B2 = make([]float32, l2)
	m.W3 = make([]float32, l2)
	return m
}

func matrix(rows, cols int) [][]float32 {
	flat := make([]float32, rows*cols)
	m := make([][]float32, rows)
	for i := range m {
		m[i] = flat[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return m
}

// Features is the number of inputs F (len(W1)).
func (m *FloatThesis) Features() int { return len(m.W1) }

// L1 is the width of one accumulator (len(B1)).
func (m *FloatThesis) L1() int { return len(m.B1) }

// L2 is the width of the hidden layer (len(B2)).
func (m *FloatThesis) L2() int { return len(m.B2) }

// Validate checks that every slice has the shape documented on FloatThesis. It returns an error
// naming the first inconsistent field.
func (m *FloatThesis) Validate() error {
	f, l1, l2 := len(m.W1), len(m.B1), len(m.B2)
	if f == 0 || l1 == 0 || l2 == 0 {
		return fmt.Errorf("quant: FloatThesis: empty model (F=%d, L1=%d, L2=%d)", f, l1, l2)
	}
	if err := checkMatrix("FloatThesis", "W1", m.W1, f, "", l1, "L1"); err != nil {
		return err
	}
	if err := checkMatrix("FloatThesis", "W2", m.W2, l2, "L2", 2*l1, "2·L1"); err != nil {
		return err
	}
	if len(m.W3) != l2 {
		return fmt.Errorf("quant: FloatThesis: W3 has %d values, want L2=%d", len(m.W3), l2)
	}
	return nil
}

// Forward evaluates the model on the active features of the side to move (stm) and of the
// other side (nstm), each a list of distinct indices in [0, F) as featureset.Set.Active returns
// them (binary semantics: a repeated index would be added twice). The result is in centipawns
// from the side to move, computed in float64 from the float32 parameters. It returns an error
// for an index out of range or a parameter slice of the wrong length (it checks what it
// touches; Validate checks everything).
func (m *FloatThesis) Forward(stm, nstm []int) (float64, error) {
	l1 := m.L1()
	if l1 == 0 || len(m.W2) != len(m.B2) || len(m.W3) != len(m.B2) {
		return 0, fmt.Errorf("quant: FloatThesis.Forward: inconsistent model (L1=%d, %d W2 rows, %d B2, %d W3)", l1, len(m.W2), len(m.B2), len(m.W3))
	}
	for j, row := range m.W2 {
		if len(row) != 2*l1 {
			return 0, fmt.Errorf("quant: FloatThesis.Forward: W2[%d] has %d values, want 2·L1=%d", j, len(row), 2*l1)
		}
	}
	x := make([]float64, 2*l1)
	for half, active := range [2][]int{stm, nstm} {
		acc := x[half*l1 : (half+1)*l1]
		for j, b := range m.B1 {
			acc[j] = float64(b)
		}
		for _, f := range active {
			if f < 0 || f >= len(m.W1) {
				return 0, fmt.Errorf("quant: FloatThesis.Forward: feature %d outside [0, %d)", f, len(m.W1))
			}
			if len(m.W1[f]) != l1 {
				return 0, fmt.Errorf("quant: FloatThesis.Forward: W1[%d] has %d values, want L1=%d", f, len(m.W1[f]), l1)
			}
			for j, w := range m.W1[f] {
				acc[j] += float64(w)
			}
		}
		for j := range acc {
			acc[j] = clamp01(acc[j])
		}
	}
	out := float64(m.B3)
	for j, row := range m.W2 {
		s := float64(m.B2[j])
		for i, w := range row {
			s += float64(w) * x[i]
		}
		out += float64(m.W3[j]) * clamp01(s)
	}
	return out, nil
}

// Clone returns a deep copy of m.
func (m *FloatThesis) Clone() *FloatThesis {
	c := NewFloatThesis(m.FeatureSet, m.Features(), m.L1(), m.L2())
	for f := range m.W1 {
		copy(c.W1[f], m.W1[f])
	}
	copy(c.B1, m.B1)
	for j := range m.W2 {
		copy(c.W2[j], m.W2[j])
	}
	copy(c.B2, m.B2)
	copy(c.W3, m.W3)
	c.B3 = m.B3
	return c
}

// Jitter returns a copy of m with every parameter moved by an independent uniform offset in
// [−amount, +amount) quantization steps of scheme s (a step is 1/scale of the tensor), drawn from
// a PCG generator seeded with seed. For a dequantized model (DequantizeThesis) and amount < 0.5
// the result still quantizes to exactly the same integers: it is a random float model "the
// trainer could have had", which is how doc/quant.md estimates the full quantization error of
// the published thesis networks, whose float checkpoints are not available.
func (m *FloatThesis) Jitter(s ThesisScheme, amount float64, seed uint64) *FloatThesis {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	c := m.Clone()
	mv := func(v []float32, scale float64) {
		for i, x := range v {
			v[i] = x + float32((2*r.Float64()-1)*amount/scale)
		}
	}
	for f := range c.W1 {
		mv(c.W1[f], s.FTScale())
	}
	mv(c.B1, s.FTScale())
	for j := range c.W2 {
		mv(c.W2[j], s.L2WeightScale())
	}
	mv(c.B2, s.L2BiasScale())
	mv(c.W3, s.OutWeightScale())
	b := []float32{c.B3}
	mv(b, s.OutBiasScale())
	c.B3 = b[0]
	return c
}

// Clip clamps the parameters into the ranges of the scheme, as a trainer does after every
// optimizer step (thesis §4.4.1; model.py clip_weights): W2 to ±HiddenClip, W3 to ±OutputClip,
// W1 and B1 to ±FTClip. After Clip, Quantize reports no clipped weights (except biases too large
// for int32, which Clip also clamps).
func (m *FloatThesis) Clip(s ThesisScheme) {
	clipRows(m.W1, s.FTClip())
	clipSlice(m.B1, s.FTClip())
	clipRows(m.W2, s.HiddenClip())
	clipSlice(m.B2, float64(MaxInt32)/s.L2BiasScale())
	clipSlice(m.W3, s.OutputClip())
	b := []float32{m.B3}
	clipSlice(b, float64(MaxInt32)/s.OutBiasScale())
	m.B3 = b[0]
}

func clipRows(m [][]float32, lim float64) {
	for _, r := range m {
		clipSlice(r, lim)
	}
}

// clipSlice clamps to the largest float32 ≤ lim in magnitude, so that quantizing it cannot
// round past the limit.
func clipSlice(v []float32, lim float64) {
	l := float32(lim)
	if float64(l) > lim {
		l = math.Nextafter32(l, 0)
	}
	for i, x := range v {
		if x > l {
			v[i] = l
		} else if x < -l {
			v[i] = -l
		} else if x != x {
			v[i] = 0
		}
	}
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// FloatCPW is the Chess Programming Wiki's basic network (CPW: NNUE, "Basic NNUE
// architecture", "SCReLU", "Output Buckets") in float32: a feature transformer of N neurons
// shared by both perspectives, SCReLU, and one output neuron per output bucket:
//
//	acc_P  = B1 + Σ_{f ∈ active(P)} W1[f]
//	output = Scale · (BOut[b] + Σ_i SCReLU(acc_stm[i])·WOut[b][i] + SCReLU(acc_other[i])·WOut[b][N+i])
//
// with SCReLU(x) = clamp(x, 0, 1)² (clamp(x, 0, 1) when CReLU is set) and b the output bucket (Bucket: BucketRule, or OutputBucket). Shapes: W1 [F][N],
// B1 [N], WOut [buckets][2N], BOut [buckets]. The result is in the units of the quantized
// network's output, Scale-based centipawns (sigmoid(output/Scale) is the training target).
type FloatCPW struct {
	// FeatureSet is the spec of the input features (the CPW page uses 768 piece-square inputs).
	FeatureSet string
	W1         [][]float32
	B1         []float32
	WOut       [][]float32
	BOut       []float32
	// Scale is the evaluation scale (CPW SCALE, 400).
	Scale float32
	// CReLU replaces SCReLU by the clipped ReLU clamp(x, 0, 1) (bullet's single-layer CReLU
	// layout, e.g. Stormphrax net013; quantized as nnue.BulletCReLU).
	CReLU bool
	// BucketRule chooses the output bucket from the piece count, kings included (a declared
	// rule, nnue.ParseBucketRule); the zero rule is the CPW page's formula for Buckets()
	// buckets (OutputBucket). Its Count() must equal Buckets().
	BucketRule nnue.BucketRule
}

// Bucket returns the output bucket of a position with pieces pieces (kings included):
// BucketRule's, or OutputBucket's when BucketRule is zero.
func (m *FloatCPW) Bucket(pieces int) int { return Buckets(m.BucketRule, m.Buckets()).OfPieces(pieces) }

// Buckets returns the nnue.Buckets of rule for a network with n output buckets: the rule's
// (BucketRule.Buckets) or, for the zero rule, the CPW page's formula OutputBucket as
// nnue.Buckets{N: n, Sub: 2, Div: ⌈32/n⌉} (the zero Buckets for n ≤ 1).
func Buckets(rule nnue.BucketRule, n int) nnue.Buckets {
	switch {
	case !rule.IsZero():
		return rule.Buckets()
	case n > 1:
		return nnue.Buckets{N: n, Sub: 2, Div: (32 + n - 1) / n}
	}
	return nnue.Buckets{}
}

// NewFloatCPW returns a zero model with features inputs, n hidden neurons and buckets output
// buckets (1 = no buckets), Scale 400. It panics if a size is not positive.
func NewFloatCPW(featureSet string, features, n, buckets int) *FloatCPW {
	if features <= 0 || n <= 0 || buckets <= 0 {
		panic(fmt.Sprintf("quant: NewFloatCPW(%d, %d, %d): sizes must be positive", features, n, buckets))
	}
	return &FloatCPW{
		FeatureSet: featureSet,
		W1:         matrix(features, n),
		B1:         make([]float32, n),
		WOut:       matrix(buckets, 2*n),
		BOut:       make([]float32, buckets),
		Scale:      float32(CPW.Scale),
	}
}

// Features is the number of inputs (len(W1)).
func (m *FloatCPW) Features() int { return len(m.W1) }

// Hidden is the width N of one accumulator (len(B1)).
func (m *FloatCPW) Hidden() int { return len(m.B1) }

// Buckets is the number of output buckets (len(BOut)).
func (m *FloatCPW) Buckets() int { return len(m.BOut) }

// Validate checks every slice's shape against FloatCPW's documentation and that Scale > 0.
func (m *FloatCPW) Validate() error {
	f, n, b := len(m.W1), len(m.B1), len(m.BOut)
	if f == 0 || n == 0 || b == 0 {
		return fmt.Errorf("quant: FloatCPW: empty model (F=%d, N=%d, buckets=%d)", f, n, b)
	}
	if err := checkMatrix("FloatCPW", "W1", m.W1, f, "", n, "N"); err != nil {
		return err
	}
	if err := checkMatrix("FloatCPW", "WOut", m.WOut, b, "buckets", 2*n, "2·N"); err != nil {
		return err
	}
	if !(m.Scale > 0) {
		return fmt.Errorf("quant: FloatCPW: Scale %v must be positive", m.Scale)
	}
	if r := m.BucketRule; !r.IsZero() && r.Count() != b {
		return fmt.Errorf("quant: FloatCPW: bucket rule %s selects %d buckets, the model has %d", r, r.Count(), b)
	}
	return nil
}

// Clip clamps the parameters into the ranges of scheme s: W1 and B1 to ±FTClip, WOut to
// ±OutputClip, BOut to the int32 range. After Clip, QuantizeCPW reports no clipped values.
func (m *FloatCPW) Clip(s CPWScheme) {
	clipRows(m.W1, s.FTClip())
	clipSlice(m.B1, s.FTClip())
	clipRows(m.WOut, s.OutputClip())
	clipSlice(m.BOut, float64(MaxInt32)/(float64(s.QA)*float64(s.QB)))
}

// OutputBucket is the CPW page's bucket formula: (pieces − 2) / ⌈32/buckets⌉, where pieces is
// the number of pieces on the board including both kings, clamped to [0, buckets).
func OutputBucket(pieces, buckets int) int {
	if buckets <= 1 {
		return 0
	}
	div := (32 + buckets - 1) / buckets
	b := (pieces - 2) / div
	return min(max(b, 0), buckets-1)
}

// Forward evaluates the model for the side to move's and the other side's active features
// (distinct indices in [0, F)) with output bucket bucket ∈ [0, Buckets()). The result is
// Scale-based centipawns from the side to move. It returns an error for an out-of-range index
// or bucket, or a parameter slice of the wrong length among those it touches.
func (m *FloatCPW) Forward(stm, nstm []int, bucket int) (float64, error) {
	if bucket < 0 || bucket >= len(m.BOut) || bucket >= len(m.WOut) {
		return 0, fmt.Errorf("quant: FloatCPW.Forward: bucket %d outside [0, %d)", bucket, min(len(m.BOut), len(m.WOut)))
	}
	n := m.Hidden()
	w := m.WOut[bucket]
	if len(w) != 2*n {
		return 0, fmt.Errorf("quant: FloatCPW.Forward: WOut[%d] has %d values, want 2·N=%d", bucket, len(w), 2*n)
	}
	out := float64(m.BOut[bucket])
	acc := make([]float64, n)
	for half, active := range [2][]int{stm, nstm} {
		for j, b := range m.B1 {
			acc[j] = float64(b)
		}
		for _, f := range active {
			if f < 0 || f >= len(m.W1) {
				return 0, fmt.Errorf("quant: FloatCPW.Forward: feature %d outside [0, %d)", f, len(m.W1))
			}
			if len(m.W1[f]) != n {
				return 0, fmt.Errorf("quant: FloatCPW.Forward: W1[%d] has %d values, want N=%d", f, len(m.W1[f]), n)
			}
			for j, v := range m.W1[f] {
				acc[j] += float64(v)
			}
		}
		for j, a := range acc {
			c := clamp01(a)
			if !m.CReLU {
				c *= c
			}
			out += c * float64(w[half*n+j])
		}
	}
	return out * float64(m.Scale), nil
}

// checkMatrix reports the first way m differs from rows×cols, naming the model, the field and
// the dimension names (rowName empty: the row count is not checked).
func checkMatrix(model, field string, m [][]float32, rows int, rowName string, cols int, colName string) error {
	if rowName != "" && len(m) != rows {
		return fmt.Errorf("quant: %s: %s has %d rows, want %s=%d", model, field, len(m), rowName, rows)
	}
	for i, row := range m {
		if len(row) != cols {
			return fmt.Errorf("quant: %s: %s[%d] has %d values, want %s=%d", model, field, i, len(row), colName, cols)
		}
	}
	return nil
}
