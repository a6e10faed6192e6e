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
			c, _ := p.Play(m)
			if p.GivesCheck(m) != c.InCheck() {
				rt.Fatalf("%s %v: GivesCheck %v, child in check %v", p.FEN(), m, p.GivesCheck(m), c.InCheck())
			}
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
		// moves built from the board's own squares hit pseudo-legal cases more often;
		// a pseudo-legal move is legal exactly when Play leaves the mover's king safe
		us := p.SideToMove()
		for from := p.ByColor(us); from != 0; {
			f := from.PopFirst()
			for to := Square(0); to < 64; to++ {
				for _, m := range []Move{NewMove(f, to), NewPromotion(f, to, Queen), NewPromotion(f, to, Knight)} {
					if p.IsLegal(m) != all.Contains(m) {
						rt.Fatalf("%s: IsLegal(%v) = %v, generated %v", p.FEN(), m, p.IsLegal(m), all.Contains(m))
					}
					if !p.IsPseudoLegal(m) {
						if all.Contains(m) {
							rt.Fatalf("%s: %v legal but not pseudo-legal", p.FEN(), m)
						}
						continue
					}
					c, _ := p.Play(m)
					if safe := !c.IsAttacked(c.KingSquare(us), us.Other()); safe != p.IsLegal(m) {
						rt.Fatalf("%s: pseudo-legal %v: king safe after Play %v, IsLegal %v", p.FEN(), m, safe, p.IsLegal(m))
					}
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

// FuzzGenerate: any string that ParseFEN accepts can be generated from and played on
// without a panic, and the generator's invariants hold (captures ∪ quiets = legal, every
// generated move IsLegal, Key == ComputeKey after Play and PlayNull, SEE and GivesCheck
// callable). Seed corpus: testdata/fuzz/FuzzGenerate plus the perft positions.
func FuzzGenerate(f *testing.F) {
	for _, tc := range perftCases {
		f.Add(tc.fen, uint16(0))
	}
	f.Add("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", uint16(0x1234))
	f.Add("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", uint16(0xffff))
	f.Fuzz(func(t *testing.T, fen string, raw uint16) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		var all, caps, quiets MoveList
		p.GenerateLegal(&all)
		p.GenerateCaptures(&caps)
		p.GenerateQuiets(&quiets)
		if caps.N+quiets.N != all.N {
			t.Fatalf("%s: %d captures + %d quiets != %d legal", fen, caps.N, quiets.N, all.N)
		}
		if p.HasLegalMove() != (all.N > 0) {
			t.Fatalf("%s: HasLegalMove", fen)
		}
		_ = p.Status()
		_ = p.IsLegal(Move(raw))
		_ = p.IsPseudoLegal(Move(raw))
		_ = p.SEE(Move(raw))
		for _, m := range all.Slice() {
			if !p.IsLegal(m) {
				t.Fatalf("%s: generated %v is not IsLegal", fen, m)
			}
			_ = p.SEE(m)
			_ = p.GivesCheck(m)
			c, _ := p.Play(m)
			if c.Key() != c.ComputeKey() {
				t.Fatalf("%s %v: incremental key", fen, m)
			}
			var l MoveList
			c.GenerateLegal(&l)
		}
		n, _ := p.PlayNull()
		if n.Key() != n.ComputeKey() {
			t.Fatalf("%s: null-move key", fen)
		}
		var l MoveList
		n.GenerateLegal(&l)
	})
}

// FuzzGenerateUnvalidated builds positions with Put and the setters, without Validate
// (kings missing or several, pawns on the last rank, rights without rooks, any en-passant
// square): the generators, Play, PlayNull, IsLegal, SEE and Status must not panic, and
// Play keeps the incremental key equal to ComputeKey.
func FuzzGenerateUnvalidated(f *testing.F) {
	f.Add([]byte("\x06\x00\x00\x00\x0c\x00\x00\x00\x01\x07\x02\x08"), uint8(0x1f), uint8(20), uint16(0))
	f.Add([]byte{4, 0, 0, 0, 6, 0, 0, 4, 1, 1, 1, 1, 1, 1, 1, 1}, uint8(0x0f), uint8(44), uint16(0x0a12))
	f.Fuzz(func(t *testing.T, board []byte, flags, ep uint8, raw uint16) {
		var p Position
		for i, b := range board {
			if i >= 64 {
				break
			}
			p.Put(Square(i), Piece(b%13))
		}
		p.SetSideToMove(Color(flags >> 4 & 1))
		p.SetCastling(CastlingRights(flags & 15))
		p.SetEnPassant(Square(ep & 63))
		var l MoveList
		p.GenerateLegal(&l)
		p.GenerateCaptures(&l)
		p.GenerateQuiets(&l)
		_ = p.HasLegalMove()
		_ = p.Status()
		_ = p.IsLegal(Move(raw))
		_ = p.SEE(Move(raw))
		_ = p.SEEGE(Move(raw), 0)
		for _, m := range append(l.Slice(), Move(raw)) {
			c, _ := p.Play(m)
			if c.Key() != c.ComputeKey() {
				t.Fatalf("%v: incremental key", m)
			}
			var l2 MoveList
			c.GenerateLegal(&l2)
		}
		n, _ := p.PlayNull()
		n.GenerateLegal(&l)
	})
}
