package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"

	"github.com/nnuekit/nnuekit/board"
)

// The binpack format of Stockfish's training data, as src/extra/nnue_data_binpack_format.h on
// Stockfish's tools branch (commit 9a4c7cf4e311f8d9526b79295b80c4d0464c07cf) and its
// docs/binpack.md define it; doc/datagen.md describes it in full. In short:
//
//	file      := chunk*
//	chunk     := "BINP" size:uint32le chain*            (size bytes of chains; ≤ 100 MiB)
//	chain     := stem count:uint16be movetext
//	stem      := position(24) move(2) score(2) plyResult(2) rule50(2), big-endian (32 bytes)
//	movetext  := count × (move bits, score bits), bit-packed MSB first, padded to a byte
//
// Every later position of a chain is the previous one after the previous record's move; the
// result flips sign and the ply grows by one from record to record.
const (
	// BinpackMaxChunk is the largest chunk the reader accepts (Stockfish's maxChunkSize, 100 MiB),
	// and so the most memory a BinpackReader holds (one chunk, allocated as its bytes arrive).
	BinpackMaxChunk = 100 << 20
	// BinpackChunkSize is the size after which the writer ends a chunk at the next chain boundary
	// (Stockfish's suggestedChunkSize, 1 MiB): a writer holds at most one chunk in memory.
	BinpackChunkSize = 1 << 20
	// binpackMaxChainPlies bounds the movetext of one chain (its count is a uint16).
	binpackMaxChainPlies = 0xFFFF
	binpackStemBytes     = 32
)

// signedToUnsigned is the binpack's zig-zag-like mapping of an int16 (sign in bit 0, value bits
// flipped for negatives).
func signedToUnsigned(a int16) uint16 {
	r := uint16(a)
	if r&0x8000 != 0 {
		r ^= 0x7FFF
	}
	return r<<1 | r>>15
}

// unsignedToSigned inverts signedToUnsigned.
func unsignedToSigned(r uint16) int16 {
	r = r<<15 | r>>1
	if r&0x8000 != 0 {
		r ^= 0x7FFF
	}
	return int16(r)
}

