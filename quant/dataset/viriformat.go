package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/nnuekit/nnuekit/board"
)

// Viriformat is the game format of the Viridithas engine, which bullet recommends for
// training data (specification: the README of github.com/cosmobobak/viriformat, crate
// viriformat 3.0.0). All integers little-endian, squares a1 = 0 … h8 = 63. A file is a
// sequence of games; a game is a 32-byte marlinformat PackedBoard followed by (move, score)
// pairs of 2 + 2 bytes and four zero bytes:
//
//	 0  occupancy  u64   occupied squares (must not be 0)
//	 8  pieces     [16]u8 one nibble per occupied square in square order, low nibble first:
//	                     colour<<3 | type, type 0–5 = pawn … king, 6 = a rook that can still
//	                     castle (here on a1, h1, a8 or h8), colour 1 = Black
//	24  stm_ep     u8    bit 7: Black to move; bits 0–6: en-passant square, 64 for none
//	25  halfmove   u8
//	26  fullmove   u16
//	28  score      i16   (unused here; written 0)
//	30  result     u8    0 Black wins, 1 draw, 2 White wins
//	31  extra      u8
//
// A move is from (bits 0–5), to (6–11), promotion piece (12–13: knight … queen) and type
// (14–15: 0 normal, 1 en passant, 2 castling written as the king taking its rook, 3 promotion);
// a score is White's, i16. A record whose first 8 bytes are zero is an extension: u16 id, u16
// length N, N bytes, four zero bytes; readers skip it.
const (
	// ViriformatBoardSize is the size of a game's PackedBoard.
	ViriformatBoardSize = 32
	viriNoEP            = 64
)

// Viriformat move types.
const (
	viriNormal = iota
	viriEnPassant
	viriCastle
	viriPromotion
)

// viriMove encodes m (legal in p) as a viriformat move.
func viriMove(p *board.Position, m board.Move) uint16 {
	from, to := m.From(), m.To()
	typ := viriNormal
	var promo uint16
	mover := p.PieceAt(from)
	switch {
	case mover.Role() == board.King && (to.File()-from.File() == 2 || from.File()-to.File() == 2):
		typ = viriCastle
		if to.File() > from.File() {
			to = board.NewSquare(7, from.Rank())
		} else {
			to = board.NewSquare(0, from.Rank())
		}
	case mover.Role() == board.Pawn && from.File() != to.File() && p.PieceAt(to) == board.NoPiece:
		typ = viriEnPassant
	}
	if r, ok := m.Promotion(); ok {
		typ = viriPromotion
		promo = uint16(r - board.Knight)
	}
	return uint16(from) | uint16(to)<<6 | promo<<12 | uint16(typ)<<14
}

// viriDecodeMove decodes v in p: the move, or an error when v is not the encoding of a legal
// move of p (the type bits must match the move; a non-promotion's promotion bits are ignored).
func viriDecodeMove(p *board.Position, v uint16) (board.Move, error) {
	from, to := board.Square(v&63), board.Square(v>>6&63)
	typ := int(v >> 14)
	var m board.Move
	switch typ {
	case viriCastle:
		if from.Rank() != to.Rank() || (to.File() != 0 && to.File() != 7) {
			return 0, fmt.Errorf("%w: castling move %v%v is not king-takes-rook on a corner", ErrCorrupt, from, to)
		}
		f := 6
		if to.File() == 0 {
			f = 2
		}
		m = board.NewMove(from, board.NewSquare(f, from.Rank()))
	case viriPromotion:
		m = board.NewPromotion(from, to, board.Knight+board.Role(v>>12&3))
	default:
		m = board.NewMove(from, to)
	}
	if !p.IsLegal(m) {
		return 0, fmt.Errorf("%w: move %#04x (%v) is not legal in %s", ErrCorrupt, v, m, p.FEN())
	}
	want := viriMove(p, m)
	if typ != viriPromotion {
		want &^= 3 << 12
		v &^= 3 << 12
	}
	if want != v {
		return 0, fmt.Errorf("%w: move %#04x (%v) has type %d, want %d", ErrCorrupt, v, m, typ, want>>14)
	}
	return m, nil
}

