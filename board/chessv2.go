package board

// This file is the only place of the package that knows github.com/corentings/chess/v2.
// SAN and PGN go through it; legal moves come from our own generator (movegen.go), and
// chessLegalMoves remains as the tests' independent cross-check.
//
// Conversion to chess/v2: our bitboards are packed into chess/v2's documented 101-byte
// binary position format (Position.UnmarshalBinary: 12 big-endian bitboards with A1 in
// the most significant bit, then halfmove uint8, fullmove uint16, en-passant int8, flag
// byte). This avoids FEN text and chess/v2's FEN decoder, which writes a package-level
// buffer and so is not safe for concurrent use. Conversion back: chess/v2 squares use
// our numbering (A1 = 0 … H8 = 63); promotion piece types are mapped to our roles.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strings"

	chess "github.com/corentings/chess/v2"
)

// toChess converts p to a chess/v2 position. Clocks above chess/v2's binary range are
// clamped (they do not influence move generation).
func toChess(p *Position) (*chess.Position, error) {
	var buf [101]byte
	order := [6]Role{King, Queen, Rook, Bishop, Knight, Pawn}
	for c := White; c <= Black; c++ {
		for i, r := range order {
			bb := bits.Reverse64(uint64(p.Pieces(c, r)))
			binary.BigEndian.PutUint64(buf[8*(6*int(c)+i):], bb)
		}
	}
	buf[96] = uint8(min(max(p.halfmove, 0), 255))
	binary.BigEndian.PutUint16(buf[97:], uint16(min(max(p.fullmove, 1), 65535)))
	var flags uint8
	flags |= uint8(p.castling & AllCastling) // same bit order: K=1 Q=2 k=4 q=8
	if p.side == Black {
		flags |= 16
	}
	if ep := p.EnPassant(); ep != NoSquare {
		buf[99] = uint8(ep)
		flags |= 32
	} else {
		buf[99] = 0xff // NoSquare
	}
	buf[100] = flags
	cp := new(chess.Position)
	if err := cp.UnmarshalBinary(buf[:]); err != nil {
		return nil, err
	}
	return cp, nil
}

// fromChessMove converts a chess/v2 move to ours.
func fromChessMove(m *chess.Move) Move {
	from, to := Square(m.S1()), Square(m.S2())
	switch m.Promo() {
	case chess.Queen:
		return NewPromotion(from, to, Queen)
	case chess.Rook:
		return NewPromotion(from, to, Rook)
	case chess.Bishop:
		return NewPromotion(from, to, Bishop)
	case chess.Knight:
		return NewPromotion(from, to, Knight)
	}
	return NewMove(from, to)
}

// chessMoves returns chess/v2's legal moves of p; nil (and no panic) if chess/v2 fails on
// an invalid position.
func chessMoves(p *Position) (cp *chess.Position, moves []chess.Move) {
	defer func() {
		if recover() != nil {
			cp, moves = nil, nil
		}
	}()
	cp, err := toChess(p)
	if err != nil {
		return nil, nil
	}
	return cp, cp.ValidMoves()
}

// chessLegalMoves appends chess/v2's legal moves of p to dst: the independent reference
// the tests compare GenerateLegal with.
func chessLegalMoves(p *Position, dst []Move) []Move {
	_, ms := chessMoves(p)
	for i := range ms {
		dst = append(dst, fromChessMove(&ms[i]))
	}
	return dst
}

// SAN returns move m in Standard Algebraic Notation ("Nf3", "exd6", "O-O", "e8=Q+",
// "Qxf7#"), as chess/v2 writes it. It returns a *MoveError wrapping ErrIllegalMove if m
// is not legal in p.
func (p *Position) SAN(m Move) (string, error) {
	cp, ms := chessMoves(p)
	for i := range ms {
		if fromChessMove(&ms[i]) == m {
			// chess/v2 v2.3.2 gives under-promotions the queen promotion's check tag, so
			// the check/mate suffix is recomputed on our side.
			s := strings.TrimRight(chess.AlgebraicNotation{}.Encode(cp, &ms[i]), "+#")
			c, _ := p.Play(m)
			if c.InCheck() {
				if c.Status() == Checkmate {
					return s + "#", nil
				}
				return s + "+", nil
			}
			return s, nil
		}
	}
	return "", &MoveError{Move: m.String(), FEN: p.FEN(), Reason: "not a legal move", Err: ErrIllegalMove}
}

