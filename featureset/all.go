package featureset

// ALL and NK are line blocks (axes.go) with one line per square, so they share the
// line-block code and its DirtyPieces fast path.

// All returns the ALL block (thesis §3.3.1): 768 features, index (file·8 + rank)·12 +
// role·2 + color — file-major, as the thesis code and its published networks use
// (the text's SQUARES order is not specified; see doc/featuresets.md).
func All(o Orientation) Block {
	return &lineBlock{newLeaf("all", "ALL", o, Flip, SquaresFileMajor, Roles, Colors), lineSquare, false, 12}
}

// NonKing returns the NK block: ALL without the kings, (SQUARES(file-major) ×
// ROLES-NK × COLORS), 640 features, index (file·8 + rank)·10 + role·2 + color — the piece
// half of KP (thesis §3.3.2, draft 004 §2.4.3 KING-PIECE). Layout chosen to match ALL.
func NonKing(o Orientation) Block {
	return &lineBlock{newLeaf("nk", "NK", o, Flip, SquaresFileMajor, NonKingRoles, Colors), lineSquare, true, 10}
}
