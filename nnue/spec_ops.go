package nnue

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nnuekit/nnuekit/featureset"
)

// opInfo describes one stage operation of the architecture grammar.
type opInfo struct {
	doc   string // what the stage computes, for Describe and doc/nnue.md
	parts [2]int // minimum and maximum number of nested stages
	args  int    // exact number of integer arguments
	// check returns the output kind and size for an input of kind in and n logical
	// elements, and the bytes of parameters one such stage holds.
	check func(s Stage, in Kind, n int) (Kind, int, int64, error)
	// build returns the Layer computing the stage for an input of n elements, its
	// parameters zero (alloc) or nil slices to be adopted (assemble).
	build func(s Stage, n int, alloc bool) (Layer, error)
}

// opTable lists the stage operations. Adding a layer kind means adding its entry here, its
// case in stageOf and layerParams, and its row in doc/nnue.md.
var opTable map[string]opInfo

func init() {
	opTable = map[string]opInfo{
		"stm": {doc: "the two accumulators, side to move first (Perspective)",
			check: perspectiveCheck, build: func(Stage, int, bool) (Layer, error) { return Perspective{}, nil }},
		"white": {doc: "the two accumulators, White's first (Perspective{WhiteFirst})",
			check: perspectiveCheck, build: func(Stage, int, bool) (Layer, error) { return Perspective{WhiteFirst: true}, nil }},
		"crelu.i16": {doc: "clamp(acc, 0, 127) of both accumulators (ClippedReLU on int16)",
			check: func(_ Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt16); err != nil {
					return 0, 0, 0, err
				}
				return KindUint8, n, 0, checkParts("crelu.i16", n, 32)
			},
			build: func(Stage, int, bool) (Layer, error) { return ClippedReLU{Input: KindInt16}, nil }},
		"crelu.i32": {doc: "clamp(x >> s, 0, 127) (ClippedReLU after an affine layer)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt32); err != nil {
					return 0, 0, 0, err
				}
				return KindUint8, n, 0, argIn(s, 0, 0, 31)
			},
			build: func(s Stage, _ int, _ bool) (Layer, error) {
				return ClippedReLU{Input: KindInt32, Shift: uint8(s.Args[0])}, nil
			}},
		"sqrcrelu": {doc: "min(x², 127·2^s) >> s (SqrClippedReLU)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt32); err != nil {
					return 0, 0, 0, err
				}
				return KindUint8, n, 0, argIn(s, 0, 0, 63)
			},
			build: func(s Stage, _ int, _ bool) (Layer, error) { return SqrClippedReLU{Shift: uint8(s.Args[0])}, nil }},
		"pairwise": {doc: "clamp(a, 0, max)·clamp(b, 0, max) >> shift of each accumulator's two halves (Pairwise)", args: 2,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt16); err != nil {
					return 0, 0, 0, err
				}
				if err := checkParts("pairwise", n, 64); err != nil {
					return 0, 0, 0, err
				}
				if err := argIn(s, 0, 1, 32767); err != nil {
					return 0, 0, 0, err
				}
				if err := argIn(s, 1, 0, 30); err != nil {
					return 0, 0, 0, err
				}
				if (s.Args[0]*s.Args[0])>>s.Args[1] > 255 {
					return 0, 0, 0, fmt.Errorf("products max²>>shift exceed 255")
				}
				return KindUint8, n / 2, 0, nil
			},
			build: func(s Stage, _ int, _ bool) (Layer, error) {
				return Pairwise{Max: int16(s.Args[0]), Shift: uint8(s.Args[1])}, nil
			}},
		"affine.i8": {doc: "int8 weights, int32 bias, uint8 inputs, int32 outputs (Affine)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindUint8); err != nil {
					return 0, 0, 0, err
				}
				if err := dimIn(s, n); err != nil {
					return 0, 0, 0, err
				}
				out := int(s.Args[0])
				return KindInt32, out, int64(out)*int64(pad32(n)) + 4*int64(out), nil
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) { return newAffine(n, int(s.Args[0]), alloc), nil }},
		"screlu_affine.i16": {doc: "Σ clamp(v, 0, qa)²·w / div + bias over both accumulators, int16 weights (SCReLU)", args: 3,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt16); err != nil {
					return 0, 0, 0, err
				}
				if err := checkParts("screlu_affine.i16", n, 16); err != nil {
					return 0, 0, 0, err
				}
				if err := argIn(s, 0, 1, 32767); err != nil {
					return 0, 0, 0, err
				}
				if err := argIn(s, 1, 1, 1<<31-1); err != nil {
					return 0, 0, 0, err
				}
				if err := argIn(s, 2, 1, maxAffineDim); err != nil {
					return 0, 0, 0, err
				}
				out := int(s.Args[2])
				return KindInt32, out, 2*int64(out)*int64(n) + 4*int64(out), nil
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				out := int(s.Args[2])
				l := &SCReLU{QA: int16(s.Args[0]), Div: int32(s.Args[1]), Out: out}
				if alloc {
					l.Weights, l.Bias = alignedInt16(out*n), make([]int32, out)
				}
				return l, nil
			}},
		"crelu_affine.i16": {doc: "Σ clamp(v, 0, qa)·w + bias over both accumulators, int16 weights, one output (BulletCReLU)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt16); err != nil {
					return 0, 0, 0, err
				}
				if err := checkParts("crelu_affine.i16", n, 16); err != nil {
					return 0, 0, 0, err
				}
				return KindInt32, 1, 2*int64(n) + 4, argIn(s, 0, 1, 32767)
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				l := &BulletCReLU{QA: int16(s.Args[0])}
				if alloc {
					l.Weights, l.Bias = alignedInt16(n), make([]int32, 1)
				}
				return l, nil
			}},
		"concat": {doc: "the nested activations of the same input, outputs concatenated (Concat; Stockfish's dual activation)", parts: [2]int{1, 8},
			check: concatCheck,
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				c := &Concat{}
				for _, p := range s.Parts {
					l, err := p.build(n, alloc)
					if err != nil {
						return nil, err
					}
					c.Parts = append(c.Parts, l)
				}
				return c, nil
			}},
		"skip": {doc: "a skip connection: runs the nested stages on the input without its last value x and adds x·mul/div to their one output (Residual; Stockfish 15.1, 16)",
			parts: [2]int{1, maxBody}, args: 2,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) { return skipCheck(s, in, n, n-1) },
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				body, err := buildBody(s.Parts, KindInt32, n-1, alloc)
				return &Residual{Body: body, Mul: int32(s.Args[0]), Div: int32(s.Args[1])}, err
			}},
		"skipdiff": {doc: "a skip connection: runs the nested stages on the whole input x of n values and returns (their one output + x[n−2] − x[n−1])·mul/div (DiffResidual; Stockfish 19)",
			parts: [2]int{1, maxBody}, args: 2,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) { return skipCheck(s, in, n, n) },
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				body, err := buildBody(s.Parts, KindInt32, n, alloc)
				return &DiffResidual{Body: body, Mul: int32(s.Args[0]), Div: int32(s.Args[1])}, err
			}},
		"append": {doc: "a dense connection: the uint8 input followed by the output of the nested stages run on it (Append; Stockfish 19's fc_2 input)",
			parts: [2]int{1, maxBody},
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindUint8); err != nil {
					return 0, 0, 0, err
				}
				k, m, bytes, err := bodyCheck(s.Parts, KindUint8, n)
				if err != nil {
					return 0, 0, 0, err
				}
				if k != KindUint8 {
					return 0, 0, 0, fmt.Errorf("the body must end with uint8, ends with %s", fmt.Sprint(k))
				}
				if int64(n)+int64(m) > maxAffineDim {
					return 0, 0, 0, fmt.Errorf("%d values, more than %d", int64(n)+int64(m), maxAffineDim)
				}
				return KindUint8, n + m, bytes, nil
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				body, err := buildBody(s.Parts, KindUint8, n, alloc)
				return &Append{Body: body}, err
			}},
		"dequant.f32": {doc: "float32(x)·(float32(mul)/float32(div)) + bias in float32, the int32 sums of an integer layer rescaled (Dequantise; fused with fma)", args: 2,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindInt32); err != nil {
					return 0, 0, 0, err
				}
				if err := argIn(s, 0, 1, 1<<31-1); err != nil {
					return 0, 0, 0, err
				}
				return KindFloat32, n, 4 * int64(n), argIn(s, 1, 1, 1<<31-1)
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				l := &Dequantise{Num: int32(s.Args[0]), Den: int32(s.Args[1])}
				if alloc {
					l.Bias = make([]float32, n)
				}
				return l, nil
			}},
		"affine.f32": {doc: "float32 weights [in][out] and bias, each output summed from its bias in input order (FloatAffine; fused with fma)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindFloat32); err != nil {
					return 0, 0, 0, err
				}
				if err := dimIn(s, n); err != nil {
					return 0, 0, 0, err
				}
				out := int64(s.Args[0])
				return KindFloat32, int(out), 4*out*int64(n) + 4*out, nil
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				return newFloatAffine(n, int(s.Args[0]), 0, alloc), nil
			}},
		"dot.f32": {doc: "one float32 output: Σ x·w in L lanes (lane l takes inputs l, l+L, …), the lanes added in halves, then the bias (FloatAffine with Lanes; fused with fma)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindFloat32); err != nil {
					return 0, 0, 0, err
				}
				if n <= 0 || n > maxAffineDim {
					return 0, 0, 0, fmt.Errorf("%d inputs, want 1…%d", n, maxAffineDim)
				}
				if l := s.Args[0]; l < 2 || l > maxFloatLanes || l&(l-1) != 0 || int64(n)%l != 0 {
					return 0, 0, 0, fmt.Errorf("%d lanes, want a power of two in [2, %d] dividing the %d inputs", l, maxFloatLanes, n)
				}
				return KindFloat32, 1, 4*int64(n) + 4, nil
			},
			build: func(s Stage, n int, alloc bool) (Layer, error) {
				return newFloatAffine(n, 1, int(s.Args[0]), alloc), nil
			}},
		"relu.f32": {doc: "max(x, 0) in float32 (FloatActivation)",
			check: floatActCheck, build: func(Stage, int, bool) (Layer, error) { return FloatActivation{Act: FloatReLU}, nil }},
		"clamp.f32": {doc: "clamp(x, 0, 1) in float32 (FloatActivation)",
			check: floatActCheck, build: func(Stage, int, bool) (Layer, error) { return FloatActivation{Act: FloatCReLU}, nil }},
		"sqrclamp.f32": {doc: "clamp(x, 0, 1)² in float32 (FloatActivation)",
			check: floatActCheck, build: func(Stage, int, bool) (Layer, error) { return FloatActivation{Act: FloatSCReLU}, nil }},
		"trunc.f32": {doc: "the network's integer output from its one float32: int32(float32(x·scale)) truncated toward zero (FloatOutput)", args: 1,
			check: func(s Stage, in Kind, n int) (Kind, int, int64, error) {
				if err := wantKind(in, KindFloat32); err != nil {
					return 0, 0, 0, err
				}
				if n != 1 {
					return 0, 0, 0, fmt.Errorf("reads one value, receives %d", n)
				}
				return KindInt32, 1, 0, argIn(s, 0, 1, 1<<24)
			},
			build: func(s Stage, _ int, _ bool) (Layer, error) { return FloatOutput{Scale: float32(s.Args[0])}, nil }},
	}
}

