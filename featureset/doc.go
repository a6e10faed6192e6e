// Package featureset is the feature-set algebra of chess NNUE networks: what the network
// sees of a position.
//
// It follows M. E. Lombardo, "Feature set analysis for chess NNUE networks" (thesis §3):
// a feature set is a set of tuples with a predicate; its elements are features, active
// when the predicate holds in the position. Blocks are declared by their dimensions
// (FILES, RANKS, SQUARES, ROLES, COLORS, … — see Dimension) and a predicate; the strided
// indexer (thesis §3.4) maps a tuple ⟨e₀, …, eₙ⟩ to e₀·|D₁|·…·|Dₙ| + … + eₙ and back
// (Describe, Index). Blocks combine with Sum ⊕ (concatenation, thesis §3.1) and Product ×
// (thesis §3.2); both are blocks again, so composition is recursive. A Set is the
// top-level value users hold: Parse("all+ph+pv"), String, Size, Active, Diff,
// RequiresRefresh.
//
// Semantics are binary: a feature is active or not, and a block that produces the same
// tuple twice (two rooks on one file for H) reports it once. Colors are relative to the
// perspective: color index 0 is the perspective's own pieces (the pairwise blocks PH/PV
// encode own as 1, as the thesis code does). Each block has an Orientation; the thesis
// blocks use Flip: Black's perspective is the board flipped vertically with colors
// swapped (thesis §4.2), so Active(p, Black) equals Active(p.Flip(), White).
//
// The index layouts are those of the thesis code, which its published networks were
// trained with (../shared/thesis-models/README.md); doc/featuresets.md lists every block
// with its formula and where the thesis text differs.
//
// Blocks: ALL ("all", legacy "hv") 768, H 96, V 96, D1 180, D2 180, PH 1152, PV 1152,
// MB 768, MC 206, KSQ 64, NK 640, KING-ALL ("ka") 49152, KP 40960.
//
// Active and Diff append to caller-provided slices and allocate nothing else; Diff uses
// board.DirtyPieces fast paths where changes are local (ALL, H, V, D1, D2, PH, PV, NK,
// KING-ALL/KP while the own king stays) and is exact in every case.
//
// Engines with their own board use Set.PieceSquare for the piece-square sets (ALL,
// KING-ALL, KP, HalfKP, HalfKAv2_hm): feature indices per perspective from (piece,
// square, own king square) and a move's difference straight from its dirty pieces,
// without a board.Position (doc/engine.md). Set.Diff and Set.RequiresRefresh of these sets
// take the same table-driven path.
package featureset
