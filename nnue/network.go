package nnue

import (
	"fmt"
	"slices"
	"sync"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/internal/block"
)

// Buckets selects the layer stack (and PSQT column) of a position from its piece count:
//
//	bucket = clamp((pieces − Sub) / Div, 0, N − 1)   (pieces include the kings)
//
// Stockfish 15.1: N 8, Sub 1, Div 4 ((pieces − 1)/4). CPW "Output Buckets" with 8 buckets:
// N 8, Sub 2, Div 4. N ≤ 1 (the zero value) means a single stack, bucket 0.
//
// When Table is set it replaces the formula: bucket = Table[min(pieces, len(Table)−1)], for
// piece-count rules that are no linear formula (Alexandria: min((63−n)(32−n)/225, 7)).
// Every entry must be below N (NewNetwork checks it).
type Buckets struct {
	N, Sub, Div int
	Table       []uint8
}

// isZero reports whether b is the zero rule (no N, Sub, Div or Table).
func (b Buckets) isZero() bool { return b.N == 0 && b.Sub == 0 && b.Div == 0 && b.Table == nil }

// Count returns the number of buckets (at least 1).
func (b Buckets) Count() int { return max(1, b.N) }

// Of returns the bucket of pos.
func (b Buckets) Of(pos *board.Position) int { return b.OfPieces(pos.PieceCount()) }

// OfPieces returns the bucket for a piece count.
func (b Buckets) OfPieces(pieces int) int {
	if b.N <= 1 {
		return 0
	}
	if len(b.Table) > 0 {
		return int(b.Table[min(max(pieces, 0), len(b.Table)-1)])
	}
	if b.Div <= 0 {
		return 0
	}
	return min(max((pieces-b.Sub)/b.Div, 0), b.N-1)
}

// OutputScale turns the raw network output (stack output + PSQT term) into the value
// Evaluate returns: ((raw >> Shift) · Mul) / Div, computed in int64 with an arithmetic shift
// and a C-style truncating division, then converted to int32. Mul and Div 0 mean 1.
//
//   - thesis nets: Shift 4 (output = (b3 + Σ h·W3) >> 4);
//   - Stockfish 12–15.1: Div 16 (OutputScale, truncating);
//   - CPW SCReLU nets: Mul SCALE = 400, Div QA·QB = 255·64.
type OutputScale struct {
	Shift    uint8
	Mul, Div int32
}

// Apply scales raw.
func (s OutputScale) Apply(raw int64) int32 {
	v := raw >> s.Shift
	if s.Mul != 0 {
		v *= int64(s.Mul)
	}
	if s.Div != 0 {
		v /= int64(s.Div)
	}
	return int32(v)
}

// Architecture declares everything after the feature transformer.
type Architecture struct {
	// Buckets selects the layer stack and the PSQT column.
	Buckets Buckets
	// Stacks holds Buckets.Count() layer stacks. Each starts with a layer reading
	// KindAccumulator (normally Perspective) and ends with one int32 output.
	Stacks [][]Layer
	// PSQTDiv divides (psqt_stm − psqt_other) when the feature transformer has a PSQT part
	// (Stockfish 15.1: 2, truncating). Ignored otherwise; 0 means 1.
	PSQTDiv int32
	// Output scales the raw output into the value Evaluate returns.
	Output OutputScale
	// OutputPerTerm applies Output to the PSQT term and to the positional term separately
	// and adds the results (Stockfish 19 network.cpp evaluate: psqt/16 + positional/16,
	// each truncated), instead of to their sum.
	OutputPerTerm bool
	// PawnValue is the number of output units in one pawn: Centipawns(v) = 100·v/PawnValue.
	// 100 for thesis nets (their output is ≈ centipawns) and CPW nets, 361 for Stockfish 15.1
	// (NormalizeToPawnValue), 208 for Stockfish 13 (PawnValueEg). 0 means 100.
	PawnValue int32
	// PawnByMaterial declares that one pawn is worth a material-dependent number of output
	// units (Stockfish 19's win-rate model, sfMaterialPawnDivisor) rather than
	// PawnValue; PawnValue is then that divisor at the model's anchor material, used by
	// Centipawns, which has no position. PawnScale and Trace follow it.
	PawnByMaterial bool
	// Quantization names the quantization scheme and its scales (free text stored by the
	// native format, e.g. ThesisQuantization).
	Quantization string
}