func floatActCheck(_ Stage, in Kind, n int) (Kind, int, int64, error) {
	return KindFloat32, n, 0, wantKind(in, KindFloat32)
}

// newFloatAffine is a FloatAffine with zero parameters (alloc) or without parameter slices.
func newFloatAffine(in, out, lanes int, alloc bool) *FloatAffine {
	l := &FloatAffine{In: in, Out: out, Lanes: lanes}
	if alloc {
		l.Weights, l.Bias = make([]float32, in*out), make([]float32, out)
	}
	return l
}

// opNames returns the operation names, sorted and comma-separated.
func opNames() string {
	names := make([]string, 0, len(opTable))
	for n := range opTable {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func wantKind(in, want Kind) error {
	if in != want {
		return fmt.Errorf("reads %s but receives %s", fmt.Sprint(want), fmt.Sprint(in))
	}
	return nil
}

func argIn(s Stage, i int, lo, hi int64) error {
	if v := s.Args[i]; v < lo || v > hi {
		return fmt.Errorf("argument %d is %d, want %d…%d", i+1, v, lo, hi)
	}
	return nil
}

// dimIn checks an affine stage's output count (argument 1) and its input count n.
func dimIn(s Stage, n int) error {
	if n <= 0 || n > maxAffineDim {
		return fmt.Errorf("%d inputs, want 1…%d", n, maxAffineDim)
	}
	return argIn(s, 0, 1, maxAffineDim)
}

func perspectiveCheck(_ Stage, in Kind, n int) (Kind, int, int64, error) {
	return KindInt16, 2 * n, 0, wantKind(in, KindAccumulator)
}

func concatCheck(s Stage, in Kind, n int) (Kind, int, int64, error) {
	if in == KindAccumulator {
		return 0, 0, 0, fmt.Errorf("cannot read the accumulators")
	}
	total := 0
	var bytes int64
	for _, p := range s.Parts {
		if p.Op == "concat" {
			return 0, 0, 0, fmt.Errorf("nested concat")
		}
		k, m, b, err := p.check(in, n)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%v: %w", p, err)
		}
		if k != KindUint8 {
			return 0, 0, 0, fmt.Errorf("%v writes %s, want uint8", p, fmt.Sprint(k))
		}
		total += m
		bytes += b
	}
	return KindUint8, total, bytes, nil
}

// skipCheck checks a skip connection (skip, skipdiff) on n int32 inputs whose body reads
// the first bodyIn of them.
func skipCheck(s Stage, in Kind, n, bodyIn int) (Kind, int, int64, error) {
	if err := wantKind(in, KindInt32); err != nil {
		return 0, 0, 0, err
	}
	if n < 2 {
		return 0, 0, 0, fmt.Errorf("needs at least 2 inputs, has %d", n)
	}
	if s.Args[1] == 0 {
		return 0, 0, 0, fmt.Errorf("zero divisor")
	}
	kind, size, bytes, err := bodyCheck(s.Parts, KindInt32, bodyIn)
	if err != nil {
		return 0, 0, 0, err
	}
	if kind != KindInt32 || size != 1 {
		return 0, 0, 0, fmt.Errorf("the body must end with one int32, ends with %d×%s", size, fmt.Sprint(kind))
	}
	return KindInt32, 1, bytes, nil
}

// bodyCheck checks the nested stages of a body (append, skip, skipdiff) on an input of
// kind in and n elements, as checkBody checks the layers: no stm, white, skip or skipdiff
// among them. It returns the last stage's output kind and size and the parameter bytes.
func bodyCheck(parts []Stage, in Kind, n int) (Kind, int, int64, error) {
	kind, size := in, n
	var bytes int64
	for _, p := range parts {
		switch p.Op {
		case "stm", "white", "skip", "skipdiff":
			return 0, 0, 0, fmt.Errorf("%s cannot be part of a body", p.Op)
		}
		k, m, b, err := p.check(kind, size)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%v: %w", p, err)
		}
		kind, size = k, m
		bytes += b
	}
	return kind, size, bytes, nil
}

