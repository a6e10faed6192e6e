package nnue

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/nnuekit/nnuekit/board"
)

// looksLikeStockfish reports whether head looks like the start of a Stockfish .nnue file
// of any version: a version word of the 0x7AF32Fxx family (Stockfish 12 to 17.1), or a
// binary (not printable ASCII) version word followed by a hash and a plausible
// description (length 1..4096, printable ASCII), as every Stockfish network since 12
// has. Thesis files start with a printable feature-set name, native ones with their magic.
func looksLikeStockfish(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	if binary.LittleEndian.Uint32(head)&0xFFFFFF00 == 0x7AF32F00 {
		return true
	}
	if len(head) < 13 {
		return false
	}
	binaryWord := false
	for _, c := range head[:4] {
		if c < 0x20 || c >= 0x7F {
			binaryWord = true
		}
	}
	n := int(binary.LittleEndian.Uint32(head[8:]))
	if !binaryWord || n < 1 || n > 4096 {
		return false
	}
	for _, c := range head[12:min(len(head), 12+min(n, 64))] {
		if c < 0x20 || c >= 0x7F {
			return false
		}
	}
	return true
}

func decodeStockfish(data []byte) (*Network, error) {
	f, err := parseSF(data)
	if err != nil {
		return nil, err
	}
	return newSFNetwork(f)
}

// newSFNetwork turns a parsed Stockfish file into a Network built from the
// package's layer types; it takes ownership of f's slices (do not modify f afterwards).
//
// HalfKP (Stockfish 12/13): feature set featureset.HalfKP(), width 256, one stack
//
//	Perspective → ClippedReLU(int16) → Affine(512→32) → ClippedReLU(>>6) →
//	Affine(32→32) → ClippedReLU(>>6) → Affine(32→1),  Value = output / 16.
//
// SFNNv5 (Stockfish 15.1, 16, 17.1): feature set featureset.HalfKAv2hm(), width L1
// from the file (1024, 1536, …), 8 PSQT buckets, 8 stacks selected by (pieces − 1)/4, each
//
//	Perspective → Pairwise(0..127, >>7) → Affine(L1→16) → Residual(Concat(SqrClippedReLU(>>19),
//	ClippedReLU(>>6)) → Affine(30→32) → ClippedReLU(>>6) → Affine(32→1), + last·9600/8128),
//	Value = ((psqt_stm − psqt_other)/2 + positional) / 16.
//
// Evaluate then returns Stockfish's internal Value for the side to move
// (NNUE::evaluate(pos) in Stockfish 13, NNUE::evaluate(pos, false) in 15.1 and 16);
// PawnValue is 208 (Stockfish 13 PawnValueEg), 361 (Stockfish 15.1 NormalizeToPawnValue,
// uncompressed L1 = 1024 files) or 328 (Stockfish 16, every other SFNNv5 file).
func newSFNetwork(f *sfFile) (*Network, error) {
	if f == nil {
		return nil, fmt.Errorf("nnue: nil sfFile")
	}
	if _, err := f.shape(); err != nil {
		return nil, err
	}
	if f.Arch == sfThreats {
		return newStockfishThreatsNetwork(f)
	}
	// The declared architecture: stages and constants of Stockfish's nnue_architecture.h,
	// sizes from the file.
	var decl string
	var params []any
	affine := func(a *sfAffine) { params = append(params, a.Weights, a.Biases) }
	wsb := sfWeightScaleBits
	switch f.Arch {
	case sfHalfKP:
		st := &f.Stacks[0]
		decl = stockfishHalfKPDecl(f.HalfDims, st.FC0.Out, st.FC1.Out)
		affine(&st.FC0)
		affine(&st.FC1)
		affine(&st.FC2)
	case sfSFNNv5:
		st := &f.Stacks[0]
		decl = fmt.Sprintf("ft=halfkav2_hm:i16 width=%d psqt=%d stack=stm>pairwise(127,7)>affine.i8(%d)>skip(concat(sqrcrelu(%d),crelu.i32(%d)),affine.i8(%d),crelu.i32(%d),affine.i8(1),%d,%d) buckets=pieces(%d,1,4) psqtdiv=2 out=/%d pawn=%d",
			f.HalfDims, f.PSQTBuckets, st.FC0.Out, 2*wsb+7, wsb, st.FC1.Out, wsb, 600*sfOutputScale, 127<<wsb,
			len(f.Stacks), sfOutputScale, stockfishPawnValue(f))
		for k := range f.Stacks {
			affine(&f.Stacks[k].FC0)
			affine(&f.Stacks[k].FC1)
			affine(&f.Stacks[k].FC2)
		}
	default:
		return nil, fmt.Errorf("nnue: stockfish: unknown architecture %v", f.Arch)
	}
	spec, err := ParseSpec(decl)
	if err != nil {
		return nil, fmt.Errorf("nnue: stockfish: %w", err)
	}
	if sh, _ := spec.shape(); sh.set.Size() != f.Features {
		return nil, fmt.Errorf("nnue: stockfish: feature set %s has %d features, file has %d", sh.set, sh.set.Size(), f.Features)
	}
	quant := "stockfish: accumulator 127, hidden weights 64 (>>6), output /16"
	if f.Arch == sfSFNNv5 {
		quant = "stockfish: accumulator 127, pairwise /128, hidden weights 64 (>>6), output /16"
	}
	desc := fmt.Sprintf("Stockfish %s net, version 0x%08X, hash 0x%08X: %s", f.Arch, f.Version, f.Hash, f.Description)
	return spec.assemble(nil, f.FTWeights, f.FTBiases, f.PSQTWeights, params, desc, quant)
}