// Network is a complete NNUE: a feature transformer followed by an Architecture. A Network is
// immutable and safe for concurrent use by any number of goroutines; each goroutine evaluates
// with its own Evaluator or AccumulatorStack (Network.Evaluate pools them).
type Network struct {
	ft          *FeatureTransformer
	arch        Architecture
	description string
	spec        Spec        // the declared architecture (specOf), valid when specErr is nil
	specErr     error       // why the network has no declared architecture
	sizes       [][]int     // per stack, per layer: logical output size
	flat        [][]flatBuf // per stack: the evaluator's buffers, each nested layer's body after it (flatBufs)
	flatIdx     [][]int     // per stack, per layer: index of its output buffer in flat
	forwards    []forwarder // per stack: its family's forward, nil for the generic path
	families    []family    // per stack: the family planForward chose
	pool        sync.Pool
}

// NewNetwork validates arch against ft and returns the network. description is free text
// (stored by the native format). It returns an error naming the first inconsistency.
//
// It also prepares the layers for evaluation, without changing what they compute: each
// stack whose stages are those of an architecture family gets that family's forward with
// its weights prepared for the simd kernels (planForward, forward.go); in the other
// stacks an Affine layer reading ≥ 256 inputs with 16 or 32 outputs gets a chunk-major
// copy of its weights for the sparse-input kernel (simd.SparseAffine, decided once per
// layer from its weights).
// The layers must not be modified afterwards, and a layer must not be passed to two
// NewNetwork calls running concurrently.
func NewNetwork(ft *FeatureTransformer, arch Architecture, description string) (*Network, error) {
	if ft == nil {
		return nil, fmt.Errorf("nnue: nil feature transformer")
	}
	nb := arch.Buckets.Count()
	if arch.Buckets.N > 1 && arch.Buckets.Div <= 0 && len(arch.Buckets.Table) == 0 {
		return nil, fmt.Errorf("nnue: bucket divisor %d must be positive", arch.Buckets.Div)
	}
	for i, b := range arch.Buckets.Table {
		if int(b) >= nb {
			return nil, fmt.Errorf("nnue: bucket table entry %d (pieces %d) is not below the bucket count %d", b, i, nb)
		}
	}
	if nb > 64 {
		return nil, fmt.Errorf("nnue: %d buckets, at most 64", nb)
	}
	if len(arch.Stacks) != nb {
		return nil, fmt.Errorf("nnue: %d layer stacks for %d buckets", len(arch.Stacks), nb)
	}
	if ft.psqtBuckets > 0 && ft.psqtBuckets != nb {
		return nil, fmt.Errorf("nnue: %d PSQT buckets for %d layer-stack buckets", ft.psqtBuckets, nb)
	}
	if arch.PawnValue < 0 {
		return nil, fmt.Errorf("nnue: negative pawn value %d", arch.PawnValue)
	}
	n := &Network{ft: ft, arch: arch, description: description}
	n.sizes = make([][]int, nb)
	for b, st := range arch.Stacks {
		s, err := checkStack(st, ft.width)
		if err != nil {
			return nil, fmt.Errorf("stack %d: %w", b, err)
		}
		n.sizes[b] = s
		n.flat = append(n.flat, nil)
		n.flatIdx = append(n.flatIdx, nil)
		in := ft.width
		for i, l := range st {
			prepareNested(l)
			n.flatIdx[b] = append(n.flatIdx[b], len(n.flat[b]))
			n.flat[b] = flatBufs(n.flat[b], l, in, s[i])
			in = s[i]
		}
		f, fam := planForward(st, ft)
		n.forwards = append(n.forwards, f)
		n.families = append(n.families, fam)
		if f == nil { // a family holds its own prepared copy
			for _, l := range st {
				prepareAffine(l)
			}
		}
	}
	n.spec, n.specErr = specOf(ft, arch)
	return n, nil
}

// Spec returns the network's declared architecture (its String is the architecture
// string, e.g. for examples/evaluate -describe). The error says why a network has none:
// a feature set whose string does not parse back (bullet king-bucket tables), or stacks
// that differ between buckets.
func (n *Network) Spec() (Spec, error) { return n.spec, n.specErr }

// FeatureTransformer returns the feature transformer.
func (n *Network) FeatureTransformer() *FeatureTransformer { return n.ft }

// FeatureSet returns the feature set of the feature transformer.
func (n *Network) FeatureSet() *featureset.Set { return n.ft.set }

// Architecture returns the declared layers (shared with the network: do not modify).
func (n *Network) Architecture() Architecture { return n.arch }

// Description returns the free-text description (the thesis format stores none).
func (n *Network) Description() string { return n.description }

// Centipawns converts a value returned by Evaluate to centipawns as the format defines it:
// 100·v/PawnValue.
func (n *Network) Centipawns(v int32) float64 {
	pv := n.arch.PawnValue
	if pv == 0 {
		pv = 100
	}
	return 100 * float64(v) / float64(pv)
}