// buildBody builds the layers of checked body stages on an input of kind in and n elements.
func buildBody(parts []Stage, in Kind, n int, alloc bool) ([]Layer, error) {
	var body []Layer
	kind, size := in, n
	for _, p := range parts {
		l, err := p.build(size, alloc)
		if err != nil {
			return nil, err
		}
		kind, size, _, _ = p.check(kind, size)
		body = append(body, l)
	}
	return body, nil
}

// check validates the stage's arity and arguments for an input of kind in and n logical
// elements; see opInfo.check.
func (s Stage) check(in Kind, n int) (Kind, int, int64, error) {
	op, ok := opTable[s.Op]
	if !ok {
		return 0, 0, 0, fmt.Errorf("unknown operation %q", s.Op)
	}
	if len(s.Parts) < op.parts[0] || len(s.Parts) > op.parts[1] {
		return 0, 0, 0, fmt.Errorf("%s takes %d to %d nested stages, has %d", s.Op, op.parts[0], op.parts[1], len(s.Parts))
	}
	if len(s.Args) != op.args {
		return 0, 0, 0, fmt.Errorf("%s takes %d integer arguments, has %d", s.Op, op.args, len(s.Args))
	}
	return op.check(s, in, n)
}

// build returns the stage's Layer for an input of n elements, with zero parameters
// (alloc) or nil parameter slices (the stage has been checked).
func (s Stage) build(n int, alloc bool) (Layer, error) {
	return opTable[s.Op].build(s, n, alloc)
}

