package featureset

import "github.com/nnuekit/nnuekit/board"

// BlockStats are the thesis App. A.5 statistics of one top-level block of a Set,
// accumulated by Stats. Sums are kept per perspective (index board.White, board.Black);
// the averages divide them by the number of positions or of legal moves.
type BlockStats struct {
	Name    string // the block's spec name ("all", "ph", …)
	Size    int    // number of features
	Active  [2]int64
	Added   [2]int64
	Removed [2]int64
	Refresh [2]int64 // moves for which RequiresRefresh was true
}

// Stats accumulates, over positions and all their legal moves, the average number of
// active features per position and of added/removed features per move, for every
// top-level block of a Set and both perspectives (thesis App. A.5, Table 15). Counts use
// binary semantics (Active and Diff), so a block's "active" can be lower than the number
// of pieces. A Stats is not safe for concurrent use; merge several with Merge.
type Stats struct {
	set       *Set
	Positions int64 // positions added
	Moves     int64 // legal moves played from them
	blocks    []BlockStats
	moves     []board.Move
	buf, a, r []int
}

// NewStats returns an empty Stats for the top-level blocks of s.
func NewStats(s *Set) *Stats {
	st := &Stats{set: s}
	for _, b := range s.parts {
		st.blocks = append(st.blocks, BlockStats{Name: b.Name(), Size: b.Size()})
	}
	return st
}

// Add counts pos: its active features, then every legal move (board.Position.Play) and
// the features it adds and removes. Positions without legal moves count for the
// per-position average only.
func (st *Stats) Add(pos *board.Position) {
	st.Positions++
	for k, b := range st.set.parts {
		for c := board.White; c <= board.Black; c++ {
			st.buf = b.AppendActive(pos, c, 0, st.buf[:0])
			st.blocks[k].Active[c] += int64(len(st.buf))
		}
	}
	st.moves = pos.AppendLegalMoves(st.moves[:0])
	for _, m := range st.moves {
		next, d := pos.Play(m)
		st.Moves++
		for k, b := range st.set.parts {
			for c := board.White; c <= board.Black; c++ {
				st.a, st.r = b.AppendDiff(pos, &next, &d, c, 0, st.a[:0], st.r[:0])
				bs := &st.blocks[k]
				bs.Added[c] += int64(len(st.a))
				bs.Removed[c] += int64(len(st.r))
				if b.RequiresRefresh(&d, c) {
					bs.Refresh[c]++
				}
			}
		}
	}
}

// Merge adds o's counts to st; o must come from the same Set.
func (st *Stats) Merge(o *Stats) {
	st.Positions += o.Positions
	st.Moves += o.Moves
	for k := range st.blocks {
		for c := 0; c < 2; c++ {
			st.blocks[k].Active[c] += o.blocks[k].Active[c]
			st.blocks[k].Added[c] += o.blocks[k].Added[c]
			st.blocks[k].Removed[c] += o.blocks[k].Removed[c]
			st.blocks[k].Refresh[c] += o.blocks[k].Refresh[c]
		}
	}
}

// Blocks returns a copy of the per-block sums.
func (st *Stats) Blocks() []BlockStats { return append([]BlockStats(nil), st.blocks...) }

// StatsRow is one line of the A.5 table: averages over both perspectives.
type StatsRow struct {
	Name        string
	Size        int
	Active      float64 // average active features per position and perspective
	Added       float64 // average features added per legal move and perspective
	Removed     float64 // average features removed per legal move and perspective
	RefreshRate float64 // fraction of (move, perspective) pairs needing a refresh
}

// Table returns the A.5 table: one row per top-level block, averaged over both
// perspectives. Empty Stats give zero rows' averages.
func (st *Stats) Table() []StatsRow { return st.table(-1) }

// TablePerspective is Table for one perspective only.
func (st *Stats) TablePerspective(c board.Color) []StatsRow { return st.table(int(c)) }

func (st *Stats) table(c int) []StatsRow {
	var rows []StatsRow
	div := func(x int64, n int64) float64 {
		if n == 0 {
			return 0
		}
		return float64(x) / float64(n)
	}
	sum := func(x [2]int64) (int64, int64) {
		if c < 0 {
			return x[0] + x[1], 2
		}
		return x[c], 1
	}
	for _, b := range st.blocks {
		a, k := sum(b.Active)
		ad, _ := sum(b.Added)
		re, _ := sum(b.Removed)
		rf, _ := sum(b.Refresh)
		rows = append(rows, StatsRow{
			Name:        b.Name,
			Size:        b.Size,
			Active:      div(a, k*st.Positions),
			Added:       div(ad, k*st.Moves),
			Removed:     div(re, k*st.Moves),
			RefreshRate: div(rf, k*st.Moves),
		})
	}
	return rows
}
