package nnue

import (
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/nnuekit/nnuekit/board"
)

// mailboxEngine is a test engine's own board: a mailbox numbered from a8 = 0 (a8, b8, …,
// h8, a7, …, h1), as many engines keep it, unrelated to board.Square (a1 = 0). Its make
// move derives the dirty pieces from its own squares; board.Position serves only as the
// move generator and the oracle.
type mailboxEngine struct {
	sq    [64]board.Piece // a8 = 0
	kings [2]int          // a8 = 0 numbering
	stm   board.Color
}

// a8 converts between the engine's a8 = 0 numbering and board.Square (an involution).
func a8(sq int) board.Square { return board.Square(sq ^ 56) }

func newMailboxEngine(pos *board.Position) *mailboxEngine {
	e := &mailboxEngine{stm: pos.SideToMove()}
	for s := range 64 {
		pc := pos.PieceAt(a8(s))
		e.sq[s] = pc
		if pc != board.NoPiece && pc.Role() == board.King {
			e.kings[pc.Color()] = s
		}
	}
	return e
}

// mustSquare parses a square name ("e4").
func mustSquare(name string) board.Square {
	sq, err := board.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return sq
}

// boardMailbox is the engine's board indexed by board.Square, as ResetBoard takes it.
func (e *mailboxEngine) boardMailbox() [64]board.Piece {
	var m [64]board.Piece
	for s, pc := range e.sq {
		m[a8(s)] = pc
	}
	return m
}

// make plays the move from → to (engine squares) with an optional promotion role and
// returns its Delta in board.Square terms.
func (e *mailboxEngine) make(from, to int, promo board.Role, isPromo bool) Delta {
	var d Delta
	add := func(pc board.Piece, f, t int) {
		dp := board.DirtyPiece{Piece: pc, From: board.NoSquare, To: board.NoSquare}
		if f >= 0 {
			dp.From = a8(f)
		}
		if t >= 0 {
			dp.To = a8(t)
		}
		d.Dirty.Pieces[d.Dirty.N] = dp
		d.Dirty.N++
	}
	mover := e.sq[from]
	captured, capSq := e.sq[to], to
	if mover.Role() == board.Pawn && from%8 != to%8 && captured == board.NoPiece { // en passant
		capSq = from/8*8 + to%8
		captured = e.sq[capSq]
	}
	if isPromo {
		add(mover, from, -1)
	} else {
		add(mover, from, to)
	}
	if captured != board.NoPiece {
		add(captured, capSq, -1)
		e.sq[capSq] = board.NoPiece
	}
	e.sq[from] = board.NoPiece
	e.sq[to] = mover
	if isPromo {
		np := board.MakePiece(e.stm, promo)
		add(np, -1, to)
		e.sq[to] = np
	}
	if mover.Role() == board.King {
		e.kings[e.stm] = to
		if d := to - from; d == 2 || d == -2 { // castling: the rook jumps over the king
			rf, rt := from/8*8+7, from+1
			if d < 0 {
				rf, rt = from/8*8, from-1
			}
			rook := e.sq[rf]
			add(rook, rf, rt)
			e.sq[rf], e.sq[rt] = board.NoPiece, rook
		}
	}
	e.stm = e.stm.Other()
	d.Kings = [2]board.Square{a8(e.kings[0]), a8(e.kings[1])}
	d.SideToMove = e.stm
	return d
}