// layerFMA reports whether a float layer with multiply-adds fuses them (ok false for the
// other layers).
func layerFMA(l Layer) (fma, ok bool) {
	switch l := l.(type) {
	case *Dequantise:
		return l.FMA, true
	case *FloatAffine:
		return l.FMA, true
	}
	return false, false
}

// setFMA sets the declared fma of a float layer with multiply-adds (Spec.FMA).
func setFMA(l Layer, fma bool) {
	switch l := l.(type) {
	case *Dequantise:
		l.FMA = fma
	case *FloatAffine:
		l.FMA = fma
	}
}

// newAffine is NewAffine (alloc) or an Affine layer without parameter slices.
func newAffine(in, out int, alloc bool) *Affine {
	if alloc {
		return NewAffine(in, out)
	}
	return &Affine{In: in, Out: out}
}

// describe returns the operation's documentation with the stage's arguments.
func (s Stage) describe() string {
	op, ok := opTable[s.Op]
	if !ok {
		return "unknown operation"
	}
	d := op.doc
	if len(s.Args) > 0 || len(s.Parts) > 0 {
		d = s.String() + ": " + d
	}
	return d
}

// stageOf returns the declared stage of a layer: the inverse of Stage.build.
func stageOf(l Layer) (Stage, error) {
	switch l := l.(type) {
	case Perspective:
		if l.WhiteFirst {
			return Stage{Op: "white"}, nil
		}
		return Stage{Op: "stm"}, nil
	case ClippedReLU:
		if l.Input == KindInt16 {
			return Stage{Op: "crelu.i16"}, nil
		}
		return Stage{Op: "crelu.i32", Args: []int64{int64(l.Shift)}}, nil
	case SqrClippedReLU:
		return Stage{Op: "sqrcrelu", Args: []int64{int64(l.Shift)}}, nil
	case Pairwise:
		return Stage{Op: "pairwise", Args: []int64{int64(l.Max), int64(l.Shift)}}, nil
	case *Affine:
		return Stage{Op: "affine.i8", Args: []int64{int64(l.Out)}}, nil
	case *SCReLU:
		return Stage{Op: "screlu_affine.i16", Args: []int64{int64(l.QA), int64(l.Div), int64(l.Out)}}, nil
	case *BulletCReLU:
		return Stage{Op: "crelu_affine.i16", Args: []int64{int64(l.QA)}}, nil
	case *Residual:
		return nestedStage("skip", []int64{int64(l.Mul), int64(l.Div)}, l.Body)
	case *DiffResidual:
		return nestedStage("skipdiff", []int64{int64(l.Mul), int64(l.Div)}, l.Body)
	case *Append:
		return nestedStage("append", nil, l.Body)
	case *Concat:
		return nestedStage("concat", nil, l.Parts)
	case *Dequantise:
		return Stage{Op: "dequant.f32", Args: []int64{int64(l.Num), int64(l.Den)}}, nil
	case *FloatAffine:
		if l.Lanes != 0 {
			return Stage{Op: "dot.f32", Args: []int64{int64(l.Lanes)}}, nil
		}
		return Stage{Op: "affine.f32", Args: []int64{int64(l.Out)}}, nil
	case FloatActivation:
		op, ok := map[FloatAct]string{FloatReLU: "relu.f32", FloatCReLU: "clamp.f32", FloatSCReLU: "sqrclamp.f32"}[l.Act]
		if ok {
			return Stage{Op: op}, nil
		}
	case FloatOutput:
		if v := int64(l.Scale); float32(v) == l.Scale && v >= 1 && v <= 1<<24 {
			return Stage{Op: "trunc.f32", Args: []int64{v}}, nil
		}
	}
	return Stage{}, fmt.Errorf("nnue: layer %v has no declared stage", l)
}