// usedBitsSafe is the number of bits that index n alternatives (0 for n ≤ 1).
func usedBitsSafe(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// nthSetBit returns the square of the n-th (0-based) set bit of b, or NoSquare.
func nthSetBit(b board.Bitboard, n int) board.Square {
	for ; b != 0; n-- {
		sq := b.PopFirst()
		if n == 0 {
			return sq
		}
	}
	return board.NoSquare
}

func below(sq board.Square) board.Bitboard { return board.Bitboard(1)<<uint(sq) - 1 }

// ---- position and move of a stem ----

// compressPosition packs p as the binpack's 24-byte CompressedPosition: the occupancy bitboard
// (big-endian) and one nibble per occupied square in square order (low nibble first): piece
// codes 0–11 (white pawn, black pawn, white knight, …, black king), 12 a pawn that has just
// double-pushed (en-passant square behind it), 13/14 a white/black rook with its castling right,
// 15 the black king when Black is to move.
func compressPosition(p *board.Position, dst []byte) {
	occ := p.Occupied()
	u := uint64(occ)
	for i := range 8 {
		dst[i] = byte(u >> (56 - 8*i))
	}
	clear(dst[8:24])
	ep := p.EnPassant()
	cr := p.Castling()
	stm := p.SideToMove()
	i := 0
	for b := occ; b != 0; i++ {
		sq := b.PopFirst()
		pc := p.PieceAt(sq)
		c, r := pc.Color(), pc.Role()
		n := byte(2*int(r) + int(c))
		switch r {
		case board.Pawn:
			if ep != board.NoSquare && sq.File() == ep.File() &&
				(sq.Rank() == 3 && stm == board.Black || sq.Rank() == 4 && stm == board.White) {
				n = 12
			}
		case board.Rook:
			switch {
			case c == board.White && (sq == board.A1 && cr&board.WhiteQueenside != 0 || sq == board.H1 && cr&board.WhiteKingside != 0):
				n = 13
			case c == board.Black && (sq == board.A8 && cr&board.BlackQueenside != 0 || sq == board.H8 && cr&board.BlackKingside != 0):
				n = 14
			}
		case board.King:
			if c == board.Black && stm == board.Black {
				n = 15
			}
		}
		dst[8+i/2] |= n << (4 * uint(i&1))
	}
}

// decompressPosition unpacks a 24-byte CompressedPosition; the clocks are left at zero.
func decompressPosition(src []byte) (board.Position, error) {
	var p board.Position
	var u uint64
	for i := range 8 {
		u = u<<8 | uint64(src[i])
	}
	occ := board.Bitboard(u)
	if occ.Count() > 32 {
		return p, fmt.Errorf("%w: %d occupied squares", ErrCorrupt, occ.Count())
	}
	p.SetSideToMove(board.White)
	var cr board.CastlingRights
	i := 0
	for b := occ; b != 0; i++ {
		sq := b.PopFirst()
		n := src[8+i/2] >> (4 * uint(i&1)) & 15
		switch {
		case n < 12:
			p.Put(sq, board.MakePiece(board.Color(n&1), board.Role(n>>1)))
		case n == 12:
			switch sq.Rank() {
			case 3:
				p.Put(sq, board.MakePiece(board.White, board.Pawn))
				p.SetEnPassant(sq - 8)
			case 4:
				p.Put(sq, board.MakePiece(board.Black, board.Pawn))
				p.SetEnPassant(sq + 8)
			default:
				return p, fmt.Errorf("%w: double-pushed pawn code on %v", ErrCorrupt, sq)
			}
		case n == 13:
			p.Put(sq, board.MakePiece(board.White, board.Rook))
			switch sq {
			case board.A1:
				cr |= board.WhiteQueenside
			case board.H1:
				cr |= board.WhiteKingside
			default:
				return p, fmt.Errorf("%w: castling rook code on %v", ErrCorrupt, sq)
			}
		case n == 14:
			p.Put(sq, board.MakePiece(board.Black, board.Rook))
			switch sq {
			case board.A8:
				cr |= board.BlackQueenside
			case board.H8:
				cr |= board.BlackKingside
			default:
				return p, fmt.Errorf("%w: castling rook code on %v", ErrCorrupt, sq)
			}
		default: // 15
			p.Put(sq, board.MakePiece(board.Black, board.King))
			p.SetSideToMove(board.Black)
		}
	}
	p.SetCastling(cr)
	return p, nil
}

// Move types of the binpack's CompressedMove (chess::MoveType).
const (
	bpNormal = iota
	bpPromotion
	bpCastle
	bpEnPassant
)

// compressMove packs m (legal in p) as the binpack's 16-bit CompressedMove: type (2 bits), from
// (6), to (6), promotion piece − knight (2); castling is encoded as the king's move to its
// rook's square.
func compressMove(p *board.Position, m board.Move) uint16 {
	from, to := m.From(), m.To()
	typ := bpNormal
	var promo uint16
	pc := p.PieceAt(from)
	switch {
	case pc.Role() == board.King && (to-from == 2 || from-to == 2):
		typ = bpCastle
		if to > from {
			to = board.NewSquare(7, from.Rank())
		} else {
			to = board.NewSquare(0, from.Rank())
		}
	case pc.Role() == board.Pawn && from.File() != to.File() && p.PieceAt(to) == board.NoPiece:
		typ = bpEnPassant
	default:
		if r, ok := m.Promotion(); ok {
			typ = bpPromotion
			promo = uint16(r - board.Knight)
		}
	}
	return uint16(typ)<<14 | uint16(from)<<8 | uint16(to)<<2 | promo
}

// decompressMove unpacks a CompressedMove into nnuekit's move (castling as the king's two-square
// move); the caller checks legality.
func decompressMove(v uint16) board.Move {
	typ := v >> 14
	from := board.Square(v >> 8 & 63)
	to := board.Square(v >> 2 & 63)
	switch typ {
	case bpPromotion:
		return board.NewPromotion(from, to, board.Knight+board.Role(v&3))
	case bpCastle:
		if to > from {
			return board.NewMove(from, from+2)
		}
		return board.NewMove(from, from-2)
	}
	return board.NewMove(from, to)
}

// ---- movetext ----

// pawnDestinations is the binpack's list of pawn targets from from: diagonal captures of enemy
// pieces or the en-passant square, the single push and the double push from the start rank.
func pawnDestinations(p *board.Position, from board.Square) board.Bitboard {
	us := p.SideToMove()
	ours, theirs := p.ByColor(us), p.ByColor(us.Other())
	occ := ours | theirs
	targets := theirs
	if ep := p.EnPassant(); ep != board.NoSquare {
		targets |= board.SquareBB(ep)
	}
	dest := board.PawnAttacks(us, from) & targets
	fwd, start := board.Square(8), 1
	if us == board.Black {
		fwd, start = -8, 6
	}
	one := from + fwd
	if one.Valid() && !occ.Has(one) {
		dest |= board.SquareBB(one)
		if from.Rank() == start && !occ.Has(one+fwd) {
			dest |= board.SquareBB(one + fwd)
		}
	}
	return dest
}

func ourCastlings(p *board.Position) (n int, long bool) {
	cr := p.Castling()
	if p.SideToMove() == board.White {
		return bits.OnesCount8(uint8(cr & (board.WhiteKingside | board.WhiteQueenside))), cr&board.WhiteQueenside != 0
	}
	return bits.OnesCount8(uint8(cr & (board.BlackKingside | board.BlackQueenside))), cr&board.BlackQueenside != 0
}

// bitWriter packs bits MSB first (the binpack's addBitsLE8).
type bitWriter struct {
	buf      []byte
	bitsLeft int
}

func (w *bitWriter) add(v uint, count int) {
	for count > 0 {
		if w.bitsLeft == 0 {
			w.buf = append(w.buf, 0)
			w.bitsLeft = 8
		}
		n := min(count, w.bitsLeft)
		chunk := v >> uint(count-n) & (1<<uint(n) - 1)
		w.buf[len(w.buf)-1] |= byte(chunk << uint(w.bitsLeft-n))
		w.bitsLeft -= n
		count -= n
	}
}

func (w *bitWriter) addVLE(v uint16) {
	for {
		block := uint(v & 15)
		if v > 15 {
			block |= 16
		}
		w.add(block, 5)
		v >>= 4
		if v == 0 {
			return
		}
	}
}

// encodeMove appends the movetext code of m (legal in p) and the score delta.
func (w *bitWriter) encodeMove(p *board.Position, m board.Move) {
	us := p.SideToMove()
	ours := p.ByColor(us)
	occ := p.Occupied()
	from, to := m.From(), m.To()
	pieceID := (ours & below(from)).Count()
	var moveID, numMoves int
	switch pc := p.PieceAt(from); pc.Role() {
	case board.Pawn:
		dest := pawnDestinations(p, from)
		moveID = (dest & below(to)).Count()
		numMoves = dest.Count()
		if r, ok := m.Promotion(); ok {
			moveID = 4*moveID + int(r-board.Knight)
			numMoves *= 4
		}
	case board.King:
		att := board.KingAttacks(from) &^ ours
		nc, long := ourCastlings(p)
		numMoves = att.Count() + nc
		if to-from == 2 || from-to == 2 {
			moveID = att.Count() - 1
			if long {
				moveID++
			}
			if to > from {
				moveID++
			}
		} else {
			moveID = (att & below(to)).Count()
		}
	default:
		att := board.Attacks(pc, from, occ) &^ ours
		moveID = (att & below(to)).Count()
		numMoves = att.Count()
	}
	w.add(uint(pieceID), usedBitsSafe(ours.Count()))
	w.add(uint(moveID), usedBitsSafe(numMoves))
}

// ---- writer ----

// BinpackWriter writes samples as Stockfish's binpack (see the format comment above). It
// starts a new chain whenever a sample does not continue the previous one — Stockfish's rule:
// the previous position after the previous sample's Best move equals this position (pieces,
// side to move, en-passant square, castling), the ply grows by one and the result flips — so
// samples whose Played differs from Best, or that come from different games, begin new chains.
// Chunks end at the first chain boundary after 1 MiB, as in Stockfish's writer, so for the same
// sample stream it writes the same bytes as Stockfish's `convert` (tested on a fixture). An
// unknown result (NoResult) is written as a draw (0); the ply is taken from the position's
// fullmove number and side to move. With SetChecksums(true) every chunk ends with a checksum
// trailer. Call Close at the end: until then up to one chunk is held in memory.
type BinpackWriter struct {
	w       io.Writer
	chunk   []byte
	first   bool
	lastOK  bool
	after   board.Position // previous position after its move
	lastPly int
	lastRes int
	// current chain's movetext
	plies     int
	mt        bitWriter
	lastScore int16
	stem      [binpackStemBytes]byte
	err       error
	n         int64
	chunkSize int // 0: BinpackChunkSize (tests use small chunks)
	checksums bool
}

// SetChecksums makes the writer end every chunk with an 8-byte checksum trailer: "nkC1" and the
// CRC-32C (Castagnoli) of the chunk's chain bytes, little-endian, counted in the chunk's size.
// BinpackReader verifies it before decoding the chunk, so any change to a checksummed chunk is
// detected; Stockfish's readers skip fewer than 34 trailing bytes of a chunk, so they read the
// file as without the trailer (other readers may not: the default is off, which writes exactly
// the bytes of Stockfish's own writer). Call it before the first Write.
func (bw *BinpackWriter) SetChecksums(on bool) { bw.checksums = on }

func (bw *BinpackWriter) chunkLimit() int {
	if bw.chunkSize > 0 {
		return bw.chunkSize
	}
	return BinpackChunkSize
}

// NewBinpackWriter returns a BinpackWriter writing to w.
func NewBinpackWriter(w io.Writer) *BinpackWriter {
	return &BinpackWriter{w: w, first: true}
}

// Write adds one sample. Errors: a sample whose Best move is missing or not legal, a score
// beyond ±BinpackMaxScore, a ply ≥ 2^14 (fullmove > 8192), or an error of the underlying writer
// (after which every call fails).
func (bw *BinpackWriter) Write(s *Sample) error {
	if bw.err != nil {
		return bw.err
	}
	if s.Score < -BinpackMaxScore || s.Score > BinpackMaxScore {
		return fmt.Errorf("dataset: binpack: score %d beyond ±%d (Stockfish's VALUE_NONE)", s.Score, BinpackMaxScore)
	}
	if !legalMove(&s.Pos, s.Best) {
		return fmt.Errorf("dataset: binpack: best move %v not legal in %s", s.Best, s.Pos.FEN())
	}
	pos := sfNormalize(s.Pos)
	ply := gamePly(&pos)
	if ply > 0x3FFF {
		return fmt.Errorf("dataset: binpack: ply %d does not fit in 14 bits", ply)
	}
	res := stmResult(s)
	score := int16(s.Score)
	if bw.lastOK && bw.lastRes == -res && bw.lastPly+1 == ply && samePosition(&bw.after, &pos) && bw.plies < binpackMaxChainPlies {
		bw.mt.encodeMove(&pos, s.Best)
		bw.mt.addVLE(signedToUnsigned(score - bw.lastScore))
		bw.lastScore = -score
		bw.plies++
	} else {
		if !bw.first {
			bw.endChain()
		}
		if len(bw.chunk) >= bw.chunkLimit() {
			if err := bw.flushChunk(); err != nil {
				return err
			}
		}
		st := bw.stem[:]
		compressPosition(&pos, st[0:24])
		mv := compressMove(&pos, s.Best)
		st[24], st[25] = byte(mv>>8), byte(mv)
		us := signedToUnsigned(score)
		st[26], st[27] = byte(us>>8), byte(us)
		pr := uint16(ply) | signedToUnsigned(int16(res))<<14
		st[28], st[29] = byte(pr>>8), byte(pr)
		r50 := pos.HalfmoveClock() & 0xFF
		st[30], st[31] = byte(r50>>8), byte(r50)
		bw.chunk = append(bw.chunk, st...)
		bw.plies = 0
		bw.mt = bitWriter{buf: bw.mt.buf[:0]}
		bw.lastScore = -score
		bw.first = false
	}
	bw.after = sfPlay(&pos, s.Best)
	bw.lastPly, bw.lastRes, bw.lastOK = ply, res, true
	bw.n++
	return nil
}

func (bw *BinpackWriter) endChain() {
	bw.chunk = append(bw.chunk, byte(bw.plies>>8), byte(bw.plies))
	bw.chunk = append(bw.chunk, bw.mt.buf...)
	bw.mt = bitWriter{buf: bw.mt.buf[:0]}
	bw.plies = 0
}

func (bw *BinpackWriter) flushChunk() error {
	if len(bw.chunk) == 0 {
		return nil
	}
	if bw.checksums {
		sum := crc32.Checksum(bw.chunk, castagnoli)
		bw.chunk = append(bw.chunk, binpackTrailerMagic...)
		bw.chunk = append(bw.chunk, byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24))
	}
	n := len(bw.chunk)
	hdr := [8]byte{'B', 'I', 'N', 'P', byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}
	if _, err := bw.w.Write(hdr[:]); err != nil {
		bw.err = err
		return err
	}
	if _, err := bw.w.Write(bw.chunk); err != nil {
		bw.err = err
		return err
	}
	bw.chunk = bw.chunk[:0]
	return nil
}