// appendViriBoard appends p's PackedBoard with game result r.
func appendViriBoard(dst []byte, p *board.Position, r Result) ([]byte, error) {
	if p.Pieces(board.White, board.King).Count() != 1 || p.Pieces(board.Black, board.King).Count() != 1 || p.PieceCount() > 32 {
		return dst, fmt.Errorf("dataset: viriformat: position %s needs one king per side and ≤ 32 pieces", p.FEN())
	}
	var rec [ViriformatBoardSize]byte
	occ := p.Occupied()
	binary.LittleEndian.PutUint64(rec[0:], uint64(occ))
	cr := p.Castling()
	castles := map[board.Square]bool{
		board.H1: cr&board.WhiteKingside != 0, board.A1: cr&board.WhiteQueenside != 0,
		board.H8: cr&board.BlackKingside != 0, board.A8: cr&board.BlackQueenside != 0,
	}
	i := 0
	for b := occ; b != 0; i++ {
		sq := b.PopFirst()
		pc := p.PieceAt(sq)
		n := byte(pc.Role())
		if pc.Role() == board.Rook && castles[sq] {
			n = 6
		}
		if pc.Color() == board.Black {
			n |= 8
		}
		rec[8+i/2] |= n << (4 * uint(i&1))
	}
	for sq, on := range castles {
		if on && p.PieceAt(sq).Role() != board.Rook {
			return dst, fmt.Errorf("dataset: viriformat: position %s has a castling right without its rook on %v", p.FEN(), sq)
		}
	}
	ep := byte(viriNoEP)
	if sq := p.EnPassant(); sq != board.NoSquare {
		ep = byte(sq)
	}
	if p.SideToMove() == board.Black {
		ep |= 0x80
	}
	rec[24] = ep
	rec[25] = byte(min(max(p.HalfmoveClock(), 0), 255))
	binary.LittleEndian.PutUint16(rec[26:], uint16(min(max(p.FullmoveNumber(), 0), math.MaxUint16)))
	switch r {
	case WhiteWins:
		rec[30] = 2
	case Draw:
		rec[30] = 1
	case BlackWins:
		rec[30] = 0
	default:
		return dst, errors.New("dataset: viriformat: sample has no game result")
	}
	return append(dst, rec[:]...), nil
}