// ownBoardNets are the families the own-board path covers: the piece-square sets thesis
// ALL (nnue.Default), KING-ALL and KP (built here), bullet's horizontally mirrored ALL@hm
// and KING-ALL@hm (built here), Stockfish 13 HalfKP and Stockfish 15.1 HalfKAv2_hm (32
// king buckets, mirrored), and Stockfish 19's threat set (its board path, int8 rows and
// hybrid king update) (../shared/nets, skipped when absent).
func ownBoardNets(t *testing.T) map[string]func(t *testing.T) *Network {
	rng := rand.New(rand.NewPCG(24, 1))
	ka := randomThesisNet(t, rng, "ka", 32, 8, 60)
	kp := randomThesisNet(t, rng, "kp", 32, 8, 60)
	allHM := randomThesisNet(t, rng, "all@hm", 32, 8, 60) // bullet's mirrored input
	kaHM := randomThesisNet(t, rng, "ka@hm", 32, 8, 60)
	return map[string]func(t *testing.T) *Network{
		"all":    func(t *testing.T) *Network { return shippedNet(t, "default") },
		"ka":     func(t *testing.T) *Network { return ka },
		"kp":     func(t *testing.T) *Network { return kp },
		"all@hm": func(t *testing.T) *Network { return allHM },
		"ka@hm":  func(t *testing.T) *Network { return kaHM },
		"bullet all@hm alexandria-sl-hm-cba722a": func(t *testing.T) *Network {
			return shippedNet(t, "alexandria-sl-hm-cba722a.net")
		},
		"sf13 halfkp": func(t *testing.T) *Network {
			return sfTestNetwork(t, sfNetHalfKP)
		},
		"sf15.1 halfkav2_hm": func(t *testing.T) *Network {
			return sfTestNetwork(t, sfNetSFNNv5)
		},
		"sf19 threats+pawnpairs+halfkav2_hm": func(t *testing.T) *Network {
			return sfTestNetwork(t, sfNetSF19)
		},
	}
}

// TestOwnBoardStackMatchesPosition: a test engine with an a8 = 0 mailbox plays random
// legal games (board.Position generates the moves and is the oracle) with make/unmake;
// its own-board stack (ResetBoard, PushDelta) evaluates exactly as the board.Position
// stack (PushMove), a full refresh (Evaluate) and EvaluateBoard at every ply, for every
// piece-square family.
func TestOwnBoardStackMatchesPosition(t *testing.T) {
	for name, load := range ownBoardNets(t) {
		t.Run(name, func(t *testing.T) {
			net := load(t)
			own, ref := net.NewAccumulatorStack(), net.NewAccumulatorStack()
			ev := net.NewEvaluator()
			rapid.Check(t, func(rt *rapid.T) {
				root := board.StartPosition()
				if rapid.Bool().Draw(rt, "kiwipete") {
					p, err := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
					if err != nil {
						rt.Fatal(err)
					}
					root = p
				}
				eng := newMailboxEngine(&root)
				mb := eng.boardMailbox()
				if err := own.ResetBoard(&mb, eng.stm); err != nil {
					rt.Fatal(err)
				}
				ref.Reset(&root)
				engines := []mailboxEngine{*eng}
				steps := rapid.IntRange(1, 40).Draw(rt, "steps")
				for step := range steps {
					pos := ref.Position()
					moves := pos.LegalMoves()
					if len(moves) == 0 || ref.Len() > 1 && rapid.IntRange(0, 5).Draw(rt, "action") == 0 {
						if ref.Len() == 1 {
							break
						}
						ref.Pop()
						own.Pop()
						engines = engines[:len(engines)-1]
						*eng = engines[len(engines)-1]
					} else {
						m := moves[rapid.IntRange(0, len(moves)-1).Draw(rt, "move")]
						promo, isPromo := m.Promotion()
						d := eng.make(int(m.From()^56), int(m.To()^56), promo, isPromo)
						if err := own.PushDelta(&d); err != nil {
							rt.Fatal(err)
						}
						ref.PushMove(m)
						engines = append(engines, *eng)
					}
					pos = ref.Position()
					if mb := eng.boardMailbox(); mb != pos.Mailbox() || eng.stm != pos.SideToMove() {
						rt.Fatalf("step %d: the test engine's board differs from %s", step, pos.FEN())
					}
					// Evaluate only some plies, so that the lazy walk spans several moves.
					if step == steps-1 || rapid.IntRange(0, 2).Draw(rt, "eval") == 0 {
						got, want := own.Evaluate(), ref.Evaluate()
						full := ev.Evaluate(pos)
						mb := eng.boardMailbox()
						byBoard, err := ev.EvaluateBoard(&mb, eng.stm)
						if err != nil {
							rt.Fatal(err)
						}
						if got != want || got != full || byBoard != full {
							rt.Fatalf("step %d %s: own board %d, position stack %d, refresh %d, EvaluateBoard %d", step, pos.FEN(), got, want, full, byBoard)
						}
					}
				}
			})
		})
	}
}