// String summarises the network, e.g.
// "hv[768]→512×2 | Perspective → ClippedReLU → Affine(1024→32) → …".
func (n *Network) String() string {
	s := fmt.Sprintf("%s[%d]→%d×2", n.ft.set, n.ft.Features(), n.ft.width)
	if n.ft.psqtBuckets > 0 {
		s += fmt.Sprintf("+PSQT×%d", n.ft.psqtBuckets)
	}
	if nb := n.arch.Buckets.Count(); nb > 1 {
		s += fmt.Sprintf(" | %d stacks:", nb)
	} else {
		s += " |"
	}
	for i, l := range n.arch.Stacks[0] {
		if i > 0 {
			s += " →"
		}
		s += " " + l.String()
	}
	return s
}

// Output is the result of one forward pass.
type Output struct {
	// Bucket is the layer stack / PSQT column used.
	Bucket int
	// PSQT is (psqt_stm − psqt_other)/PSQTDiv in the network's raw units (0 without PSQT).
	PSQT int32
	// Positional is the layer stack's output, raw units.
	Positional int32
	// Value is Output.Apply(PSQT + Positional): the network's final integer output for the
	// side to move (thesis nets: ≈ centipawns; Stockfish: internal units).
	Value int32
}

// Evaluator evaluates positions by full refresh and runs forward passes. It owns an
// Accumulator and scratch buffers; it is not safe for concurrent use (use one per goroutine).
type Evaluator struct {
	// What ForwardBucket reads, together at the start of the struct: the per-bucket
	// runners and scratch (bk; bk0 for up to 8 buckets, so that the table is part of this
	// allocation) and copies of the network's output parameters, so that a forward pass
	// touches no Network or FeatureTransformer struct (every distinct page costs a page
	// walk after the TLB flush of a clock read).
	bk      []evalBucket
	buckets Buckets
	output  OutputScale
	perTerm bool
	psqt    bool  // the feature transformer has a PSQT part
	psqtDiv int32 // Architecture.PSQTDiv, 0 replaced by 1
	// layerByLayer makes ForwardBucket run the generic path whatever the family (tests
	// compare both).
	layerByLayer bool
	net          *Network
	acc          *Accumulator
	bk0          [8]evalBucket
	active       []int
	tb           featureset.ThreatBoard // EvaluateBoard's view of a mailbox (threat sets)
	in           tensor                 // forward-pass input view (a field so that it does not escape per call)
	st           evalState              // forward-pass state (likewise)
}

// evalBucket is one bucket's family forward (nil: the generic path) and the output
// buffers of its layers. Buckets whose stacks have the same layer kinds and sizes share
// the buffers (a forward pass reads nothing a previous one left in them). u8 and idx
// repeat bufs[1]'s (the first layer's output and chunk list, all that a family forward
// uses) so that its forward pass does not read the tensor array.
type evalBucket struct {
	fwd  forwarder
	bufs []tensor
	u8   []uint8
	idx  []uint16
}

// NewEvaluator returns an Evaluator for n.
//
// The layers' output buffers of all buckets come from one 4 KiB-aligned block, laid out
// layer by layer (each buffer 64-byte aligned, a sparse layer's input followed by its
// chunk list), and are shared by the buckets whose stacks have the same shape: all of a
// Stockfish net's 8 buckets use one set.
func (n *Network) NewEvaluator() *Evaluator {
	e := &Evaluator{net: n, acc: n.ft.NewAccumulator(), active: make([]int, 0, 64),
		buckets: n.arch.Buckets, output: n.arch.Output, perTerm: n.arch.OutputPerTerm,
		psqt: n.ft.psqtBuckets > 0, psqtDiv: n.arch.PSQTDiv}
	if e.psqtDiv == 0 {
		e.psqtDiv = 1
	}
	nb := len(n.arch.Stacks)
	if nb <= len(e.bk0) {
		e.bk = e.bk0[:nb]
	} else {
		e.bk = make([]evalBucket, nb)
	}
	// Buckets with the same shape share the first such bucket's buffers.
	first := make([]int, nb)
	size := 0
	for b := range nb {
		first[b] = b
		for c := range b {
			if first[c] == c && slices.Equal(n.flat[b], n.flat[c]) {
				first[b] = c
				break
			}
		}
		if first[b] == b {
			for _, f := range n.flat[b] {
				size += scratchLen(f.kind, f.n)
			}
		}
	}
	blk := block.New(size)
	for b := range n.arch.Stacks {
		e.bk[b].fwd = n.forwards[b]
		if c := first[b]; c != b {
			e.bk[b].bufs = e.bk[c].bufs
			continue
		}
		bufs := make([]tensor, len(n.flat[b]))
		for i, f := range n.flat[b] {
			bufs[i] = blockTensor(blk, f.kind, f.n)
		}
		e.bk[b].bufs = bufs
	}
	for b := range e.bk {
		if bufs := e.bk[b].bufs; len(bufs) > 1 {
			e.bk[b].u8, e.bk[b].idx = bufs[1].u8, bufs[1].idx
		}
	}
	return e
}

