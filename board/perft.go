package board

// maxPerftDepth is the deepest Perft supported (far beyond anything computable).
const maxPerftDepth = 32

// Perft returns the number of leaf nodes of the legal move tree of p of the given depth
// (CPW: "Perft"; perft(0) = 1), with bulk counting: at depth 1 the legal moves are
// counted, not played. It uses GenerateLegal and Play only, allocates nothing and is the
// standard test of a move generator (counts in CPW "Perft Results") and a benchmark of
// generation plus Play. A negative depth counts as 0; depths above 32 are cut to 32.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	depth = min(depth, maxPerftDepth)
	var st [maxPerftDepth]Position // one Position per ply, on the stack (recursion would move children to the heap)
	st[0] = *p
	return perftRec(&st, 0, depth)
}

func perftRec(st *[maxPerftDepth]Position, ply, depth int) uint64 {
	p := &st[ply]
	var l MoveList
	p.generate(&l, genAll)
	if depth == 1 {
		return uint64(l.N)
	}
	var n uint64
	for _, m := range l.Moves[:l.N] {
		st[ply+1], _ = p.Play(m)
		n += perftRec(st, ply+1, depth-1)
	}
	return n
}