// Close ends the last chain and writes the last chunk. The writer can be used again after
// Close: the next sample starts a new chunk.
func (bw *BinpackWriter) Close() error {
	if bw.err != nil {
		return bw.err
	}
	if !bw.first {
		bw.endChain()
	}
	bw.first, bw.lastOK = true, false
	return bw.flushChunk()
}

// Count returns the number of samples written.
func (bw *BinpackWriter) Count() int64 { return bw.n }

// ---- reader ----

// BinpackReader streams samples from Stockfish's binpack (see the format comment above). It
// reads one chunk at a time into memory (at most BinpackMaxChunk bytes, allocated 1 MiB at a
// time as the bytes arrive, so a hostile header cannot make it allocate much more than the input
// holds) and checks the whole chunk before it returns any sample of it: its checksum trailer
// when it has one (BinpackWriter.SetChecksums), then a sanity pass that decodes every record. A
// chunk that fails either delivers nothing, so corrupt samples never reach the caller ahead of
// the error.
//
// Each sample's Pos carries the record's rule-50 counter and a fullmove number derived from its
// ply (ply/2 + 1), Best the record's move, Score its score, Result the game result (the record's
// side-to-move result turned into White's view; binpack has no "unknown", so NoResult never
// occurs), and Played the next record's move when the next record continues the chain
// (NullMove at a chain's end). Line is the 1-based chain number and Index the record's index
// within the chain.
//
// Bad input stops the stream with a *FormatError naming the byte offset of the bad chunk header,
// stem or movetext, wrapping ErrTruncated or ErrCorrupt. The sanity pass rejects what no
// binpack writer produces: a bad magic, a chunk larger than BinpackMaxChunk, a record crossing a
// chunk's end, trailing bytes too few for a record that are not a checksum trailer (Stockfish's
// reader skips them silently; its writer never makes them), a checksum mismatch, an impossible
// position (board.Position.Validate), an illegal move, a result outside {−1, 0, 1}, a score
// outside ±BinpackMaxScore. A flipped bit that turns a record into another possible one (a
// score by ±2^k within range, a piece into another in a legal position, a move into another
// legal move) passes these checks: only a checksum trailer catches it. doc/datagen.md
// ("Integrity") counts what the checks catch of single-bit flips.
type BinpackReader struct {
	br      *bufio.Reader
	off     int64 // bytes consumed from the input
	chunk   []byte
	dec     chunkDecoder // the decoder delivering samples from the current chunk
	chains  int          // chains in the chunks before the current one
	checked int          // chunks verified by their checksum trailer
	plain   int          // chunks without a trailer
	err     error
	done    bool
}

