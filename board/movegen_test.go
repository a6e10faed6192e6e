package board

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// randomGamePosition draws a position of a random legal game from the start position or
// a perft position (the positions the properties below run on).
func randomGamePosition(rt *rapid.T) Position {
	starts := []string{StartFEN}
	for _, tc := range perftCases {
		starts = append(starts, tc.fen)
	}
	p := mustFEN(rt, rapid.SampledFrom(starts).Draw(rt, "start"))
	plies := rapid.IntRange(0, 80).Draw(rt, "plies")
	for i := 0; i < plies; i++ {
		var l MoveList
		p.GenerateLegal(&l)
		if l.N == 0 {
			break
		}
		p, _ = p.Play(l.Moves[rapid.IntRange(0, l.N-1).Draw(rt, "move")])
	}
	return p
}

func sortedMoves(ms []Move) []Move {
	s := slices.Clone(ms)
	slices.Sort(s)
	return s
}

// The generator's legal moves equal chess/v2's; captures and quiets partition them;
// evasions equal them; HasLegalMove, LegalMoveCount, IsLegal and IsPseudoLegal agree.
func TestGeneratorMatchesChessV2(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := randomGamePosition(rt)
		var all, caps, quiets, ev MoveList
		p.GenerateLegal(&all)
		p.GenerateCaptures(&caps)
		p.GenerateQuiets(&quiets)
		p.GenerateEvasions(&ev)
		got := sortedMoves(all.Slice())
		want := sortedMoves(chessLegalMoves(&p, nil))
		if !slices.Equal(got, want) {
			rt.Fatalf("%s:\n ours   %v\n chess/v2 %v", p.FEN(), got, want)
		}
		if len(slices.Compact(slices.Clone(got))) != len(got) {
			rt.Fatalf("%s: duplicate moves %v", p.FEN(), got)
		}
		union := sortedMoves(append(slices.Clone(caps.Slice()), quiets.Slice()...))
		if !slices.Equal(union, got) {
			rt.Fatalf("%s: captures %v ∪ quiets %v ≠ legal %v", p.FEN(), caps.Slice(), quiets.Slice(), got)
		}
		for _, m := range caps.Slice() {
			r, _ := m.Promotion()
			if !p.IsCapture(m) && r != Queen {
				rt.Fatalf("%s: %v in captures is neither capture nor queen promotion", p.FEN(), m)
			}
		}
		for _, m := range quiets.Slice() {
			r, _ := m.Promotion()
			if p.IsCapture(m) || r == Queen {
				rt.Fatalf("%s: %v in quiets", p.FEN(), m)
			}
		}
		if !slices.Equal(sortedMoves(ev.Slice()), got) {
			rt.Fatalf("%s: evasions differ", p.FEN())
		}
		if p.HasLegalMove() != (all.N > 0) || p.LegalMoveCount() != all.N {
			rt.Fatalf("%s: HasLegalMove/LegalMoveCount", p.FEN())
		}
		for _, m := range got {
			if !p.IsPseudoLegal(m) || !p.IsLegal(m) {
				rt.Fatalf("%s: generated %v: IsPseudoLegal %v IsLegal %v", p.FEN(), m, p.IsPseudoLegal(m), p.IsLegal(m))
			}
		}
		// random 16-bit moves: IsLegal ⇔ generated, IsLegal ⇒ IsPseudoLegal
		for i := 0; i < 64; i++ {
			m := Move(rapid.Uint16().Draw(rt, "raw"))
			if p.IsLegal(m) != all.Contains(m) {
				rt.Fatalf("%s: IsLegal(%v) = %v, generated %v", p.FEN(), m, p.IsLegal(m), all.Contains(m))
			}
		}
		// moves built from the board's own squares hit pseudo-legal cases more often
		for from := p.ByColor(p.SideToMove()); from != 0; {
			f := from.PopFirst()
			for to := Square(0); to < 64; to++ {
				m := NewMove(f, to)
				if p.IsLegal(m) != all.Contains(m) {
					rt.Fatalf("%s: IsLegal(%v) = %v, generated %v", p.FEN(), m, p.IsLegal(m), all.Contains(m))
				}
				if all.Contains(m) && !p.IsPseudoLegal(m) {
					rt.Fatalf("%s: %v legal but not pseudo-legal", p.FEN(), m)
				}
			}
		}
	})
}

// Key after every Play and PlayNull equals ComputeKey; Play's child equals the position
// parsed from its FEN (the reference path: FEN writer + parser, keys included).
func TestKeyIncremental(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := randomGamePosition(rt)
		if p.Key() != p.ComputeKey() || p.PawnKey() != p.computePawnKey() {
			rt.Fatalf("%s: Key %#x ComputeKey %#x", p.FEN(), p.Key(), p.ComputeKey())
		}
		var l MoveList
		p.GenerateLegal(&l)
		for _, m := range l.Slice() {
			c, _ := p.Play(m)
			if c.Key() != c.ComputeKey() || c.PawnKey() != c.computePawnKey() {
				rt.Fatalf("%s %v: Key %#x ComputeKey %#x", p.FEN(), m, c.Key(), c.ComputeKey())
			}
			if ref := mustFEN(rt, c.FEN()); ref != c {
				rt.Fatalf("%s %v: child differs from ParseFEN(child.FEN())", p.FEN(), m)
			}
		}
		if !p.InCheck() {
			n, _ := p.PlayNull()
			if n.Key() != n.ComputeKey() {
				rt.Fatalf("%s null: Key %#x ComputeKey %#x", p.FEN(), n.Key(), n.ComputeKey())
			}
		}
	})
}

func TestMoveListZeroAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	p := mustFEN(t, benchKiwipete)
	allocs := testing.AllocsPerRun(100, func() {
		var l MoveList
		p.GenerateLegal(&l)
		p.GenerateCaptures(&l)
		_ = p.HasLegalMove()
		_ = p.Status()
		_ = p.IsLegal(l.Moves[0])
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
}