// decodeViriBoard decodes a PackedBoard: the position (validated) and the game result.
func decodeViriBoard(rec []byte) (board.Position, Result, error) {
	var p board.Position
	occ := board.Bitboard(binary.LittleEndian.Uint64(rec))
	if occ.Count() > 32 {
		return p, NoResult, fmt.Errorf("%w: %d occupied squares", ErrCorrupt, occ.Count())
	}
	var cr board.CastlingRights
	i := 0
	for b := occ; b != 0; i++ {
		sq := b.PopFirst()
		n := rec[8+i/2] >> (4 * uint(i&1)) & 15
		c := board.Color(n >> 3)
		t := n & 7
		switch {
		case t <= 5:
			p.Put(sq, board.MakePiece(c, board.Role(t)))
		case t == 6:
			p.Put(sq, board.MakePiece(c, board.Rook))
			right := map[board.Square]board.CastlingRights{board.H1: board.WhiteKingside, board.A1: board.WhiteQueenside,
				board.H8: board.BlackKingside, board.A8: board.BlackQueenside}[sq]
			if right == 0 || (right <= board.WhiteQueenside) != (c == board.White) {
				return p, NoResult, fmt.Errorf("%w: castling rook of %v on %v (only standard-chess castling is supported)", ErrCorrupt, c, sq)
			}
			cr |= right
		default:
			return p, NoResult, fmt.Errorf("%w: piece type 7 on %v", ErrCorrupt, sq)
		}
	}
	p.SetCastling(cr)
	if rec[24]&0x80 != 0 {
		p.SetSideToMove(board.Black)
	}
	switch ep := rec[24] & 0x7f; {
	case ep < 64:
		p.SetEnPassant(board.Square(ep))
	case ep != viriNoEP:
		return p, NoResult, fmt.Errorf("%w: en-passant field %d", ErrCorrupt, ep)
	}
	p.SetClocks(int(rec[25]), max(int(binary.LittleEndian.Uint16(rec[26:])), 1))
	var r Result
	switch rec[30] {
	case 0:
		r = BlackWins
	case 1:
		r = Draw
	case 2:
		r = WhiteWins
	default:
		return p, NoResult, fmt.Errorf("%w: game result %d (want 0, 1 or 2)", ErrCorrupt, rec[30])
	}
	if err := p.Validate(); err != nil {
		return p, NoResult, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return p, r, nil
}

// ViriformatReader reads viriformat games (see Viriformat above) as samples, one per
// (move, score) pair: Pos the position before the move, Best and Played the move, Score the
// pair's score turned to the side to move's view (in the file's units, the engine's
// centipawns), Result the game's, Line the 1-based game number and Index the pair's index in
// the game. Extension records are skipped.
//
// Bad input stops the stream with a *FormatError naming the byte offset of the bad board, pair
// or extension, wrapping ErrTruncated (the input ends inside a record) or ErrCorrupt (a zero
// terminator missing after an extension, an impossible position, a piece type 7, Chess960
// castling rights, a result outside 0–2, an illegal move or one whose type bits disagree with
// it). Memory is bounded: a game is streamed pair by pair.
type ViriformatReader struct {
	br     *bufio.Reader
	off    int64
	inGame bool
	pos    board.Position
	result Result
	game   int
	index  int
	cur    Sample
	err    error
	done   bool
	buf    [ViriformatBoardSize]byte
}

// NewViriformatReader returns a ViriformatReader reading from r.
func NewViriformatReader(r io.Reader) *ViriformatReader {
	return &ViriformatReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Offset returns the number of input bytes consumed so far.
func (r *ViriformatReader) Offset() int64 { return r.off }

func (r *ViriformatReader) fail(off int64, err error) bool {
	r.err = &FormatError{Format: "viriformat", Offset: off, Err: err}
	return false
}

// read reads len(b) bytes; atStart reports whether the input ended before the first byte.
func (r *ViriformatReader) read(b []byte) (atStart bool, err error) {
	n, err := io.ReadFull(r.br, b)
	r.off += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return n == 0 && errors.Is(err, io.EOF), ErrTruncated
		}
		return false, err
	}
	return false, nil
}

// Next advances to the next sample; false at the end of the input or on error (see Err).
func (r *ViriformatReader) Next() bool {
	if r.err != nil || r.done {
		return false
	}
	for {
		start := r.off
		if !r.inGame {
			end, err := r.read(r.buf[:8])
			if end {
				r.done = true
				return false
			}
			if err != nil {
				return r.fail(start, err)
			}
			if binary.LittleEndian.Uint64(r.buf[:8]) == 0 {
				if err := r.skipExtension(); err != nil {
					return r.fail(start, err)
				}
				continue
			}
			if _, err := r.read(r.buf[8:]); err != nil {
				return r.fail(start, err)
			}
			p, res, err := decodeViriBoard(r.buf[:])
			if err != nil {
				return r.fail(start, err)
			}
			r.pos, r.result, r.inGame, r.index = p, res, true, 0
			r.game++
			continue
		}
		start = r.off
		if _, err := r.read(r.buf[:4]); err != nil {
			return r.fail(start, err)
		}
		v := binary.LittleEndian.Uint16(r.buf[:2])
		score := int32(int16(binary.LittleEndian.Uint16(r.buf[2:4])))
		if v == 0 && score == 0 {
			r.inGame = false
			continue
		}
		m, err := viriDecodeMove(&r.pos, v)
		if err != nil {
			return r.fail(start, err)
		}
		if r.pos.SideToMove() == board.Black {
			score = -score
		}
		r.cur = Sample{Pos: r.pos, Score: score, Best: m, Played: m, Result: r.result, Line: r.game, Index: r.index}
		r.pos, _ = r.pos.Play(m)
		r.index++
		return true
	}
}

