package nnue

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nnuekit/nnuekit/featureset"
)

// Spec is a network architecture declared as a value, the way a featureset.Set declares
// the inputs: which features feed the feature transformer and with which row types, the
// transformer width and PSQT columns, the layer stack that follows (one stage per layer,
// the same stack for every output bucket), the bucket rule and the output scaling. It
// holds no weights. ParseSpec reads the canonical string that String prints (grammar in
// doc/nnue.md); Describe prints it for people. Every Network carries its Spec
// (Network.Spec), and the native format stores a network as its Spec string followed by
// the weights in the order the Spec defines (format_native.go), so that the declared value
// is what a native file is built from.
//
// A canonical string looks like (Stockfish 15.1):
//
//	ft=halfkav2_hm:i16 width=1024 psqt=8 stack=stm>pairwise(127,7)>affine.i8(16)>skip(concat(sqrcrelu(19),crelu.i32(6)),affine.i8(32),crelu.i32(6),affine.i8(1),9600,8128) buckets=pieces(8,1,4) psqtdiv=2 out=/16 pawn=361
type Spec struct {
	// Inputs are the feature blocks in the order of the transformer's rows; the int8-row
	// inputs come first. The feature set is featureset.Parse of the inputs' sets joined by '+'
	// (a set may hold king-bucket maps, "kings(b0.….b63)@o*all").
	Inputs []Input
	// Width is the accumulator width M per perspective.
	Width int
	// PSQT is the number of PSQT columns (int32, one per output bucket), 0 for none.
	PSQT int
	// Stack is the layer stack of every output bucket, first stage reading the two
	// accumulators, last stage writing the one output.
	Stack []Stage
	// Buckets selects the stack and PSQT column from the piece count.
	Buckets BucketRule
	// PSQTDiv, Output, PerTerm and PawnValue are Architecture's fields of the same names.
	PSQTDiv   int32
	Output    OutputScale
	PerTerm   bool
	PawnValue int32
	// PawnByMaterial is Architecture.PawnByMaterial.
	PawnByMaterial bool
	// FMA makes every float stage with multiply-adds (dequant.f32, affine.f32, dot.f32)
	// fuse them, one rounding each (simd.FMA32), as an engine built with FMA does; without
	// it each product is rounded before the add. It is part of the operation order.
	FMA bool
}

// Input is one feature block of the transformer: a feature-set spec (featureset.Parse) and
// the integer type of its weight rows.
type Input struct {
	Set  string
	Rows RowType
}

// RowType is the integer type of a feature transformer's weight rows.
type RowType uint8

const (
	// RowsInt16 rows are int16 (every net but Stockfish 19's threat rows).
	RowsInt16 RowType = iota
	// RowsInt8 rows are int8, widened to int16 while accumulating (Stockfish 19's threat
	// and pawn-pair rows).
	RowsInt8
)

// String returns "i16" or "i8".
func (t RowType) String() string {
	if t == RowsInt8 {
		return "i8"
	}
	return "i16"
}

// BucketRule selects the output bucket of a position from its piece count (kings
// included): by Pieces (Buckets: clamp((pieces − Sub)/Div, 0, N − 1)), or by Table
// (Table[pieces], 33 entries for 0…32 pieces, Alexandria's rule) when Table is non-nil;
// the builders turn it into Buckets.Table.
type BucketRule struct {
	Pieces Buckets
	Table  []uint8
}

// Count returns the number of buckets the rule selects from.
func (r BucketRule) Count() int {
	if r.Table != nil {
		n := 0
		for _, b := range r.Table {
			n = max(n, int(b)+1)
		}
		return n
	}
	return r.Pieces.Count()
}

// IsZero reports whether r is the zero rule (one bucket, no buckets= field).
func (r BucketRule) IsZero() bool { return r.Table == nil && r.Pieces.isZero() }

// String returns the rule as the buckets= field writes it, "pieces(N,Sub,Div)" or
// "table(b0,…,b32)", and "" for the zero rule (one bucket).
func (r BucketRule) String() string {
	var b strings.Builder
	if r.Table != nil {
		b.WriteString("table(")
		for i, x := range r.Table {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(x)))
		}
		b.WriteByte(')')
	} else if p := r.Pieces; !p.isZero() {
		fmt.Fprintf(&b, "pieces(%d,%d,%d)", p.N, p.Sub, p.Div)
	}
	return b.String()
}