// TestOwnBoardErrors: the own-board entry points refuse what they cannot serve with an
// error, never a panic: a feature set without a piece-square path, a mailbox without
// exactly one king per colour or with an invalid piece, an invalid Delta, PushDelta on a
// board.Position stack.
func TestOwnBoardErrors(t *testing.T) {
	net := shippedNet(t, "default")
	st := net.NewAccumulatorStack()
	start := board.StartPosition()
	mb := start.Mailbox()
	st.Reset(&start)
	d := Delta{Kings: [2]board.Square{board.E1, board.E8}, SideToMove: board.Black}
	if err := st.PushDelta(&d); err == nil || !strings.Contains(err.Error(), "ResetBoard") {
		t.Fatalf("PushDelta on a position stack: %v", err)
	}
	noKing := mb
	noKing[board.E1] = board.NoPiece
	twoKings := mb
	twoKings[board.D1] = board.MakePiece(board.White, board.King)
	bad := mb
	bad[mustSquare("a3")] = 13
	for name, m := range map[string][64]board.Piece{"no white king": noKing, "two kings": twoKings, "invalid piece": bad} {
		if err := st.ResetBoard(&m, board.White); err == nil {
			t.Errorf("%s: ResetBoard accepted it", name)
		}
		if _, err := net.NewEvaluator().EvaluateBoard(&m, board.White); err == nil {
			t.Errorf("%s: EvaluateBoard accepted it", name)
		}
	}
	if err := st.ResetBoard(&mb, 2); err == nil {
		t.Error("side to move 2 accepted")
	}
	if err := st.ResetBoard(&mb, board.White); err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]Delta{
		"king off the board": {Kings: [2]board.Square{board.NoSquare, board.E8}},
		"side to move 5":     {Kings: [2]board.Square{board.E1, board.E8}, SideToMove: 5},
		"N = 4":              {Dirty: board.DirtyPieces{N: 4}, Kings: [2]board.Square{board.E1, board.E8}},
		"invalid piece":      {Dirty: board.DirtyPieces{N: 1, Pieces: [3]board.DirtyPiece{{Piece: 14, From: mustSquare("e2"), To: mustSquare("e4")}}}, Kings: [2]board.Square{board.E1, board.E8}},
	} {
		if err := st.PushDelta(&d); err == nil {
			t.Errorf("%s: PushDelta accepted it", name)
		}
	}
	if st.Len() != 1 {
		t.Fatalf("a refused Delta was pushed: Len %d", st.Len())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("PushMove on an own-board stack did not panic")
			}
		}()
		st.PushMove(board.NewMove(mustSquare("e2"), mustSquare("e4")))
	}()

	whole := randomThesisNet(t, rand.New(rand.NewPCG(1, 2)), "all+ph", 32, 8, 10)
	if err := whole.NewAccumulatorStack().ResetBoard(&mb, board.White); err == nil || !strings.Contains(err.Error(), "whole board") {
		t.Fatalf("all+ph: %v", err)
	}
}

// TestPushDeltaNoAlloc: after Reserve, PushDelta, Evaluate and Pop allocate nothing, for
// a piece-square set (the default network) and Stockfish 19's threat set.
func TestPushDeltaNoAlloc(t *testing.T) {
	t.Run("default", func(t *testing.T) { pushDeltaNoAlloc(t, shippedNet(t, "default")) })
	t.Run("sf19", func(t *testing.T) { pushDeltaNoAlloc(t, sfTestNetwork(t, sfNetSF19)) })
}