// stockfishPawnValue guesses the engine's printed-pawn divisor for an SFNNv5-family
// file, which does not name its engine: 361 (Stockfish 15.1) for the uncompressed
// 1024-wide layout 15.1 wrote, 328 (Stockfish 16) for every compressed or wider file.
func stockfishPawnValue(f *sfFile) int32 {
	if f.HalfDims == 1024 && !f.Compressed[1] {
		return sfPawnValueSF15
	}
	return sfPawnValueSF16
}

// Trace is what Stockfish 15.1's eval command prints in its "NNUE network
// contributions" table, computed for every bucket: the used bucket and, per bucket, the
// Material (PSQT) and Positional (Layers) columns as internal Values, each already
// divided by OutputScale 16 with truncation, from the side to move's point of view.
// Value is NNUE::evaluate(pos, false) of the used bucket, (psqt + positional)/16 of the
// undivided sums (which can differ by one unit from PSQT[b] + Positional[b]).
// For a network without buckets (HalfKP) the table has one row.
type Trace struct {
	SideToMove board.Color
	Bucket     int
	PSQT       []int32
	Positional []int32
	Value      int32
	PawnValue  int32 // divisor from internal Value to printed pawns (208, 361 or 328)
	// PawnDivisor is Stockfish 19's material-dependent divisor for this position
	// (sfMaterialPawnDivisor), 0 for networks with a fixed PawnValue. When set,
	// WriteTable prints Stockfish 19's layout and rounding.
	PawnDivisor float64
}

// Trace refreshes the evaluator's accumulator for pos and runs every layer stack on it,
// as Stockfish's trace_evaluate does.
func (e *Evaluator) Trace(pos *board.Position) Trace {
	e.Refresh(pos)
	n := e.net
	stm := pos.SideToMove()
	t := Trace{SideToMove: stm, Bucket: n.arch.Buckets.Of(pos), PawnValue: n.arch.PawnValue}
	if t.PawnValue == 0 {
		t.PawnValue = 100
	}
	if n.arch.PawnByMaterial {
		t.PawnDivisor = sfMaterialPawnDivisor(pos)
	}
	div := n.arch.Output
	for b := 0; b < n.arch.Buckets.Count(); b++ {
		o := e.ForwardBucket(e.acc, stm, b)
		t.PSQT = append(t.PSQT, div.Apply(int64(o.PSQT)))
		t.Positional = append(t.Positional, div.Apply(int64(o.Positional)))
		if b == t.Bucket {
			t.Value = o.Value
		}
	}
	return t
}

// formatSFPawns formats an internal Value as Stockfish's eval prints pawns:
// v/pawnValue with two decimals, keeping the sign of small negative values ("-0.00");
// identical to Go's %.2f of float64(v)/pawnValue.
func formatSFPawns(v, pawnValue int32) string {
	return fmt.Sprintf("%.2f", float64(v)/float64(pawnValue))
}

