package featureset

import (
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
	"pgregory.net/rapid"
)

// engineView fills a ThreatBoard the way an engine with its own board would: from its
// mailbox alone, the bitboards built square by square.
func engineView(pos *board.Position) ThreatBoard {
	var v ThreatBoard
	for sq := board.Square(0); sq < 64; sq++ {
		pc := pos.PieceAt(sq)
		v.Mailbox[sq] = pc
		if pc != board.NoPiece {
			v.ByColor[pc.Color()] |= board.SquareBB(sq)
			v.ByRole[pc.Role()] |= board.SquareBB(sq)
		}
	}
	return v
}

// TestBoardPathMatchesPosition: over random legal games, the own-board path of the
// threat sets (Stockfish 19's among them) gives Set.Active's features from views filled
// from a mailbox, and DiffBoth gives the generic difference of both perspectives — as does
// DiffBothDirty, with the relations computed by DirtyThreats when the move is made (as an
// engine does in its make-move) and with a zero DirtyThreats. ThreatBoard.Apply and
// SetMailbox give the view of the position after the move.
func TestBoardPathMatchesPosition(t *testing.T) {
	specs := []string{sf19SpecTest, "threats", "pawnpairs", "threats18+halfkp", "all+threats", "threats+pawnpairs+threats18"}
	var sets []*Set
	var paths []*BoardPath
	for _, sp := range specs {
		s := MustParse(sp)
		p, ok := s.BoardPath()
		if !ok {
			t.Fatalf("%s: no board path", sp)
		}
		sets, paths = append(sets, s), append(paths, p)
	}
	if _, ok := MustParse("threats+mb").BoardPath(); ok {
		t.Fatal("threats+mb: a board path for a set with a mobility summand")
	}
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 200)...)
	rapid.Check(t, func(t *rapid.T) {
		pos := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		var moves []board.Move
		for ply, n := 0, rapid.IntRange(1, 40).Draw(t, "plies"); ply < n; ply++ {
			moves = pos.AppendLegalMoves(moves[:0])
			if len(moves) == 0 {
				return
			}
			m := moves[rapid.IntRange(0, len(moves)-1).Draw(t, "move")]
			next, d := pos.Play(m)
			vb, va := engineView(&pos), engineView(&next)
			// an engine keeping its view move by move, or filling it from a mailbox
			kept := vb
			kept.Apply(&d)
			var fromMailbox ThreatBoard
			fromMailbox.SetMailbox(&va.Mailbox)
			if kept != va || fromMailbox != va {
				t.Fatalf("%s %v: Apply or SetMailbox differs from the view of the position after", pos.FEN(), m)
			}
			for i, s := range sets {
				for c := board.White; c <= board.Black; c++ {
					if got, want := sorted(paths[i].Active(&va, c, nil)), s.Active(&next, c, nil); !slices.Equal(got, want) {
						t.Fatalf("%s %s persp %v: board path %v, Active %v", s, next.FEN(), c, got, want)
					}
				}
				var dt DirtyThreats
				paths[i].DirtyThreats(&vb, &va, &d, &dt)
				for _, diff := range []struct {
					name string
					run  func(ad, rm *[2][]int)
				}{
					{"DiffBoth", func(ad, rm *[2][]int) { paths[i].DiffBoth(&vb, &va, &d, ad, rm) }},
					{"DiffBothDirty", func(ad, rm *[2][]int) { paths[i].DiffBothDirty(&vb, &va, &d, &dt, ad, rm) }},
					{"DiffBothDirty(zero)", func(ad, rm *[2][]int) { paths[i].DiffBothDirty(&vb, &va, &d, &DirtyThreats{}, ad, rm) }},
				} {
					var ad, rm [2][]int
					diff.run(&ad, &rm)
					for c := board.White; c <= board.Black; c++ {
						ga, gr := s.DiffGeneric(&pos, &next, c, nil, nil)
						if !slices.Equal(sorted(ad[c]), ga) || !slices.Equal(sorted(rm[c]), gr) {
							t.Fatalf("%s %s %v persp %v: board %s +%v −%v, generic +%v −%v", s, pos.FEN(), m, c, diff.name, sorted(ad[c]), sorted(rm[c]), ga, gr)
						}
					}
				}
			}
			pos = next
		}
	})
}

// sf19SpecTest is Stockfish 19's feature set (the nnue package's sfThreatsSpec).
const sf19SpecTest = "threats+pawnpairs+halfkav2_hm"

// TestDirtyThreatsNoAllocation: computing a move's changed threats and indexing them for
// both perspectives allocates nothing once the caller's lists have room (an engine's
// make-move and accumulator update).
func TestDirtyThreatsNoAllocation(t *testing.T) {
	s := MustParse(sf19SpecTest)
	p, _ := s.BoardPath()
	pos := board.StartPosition()
	m, err := board.ParseUCIMove(&pos, "e2e4")
	if err != nil {
		t.Fatal(err)
	}
	next, d := pos.Play(m)
	vb, va := engineView(&pos), engineView(&next)
	var dt DirtyThreats
	var ad, rm [2][]int
	for c := range ad {
		ad[c], rm[c] = make([]int, 0, 256), make([]int, 0, 256)
	}
	if a := testing.AllocsPerRun(50, func() {
		p.DirtyThreats(&vb, &va, &d, &dt)
		for c := range ad {
			ad[c], rm[c] = ad[c][:0], rm[c][:0]
		}
		p.DiffBothDirty(&vb, &va, &d, &dt, &ad, &rm)
	}); a != 0 {
		t.Fatalf("%v allocations per move, want 0", a)
	}
	if len(ad[0]) == 0 || len(ad[1]) == 0 {
		t.Fatal("e2e4 added no feature")
	}
}

// TestThreatBoardApplyArbitrary: for any DirtyPieces, valid or not (an engine's own), Apply
// gives the board SetMailbox builds from the mailbox board.DirtyPieces.ApplyTo gives, so the
// bitboards always agree with the Mailbox.
func TestThreatBoardApplyArbitrary(t *testing.T) {
	starts := append([]board.Position{board.StartPosition()}, epdSample(t, 50)...)
	rapid.Check(t, func(t *rapid.T) {
		pos := starts[rapid.IntRange(0, len(starts)-1).Draw(t, "start")]
		var tb ThreatBoard
		tb.SetPosition(&pos)
		var d board.DirtyPieces
		d.N = rapid.IntRange(-2, 5).Draw(t, "n")
		for i := range d.Pieces {
			d.Pieces[i] = board.DirtyPiece{
				Piece: board.Piece(rapid.IntRange(0, 15).Draw(t, "piece")),
				From:  board.Square(rapid.IntRange(0, 70).Draw(t, "from")),
				To:    board.Square(rapid.IntRange(0, 70).Draw(t, "to")),
			}
		}
		mb := tb.Mailbox
		d.ApplyTo(&mb)
		var want ThreatBoard
		want.SetMailbox(&mb)
		tb.Apply(&d)
		if tb != want {
			t.Fatalf("Apply(%+v) on %s: %+v, want %+v", d, pos.FEN(), tb, want)
		}
	})
}