// ParseBucketRule reads a rule as String writes it (the value of an architecture string's
// buckets= field): "pieces(N,Sub,Div)" or "table(b0,…,b32)"; "" is the zero rule. The
// rule is checked as Spec.Check checks it (pieces: 2 ≤ N ≤ 64 and Div > 0; table: 33
// entries of 0…63 that select every bucket below the largest). Errors are *SpecError
// values with the offset in s.
func ParseBucketRule(s string) (BucketRule, error) {
	if s == "" {
		return BucketRule{}, nil
	}
	p := &specParser{src: s}
	r, err := p.buckets(s)
	if err != nil {
		return BucketRule{}, err
	}
	if err := r.check(); err != nil {
		return BucketRule{}, &SpecError{Spec: s, Msg: err.Error()}
	}
	return r, nil
}

// check validates a rule as Spec.Check does.
func (r BucketRule) check() error {
	if t := r.Table; t != nil {
		if len(t) != 33 {
			return fmt.Errorf("bucket table has %d entries, want 33 (0…32 pieces)", len(t))
		}
		for b := range r.Count() {
			if !containsByte(t, uint8(b)) {
				return fmt.Errorf("bucket table never selects bucket %d", b)
			}
		}
	} else if p := r.Pieces; !p.isZero() {
		if p.N < 2 || p.N > maxStacks || p.Div <= 0 {
			return fmt.Errorf("buckets=pieces(%d,%d,%d): want 2 ≤ N ≤ %d and Div > 0", p.N, p.Sub, p.Div, maxStacks)
		}
	}
	return nil
}

// Buckets returns the rule as an Architecture's Buckets (a table rule becomes Buckets.Table
// with N = Count()).
func (r BucketRule) Buckets() Buckets {
	if r.Table != nil {
		return Buckets{N: r.Count(), Table: r.Table}
	}
	return r.Pieces
}

// Stage is one layer of a declared stack: an operation, its integer arguments and its
// nested stages (concat's activations, dense's layers). The operations, their arguments
// and the Layer each builds are listed in opTable (spec_ops.go) and doc/nnue.md.
type Stage struct {
	Op    string
	Parts []Stage
	Args  []int64
}

// String prints the stage canonically: op, then "(" parts and arguments ")" when it has any.
func (s Stage) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

func (s Stage) write(b *strings.Builder) {
	b.WriteString(s.Op)
	if len(s.Parts)+len(s.Args) == 0 {
		return
	}
	b.WriteByte('(')
	for i, p := range s.Parts {
		if i > 0 {
			b.WriteByte(',')
		}
		p.write(b)
	}
	for i, a := range s.Args {
		if i > 0 || len(s.Parts) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(a, 10))
	}
	b.WriteByte(')')
}

// String returns the canonical form: space-separated fields ft, width, psqt, stack,
// buckets, psqtdiv, out, perterm, fma, pawn in this order, the optional ones omitted when zero.
// ParseSpec(s.String()) returns s for every valid s.
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString("ft=")
	for i, in := range s.Inputs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(in.Set + ":" + in.Rows.String())
	}
	fmt.Fprintf(&b, " width=%d", s.Width)
	if s.PSQT != 0 {
		fmt.Fprintf(&b, " psqt=%d", s.PSQT)
	}
	b.WriteString(" stack=")
	for i, st := range s.Stack {
		if i > 0 {
			b.WriteByte('>')
		}
		st.write(&b)
	}
	if r := s.Buckets.String(); r != "" {
		b.WriteString(" buckets=" + r)
	}
	if s.PSQTDiv != 0 {
		fmt.Fprintf(&b, " psqtdiv=%d", s.PSQTDiv)
	}
	if o := s.Output; o != (OutputScale{}) {
		b.WriteString(" out=")
		if o.Shift != 0 {
			fmt.Fprintf(&b, ">>%d", o.Shift)
		}
		if o.Mul != 0 {
			fmt.Fprintf(&b, "*%d", o.Mul)
		}
		if o.Div != 0 {
			fmt.Fprintf(&b, "/%d", o.Div)
		}
	}
	if s.PerTerm {
		b.WriteString(" perterm")
	}
	if s.FMA {
		b.WriteString(" fma")
	}
	if s.PawnByMaterial {
		fmt.Fprintf(&b, " pawn=material:%d", s.PawnValue)
	} else if s.PawnValue != 0 {
		fmt.Fprintf(&b, " pawn=%d", s.PawnValue)
	}
	return b.String()
}