// nestedStage returns the stage op(args) with the declared stages of layers nested.
func nestedStage(op string, args []int64, layers []Layer) (Stage, error) {
	s := Stage{Op: op, Args: args}
	for _, p := range layers {
		ps, err := stageOf(p)
		if err != nil {
			return Stage{}, err
		}
		s.Parts = append(s.Parts, ps)
	}
	return s, nil
}

// layerParams calls f with a pointer to each parameter array of l in the native format's
// order (the order of the stage's nested stages, weights before bias): *[]int8, *[]int16,
// *[]int32 or *[]float32.
func layerParams(l Layer, f func(p any)) {
	switch l := l.(type) {
	case *Affine:
		f(&l.Weights)
		f(&l.Bias)
	case *SCReLU:
		f(&l.Weights)
		f(&l.Bias)
	case *BulletCReLU:
		f(&l.Weights)
		f(&l.Bias)
	case *Dequantise:
		f(&l.Bias)
	case *FloatAffine:
		f(&l.Weights)
		f(&l.Bias)
	case *Concat:
		for _, p := range l.Parts {
			layerParams(p, f)
		}
	case nested:
		for _, p := range l.bodyLayers() {
			layerParams(p, f)
		}
	}
}

// specOf declares the architecture of a feature transformer and the layers after it. It
// fails when the feature set's string does not parse back to a set of the same size, when
// the buckets' stacks differ in their stages (a Spec declares one stack for every
// bucket), or when the result does not pass Spec.Check.
func specOf(ft *FeatureTransformer, a Architecture) (Spec, error) {
	s := Spec{Width: ft.width, PSQT: ft.psqtBuckets, PSQTDiv: a.PSQTDiv, Output: a.Output,
		PerTerm: a.OutputPerTerm, PawnValue: a.PawnValue, PawnByMaterial: a.PawnByMaterial}
	if t := a.Buckets.Table; len(t) > 0 && a.Buckets.Count() > 1 {
		s.Buckets.Table = make([]uint8, 33)
		for i := range s.Buckets.Table {
			s.Buckets.Table[i] = t[min(i, len(t)-1)]
		}
	} else if a.Buckets.Count() > 1 {
		s.Buckets.Pieces = a.Buckets
	}
	name := ft.set.String()
	if set, err := featureset.Parse(name); err != nil || set.Size() != ft.set.Size() {
		return Spec{}, fmt.Errorf("nnue: feature set %q cannot be declared: it does not parse back to its %d features (%v)", name, ft.set.Size(), err)
	}
	if ft.rows8 == 0 {
		s.Inputs = []Input{{Set: name}}
	} else {
		parts := splitSum(name)
		size := 0
		for i, p := range parts {
			set, err := featureset.Parse(p)
			if err != nil {
				break
			}
			size += set.Size()
			if size == ft.rows8 {
				s.Inputs = []Input{{Set: strings.Join(parts[:i+1], "+"), Rows: RowsInt8}, {Set: strings.Join(parts[i+1:], "+")}}
				break
			}
		}
		if s.Inputs == nil || s.Inputs[1].Set == "" {
			return Spec{}, fmt.Errorf("nnue: feature set %q cannot be declared: its first %d int8 rows are not a prefix of its blocks", name, ft.rows8)
		}
	}
	for b, st := range a.Stacks {
		for i, l := range st {
			stage, err := stageOf(l)
			if err != nil {
				return Spec{}, err
			}
			if b == 0 {
				s.Stack = append(s.Stack, stage)
			} else if i >= len(s.Stack) || stage.String() != s.Stack[i].String() {
				return Spec{}, fmt.Errorf("nnue: stack %d differs from stack 0 at layer %d (%v): a declared architecture has one stack for every bucket", b, i, l)
			}
		}
		if len(st) != len(s.Stack) {
			return Spec{}, fmt.Errorf("nnue: stack %d has %d layers, stack 0 has %d", b, len(st), len(s.Stack))
		}
	}
	fused := map[bool]bool{}
	for _, st := range a.Stacks {
		for _, l := range st {
			if f, ok := layerFMA(l); ok {
				fused[f] = true
			}
		}
	}
	if len(fused) > 1 {
		return Spec{}, fmt.Errorf("nnue: some float layers fuse their multiply-adds and some do not: a declared architecture sets fma for all of them")
	}
	s.FMA = fused[true]
	if err := s.Check(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

// splitSum splits a feature-set spec at its top-level '+' signs.
func splitSum(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '+':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// ftArrays are the parameter arrays of a declared feature transformer, allocated by
// Spec.build and turned into a FeatureTransformer by transformer once filled (the
// accumulator bound depends on the weights).
type ftArrays struct {
	set          *featureset.Set
	width, psqtN int
	rows8        int
	max8, max16  int // most active features with int8 and with int16 rows
	w8           []int8
	w16          []int16
	bias         []int16
	psqt         []int32
}

// params calls f with a pointer to each parameter array of the feature transformer in
// the native format's order: int8 rows (when the Spec has int8-row inputs), int16 rows,
// bias, PSQT weights (when it has PSQT columns).
func (a *ftArrays) params(f func(p any)) {
	if a.rows8 > 0 {
		f(&a.w8)
	}
	f(&a.w16)
	f(&a.bias)
	if a.psqtN > 0 {
		f(&a.psqt)
	}
}

// ftArraysOf returns the arrays of a feature transformer (shared, not copied).
func ftArraysOf(ft *FeatureTransformer) *ftArrays {
	return &ftArrays{set: ft.set, width: ft.width, psqtN: ft.psqtBuckets, rows8: ft.rows8,
		w8: ft.weights8, w16: ft.weights, bias: ft.bias, psqt: ft.psqt}
}

// assemble builds the network s declares around the loader's parameter arrays, without
// copying them: w8 (nil without int8-row inputs), w16, bias and psqt (nil without PSQT)
// for the feature transformer, then params, every array of every bucket's stack in the
// native format's order (layerParams). It returns an error naming the first array whose
// type or length is not what s declares.
func (s Spec) assemble(w8 []int8, w16, bias []int16, psqt []int32, params []any, description, quantization string) (*Network, error) {
	fa, a, err := s.build(false)
	if err != nil {
		return nil, err
	}
	fa.w8, fa.w16, fa.bias, fa.psqt = w8, w16, bias, psqt
	a.Quantization = quantization
	k := 0
	for b, st := range a.Stacks {
		for i, l := range st {
			layerParams(l, func(p any) {
				if err != nil {
					return
				}
				if k == len(params) {
					err = fmt.Errorf("nnue: bucket %d stage %d %v: missing parameters", b, i, s.Stack[i])
					return
				}
				if !adopt(p, params[k]) {
					err = fmt.Errorf("nnue: bucket %d stage %d %v: parameter %T has the wrong type", b, i, s.Stack[i], params[k])
				}
				k++
			})
		}
	}
	if err == nil && k != len(params) {
		err = fmt.Errorf("nnue: %d parameter arrays for %d declared", len(params), k)
	}
	if err != nil {
		return nil, err
	}
	if err := checkFTDims(fa.set.Size(), fa.width, fa.psqtN); err != nil {
		return nil, err
	}
	nf, m := fa.set.Size(), fa.width
	if len(fa.w8) != fa.rows8*m || len(fa.w16) != (nf-fa.rows8)*m || len(fa.bias) != m || len(fa.psqt) != nf*fa.psqtN {
		return nil, fmt.Errorf("nnue: feature transformer arrays of %d, %d, %d and %d values do not match %v", len(fa.w8), len(fa.w16), len(fa.bias), len(fa.psqt), s)
	}
	return NewNetwork(fa.transformer(), a, description)
}

// adopt sets the slice *slot to v when both have the same element type.
func adopt(slot, v any) bool {
	switch p := slot.(type) {
	case *[]int8:
		x, ok := v.([]int8)
		*p = x
		return ok
	case *[]int16:
		x, ok := v.([]int16)
		*p = x
		return ok
	case *[]int32:
		x, ok := v.([]int32)
		*p = x
		return ok
	case *[]float32:
		x, ok := v.([]float32)
		*p = x
		return ok
	}
	return false
}

func (a *ftArrays) transformer() *FeatureTransformer {
	if a.rows8 > 0 {
		return newFT8(a.set, a.width, a.rows8, a.w8, a.max8, a.w16, a.max16, a.bias, a.psqtN, a.psqt)
	}
	return newFT(a.set, a.width, a.w16, a.bias, a.psqtN, a.psqt)
}

// build makes the feature transformer arrays and the layers a Spec declares: with alloc,
// every parameter array allocated and zero; without, every parameter slice nil (assemble
// sets them). It is the one place layers are made from a declaration.
func (s Spec) build(alloc bool) (*ftArrays, Architecture, error) {
	sh, err := s.shape()
	if err != nil {
		return nil, Architecture{}, err
	}
	nf, m := sh.set.Size(), s.Width
	ft := &ftArrays{set: sh.set, width: m, psqtN: s.PSQT, rows8: sh.rows8}
	if alloc {
		ft.w16, ft.bias = alignedInt16((nf-sh.rows8)*m), alignedInt16(m)
		if s.PSQT > 0 {
			ft.psqt = alignedInt32(nf * s.PSQT)
		}
		if sh.rows8 > 0 {
			ft.w8 = alignedInt8(sh.rows8 * m)
		}
	}
	if sh.rows8 > 0 {
		for _, in := range s.Inputs {
			if in.Rows == RowsInt16 {
				set, _ := featureset.Parse(in.Set) // parsed by shape
				ft.max16 += set.MaxActive()
			}
		}
		ft.max16 = min(ft.max16, sh.set.MaxActive())
		ft.max8 = max(sh.set.MaxActive()-ft.max16, 0)
	}
	a := Architecture{Buckets: s.Buckets.Buckets(), PSQTDiv: s.PSQTDiv, Output: s.Output, OutputPerTerm: s.PerTerm,
		PawnValue: s.PawnValue, PawnByMaterial: s.PawnByMaterial}
	for range s.Buckets.Count() {
		var st []Layer
		for i, stage := range s.Stack {
			l, err := stage.build(sh.in[i], alloc)
			if err != nil {
				return nil, Architecture{}, err
			}
			setFMA(l, s.FMA)
			st = append(st, l)
		}
		a.Stacks = append(a.Stacks, st)
	}
	return ft, a, nil
}
