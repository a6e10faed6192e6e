package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/nnuekit/nnuekit/board"
)

// BulletRecordSize is the size of one record of bullet's ChessBoard data format.
const BulletRecordSize = 32

// AppendBulletRecord appends s as one record of bullet's ChessBoard data format ("bulletformat",
// the struct ChessBoard of github.com/jw1912/bulletformat src/chess.rs at commit
// cb6a3602d70b0b6c3abc88fb876810a7bdf0b428, crate version 1.8.0, which bullet's
// DirectSequentialDataLoader reads; bullet commit cebc78a093d92cbc87e56cfef049184c225270b0
// depends on it). 32 bytes, little-endian, everything relative to the side to move (the board is
// flipped vertically and the colours swapped when Black is to move):
//
//	 0  occ      u64   occupied squares (a1 = bit 0)
//	 8  pcs      [16]u8 one nibble per occupied square in square order, low nibble first:
//	                   colour<<3 | piece, colour 0 = side to move, piece 0–5 = pawn … king
//	24  score    i16   side to move's score
//	26  result   u8    side to move's result: 2 win, 1 draw, 0 loss
//	27  ksq      u8    side to move's king square
//	28  opp_ksq  u8    the other king's square flipped vertically (its own view)
//	29  extra    [3]u8 zero
//
// The score written is round(Score·scoreScale) clamped to ±32767: scoreScale converts
// nnuekit's internal units into what the trainer expects (bullet's text converter takes
// centipawns; 100/361 turns Stockfish 15.1 internal units into its UCI centipawns). Errors: a
// sample without a known result (bullet's record has no "unknown"), or a position without
// exactly one king per side or with more than 32 pieces.
func AppendBulletRecord(dst []byte, s *Sample, scoreScale float64) ([]byte, error) {
	if s.Result == NoResult {
		return dst, errors.New("dataset: bullet: sample has no game result")
	}
	p := &s.Pos
	stm := p.SideToMove()
	flip := board.Square(0)
	if stm == board.Black {
		flip = 56
	}
	if p.Pieces(board.White, board.King).Count() != 1 || p.Pieces(board.Black, board.King).Count() != 1 || p.PieceCount() > 32 {
		return dst, fmt.Errorf("dataset: bullet: position %s needs one king per side and ≤ 32 pieces", p.FEN())
	}
	var rec [BulletRecordSize]byte
	var occ uint64
	for b := p.Occupied(); b != 0; {
		occ |= 1 << uint(b.PopFirst()^flip)
	}
	binary.LittleEndian.PutUint64(rec[0:], occ)
	i := 0
	for b := occ; b != 0; b &= b - 1 {
		sq := board.Square(bits.TrailingZeros64(b)) ^ flip
		pc := p.PieceAt(sq)
		n := byte(pc.Role())
		if pc.Color() != stm {
			n |= 8
		}
		rec[8+i/2] |= n << (4 * uint(i&1))
		i++
	}
	v := math.Round(float64(s.Score) * scoreScale)
	v = min(max(v, -32767), 32767)
	binary.LittleEndian.PutUint16(rec[24:], uint16(int16(v)))
	rec[26] = byte(math.Round(2 * s.ResultFor()))
	rec[27] = byte(p.KingSquare(stm) ^ flip)
	rec[28] = byte(p.KingSquare(stm.Other()) ^ flip ^ 56)
	return append(dst, rec[:]...), nil
}

// BulletWriter writes samples as bullet's ChessBoard records (AppendBulletRecord), which bullet's
// DirectSequentialDataLoader reads after shuffling (bullet-utils shuffle). Call Close at the end.
type BulletWriter struct {
	w          *bufio.Writer
	scoreScale float64
	buf        []byte
}

// NewBulletWriter returns a BulletWriter writing to w, scaling scores by scoreScale (see
// AppendBulletRecord).
func NewBulletWriter(w io.Writer, scoreScale float64) *BulletWriter {
	return &BulletWriter{w: bufio.NewWriterSize(w, 64<<10), scoreScale: scoreScale}
}

// Write writes one record. Errors: see AppendBulletRecord, or the underlying writer's.
func (w *BulletWriter) Write(s *Sample) error {
	var err error
	w.buf, err = AppendBulletRecord(w.buf[:0], s, w.scoreScale)
	if err != nil {
		return err
	}
	_, err = w.w.Write(w.buf)
	return err
}

// Close flushes the buffer (the underlying writer stays open). The output is whole records.
func (w *BulletWriter) Close() error { return w.w.Flush() }

var _ SampleWriter = (*BulletWriter)(nil)