func pushDeltaNoAlloc(t *testing.T, net *Network) {
	st := net.NewAccumulatorStack()
	st.Reserve(8)
	start := board.StartPosition()
	eng := newMailboxEngine(&start)
	mb := eng.boardMailbox()
	if err := st.ResetBoard(&mb, board.White); err != nil {
		t.Fatal(err)
	}
	st.Evaluate()
	d1 := eng.make(int(mustSquare("e2")^56), int(mustSquare("e4")^56), 0, false)
	d2 := eng.make(int(board.E8^56), int(mustSquare("e7")^56), 0, false) // a king move: a refresh
	allocs := testing.AllocsPerRun(100, func() {
		if st.PushDelta(&d1) != nil || st.PushDelta(&d2) != nil {
			t.Fatal("PushDelta failed")
		}
		st.Evaluate()
		st.Pop()
		st.Pop()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per push/evaluate/pop", allocs)
	}
}

// FuzzPushDelta: any Delta an engine passes — squares off the board, kings that do not
// match the board, pieces appearing from nowhere — gives an error or a push whose Evaluate
// runs, never a panic; a refused Delta pushes nothing. Each input is played on the
// default network's stack (a piece-square set) and on Stockfish 19's (a threat set with
// its ThreatBoards; when ../shared/nets has it).
func FuzzPushDelta(f *testing.F) {
	f.Add([]byte{1, 12, 28, 0, 0, 0, 0, 0, 0, 0, 4, 60, 1}) // e2e4 (a1 = 0 squares)
	f.Add([]byte{3, 6, 4, 100, 12, 200, 255, 1, 0, 7, 3, 70, 0})
	// boards the Kings do not describe: the white king taken off, a second one put on, a
	// queen put on the king's square (the threat set reads kings off its ThreatBoards)
	wk, bq := board.MakePiece(board.White, board.King), board.MakePiece(board.Black, board.Queen)
	f.Add(encodeDeltas(
		Delta{Dirty: board.DirtyPieces{N: 1, Pieces: [3]board.DirtyPiece{{Piece: wk, From: board.E1, To: board.NoSquare}}}, Kings: [2]board.Square{board.E1, board.E8}, SideToMove: board.Black},
		Delta{Dirty: board.DirtyPieces{N: 1, Pieces: [3]board.DirtyPiece{{Piece: wk, From: board.NoSquare, To: mustSquare("d4")}}}, Kings: [2]board.Square{board.E1, board.E8}, SideToMove: board.White},
		Delta{Dirty: board.DirtyPieces{N: 1, Pieces: [3]board.DirtyPiece{{Piece: bq, From: board.NoSquare, To: board.E1}}}, Kings: [2]board.Square{board.E1, board.E8}, SideToMove: board.White}))
	net, err := Default()
	if err != nil {
		f.Fatal(err)
	}
	stacks := []*AccumulatorStack{net.NewAccumulatorStack()}
	if sfSharedHas(sfNetSF19) {
		stacks = append(stacks, sfTestNetwork(f, sfNetSF19).NewAccumulatorStack())
	}
	start := board.StartPosition()
	mb := start.Mailbox()
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, st := range stacks {
			pushDeltas(t, st, &mb, b)
		}
	})
}

// pushDeltas plays the Deltas encoded in b (13 bytes each) on st from mb, FuzzPushDelta's
// property.
func pushDeltas(t *testing.T, st *AccumulatorStack, mb *[64]board.Piece, b []byte) {
	{
		if err := st.ResetBoard(mb, board.White); err != nil {
			t.Fatal(err)
		}
		for len(b) >= 13 {
			var d Delta
			d.Dirty.N = int(int8(b[0]))
			for i := range 3 {
				d.Dirty.Pieces[i] = board.DirtyPiece{Piece: board.Piece(b[1+3*i]), From: board.Square(int8(b[2+3*i])), To: board.Square(int8(b[3+3*i]))}
			}
			d.Kings = [2]board.Square{board.Square(int8(b[10])), board.Square(int8(b[11]))}
			d.SideToMove = board.Color(b[12])
			n := st.Len()
			if err := st.PushDelta(&d); err != nil {
				if st.Len() != n {
					t.Fatalf("refused Delta %+v pushed: %v", d, err)
				}
			} else {
				st.Evaluate()
			}
			b = b[13:]
		}
	}
}

// encodeDeltas is FuzzPushDelta's encoding of ds: 13 bytes each.
func encodeDeltas(ds ...Delta) []byte {
	var b []byte
	for _, d := range ds {
		b = append(b, byte(d.Dirty.N))
		for _, p := range d.Dirty.Pieces {
			b = append(b, byte(p.Piece), byte(p.From), byte(p.To))
		}
		b = append(b, byte(d.Kings[0]), byte(d.Kings[1]), byte(d.SideToMove))
	}
	return b
}