// NewBinpackReader returns a BinpackReader reading from r.
func NewBinpackReader(r io.Reader) *BinpackReader {
	return &BinpackReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Offset returns the number of input bytes consumed so far (whole chunks: the reader reads
// a chunk before it delivers its samples).
func (r *BinpackReader) Offset() int64 { return r.off }

// Chunks returns the number of chunks read so far that carried a checksum trailer (and matched
// it) and the number that carried none (Stockfish's files have none).
func (r *BinpackReader) Chunks() (checksummed, plain int) { return r.checked, r.plain }

func (r *BinpackReader) fail(off int64, err error) bool {
	r.err = &FormatError{Format: "binpack", Offset: off, Err: err}
	return false
}

// Next advances to the next sample; false at the end of the input or on error (see Err).
func (r *BinpackReader) Next() bool {
	if r.err != nil || r.done {
		return false
	}
	for {
		if r.dec.data != nil && r.dec.Next() {
			return true
		}
		if r.dec.err != nil {
			// the sanity pass decoded the same bytes without error
			r.err = r.dec.err
			return false
		}
		r.chains = r.dec.chain
		if !r.readChunk() {
			return false
		}
	}
}

// readChunk reads the next chunk, verifies it (checksum, sanity pass) and points r.dec at it.
func (r *BinpackReader) readChunk() bool {
	start := r.off
	var hdr [8]byte
	n, err := io.ReadFull(r.br, hdr[:])
	r.off += int64(n)
	if err == io.EOF {
		r.done = true
		return false
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return r.fail(start, fmt.Errorf("%w: chunk header", ErrTruncated))
		}
		return r.fail(start, err)
	}
	if string(hdr[:4]) != "BINP" {
		return r.fail(start, fmt.Errorf("%w: chunk magic %q, want \"BINP\"", ErrCorrupt, hdr[:4]))
	}
	size := int64(hdr[4]) | int64(hdr[5])<<8 | int64(hdr[6])<<16 | int64(hdr[7])<<24
	if size > BinpackMaxChunk {
		return r.fail(start, fmt.Errorf("%w: chunk size %d > %d", ErrCorrupt, size, BinpackMaxChunk))
	}
	// Grow the buffer as the bytes arrive: a truncated file with a large declared size
	// allocates no more than it holds (plus one step).
	r.chunk = r.chunk[:0]
	for int64(len(r.chunk)) < size {
		step := min(size-int64(len(r.chunk)), 1<<20)
		r.chunk = slices.Grow(r.chunk, int(step))[:len(r.chunk)+int(step)]
		m, err := io.ReadFull(r.br, r.chunk[int64(len(r.chunk))-step:])
		r.off += int64(m)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return r.fail(start+8, fmt.Errorf("%w: chunk of %d bytes ends after %d", ErrTruncated, size, int64(len(r.chunk))-step+int64(m)))
			}
			return r.fail(r.off, err)
		}
	}
	body := start + 8
	data, sum, err := splitChecksum(r.chunk)
	if err != nil {
		return r.fail(body+int64(len(r.chunk)-binpackTrailerBytes), err)
	}
	// The sanity pass: decode every record of the chunk before delivering any.
	check := chunkDecoder{data: data, base: body}
	for check.Next() {
	}
	if check.err != nil {
		if sum && len(data) < len(r.chunk) {
			// a trailer that matched its data: cannot happen unless the writer was wrong
			return r.fail(start, fmt.Errorf("%w (in a chunk whose checksum matches)", check.err))
		}
		r.err = check.err
		return false
	}
	if sum {
		r.checked++
	} else {
		r.plain++
	}
	r.dec = chunkDecoder{data: data, base: body, chain: r.chains, verified: true}
	return true
}