// SpecError is returned by ParseSpec and Spec.Check: the spec, the byte offset of the
// problem in it (-1 when the problem is not at one place) and what is wrong.
type SpecError struct {
	Spec string
	Pos  int
	Msg  string
}

// Error returns "nnue: architecture <spec> at offset <pos>: <msg>".
func (e *SpecError) Error() string {
	if e.Pos < 0 {
		return fmt.Sprintf("nnue: architecture %q: %s", e.Spec, e.Msg)
	}
	return fmt.Sprintf("nnue: architecture %q at offset %d: %s", e.Spec, e.Pos, e.Msg)
}

// Limits of a declared architecture; they bound the work and memory of ParseSpec and of
// the builders on hostile input.
const (
	maxSpecLen    = 1 << 16 // bytes of a spec string
	maxSpecDepth  = 4       // nesting of stages (skipdiff(append(concat(…))))
	maxStageArgs  = 8       // integer arguments of one stage
	maxStageParts = 8       // nested stages of one stage
	maxSpecInputs = 8       // feature blocks
	maxParams     = MaxFileSize
)

// ParseSpec parses a canonical architecture string (Spec.String, grammar in doc/nnue.md)
// and checks it with Spec.Check. It returns a *SpecError naming the offset of the first
// problem: an unknown field or operation, a field given twice or missing (ft, width and
// stack are required), a number out of range, a spec longer than 64 KiB, stages nested
// deeper than 4, or an architecture Check refuses. It allocates at most a few times the
// length of s.
func ParseSpec(s string) (Spec, error) {
	p := &specParser{src: s}
	if len(s) > maxSpecLen {
		return Spec{}, p.errf("longer than %d bytes", maxSpecLen)
	}
	sp, err := p.parse()
	if err != nil {
		return Spec{}, err
	}
	if err := sp.Check(); err != nil {
		return Spec{}, err
	}
	return sp, nil
}

type specParser struct {
	src string
	pos int
}