// ParseSAN parses a move in Standard Algebraic Notation ("e4", "Nbd7", "exd6", "O-O-O",
// "e8=Q", check/mate suffixes and annotations "!?" tolerated) in position p, using
// chess/v2's SAN decoder. It returns a *MoveError wrapping ErrSyntax when s is not SAN,
// or ErrIllegalMove when no legal move of p matches.
func ParseSAN(p *Position, s string) (m Move, err error) {
	fail := func(kind error, reason string) (Move, error) {
		return NullMove, &MoveError{Move: s, FEN: p.FEN(), Reason: reason, Err: kind}
	}
	if len(s) == 0 || len(s) > 16 {
		return fail(ErrSyntax, "not SAN (empty or too long)")
	}
	if chess.ValidateSAN(s) != nil {
		return fail(ErrSyntax, "not SAN")
	}
	cp, _ := chessMoves(p)
	if cp == nil {
		return fail(ErrIllegalMove, "position not supported by the move generator")
	}
	var cm *chess.Move
	func() {
		defer func() {
			if recover() != nil {
				cm, err = nil, errors.New("chess/v2 panicked")
			}
		}()
		cm, err = chess.AlgebraicNotation{}.Decode(cp, s)
	}()
	if err != nil || cm == nil {
		return fail(ErrIllegalMove, "no legal move matches")
	}
	return fromChessMove(cm), nil
}

// Game is one game read from PGN: its starting position (the FEN tag's, else the
// standard start), the main-line moves (variations are dropped) and the tag pairs
// ("Event", "White", "Result", "FEN", …) as written.
type Game struct {
	Start Position
	Moves []Move
	Tags  map[string]string
}

// Positions returns Start followed by the position after each move (len(Moves)+1
// positions), computed with Play.
func (g *Game) Positions() []Position {
	ps := make([]Position, 0, len(g.Moves)+1)
	p := g.Start
	ps = append(ps, p)
	for _, m := range g.Moves {
		p, _ = p.Play(m)
		ps = append(ps, p)
	}
	return ps
}

// ReadPGN reads every game of a PGN stream with chess/v2's PGN scanner and parser
// (SAN moves, comments, NAGs, variations, "{...}" and ";" comments; a game's text is
// limited to 64 KiB by the scanner). A FEN tag's position is validated by ParseFEN.
// It returns the games read so far and an error naming the 1-based game number when a
// game cannot be read (a chess/v2 error, a malformed or illegal FEN tag, or an illegal
// move).
func ReadPGN(r io.Reader) (games []Game, err error) {
	sc := chess.NewScanner(r)
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("board: PGN game %d: chess/v2 panicked: %v", len(games)+1, e)
		}
	}()
	for sc.HasNext() {
		n := len(games) + 1
		raw, err := sc.ScanGame()
		if err != nil {
			return games, fmt.Errorf("board: PGN game %d: %w", n, err)
		}
		if strings.TrimSpace(raw.Raw) == "" {
			continue
		}
		g, err := parsePGNGame(raw)
		if err != nil {
			return games, fmt.Errorf("board: PGN game %d: %w", n, err)
		}
		games = append(games, g)
	}
	return games, nil
}

func parsePGNGame(raw *chess.GameScanned) (Game, error) {
	tokens, err := chess.TokenizeGame(raw)
	if err != nil {
		return Game{}, err
	}
	g := Game{Tags: map[string]string{}}
	for i := 0; i+1 < len(tokens); i++ {
		if tokens[i].Type == chess.TagKey && tokens[i+1].Type == chess.TagValue {
			g.Tags[tokens[i].Value] = tokens[i+1].Value
		}
	}
	g.Start = StartPosition()
	if fen, ok := g.Tags["FEN"]; ok {
		if g.Start, err = ParseFEN(fen); err != nil {
			return Game{}, err
		}
	}
	cg, err := chess.NewParser(tokens).Parse()
	if err != nil {
		return Game{}, err
	}
	p := g.Start
	for i, cm := range cg.Moves() {
		m := fromChessMove(cm)
		next, _, err := p.PlayChecked(m)
		if err != nil {
			return Game{}, fmt.Errorf("ply %d: %w", i+1, err)
		}
		g.Moves = append(g.Moves, m)
		p = next
	}
	return g, nil
}
