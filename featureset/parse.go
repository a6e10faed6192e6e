package featureset

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// blockCtor builds a registered block with the given orientation.
type blockCtor func(o Orientation) Block

type regEntry struct {
	ctor blockCtor
	doc  string
}

// registry maps lower-case spec names to constructors. It is filled by a variable
// initializer (so package-level MustParse calls in this package work); other files of the
// package may add blocks from init functions with register.
var registry = defaultRegistry()

func register(name, doc string, ctor blockCtor) {
	if _, dup := registry[name]; dup {
		panic("featureset: block " + name + " registered twice")
	}
	registry[name] = regEntry{ctor, doc}
}

func defaultRegistry() map[string]regEntry {
	registry := map[string]regEntry{}
	register := func(name, doc string, ctor blockCtor) { registry[name] = regEntry{ctor, doc} }
	register("all", "ALL, 768: piece square (file-major) × role × color", All)
	register("hv", "legacy name of ALL (thesis code)", func(o Orientation) Block {
		b := All(o).(*lineBlock)
		b.alias = "hv"
		return b
	})
	register("h", "H, 96: file × role × color", H)
	register("v", "V, 96: rank × role × color", V)
	register("d1", "D1, 180: diagonal file+rank × role × color", D1)
	register("d2", "D2, 180: diagonal file+7−rank × role × color", D2)
	register("ph", "PH, 1152: consecutive piece pairs along each file (code's ph = text's PV)", PH)
	register("pv", "PV, 1152: consecutive piece pairs along each rank (code's pv = text's PH)", PV)
	register("mb", "MB, 768: mobility targets square × role × color", MB)
	register("mc", "MC, 206: mobility counts per role × color", MC)
	register("ksq", "KSQ, 64: square of the own king", KingSquare)
	register("nk", "NK, 640: ALL without kings", NonKing)
	register("ka", "KING-ALL, 49152 = ksq*all", KingAll)
	register("king-all", "KING-ALL, alias of ka", KingAll)
	register("kp", "KP (KING-PIECE), 40960 = ksq*nk", KP)
	return registry
}