func (p *specParser) errf(format string, args ...any) error {
	return &SpecError{Spec: p.src, Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *specParser) parse() (Spec, error) {
	var sp Spec
	seen := map[string]bool{}
	fields := []string{"ft", "width", "psqt", "stack", "buckets", "psqtdiv", "out", "perterm", "fma", "pawn"}
	last := -1
	for {
		for p.pos < len(p.src) && p.src[p.pos] == ' ' {
			p.pos++
		}
		if p.pos == len(p.src) {
			break
		}
		start := p.pos
		end := strings.IndexByte(p.src[start:], ' ')
		if end < 0 {
			end = len(p.src)
		} else {
			end += start
		}
		tok := p.src[start:end]
		key, val, hasVal := strings.Cut(tok, "=")
		idx := -1
		for i, f := range fields {
			if f == key {
				idx = i
			}
		}
		if idx < 0 {
			return Spec{}, p.errf("unknown field %q (fields: %s)", key, strings.Join(fields, ", "))
		}
		if seen[key] {
			return Spec{}, p.errf("field %s given twice", key)
		}
		if idx < last {
			return Spec{}, p.errf("field %s out of order (order: %s)", key, strings.Join(fields, " "))
		}
		seen[key], last = true, idx
		if key == "perterm" || key == "fma" {
			if hasVal {
				return Spec{}, p.errf("%s takes no value", key)
			}
			sp.PerTerm = sp.PerTerm || key == "perterm"
			sp.FMA = sp.FMA || key == "fma"
			p.pos = end
			continue
		}
		if !hasVal || val == "" {
			return Spec{}, p.errf("field %s needs a value (%s=…)", key, key)
		}
		p.pos = start + len(key) + 1
		var err error
		switch key {
		case "ft":
			sp.Inputs, err = p.inputs(val)
		case "width":
			sp.Width, err = p.intIn(val, 1, maxWidth)
		case "psqt":
			sp.PSQT, err = p.intIn(val, 1, 64)
		case "stack":
			sp.Stack, err = p.chain(end)
		case "buckets":
			sp.Buckets, err = p.buckets(val)
		case "psqtdiv":
			var v int
			v, err = p.intIn(val, 1, 1<<30)
			sp.PSQTDiv = int32(v)
		case "out":
			sp.Output, err = p.output(val)
		case "pawn":
			if m, ok := strings.CutPrefix(val, "material:"); ok {
				sp.PawnByMaterial = true
				p.pos += len("material:")
				val = m
			}
			var v int
			v, err = p.intIn(val, 1, 1<<20)
			sp.PawnValue = int32(v)
		}
		if err != nil {
			return Spec{}, err
		}
		p.pos = end
	}
	for _, k := range []string{"ft", "width", "stack"} {
		if !seen[k] {
			return Spec{}, p.errf("missing field %s", k)
		}
	}
	return sp, nil
}

// intIn parses a decimal integer in [lo, hi].
func (p *specParser) intIn(s string, lo, hi int64) (int, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || strings.HasPrefix(s, "+") {
		return 0, p.errf("%q is not a decimal integer", s)
	}
	if v < lo || v > hi {
		return 0, p.errf("%d out of range [%d, %d]", v, lo, hi)
	}
	return int(v), nil
}

func (p *specParser) inputs(val string) ([]Input, error) {
	parts := strings.Split(val, ",")
	if len(parts) > maxSpecInputs {
		return nil, p.errf("%d inputs, at most %d", len(parts), maxSpecInputs)
	}
	var ins []Input
	for _, part := range parts {
		i := strings.LastIndexByte(part, ':')
		if i <= 0 {
			return nil, p.errf("input %q must be SET:i16 or SET:i8", part)
		}
		in := Input{Set: part[:i]}
		switch part[i+1:] {
		case "i16":
		case "i8":
			in.Rows = RowsInt8
		default:
			p.pos += i + 1
			return nil, p.errf("row type %q, want i16 or i8", part[i+1:])
		}
		ins = append(ins, in)
		p.pos += len(part) + 1
	}
	return ins, nil
}

// chain := stage { '>' stage }, up to end.
func (p *specParser) chain(end int) ([]Stage, error) {
	var st []Stage
	for {
		if len(st) == maxStackLayers {
			return nil, p.errf("more than %d stages", maxStackLayers)
		}
		s, err := p.stage(end, 1)
		if err != nil {
			return nil, err
		}
		st = append(st, s)
		if p.pos == end {
			return st, nil
		}
		if p.src[p.pos] != '>' {
			return nil, p.errf("want '>' between stages, found %q", p.src[p.pos])
		}
		p.pos++
	}
}

// stage := op [ '(' arg { ',' arg } ')' ], arg := integer | stage.
func (p *specParser) stage(end, depth int) (Stage, error) {
	if depth > maxSpecDepth {
		return Stage{}, p.errf("stages nested deeper than %d", maxSpecDepth)
	}
	start := p.pos
	for p.pos < end && (isLower(p.src[p.pos]) || p.src[p.pos] == '_' || p.src[p.pos] == '.' ||
		(p.pos > start && isDigit(p.src[p.pos]))) {
		p.pos++
	}
	s := Stage{Op: p.src[start:p.pos]}
	if s.Op == "" {
		return Stage{}, p.errf("want an operation name")
	}
	if _, ok := opTable[s.Op]; !ok {
		p.pos = start
		return Stage{}, p.errf("unknown operation %q (operations: %s)", s.Op, opNames())
	}
	if p.pos == end || p.src[p.pos] != '(' {
		return s, nil
	}
	p.pos++
	for {
		if p.pos < end && (isDigit(p.src[p.pos]) || p.src[p.pos] == '-') {
			n := p.pos
			for n < end && (isDigit(p.src[n]) || (n == p.pos && p.src[n] == '-')) {
				n++
			}
			v, err := strconv.ParseInt(p.src[p.pos:n], 10, 64)
			if err != nil || v < -1<<31 || v > 1<<31-1 {
				return Stage{}, p.errf("argument %q is not a 32-bit integer", p.src[p.pos:n])
			}
			if len(s.Args) == maxStageArgs {
				return Stage{}, p.errf("more than %d arguments", maxStageArgs)
			}
			s.Args = append(s.Args, v)
			p.pos = n
		} else {
			if len(s.Args) > 0 {
				return Stage{}, p.errf("nested stages come before the integer arguments")
			}
			if len(s.Parts) == maxStageParts {
				return Stage{}, p.errf("more than %d nested stages", maxStageParts)
			}
			sub, err := p.stage(end, depth+1)
			if err != nil {
				return Stage{}, err
			}
			s.Parts = append(s.Parts, sub)
		}
		if p.pos == end {
			return Stage{}, p.errf("missing ')'")
		}
		c := p.src[p.pos]
		p.pos++
		if c == ')' {
			if len(s.Parts)+len(s.Args) == 0 {
				p.pos--
				return Stage{}, p.errf("empty argument list")
			}
			return s, nil
		}
		if c != ',' {
			p.pos--
			return Stage{}, p.errf("want ',' or ')', found %q", c)
		}
	}
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// intList parses "a,b,c" of integers in [lo, hi].
func (p *specParser) intList(s string, lo, hi int64) ([]int, error) {
	var out []int
	for i, f := range strings.Split(s, ",") {
		if i >= 64 {
			return nil, p.errf("more than 64 values")
		}
		v, err := p.intIn(f, lo, hi)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.pos += len(f) + 1
	}
	return out, nil
}

func (p *specParser) buckets(val string) (BucketRule, error) {
	switch {
	case strings.HasPrefix(val, "pieces(") && strings.HasSuffix(val, ")"):
		p.pos += len("pieces(")
		v, err := p.intList(val[len("pieces("):len(val)-1], -64, 64)
		if err != nil {
			return BucketRule{}, err
		}
		if len(v) != 3 {
			return BucketRule{}, p.errf("pieces(N,Sub,Div) takes 3 values, has %d", len(v))
		}
		return BucketRule{Pieces: Buckets{N: v[0], Sub: v[1], Div: v[2]}}, nil
	case strings.HasPrefix(val, "table(") && strings.HasSuffix(val, ")"):
		p.pos += len("table(")
		v, err := p.intList(val[len("table("):len(val)-1], 0, 63)
		if err != nil {
			return BucketRule{}, err
		}
		t := make([]uint8, len(v))
		for i, x := range v {
			t[i] = uint8(x)
		}
		return BucketRule{Table: t}, nil
	}
	return BucketRule{}, p.errf("buckets must be pieces(N,Sub,Div) or table(b0,…,b32)")
}

// output parses [">>" shift] ["*" mul] ["/" div].
func (p *specParser) output(val string) (OutputScale, error) {
	var o OutputScale
	rest := val
	num := func(prefix string, lo, hi int64) (int, bool, error) {
		r, ok := strings.CutPrefix(rest, prefix)
		if !ok {
			return 0, false, nil
		}
		p.pos += len(prefix)
		n := 0
		for n < len(r) && isDigit(r[n]) {
			n++
		}
		v, err := p.intIn(r[:n], lo, hi)
		if err != nil {
			return 0, false, err
		}
		p.pos += n
		rest = r[n:]
		return v, true, nil
	}
	s, _, err := num(">>", 1, 31)
	if err != nil {
		return o, err
	}
	m, _, err := num("*", 1, 1<<31-1)
	if err != nil {
		return o, err
	}
	d, _, err := num("/", 1, 1<<31-1)
	if err != nil {
		return o, err
	}
	if rest != "" {
		return o, p.errf("output scale %q: want [>>shift][*mul][/div]", val)
	}
	return OutputScale{Shift: uint8(s), Mul: int32(m), Div: int32(d)}, nil
}

// Check validates the declared architecture without building it: the inputs parse as
// feature sets (int8 rows first), the width and PSQT columns are in range, every stage has
// its operation's arguments and reads what the previous stage writes, the stack ends with
// one value, the bucket rule is consistent with the PSQT columns, and the declared
// parameters fit in MaxFileSize bytes. Errors are *SpecError values.
func (s Spec) Check() error {
	_, err := s.shape()
	return err
}

// specShape is what Check computes: the feature set, its size and the int8-row count, and
// per stage its input and output size.
type specShape struct {
	set    *featureset.Set
	rows8  int
	in     []int  // per stage: logical input size
	kind   []Kind // per stage: input kind
	out    []int  // per stage: logical output size
	params int64  // bytes of all parameters (feature transformer and every bucket's stack)
}

func (s Spec) errf(format string, args ...any) error {
	return &SpecError{Spec: s.String(), Pos: -1, Msg: fmt.Sprintf(format, args...)}
}

func (s Spec) shape() (specShape, error) {
	var sh specShape
	if len(s.Inputs) == 0 || len(s.Inputs) > maxSpecInputs {
		return sh, s.errf("needs 1 to %d inputs, has %d", maxSpecInputs, len(s.Inputs))
	}
	names := make([]string, len(s.Inputs))
	for i, in := range s.Inputs {
		if in.Rows > RowsInt8 {
			return sh, s.errf("input %d: unknown row type %d", i, in.Rows)
		}
		if i > 0 && in.Rows == RowsInt8 && s.Inputs[i-1].Rows != RowsInt8 {
			return sh, s.errf("int8-row inputs must come before int16-row inputs")
		}
		if in.Set == "" || strings.ContainsAny(in.Set, " ,:=>") {
			return sh, s.errf("input %d: feature set %q is empty or contains one of \" ,:=>\"", i, in.Set)
		}
		sub, err := featureset.Parse(in.Set)
		if err != nil {
			return sh, s.errf("input %d: %v", i, err)
		}
		if in.Rows == RowsInt8 {
			sh.rows8 += sub.Size()
		}
		names[i] = in.Set
	}
	set, err := featureset.Parse(strings.Join(names, "+"))
	if err != nil {
		return sh, s.errf("inputs: %v", err)
	}
	sh.set = set
	if err := checkFTDims(set.Size(), s.Width, s.PSQT); err != nil {
		return sh, s.errf("%v", err)
	}
	nb := s.Buckets.Count()
	if err := s.Buckets.check(); err != nil {
		return sh, s.errf("%v", err)
	}
	if s.PSQT != 0 && s.PSQT != nb {
		return sh, s.errf("%d PSQT columns for %d buckets", s.PSQT, nb)
	}
	if s.PSQTDiv < 0 || s.PawnValue < 0 || s.Output.Shift > 31 || s.Output.Div < 0 {
		return sh, s.errf("negative divisor or pawn value, or output shift > 31")
	}
	if s.PawnByMaterial && s.PawnValue == 0 {
		return sh, s.errf("pawn=material needs the pawn value at the anchor material (pawn=material:V)")
	}
	nf := int64(set.Size())
	sh.params = nf*int64(s.Width)*2 - int64(sh.rows8)*int64(s.Width) + 2*int64(s.Width) + 4*nf*int64(s.PSQT)
	if len(s.Stack) == 0 || len(s.Stack) > maxStackLayers {
		return sh, s.errf("stack has %d stages, want 1 to %d", len(s.Stack), maxStackLayers)
	}
	kind, size := KindAccumulator, s.Width
	var stackBytes int64
	for i, st := range s.Stack {
		k, n, bytes, err := st.check(kind, size)
		if err != nil {
			return sh, s.errf("stage %d %v: %v", i, st, err)
		}
		sh.in = append(sh.in, size)
		sh.kind = append(sh.kind, kind)
		sh.out = append(sh.out, n)
		kind, size = k, n
		stackBytes += bytes
	}
	if kind != KindInt32 || size != 1 {
		return sh, s.errf("stack must end with one value, an int32 (a float stack ends with trunc.f32), not %d×%v", size, kind)
	}
	if s.FMA && !s.hasFloatMulAdd() {
		return sh, s.errf("fma declared without a float stage that multiplies (dequant.f32, affine.f32, dot.f32)")
	}
	sh.params += stackBytes * int64(nb)
	if sh.params > maxParams {
		return sh, s.errf("declares %d bytes of parameters, more than %d", sh.params, int64(maxParams))
	}
	return sh, nil
}

// hasFloatMulAdd reports whether the stack has a stage that FMA applies to.
func (s Spec) hasFloatMulAdd() bool {
	for _, st := range s.Stack {
		switch st.Op {
		case "dequant.f32", "affine.f32", "dot.f32":
			return true
		}
	}
	return false
}

func containsByte(t []uint8, b uint8) bool {
	for _, x := range t {
		if x == b {
			return true
		}
	}
	return false
}

// Describe returns a multi-line description for people: the inputs with their sizes, the
// transformer, each stage with its input and output sizes and what it computes, the bucket
// rule and the output scaling. A spec that Check refuses is described as far as it goes,
// followed by the error.
func (s Spec) Describe() string {
	var b strings.Builder
	sh, err := s.shape()
	nf := "?"
	if sh.set != nil {
		nf = strconv.Itoa(sh.set.Size())
	}
	fmt.Fprintf(&b, "inputs: %d feature blocks, %s features per perspective\n", len(s.Inputs), nf)
	for _, in := range s.Inputs {
		size := "?"
		if set, e := featureset.Parse(in.Set); e == nil {
			size = strconv.Itoa(set.Size())
		}
		fmt.Fprintf(&b, "  %s: %s features, %s weight rows\n", in.Set, size, map[RowType]string{RowsInt16: "int16", RowsInt8: "int8"}[in.Rows])
	}
	fmt.Fprintf(&b, "feature transformer: %s → %d per perspective (int16 accumulator, int16 bias)", nf, s.Width)
	if s.PSQT > 0 {
		fmt.Fprintf(&b, ", %d PSQT columns (int32)", s.PSQT)
	}
	b.WriteString("\n")
	nb := s.Buckets.Count()
	switch {
	case s.Buckets.Table != nil:
		fmt.Fprintf(&b, "output buckets: %d, by piece count through the table %v\n", nb, s.Buckets.Table)
	case nb > 1:
		p := s.Buckets.Pieces
		fmt.Fprintf(&b, "output buckets: %d, bucket = clamp((pieces − %d)/%d, 0, %d)\n", nb, p.Sub, p.Div, nb-1)
	default:
		b.WriteString("output buckets: none (one stack)\n")
	}
	fmt.Fprintf(&b, "layer stack (per bucket):\n")
	for i, st := range s.Stack {
		if i < len(sh.out) {
			fmt.Fprintf(&b, "  %d. %-28s %d → %d: %s\n", i+1, st.Op, sh.in[i], sh.out[i], st.describe())
			describeParts(&b, st, sh.kind[i], sh.in[i])
		} else {
			fmt.Fprintf(&b, "  %d. %-28s %s\n", i+1, st.Op, st.describe())
		}
	}
	b.WriteString("value: ")
	if s.PSQT > 0 {
		div := max(s.PSQTDiv, 1)
		fmt.Fprintf(&b, "psqt = (psqt_stm − psqt_other)/%d; ", div)
	}
	o := s.Output
	scale := "x"
	if o.Shift != 0 {
		scale = fmt.Sprintf("(%s >> %d)", scale, o.Shift)
	}
	if o.Mul != 0 {
		scale = fmt.Sprintf("%s·%d", scale, o.Mul)
	}
	if o.Div != 0 {
		scale = fmt.Sprintf("%s/%d", scale, o.Div)
	}
	switch {
	case s.PSQT > 0 && s.PerTerm:
		fmt.Fprintf(&b, "f(psqt) + f(positional), f(x) = %s, each truncated\n", scale)
	case s.PSQT > 0:
		fmt.Fprintf(&b, "f(psqt + positional), f(x) = %s\n", scale)
	default:
		fmt.Fprintf(&b, "f(positional), f(x) = %s\n", scale)
	}
	if s.FMA {
		b.WriteString("float stages: fused multiply-add (one rounding per multiply-add)\n")
	}
	switch {
	case s.PawnByMaterial:
		fmt.Fprintf(&b, "pawn: material-dependent (Stockfish 19 win-rate model), %d units at the anchor material\n", s.PawnValue)
	case s.PawnValue != 0:
		fmt.Fprintf(&b, "pawn: %d units\n", s.PawnValue)
	default:
		b.WriteString("pawn: 100 units (centipawns)\n")
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// describeParts writes one line per nested stage of a checked concat, skip or dense stage
// with its input and output sizes.
func describeParts(b *strings.Builder, st Stage, in Kind, n int) {
	line := func(name string, p Stage, in Kind, n int) int {
		_, m, _, _ := p.check(in, n)
		fmt.Fprintf(b, "       %-5s %-22s %d → %d\n", name, p, n, m)
		return m
	}
	switch st.Op {
	case "concat":
		for i, p := range st.Parts {
			line(fmt.Sprintf("%c", 'a'+i), p, in, n)
		}
	case "skip":
		kind, size := KindInt32, n-1
		for i, p := range st.Parts {
			k, _, _, _ := p.check(kind, size)
			size = line(fmt.Sprintf("%d", i+1), p, kind, size)
			kind = k
		}
	case "dense":
		x := line("fc0", st.Parts[0], KindUint8, n)
		c0 := line("act0", st.Parts[1], KindInt32, x)
		y := line("fc1", st.Parts[2], KindUint8, c0)
		c1 := line("act1", st.Parts[3], KindInt32, y)
		line("fc2", st.Parts[4], KindUint8, c0+c1)
	}
}
