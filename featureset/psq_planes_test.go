package featureset

import (
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// TestActivePlanes: the features ActivePlanes describes are Active's (as a set) for
// HalfKP and HalfKAv2_hm on sampled positions and along random games, both perspectives;
// ok is false exactly for the other sets and for positions without exactly one king of
// persp (where planes stay untouched).
func TestActivePlanes(t *testing.T) {
	sets, positions := planesCases(t)
	rapid.Check(t, func(t *rapid.T) {
		s, pos, persp := drawPlanesCase(t, sets, positions)
		var planes [11]uint64
		for i := range planes {
			planes[i] = 0xDEAD
		}
		np, base, mask, ok := s.ActivePlanes(&pos, persp, &planes)
		wantOK := s.psq != nil && s.psq.planes && pos.Pieces(persp, board.King).Count() == 1
		if ok != wantOK {
			t.Fatalf("%s %v %s: ok %v, want %v", s, persp, pos.FEN(), ok, wantOK)
		}
		if !ok {
			for _, v := range planes {
				if v != 0xDEAD {
					t.Fatalf("%s: planes written without ok", s)
				}
			}
			return
		}
		var got []int
		for k, b := range planes[:np] {
			for sq := range 64 {
				if b>>sq&1 == 1 {
					got = append(got, base+64*k+(sq^mask))
				}
			}
		}
		slices.Sort(got)
		if want := s.Active(&pos, persp, nil); !slices.Equal(got, want) {
			t.Fatalf("%s %v %s: planes give %v, Active %v", s, persp, pos.FEN(), got, want)
		}
	})
}

// TestPlaneRowsBlock: the features PlaneRows and PlaneBlock describe — plane k = the
// pieces of role k/2 of persp's side (k even) or the other side (k odd), feature base +
// rows[k] + (sq XOR mask) — are Active's (as a set) for HalfKP and HalfKAv2_hm on sampled
// positions, along random games, and with persp's king removed or doubled; ok is false
// exactly for the other sets (PlaneRows, PlaneBlock) and for positions without exactly
// one king of persp (PlaneBlock), and PlaneBlock agrees with ActivePlanes.
func TestPlaneRowsBlock(t *testing.T) {
	sets, positions := planesCases(t)
	rapid.Check(t, func(t *rapid.T) {
		s, pos, persp := drawPlanesCase(t, sets, positions)
		switch rapid.IntRange(0, 5).Draw(t, "kings") {
		case 0: // no king of persp
			pos.Remove(pos.KingSquare(persp))
		case 1: // a second king of persp on an empty square
			for sq := board.Square(0); sq < 64; sq++ {
				if pos.PieceAt(sq) == board.NoPiece {
					pos.Put(sq, board.MakePiece(persp, board.King))
					break
				}
			}
		}
		rows, np, rowsOK := s.PlaneRows()
		isPlanes := s.psq != nil && s.psq.planes
		if rowsOK != isPlanes {
			t.Fatalf("%s: PlaneRows ok %v", s, rowsOK)
		}
		base, mask, ok := s.PlaneBlock(&pos, persp)
		var planes [11]uint64
		_, base2, mask2, ok2 := s.ActivePlanes(&pos, persp, &planes)
		if ok != ok2 || ok && (base != base2 || mask != mask2) {
			t.Fatalf("%s %v %s: PlaneBlock %d %d %v, ActivePlanes %d %d %v", s, persp, pos.FEN(), base, mask, ok, base2, mask2, ok2)
		}
		if wantOK := isPlanes && pos.Pieces(persp, board.King).Count() == 1; ok != wantOK {
			t.Fatalf("%s %v %s: ok %v, want %v", s, persp, pos.FEN(), ok, wantOK)
		}
		if !ok {
			return
		}
		if np%2 != 0 || np > MaxPlanes {
			t.Fatalf("%s: %d planes", s, np)
		}
		var got []int
		for k := range np {
			b := uint64(pos.ByRole(board.Role(k/2)) & pos.ByColor(persp^board.Color(k%2)))
			for sq := range 64 {
				if b>>sq&1 == 1 {
					got = append(got, base+rows[k]+(sq^mask))
				}
			}
		}
		slices.Sort(got)
		if want := s.Active(&pos, persp, nil); !slices.Equal(got, want) {
			t.Fatalf("%s %v %s: planes give %v, Active %v", s, persp, pos.FEN(), got, want)
		}
	})
}

// planesCases returns the piece-square sets of psqSpecs and sampled positions (the start
// position and 300 of the golden set) for the planes properties.
func planesCases(t *testing.T) ([]*Set, []board.Position) {
	positions := append([]board.Position{board.StartPosition()}, epdSample(t, 300)...)
	sets := make([]*Set, len(psqSpecs))
	for i, s := range psqSpecs {
		sets[i] = MustParse(s)
	}
	return sets, positions
}

// drawPlanesCase draws a set, a position played on by 0–20 random legal plies, and a
// perspective.
func drawPlanesCase(t *rapid.T, sets []*Set, positions []board.Position) (*Set, board.Position, board.Color) {
	s := sets[rapid.IntRange(0, len(sets)-1).Draw(t, "set")]
	pos := positions[rapid.IntRange(0, len(positions)-1).Draw(t, "pos")]
	for range rapid.IntRange(0, 20).Draw(t, "plies") {
		moves := pos.AppendLegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		pos, _ = pos.Play(moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")])
	}
	return s, pos, board.Color(rapid.IntRange(0, 1).Draw(t, "persp"))
}