// skipExtension reads the rest of an extension record after its 8 zero bytes.
func (r *ViriformatReader) skipExtension() error {
	if _, err := r.read(r.buf[:4]); err != nil {
		return err
	}
	n := int64(binary.LittleEndian.Uint16(r.buf[2:4]))
	skipped, err := r.br.Discard(int(n))
	r.off += int64(skipped)
	if err != nil {
		return ErrTruncated
	}
	if _, err := r.read(r.buf[:4]); err != nil {
		return err
	}
	if binary.LittleEndian.Uint32(r.buf[:4]) != 0 {
		return fmt.Errorf("%w: extension record not terminated by four zero bytes", ErrCorrupt)
	}
	return nil
}

// Sample returns the current sample (valid until the next call of Next).
func (r *ViriformatReader) Sample() *Sample { return &r.cur }

// Err returns the first error other than the end of the input, or nil.
func (r *ViriformatReader) Err() error { return r.err }

// ViriformatWriter writes samples as viriformat games: a sample whose position is the one
// reached by the previous sample's move (Played, or Best when Played is NullMove) with the same
// result continues the game; any other sample ends it and starts a new one from its position.
// Each sample writes its move and its score, round(Score·scoreScale) turned to White's view and
// clamped to the int16 range (so every score the reader yields is written back unchanged). Halfmove clocks above 255 and fullmove numbers above 65535 are
// written clamped. Call Close at the end: it terminates the open game and flushes.
//
// Write errors, writing nothing: a sample without a known result, without a move, with a move
// that is not legal in its position, or with a position viriformat cannot hold (not one king per
// side, more than 32 pieces). After an error the output holds every pair written before it.
type ViriformatWriter struct {
	w      *bufio.Writer
	scale  float64
	open   bool
	next   board.Position
	result Result
	n      int64
	buf    []byte
}

// NewViriformatWriter returns a ViriformatWriter writing to w with scores multiplied by
// scoreScale (1 keeps the samples' units).
func NewViriformatWriter(w io.Writer, scoreScale float64) *ViriformatWriter {
	return &ViriformatWriter{w: bufio.NewWriterSize(w, 64<<10), scale: scoreScale}
}

// Write appends s to the open game or starts a new game with it.
func (vw *ViriformatWriter) Write(s *Sample) error {
	if s.Result == NoResult {
		return errors.New("dataset: viriformat: sample has no game result")
	}
	m := s.Played
	if m == board.NullMove {
		m = s.Best
	}
	if m == board.NullMove || !s.Pos.IsLegal(m) {
		return fmt.Errorf("dataset: viriformat: sample move %v is not a legal move of %s", m, s.Pos.FEN())
	}
	vw.buf = vw.buf[:0]
	continues := vw.open && s.Result == vw.result && samePosition(&s.Pos, &vw.next)
	if !continues {
		var err error
		if vw.open {
			vw.buf = append(vw.buf, 0, 0, 0, 0)
		}
		vw.buf, err = appendViriBoard(vw.buf, &s.Pos, s.Result)
		if err != nil {
			return err
		}
	}
	v := math.Round(float64(s.Score) * vw.scale)
	if s.Pos.SideToMove() == board.Black {
		v = -v
	}
	v = min(max(v, math.MinInt16), math.MaxInt16)
	vw.buf = binary.LittleEndian.AppendUint16(vw.buf, viriMove(&s.Pos, m))
	vw.buf = binary.LittleEndian.AppendUint16(vw.buf, uint16(int16(v)))
	if _, err := vw.w.Write(vw.buf); err != nil {
		return err
	}
	vw.open, vw.result = true, s.Result
	vw.next, _ = s.Pos.Play(m)
	vw.n++
	return nil
}

// Count returns the number of samples (pairs) written.
func (vw *ViriformatWriter) Count() int64 { return vw.n }

// Close terminates the open game and flushes the output (it does not close the io.Writer).
func (vw *ViriformatWriter) Close() error {
	if vw.open {
		vw.open = false
		if _, err := vw.w.Write([]byte{0, 0, 0, 0}); err != nil {
			return err
		}
	}
	return vw.w.Flush()
}
