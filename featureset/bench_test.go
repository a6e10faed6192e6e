package featureset

import (
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

var benchSpecs = []string{"all", "h", "v", "d1", "d2", "ph", "pv", "mb", "mc", "ka", "kp", "all+ph+pv", "hv+h+v+d1+d2"}

type benchMove struct {
	before, after board.Position
	dirty         board.DirtyPieces
}

// benchData returns up to 512 positions of positions.epd (or the start position) and one
// legal move from each.
func benchData(b *testing.B) ([]board.Position, []benchMove) {
	pos := epdSample(b, 512)
	if len(pos) == 0 {
		pos = []board.Position{board.StartPosition()}
	}
	var mv []benchMove
	for i := range pos {
		moves := pos[i].LegalMoves()
		if len(moves) == 0 {
			continue
		}
		m := moves[i%len(moves)]
		next, d := pos[i].Play(m)
		mv = append(mv, benchMove{pos[i], next, d})
	}
	return pos, mv
}

// BenchmarkActive: one perspective's active features of one position (ns/op per call).
func BenchmarkActive(b *testing.B) {
	pos, _ := benchData(b)
	for _, spec := range benchSpecs {
		s := MustParse(spec)
		b.Run(spec, func(b *testing.B) {
			buf := make([]int, 0, s.MaxActive())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				buf = s.Active(&pos[i%len(pos)], board.Color(i&1), buf[:0])
			}
		})
	}
}

// BenchmarkDiff: one perspective's added/removed features for one move (fast paths).
func BenchmarkDiff(b *testing.B) {
	_, mv := benchData(b)
	for _, spec := range benchSpecs {
		s := MustParse(spec)
		b.Run(spec, func(b *testing.B) {
			add := make([]int, 0, 2*s.MaxActive())
			rem := make([]int, 0, 2*s.MaxActive())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				m := &mv[i%len(mv)]
				add, rem = s.Diff(&m.before, &m.after, &m.dirty, board.Color(i&1), add[:0], rem[:0])
			}
		})
	}
}

// BenchmarkDiffGeneric: the reference diff (two Active calls and a merge), for comparison.
func BenchmarkDiffGeneric(b *testing.B) {
	_, mv := benchData(b)
	for _, spec := range benchSpecs {
		s := MustParse(spec)
		b.Run(spec, func(b *testing.B) {
			add := make([]int, 0, 2*s.MaxActive())
			rem := make([]int, 0, 2*s.MaxActive())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				m := &mv[i%len(mv)]
				add, rem = s.DiffGeneric(&m.before, &m.after, board.Color(i&1), add[:0], rem[:0])
			}
		})
	}
}

// BenchmarkActivePSQ: Set.Active of the Stockfish piece-square sets (bitboard fast path)
// against ActiveGeneric (block tree), one perspective per call.
func BenchmarkActivePSQ(b *testing.B) {
	pos, _ := benchData(b)
	for _, spec := range []string{"halfkp", "halfkav2_hm"} {
		s := MustParse(spec)
		for _, gen := range []bool{false, true} {
			name := spec + "/fast"
			if gen {
				name = spec + "/generic"
			}
			b.Run(name, func(b *testing.B) {
				buf := make([]int, 0, s.MaxActive())
				for i := 0; b.Loop(); i++ {
					if gen {
						buf = s.ActiveGeneric(&pos[i%len(pos)], board.Color(i&1), buf[:0])
					} else {
						buf = s.Active(&pos[i%len(pos)], board.Color(i&1), buf[:0])
					}
				}
			})
		}
	}
}