// BinpackMaxScore bounds |score| in a binpack record: Stockfish's largest value is VALUE_NONE
// (32002); no engine reports more. BinpackWriter refuses larger scores and the reader rejects
// them.
const BinpackMaxScore = 32002

// The checksum trailer nnuekit's BinpackWriter adds to each chunk with SetChecksums(true):
// binpackTrailerMagic and the CRC-32C (Castagnoli) of the chunk's chain bytes, little-endian,
// 8 bytes in all. Stockfish's readers skip fewer than 34 trailing bytes of a chunk, so they read
// such files as if the trailer were not there.
const (
	binpackTrailerMagic = "nkC1"
	binpackTrailerBytes = 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// splitChecksum returns the chain bytes of chunk and whether it carried a checksum trailer that
// matched. A chunk ending in the trailer's magic whose checksum does not match is an error unless
// the whole chunk decodes as chains (a Stockfish chunk that happens to end in those bytes).
func splitChecksum(chunk []byte) ([]byte, bool, error) {
	n := len(chunk) - binpackTrailerBytes
	if n < 0 || string(chunk[n:n+4]) != binpackTrailerMagic {
		return chunk, false, nil
	}
	want := uint32(chunk[n+4]) | uint32(chunk[n+5])<<8 | uint32(chunk[n+6])<<16 | uint32(chunk[n+7])<<24
	got := crc32.Checksum(chunk[:n], castagnoli)
	if got == want {
		return chunk[:n], true, nil
	}
	whole := chunkDecoder{data: chunk}
	for whole.Next() {
	}
	if whole.err == nil {
		return chunk, false, nil
	}
	return nil, false, fmt.Errorf("%w: chunk checksum %08x, the trailer says %08x", ErrCorrupt, got, want)
}

// chunkDecoder decodes the chains of one chunk held in memory.
type chunkDecoder struct {
	data      []byte // the chunk's chain bytes
	base      int64  // input offset of data[0], for errors
	pos       int    // bytes of data consumed
	cur, next Sample
	hasNext   bool
	pliesLeft int
	// movetext bit reader
	bitByte   byte
	bitsLeft  int
	lastScore int16
	ply       int
	res       int
	chain     int // 1-based number of the current chain in the file
	err       error
	// verified: the sanity pass has decoded these very bytes without error, so the position and
	// move legality checks (pure functions of the bytes) are not repeated
	verified bool
}

func (d *chunkDecoder) fail(off int64, err error) bool {
	d.err = &FormatError{Format: "binpack", Offset: off, Err: err}
	return false
}

func (d *chunkDecoder) off() int64 { return d.base + int64(d.pos) }

// Next advances to the chunk's next sample: false at the end of the chunk (err nil) or on error.
func (d *chunkDecoder) Next() bool {
	if d.err != nil {
		return false
	}
	if d.hasNext {
		d.cur = d.next
		d.hasNext = false
		return d.lookahead()
	}
	if d.pos == len(d.data) {
		return false
	}
	return d.readStem()
}

func (d *chunkDecoder) readStem() bool {
	start := d.off()
	if left := len(d.data) - d.pos; left < binpackStemBytes+2 {
		return d.fail(start, fmt.Errorf("%w: %d trailing bytes in chunk, too few for a chain", ErrCorrupt, left))
	}
	b := d.data[d.pos : d.pos+binpackStemBytes+2]
	d.pos += binpackStemBytes + 2
	p, err := decompressPosition(b[0:24])
	if err != nil {
		return d.fail(start, err)
	}
	pr := uint16(b[28])<<8 | uint16(b[29])
	d.ply = int(pr & 0x3FFF)
	d.res = int(unsignedToSigned(pr >> 14))
	rule50 := (int(b[30])<<8 | int(b[31])) & 0xFF
	setPly(&p, d.ply, rule50)
	m := decompressMove(uint16(b[24])<<8 | uint16(b[25]))
	if !d.verified {
		if err := p.Validate(); err != nil {
			return d.fail(start, fmt.Errorf("%w: %w", ErrCorrupt, err))
		}
		if !legalMove(&p, m) {
			return d.fail(start, fmt.Errorf("%w: move %v not legal in %s", ErrCorrupt, m, p.FEN()))
		}
	}
	result, ok := resultFromSTM(d.res, p.SideToMove())
	if !ok {
		return d.fail(start, fmt.Errorf("%w: result %d", ErrCorrupt, d.res))
	}
	score := unsignedToSigned(uint16(b[26])<<8 | uint16(b[27]))
	if score > BinpackMaxScore || score < -BinpackMaxScore {
		return d.fail(start, fmt.Errorf("%w: score %d beyond ±%d", ErrCorrupt, score, BinpackMaxScore))
	}
	d.chain++
	d.cur = Sample{Pos: p, Score: int32(score), Best: m, Result: result, Line: d.chain, Index: 0}
	d.pliesLeft = int(b[32])<<8 | int(b[33])
	d.lastScore = -score
	d.bitsLeft = 0
	return d.lookahead()
}

// lookahead decodes the chain's next record, if any, to set d.cur.Played.
func (d *chunkDecoder) lookahead() bool {
	if d.pliesLeft == 0 {
		return true
	}
	start := d.off()
	prev := &d.cur
	pos := sfPlay(&prev.Pos, prev.Best)
	m, err := d.decodeMove(&pos)
	if err != nil {
		return d.fail(start, err)
	}
	u, err := d.readVLE()
	if err != nil {
		return d.fail(start, err)
	}
	score := d.lastScore + unsignedToSigned(u)
	if score > BinpackMaxScore || score < -BinpackMaxScore {
		return d.fail(start, fmt.Errorf("%w: score %d beyond ±%d", ErrCorrupt, score, BinpackMaxScore))
	}
	d.lastScore = -score
	d.pliesLeft--
	d.ply++
	d.res = -d.res
	if d.ply > 0xFFFF {
		return d.fail(start, fmt.Errorf("%w: ply beyond 16 bits", ErrCorrupt))
	}
	// Stockfish derives the fullmove number from the ply (ply/2 + 1), also when a file's ply
	// parity does not match the side to move.
	pos.SetClocks(pos.HalfmoveClock(), d.ply/2+1)
	prev.Played = prev.Best
	d.next = Sample{Pos: pos, Score: int32(score), Best: m, Result: prev.Result, Line: prev.Line, Index: prev.Index + 1}
	d.hasNext = true
	return true
}

func (d *chunkDecoder) readBits(count int) (uint, error) {
	var v uint
	for count > 0 {
		if d.bitsLeft == 0 {
			if d.pos == len(d.data) {
				return 0, fmt.Errorf("%w: movetext crosses the end of its chunk", ErrCorrupt)
			}
			d.bitByte, d.bitsLeft = d.data[d.pos], 8
			d.pos++
		}
		n := min(count, d.bitsLeft)
		v = v<<uint(n) | uint(d.bitByte>>uint(d.bitsLeft-n))&(1<<uint(n)-1)
		d.bitsLeft -= n
		count -= n
	}
	return v, nil
}

func (d *chunkDecoder) readVLE() (uint16, error) {
	var v uint
	for shift := 0; ; shift += 4 {
		if shift >= 16 {
			return 0, fmt.Errorf("%w: score code longer than 16 bits", ErrCorrupt)
		}
		block, err := d.readBits(5)
		if err != nil {
			return 0, err
		}
		v |= (block & 15) << uint(shift)
		if block&16 == 0 {
			return uint16(v), nil
		}
	}
}

// decodeMove reads one movetext move in p and checks that it is legal.
func (d *chunkDecoder) decodeMove(p *board.Position) (board.Move, error) {
	us := p.SideToMove()
	ours := p.ByColor(us)
	occ := p.Occupied()
	bad := func(what string) (board.Move, error) {
		return board.NullMove, fmt.Errorf("%w: movetext %s in %s", ErrCorrupt, what, p.FEN())
	}
	pid, err := d.readBits(usedBitsSafe(ours.Count()))
	if err != nil {
		return board.NullMove, err
	}
	from := nthSetBit(ours, int(pid))
	if from == board.NoSquare {
		return bad("piece index out of range")
	}
	var m board.Move
	switch pc := p.PieceAt(from); pc.Role() {
	case board.Pawn:
		dest := pawnDestinations(p, from)
		n := dest.Count()
		promo := from.Rank() == 6 && us == board.White || from.Rank() == 1 && us == board.Black
		if promo {
			n *= 4
		}
		id, err := d.readBits(usedBitsSafe(n))
		if err != nil {
			return board.NullMove, err
		}
		if int(id) >= n {
			return bad("pawn move index out of range")
		}
		if promo {
			m = board.NewPromotion(from, nthSetBit(dest, int(id/4)), board.Knight+board.Role(id%4))
		} else {
			m = board.NewMove(from, nthSetBit(dest, int(id)))
		}
	case board.King:
		att := board.KingAttacks(from) &^ ours
		nc, long := ourCastlings(p)
		n := att.Count() + nc
		id, err := d.readBits(usedBitsSafe(n))
		if err != nil {
			return board.NullMove, err
		}
		if int(id) >= n {
			return bad("king move index out of range")
		}
		if int(id) >= att.Count() {
			if int(id)-att.Count() == 0 && long {
				m = board.NewMove(from, from-2)
			} else {
				m = board.NewMove(from, from+2)
			}
		} else {
			m = board.NewMove(from, nthSetBit(att, int(id)))
		}
	default:
		att := board.Attacks(pc, from, occ) &^ ours
		n := att.Count()
		id, err := d.readBits(usedBitsSafe(n))
		if err != nil {
			return board.NullMove, err
		}
		if int(id) >= n {
			return bad("move index out of range")
		}
		m = board.NewMove(from, nthSetBit(att, int(id)))
	}
	if !d.verified && !legalMove(p, m) {
		return bad("move " + m.String() + " not legal")
	}
	return m, nil
}

// Sample returns the current sample (valid until the next call of Next).
func (r *BinpackReader) Sample() *Sample {
	if r.err != nil || r.done {
		return nil
	}
	return &r.dec.cur
}

// Err returns the first error met, or nil at a clean end of the input.
func (r *BinpackReader) Err() error { return r.err }