// BlockNames returns the registered block names Parse accepts, sorted, each with a short
// description.
func BlockNames() [][2]string {
	var out [][2]string
	for n, e := range registry {
		out = append(out, [2]string{n, e.doc})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// ParseError is returned by Parse for a malformed spec.
type ParseError struct {
	Spec string // the spec as given
	Pos  int    // byte offset of the problem
	Msg  string
}

// Error returns "featureset: bad spec <spec> at offset <pos>: <msg>".
func (e *ParseError) Error() string {
	return fmt.Sprintf("featureset: bad spec %q at offset %d: %s", e.Spec, e.Pos, e.Msg)
}

// maxSpecLen and maxDepth bound the parser's work on hostile input.
const (
	maxSpecLen = 4096
	maxDepth   = 16
)

type parser struct {
	spec  string
	s     string // lower-cased spec
	pos   int
	depth int
}

func (p *parser) errf(format string, args ...any) error {
	return &ParseError{Spec: p.spec, Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

// sum := prod { '+' prod }
func (p *parser) sum() (Block, error) {
	var parts []Block
	for {
		b, err := p.prod()
		if err != nil {
			return nil, err
		}
		parts = append(parts, b)
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == '+' {
			p.pos++
			continue
		}
		break
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	b, err := Sum(parts...)
	if err != nil {
		return nil, p.errf("%s", strings.TrimPrefix(err.Error(), "featureset: "))
	}
	return b, nil
}

// prod := atom { ('*' | '×') atom }
func (p *parser) prod() (Block, error) {
	b, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		switch {
		case strings.HasPrefix(p.s[p.pos:], "*"):
			p.pos++
		case strings.HasPrefix(p.s[p.pos:], "×"):
			p.pos += len("×")
		default:
			return b, nil
		}
		c, err := p.atom()
		if err != nil {
			return nil, err
		}
		if b, err = Product(b, c); err != nil {
			return nil, p.errf("%s", strings.TrimPrefix(err.Error(), "featureset: "))
		}
	}
}

// atom := name [ '@' orientation ] | '(' sum ')'
func (p *parser) atom() (Block, error) {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return nil, p.errf("expected a block name")
	}
	if p.s[p.pos] == '(' {
		if p.depth >= maxDepth {
			return nil, p.errf("parentheses nested deeper than %d", maxDepth)
		}
		p.depth++
		p.pos++
		b, err := p.sum()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ')' {
			return nil, p.errf("expected ')'")
		}
		p.pos++
		p.depth--
		return b, nil
	}
	start := p.pos
	for p.pos < len(p.s) && isNameByte(p.s[p.pos]) {
		p.pos++
	}
	name := p.s[start:p.pos]
	if name == "" {
		return nil, p.errf("expected a block name, found %q", p.s[p.pos:p.pos+1])
	}
	if name == "kings" && p.pos < len(p.s) && p.s[p.pos] == '(' {
		return p.kingMap()
	}
	e, ok := registry[name]
	if !ok {
		p.pos = start
		return nil, p.errf("unknown block %q (known: %s)", name, knownNames())
	}
	o, err := p.orientation()
	if err != nil {
		return nil, err
	}
	return e.ctor(o), nil
}

// orientation := [ '@' name ], Flip when absent.
func (p *parser) orientation() (Orientation, error) {
	o, ok := Flip, false
	if p.pos < len(p.s) && p.s[p.pos] == '@' {
		p.pos++
		os := p.pos
		for p.pos < len(p.s) && isNameByte(p.s[p.pos]) {
			p.pos++
		}
		name := p.s[os:p.pos]
		if o, ok = ParseOrientation(name); !ok {
			p.pos = os
			return o, p.errf("unknown orientation %q (known: flip, rotate, hm, abs)", name)
		}
	}
	return o, nil
}

// kingMap := "kings(" b0 "." b1 "." … "." b63 ")" [ '@' orientation ], a king-bucket map
// (KingBucketMap); p.pos is at the '('.
func (p *parser) kingMap() (Block, error) {
	p.pos++
	var table [64]int
	for i := range table {
		if i > 0 {
			if p.pos >= len(p.s) || p.s[p.pos] != '.' {
				return nil, p.errf("kings(…) has %d buckets, want 64 (a1…h8, separated by '.')", i)
			}
			p.pos++
		}
		start := p.pos
		for p.pos < len(p.s) && p.pos-start < 3 && '0' <= p.s[p.pos] && p.s[p.pos] <= '9' {
			p.pos++
		}
		f := p.s[start:p.pos]
		v, err := strconv.Atoi(f)
		if err != nil || v > 63 || (len(f) > 1 && f[0] == '0') {
			for p.pos < len(p.s) && p.s[p.pos] != '.' && p.s[p.pos] != ')' && p.pos-start < 8 {
				p.pos++
			}
			f, p.pos = p.s[start:p.pos], start
			return nil, p.errf("kings(…): bucket %q of square %d, want 0…63", f, i)
		}
		table[i] = v
	}
	if p.pos >= len(p.s) || p.s[p.pos] != ')' {
		return nil, p.errf("kings(…): want ')' after 64 buckets")
	}
	p.pos++
	o, err := p.orientation()
	if err != nil {
		return nil, err
	}
	b, err := KingBucketMap(table, o)
	if err != nil {
		return nil, p.errf("%s", strings.TrimPrefix(err.Error(), "featureset: "))
	}
	return b, nil
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

func knownNames() string {
	var n []string
	for _, e := range BlockNames() {
		n = append(n, e[0])
	}
	return strings.Join(n, ", ")
}

// Parse parses a feature-set spec, case-insensitively: block names joined by '+' (Sum,
// thesis §3.1, in the order written) and '*' or '×' (Product, thesis §3.2, binding
// tighter), with parentheses, e.g. "all+ph+pv", "hv+d1+d2", "ka", "ksq*all",
// "ksq*(all+h)". A name may carry an orientation, "all@rotate" (flip, rotate, hm, abs;
// default flip). Names: all (alias hv, the thesis code's legacy name), h, v, d1, d2, ph,
// pv, mb, mc, ksq, nk, ka (alias king-all), kp, and the blocks other files register:
// kings, kb32, halfkav2_hm, threats, threats18, pawnpairs, moves, piece-move, hrkp,
// hrkp-h, hrkp-v, toppp … — see BlockNames. "kings(b0.b1.….b63)" followed by an optional
// orientation is a king-bucket map (KingBucketMap: the bucket of each own-king square
// a1…h8), the input buckets of bullet-trained nets, e.g. "kings(0.0.…)@hm*all@hm".
//
// It returns a *ParseError for an empty or longer than 4096-byte spec, an unknown name
// or orientation, a block repeated in a sum, a product larger than MaxSize, unbalanced
// parentheses or trailing input, and for a king-bucket map without 64 buckets of 0…63
// that use every bucket from 0 to the largest.
func Parse(spec string) (*Set, error) {
	p := &parser{spec: spec, s: lowerASCII(spec)}
	if len(spec) > maxSpecLen {
		return nil, p.errf("spec longer than %d bytes", maxSpecLen)
	}
	if strings.TrimSpace(spec) == "" {
		return nil, p.errf("empty spec")
	}
	b, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return nil, p.errf("unexpected %q", p.s[p.pos:])
	}
	return NewSet(b), nil
}

// MustParse is Parse that panics on error; for tests and package-level variables.
func MustParse(spec string) *Set {
	s, err := Parse(spec)
	if err != nil {
		panic(err)
	}
	return s
}

// lowerASCII lower-cases ASCII letters only, so byte offsets stay those of the input.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
