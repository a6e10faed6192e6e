package nnue

import (
	"fmt"
	"slices"
	"strings"
)

// The forward pass of a layer stack. Every stack is declared by its stages (Spec) and
// built as a []Layer; the generic path runs those layers one by one (ForwardBucket with
// no family, and the reference the tests compare every family with). A stack whose
// stages are those of an architecture family runs that family's one forward function
// instead, with the family's weights prepared once, when NewNetwork builds the network:
//
//   - familyCReLUChain (forward_crelu_chain.go): stm|white > crelu.i16 > affine.i8(32) >
//     crelu.i32(s0) [> affine.i8(32) > crelu.i32(s1)] > affine.i8(1), width m a multiple
//     of 32 in [128, 1024] — the thesis nets, the embedded default, Stockfish 12/13
//     HalfKP; prepared as one simd.ReLUStack.
//   - familySFNNv5 (forward_sfnnv5.go): stm|white > pairwise(127,7) > affine.i8(16) >
//     skip(concat(sqrcrelu(s),crelu.i32(s0)),affine.i8(32),crelu.i32(s1),affine.i8(1),mul,div),
//     width m a multiple of 64 in [256, 2048] — Stockfish 15.1 and 16; prepared as one
//     simd.PairwiseStack.
//   - familyPairwiseDense (forward_pairwise_dense.go): stm|white > pairwise(max,shift) >
//     affine.i8(16|32) > skipdiff(concat(sqrcrelu(s),crelu.i32(s0)),append(affine.i8(y),
//     concat(sqrcrelu(s'),crelu.i32(s1))),affine.i8(1),mul,div), width m a multiple of 64 in
//     [256, 2048], x 16 or 32, y ≤ 64, pairwise products ≤ 127 — Stockfish 19; prepared as
//     one simd.PairwiseDenseStack.
//
// planForward, below, is the one place that makes that choice: it compares the stack's
// declared stages with each family's template (creluChainStages, sfnnv5Stages:
// operations, nesting and fixed arguments; matchStages) and checks the width. The shape
// limits are those of the simd stack kernels and of the evaluator's chunk-list buffer
// (fc_0's input of 256 to 2048 bytes). Which kernel each stage runs at the current SIMD
// level (fc_0 sparse over the listed non-zero chunks; SparseAffine dense at VNNI) is
// decided inside simd (the prepared stacks' Forward, SparseAffine.Forward), the one
// place that reads the level. Any other composition (bullet's float stacks, SCReLU or
// CReLU single layers, chains of other widths) runs the generic path. TestShippedForwards
// fails when a shipped net does not get its family, and TestFamilyMatchesReference
// compares each family with the generic path at every level.

// family names the forward a stack runs.
type family uint8

const (
	familyGeneric       family = iota // the declared layers one by one
	familyCReLUChain                  // forward_crelu_chain.go
	familySFNNv5                      // forward_sfnnv5.go
	familyPairwiseDense               // forward_pairwise_dense.go
)

// String returns "generic", "crelu-chain", "sfnnv5" or "pairwise-dense".
func (f family) String() string {
	switch f {
	case familyGeneric:
		return "generic"
	case familyCReLUChain:
		return "crelu-chain"
	case familySFNNv5:
		return "sfnnv5"
	case familyPairwiseDense:
		return "pairwise-dense"
	}
	return fmt.Sprintf("family(%d)", uint8(f))
}

// forwarder is a family's forward pass over one bucket's stack: it returns the stack's
// output (what the generic path computes) for acc with side to move stm (0 White, 1
// Black), using the evaluator's buffers of the bucket as scratch.
type forwarder interface {
	forward(bk *evalBucket, acc *Accumulator, stm int) int64
}

// planForward returns the family forward for a stack of layers on the feature
// transformer ft, chosen by the stack's declared stages (stageOf, the stages its Spec
// prints), or nil and familyGeneric. ft's width is the stack's input; its biases order
// the HalfKP stack's fc_0 input (creluChain). NewNetwork calls it once per stack.
func planForward(layers []Layer, ft *FeatureTransformer) (forwarder, family) {
	stages := make([]Stage, len(layers))
	for i, l := range layers {
		s, err := stageOf(l)
		if err != nil {
			return nil, familyGeneric
		}
		stages[i] = s
	}
	i8, i32 := stackParams(layers)
	if f := newCReLUChain(stages, ft, i8, i32); f != nil {
		return f, familyCReLUChain
	}
	if f := newSFNNv5(stages, ft.width, i8, i32); f != nil {
		return f, familySFNNv5
	}
	if f := newPairwiseDense(stages, ft.width, i8, i32); f != nil {
		return f, familyPairwiseDense
	}
	return nil, familyGeneric
}

// stackParams returns the int8 and int32 parameter arrays of a stack's layers in the
// native format's order (layerParams): for the families, each affine layer's weights and
// biases.
func stackParams(layers []Layer) (i8 [][]int8, i32 [][]int32) {
	for _, l := range layers {
		layerParams(l, func(p any) {
			switch p := p.(type) {
			case *[]int8:
				i8 = append(i8, *p)
			case *[]int32:
				i32 = append(i32, *p)
			}
		})
	}
	return i8, i32
}

// anyArg in a family's template stage matches any value of that argument.
const anyArg = -1 << 62

// st is a template stage: operation op (alternatives separated by "|"), its arguments
// (anyArg: any value) and nested stages.
func st(op string, args []int64, parts ...Stage) Stage {
	return Stage{Op: op, Args: args, Parts: parts}
}

// matchStages reports whether the declared stages have the structure of the template:
// the same operations, nesting and arguments, except where the template has anyArg.
func matchStages(got, tmpl []Stage) bool {
	if len(got) != len(tmpl) {
		return false
	}
	for i, t := range tmpl {
		g := got[i]
		if !slices.Contains(strings.Split(t.Op, "|"), g.Op) || len(g.Args) != len(t.Args) ||
			!matchStages(g.Parts, t.Parts) {
			return false
		}
		for k, a := range t.Args {
			if a != anyArg && g.Args[k] != a {
				return false
			}
		}
	}
	return true
}

// ordered returns acc's two accumulators in the stack's order: the side to move's first
// (stm 0 White, 1 Black), or White's when whiteFirst.
func ordered(acc *Accumulator, stm int, whiteFirst bool) (a, b []int16) {
	if whiteFirst {
		stm = 0
	}
	return acc.v[stm], acc.v[stm^1]
}