// flatBuf is the kind and logical size of one output buffer of an evaluator.
type flatBuf struct {
	kind Kind
	n    int
}

// Network returns the evaluator's network.
func (e *Evaluator) Network() *Network { return e.net }

// Accumulator returns the evaluator's accumulator (valid after Evaluate or Refresh).
func (e *Evaluator) Accumulator() *Accumulator { return e.acc }

// Refresh recomputes both perspectives of the evaluator's accumulator for pos (HalfKP and
// HalfKAv2_hm straight from the piece bitboards, Accumulator.refreshPlanes).
func (e *Evaluator) Refresh(pos *board.Position) {
	e.RefreshPerspective(e.acc, pos, board.White)
	e.RefreshPerspective(e.acc, pos, board.Black)
}

// RefreshPerspective recomputes perspective persp of acc (an accumulator of e's network)
// for pos: the refresh after the perspective's own king moved, Stockfish's
// update_accumulator with append_active_indices. HalfKP and HalfKAv2_hm with int16 rows
// take their rows straight from pos's piece bitboards (no feature list: the feature
// transformer's simd.PlaneRefresher); every other feature set goes through Set.Active
// into the evaluator's scratch list and Accumulator.Refresh. The result is the same either way.
// It allocates nothing once the scratch list has grown to the set's MaxActive.
func (e *Evaluator) RefreshPerspective(acc *Accumulator, pos *board.Position, persp board.Color) {
	if _, ok := acc.refreshPlanes(pos, persp); !ok {
		e.active = e.net.ft.set.Active(pos, persp, e.active[:0])
		acc.Refresh(persp, e.active)
	}
}

// Evaluate refreshes the accumulators for pos and returns the network's final integer output
// for the side to move (Output.Value; units per Architecture.PawnValue).
func (e *Evaluator) Evaluate(pos *board.Position) int32 {
	e.Refresh(pos)
	return e.Forward(e.acc, pos).Value
}

// Forward runs the layer stack selected by pos's piece count on acc (both perspectives
// computed for pos) with pos's side to move.
func (e *Evaluator) Forward(acc *Accumulator, pos *board.Position) Output {
	return e.ForwardBucket(acc, pos.SideToMove(), e.buckets.Of(pos))
}

// ForwardBucket runs layer stack bucket (0 ≤ bucket < Buckets.Count(), else it panics) on
// acc with side to move stm. Stockfish's trace evaluates every bucket this way.
func (e *Evaluator) ForwardBucket(acc *Accumulator, stm board.Color, bucket int) Output {
	bk := &e.bk[bucket]
	var pos64 int64
	if f := bk.fwd; f != nil && !e.layerByLayer {
		pos64 = f.forward(bk, acc, int(stm&1))
	} else {
		n, bufs := e.net, bk.bufs
		e.st = evalState{stm: int(stm & 1)}
		e.in = tensor{n: n.ft.width, acc: acc.v}
		cur := &e.in
		idx := n.flatIdx[bucket]
		for i, l := range n.arch.Stacks[bucket] {
			out := &bufs[idx[i]]
			e.st.sub = bufs[idx[i]+1:]
			l.propagate(cur, out, &e.st)
			cur = out
		}
		pos64 = int64(cur.i32[0])
	}
	o := Output{Bucket: bucket, Positional: int32(pos64)}
	if e.psqt {
		s := int(stm & 1)
		o.PSQT = (acc.psqt[s][bucket] - acc.psqt[s^1][bucket]) / e.psqtDiv
	}
	if e.perTerm {
		o.Value = e.output.Apply(int64(o.PSQT)) + e.output.Apply(int64(o.Positional))
	} else {
		o.Value = e.output.Apply(int64(o.PSQT) + int64(o.Positional))
	}
	return o
}

// Evaluate is a convenience for one-off evaluations: a full refresh of pos with a pooled
// Evaluator. Safe for concurrent use. Returns the same value as Evaluator.Evaluate.
func (n *Network) Evaluate(pos *board.Position) int32 {
	e, _ := n.pool.Get().(*Evaluator)
	if e == nil {
		e = n.NewEvaluator()
	}
	v := e.Evaluate(pos)
	n.pool.Put(e)
	return v
}