// stockfishAligned formats v as Stockfish 15.1's format_cp_aligned_dot: a sign character
// ('+', '-', or ' ' for zero) followed by |v|/pawnValue in "%6.2f".
func stockfishAligned(v, pawnValue int32) string {
	sign := " "
	if v < 0 {
		sign = "-"
	} else if v > 0 {
		sign = "+"
	}
	return sign + fmt.Sprintf("%6.2f", math.Abs(float64(v))/float64(pawnValue))
}

// WriteTable writes the bucket table in the layout of Stockfish 15.1's eval command
// ("NNUE network contributions", one row per bucket, the used one marked), followed by
// the "NNUE evaluation" line from White's point of view.
//
// With PawnDivisor set (Stockfish 19) it follows Stockfish 19's nnue_misc.cpp trace and
// evaluate.cpp: the title says "(Normalized, … to move)", each cell is
// |round(100·v/a)|/100 with the sign of v, and two lines follow: the NNUE value in
// internal units for the side to move, and round(100·v/a)/100 from White's side.
func (t Trace) WriteTable(w io.Writer) error {
	var sb strings.Builder
	side := "(White to move)"
	if t.SideToMove == board.Black {
		side = "(Black to move)"
	}
	line := "+------------+------------+------------+------------+\n"
	if t.PawnDivisor > 0 {
		return t.writeTable19(w, side[1:len(side)-1], line)
	}
	sb.WriteString(" NNUE network contributions " + side + "\n" + line +
		"|   Bucket   |  Material  | Positional |   Total    |\n" +
		"|            |   (PSQT)   |  (Layers)  |            |\n" + line)
	for b := range t.PSQT {
		fmt.Fprintf(&sb, "|  %d         |  %s   |  %s   |  %s   |", b,
			stockfishAligned(t.PSQT[b], t.PawnValue), stockfishAligned(t.Positional[b], t.PawnValue),
			stockfishAligned(t.PSQT[b]+t.Positional[b], t.PawnValue))
		if b == t.Bucket {
			sb.WriteString(" <-- this bucket is used")
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(line)
	white := t.Value
	if t.SideToMove == board.Black {
		white = -white
	}
	fmt.Fprintf(&sb, "\nNNUE evaluation        %+.2f (white side)\n", float64(white)/float64(t.PawnValue))
	_, err := io.WriteString(w, sb.String())
	return err
}

// sf19Aligned is Stockfish 19's format_cp_aligned_dot: the sign of v ('+', '-', ' ')
// then |to_cp(v)|/100 in "%6.2f", to_cp(v) = round(100·v/a).
func sf19Aligned(v int32, a float64) string {
	sign := " "
	if v < 0 {
		sign = "-"
	} else if v > 0 {
		sign = "+"
	}
	return sign + fmt.Sprintf("%6.2f", math.Round(100*math.Abs(float64(v))/a)/100)
}

// sfToCP is Stockfish 19's UCIEngine::to_cp: round(100·v/a) with a the
// material-dependent divisor (round half away from zero).
func sfToCP(v int32, a float64) int {
	return int(math.Round(100 * float64(v) / a))
}

func (t Trace) writeTable19(w io.Writer, side, line string) error {
	var sb strings.Builder
	a := t.PawnDivisor
	sb.WriteString("NNUE network contributions (Normalized, " + side + ")\n" + line +
		"|   Bucket   |  Material  | Positional |   Total    |\n" +
		"|            |   (PSQT)   |  (Layers)  |            |\n" + line)
	for b := range t.PSQT {
		fmt.Fprintf(&sb, "|  %d         |  %s   |  %s   |  %s   |", b,
			sf19Aligned(t.PSQT[b], a), sf19Aligned(t.Positional[b], a), sf19Aligned(t.PSQT[b]+t.Positional[b], a))
		if b == t.Bucket {
			sb.WriteString(" <-- this bucket is used")
		}
		sb.WriteByte('\n')
	}
	sb.WriteString(line)
	white := t.Value
	if t.SideToMove == board.Black {
		white = -white
	}
	fmt.Fprintf(&sb, "\nNNUE evaluation          %+d (side to move, internal units)\n", t.Value)
	fmt.Fprintf(&sb, "NNUE evaluation        %+.2f (white side)\n", 0.01*float64(sfToCP(white, a)))
	_, err := io.WriteString(w, sb.String())
	return err
}
