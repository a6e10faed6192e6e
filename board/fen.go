package board

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// StartFEN is the FEN of the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

var startPosition = func() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("board: StartFEN does not parse: " + err.Error())
	}
	return p
}()

// StartPosition returns the standard starting position (ParseFEN(StartFEN)).
func StartPosition() Position { return startPosition }

// pieceLetters maps FEN letters to pieces (NoPiece for anything else).
var pieceLetters = func() (t [256]Piece) {
	for i, ch := range "PNBRQKpnbrqk" {
		t[ch] = Piece(i + 1)
	}
	return
}()

// maxClock bounds the clock fields (9 decimal digits), so parsing never overflows.
const maxClockDigits = 9

// ParseFEN parses a FEN record (Forsyth–Edwards Notation, standard chess; no Shredder/
// X-FEN castling letters) and validates the position (see Validate).
//
// Accepted form: six fields separated by single spaces — placement, side ("w"/"b"),
// castling ("-" or a non-empty subsequence of "KQkq" in that order), en passant ("-" or
// a square), halfmove clock, fullmove number (non-negative decimal integers without sign
// or leading zeros, at most 9 digits) — or only the first four fields, in which case the
// clocks default to 0 and 1. Leading and trailing white space is ignored. Placement ranks
// must not contain two adjacent digits ("44" for "8"). With these rules every accepted
// six-field FEN round-trips exactly: ParseFEN(s).FEN() == s (after trimming).
//
// An en-passant square is kept as written when plausible (see Validate), even if no legal
// en-passant capture exists (Play writes it only when one does; doc/board.md).
//
// Errors: *FENError with Field (Field* constants) and Offset (byte offset into s); it wraps
// ErrSyntax for malformed text or a *PositionError (ErrIllegalPosition) for an illegal
// position.
func ParseFEN(s string) (Position, error) {
	start, end := trimSpace(s)
	var fieldBuf [7]string
	var offBuf [7]int
	fields, offs := splitSingleSpace(s, start, end, fieldBuf[:0], offBuf[:0])
	switch len(fields) {
	case 4, 6:
	default:
		return Position{}, &FENError{Field: FieldFEN, Offset: start, Err: ErrSyntax,
			Reason: fmt.Sprintf("%d space-separated fields, want 6 (or 4)", len(fields))}
	}
	return parseFENFields(fields, offs)
}

// trimSpace returns the bounds of s without leading/trailing ASCII white space.
func trimSpace(s string) (int, int) {
	start, end := 0, len(s)
	for start < end && isSpace(s[start]) {
		start++
	}
	for end > start && isSpace(s[end-1]) {
		end--
	}
	return start, end
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// splitSingleSpace splits s[start:end] at single ' ' characters (empty fields kept, so
// doubled spaces are reported as an empty field). At most 7 fields are returned.
func splitSingleSpace(s string, start, end int, fields []string, offs []int) ([]string, []int) {
	if start == end {
		return fields, offs
	}
	i := start
	for len(fields) < 7 {
		j := strings.IndexByte(s[i:end], ' ')
		if j < 0 {
			fields = append(fields, s[i:end])
			offs = append(offs, i)
			break
		}
		fields = append(fields, s[i:i+j])
		offs = append(offs, i)
		i += j + 1
	}
	return fields, offs
}

// parseFENFields parses 4 or 6 FEN fields; offs are their byte offsets in the input.
func parseFENFields(fields []string, offs []int) (Position, error) {
	var p Position
	syntax := func(field string, off int, format string, args ...any) (Position, error) {
		return Position{}, &FENError{Field: field, Offset: off, Reason: fmt.Sprintf(format, args...), Err: ErrSyntax}
	}
	for i, f := range fields {
		if f == "" {
			return syntax(fieldNames[i], offs[i], "empty field (two spaces in a row?)")
		}
	}

	// 1. placement
	var sqOff [64]int
	pl, base := fields[0], offs[0]
	rank, file, prevDigit := 7, 0, false
	for i := 0; i < len(pl); i++ {
		c, off := pl[i], base+i
		switch {
		case c == '/':
			if file != 8 {
				return syntax(FieldPlacement, off, "rank %d has %d squares, want 8", rank+1, file)
			}
			if rank == 0 {
				return syntax(FieldPlacement, off, "more than 8 ranks")
			}
			rank, file, prevDigit = rank-1, 0, false
		case c >= '1' && c <= '8':
			if prevDigit {
				return syntax(FieldPlacement, off, "two adjacent digits (write their sum)")
			}
			n := int(c - '0')
			if file+n > 8 {
				return syntax(FieldPlacement, off, "rank %d has more than 8 squares", rank+1)
			}
			for k := 0; k < n; k++ {
				sqOff[NewSquare(file+k, rank)] = off
			}
			file, prevDigit = file+n, true
		default:
			pc := pieceLetters[c]
			if pc == NoPiece {
				return syntax(FieldPlacement, off, "unknown piece letter %q", rune(c))
			}
			if file >= 8 {
				return syntax(FieldPlacement, off, "rank %d has more than 8 squares", rank+1)
			}
			sq := NewSquare(file, rank)
			p.Put(sq, pc)
			sqOff[sq] = off
			file, prevDigit = file+1, false
		}
	}
	if rank != 0 {
		return syntax(FieldPlacement, base, "%d ranks, want 8", 8-rank)
	}
	if file != 8 {
		return syntax(FieldPlacement, base+len(pl), "rank 1 has %d squares, want 8", file)
	}

	// 2. side to move
	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return syntax(FieldSide, offs[1], "side to move %q, want \"w\" or \"b\"", fields[1])
	}

	// 3. castling
	if cf := fields[2]; cf != "-" {
		last := -1
		for i := 0; i < len(cf); i++ {
			k := strings.IndexByte("KQkq", cf[i])
			switch {
			case k < 0:
				return syntax(FieldCastling, offs[2]+i, "unknown castling letter %q, want \"-\" or letters of KQkq", rune(cf[i]))
			case k <= last:
				return syntax(FieldCastling, offs[2]+i, "castling letters repeated or not in the order KQkq")
			}
			last = k
			p.SetCastling(p.castling | 1<<k)
		}
	}

	// 4. en passant
	if ef := fields[3]; ef != "-" {
		sq, err := ParseSquare(ef)
		if err != nil {
			return syntax(FieldEnPassant, offs[3], "en-passant square %q, want \"-\" or a square such as e3", ef)
		}
		p.SetEnPassant(sq)
	}

	// 5–6. clocks
	p.halfmove, p.fullmove = 0, 1
	if len(fields) == 6 {
		for i, dst := range []*int{&p.halfmove, &p.fullmove} {
			n, reason := parseClock(fields[4+i])
			if reason != "" {
				return syntax(fieldNames[4+i], offs[4+i], "%s %q", reason, fields[4+i])
			}
			*dst = n
		}
	}

	if err := p.Validate(); err != nil {
		var pe *PositionError
		if !errors.As(err, &pe) {
			return Position{}, err
		}
		off := offs[0]
		for i, name := range fieldNames[:len(fields)] {
			if name == pe.Field {
				off = offs[i]
			}
		}
		if pe.Field == FieldPlacement && pe.Square.Valid() {
			off = sqOff[pe.Square]
		}
		return Position{}, &FENError{Field: pe.Field, Offset: off, Reason: pe.Reason, Err: pe}
	}
	return p, nil
}

var fieldNames = [6]string{FieldPlacement, FieldSide, FieldCastling, FieldEnPassant, FieldHalfmove, FieldFullmove}

// parseClock parses a non-negative decimal integer without sign or leading zeros.
func parseClock(s string) (int, string) {
	if s == "" {
		return 0, "empty number"
	}
	if len(s) > maxClockDigits {
		return 0, "number too large"
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, "not a non-negative integer:"
		}
		n = n*10 + int(c-'0')
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, "leading zero in"
	}
	return n, ""
}

// FEN returns the position in Forsyth–Edwards Notation, six fields, castling in KQkq
// order, "-" for empty castling/en passant. It is the exact inverse of ParseFEN for
// positions ParseFEN returns.
func (p *Position) FEN() string { return string(p.AppendFEN(make([]byte, 0, 90))) }

// String returns p.FEN().
func (p *Position) String() string { return p.FEN() }

// AppendFEN appends p.FEN() to dst and returns the extended slice (no allocation when dst
// has room).
func (p *Position) AppendFEN(dst []byte) []byte {
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.mailbox[NewSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				dst = append(dst, byte('0'+empty))
				empty = 0
			}
			dst = append(dst, pc.String()[0])
		}
		if empty > 0 {
			dst = append(dst, byte('0'+empty))
		}
		if rank > 0 {
			dst = append(dst, '/')
		}
	}
	if p.side == White {
		dst = append(dst, " w "...)
	} else {
		dst = append(dst, " b "...)
	}
	dst = append(dst, p.castling.String()...)
	dst = append(dst, ' ')
	dst = append(dst, p.EnPassant().String()...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.halfmove), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.fullmove), 10)
	return dst
}

// ParseEPD parses one EPD line (Extended Position Description): the first four FEN fields,
// optionally followed by the two FEN clock fields (so plain six-field FEN lines are EPD
// too), then operations "opcode operand…;" such as `bm e4; id "pos 1";`.
//
// Fields are separated by runs of spaces or tabs. It returns the validated position and
// the operations as a map opcode → operand text (trimmed; a single double-quoted operand
// is unquoted; an opcode without operand maps to ""; a repeated opcode keeps the last).
// The standard opcodes hmvc and fmvn set the halfmove clock and fullmove number and are
// also kept in the map. Clocks default to 0 and 1.
//
// Errors: *FENError as for ParseFEN, with Field FieldOpcode for a malformed operation
// (bad opcode name, unterminated string, bad hmvc/fmvn value).
func ParseEPD(line string) (Position, map[string]string, error) {
	start, end := trimSpace(line)
	var fields []string
	var offs []int
	i := start
	skip := func() {
		for i < end && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	token := func() (string, int) {
		j := i
		for i < end && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		return line[j:i], j
	}
	for len(fields) < 4 && i < end {
		t, o := token()
		fields = append(fields, t)
		offs = append(offs, o)
		skip()
	}
	if len(fields) < 4 {
		return Position{}, nil, &FENError{Field: FieldFEN, Offset: start, Err: ErrSyntax,
			Reason: fmt.Sprintf("%d fields, an EPD line needs 4", len(fields))}
	}
	// optional clocks: a token starting with a digit cannot be an opcode
	if i < end && line[i] >= '0' && line[i] <= '9' {
		for k := 0; k < 2; k++ {
			t, o := token()
			if k == 1 && (t == "" || t[0] < '0' || t[0] > '9') {
				return Position{}, nil, &FENError{Field: FieldFullmove, Offset: o, Err: ErrSyntax,
					Reason: "halfmove clock without fullmove number"}
			}
			fields = append(fields, strings.TrimSuffix(t, ";"))
			offs = append(offs, o)
			skip()
		}
	}
	p, err := parseFENFields(fields, offs)
	if err != nil {
		return Position{}, nil, err
	}
	ops, err := parseEPDOps(line, i, end)
	if err != nil {
		return Position{}, nil, err
	}
	for k, dst := range map[string]*int{"hmvc": &p.halfmove, "fmvn": &p.fullmove} {
		if v, ok := ops[k]; ok {
			n, reason := parseClock(v)
			if reason != "" {
				return Position{}, nil, &FENError{Field: FieldOpcode, Offset: i, Err: ErrSyntax,
					Reason: fmt.Sprintf("%s operand: %s %q", k, reason, v)}
			}
			*dst = n
		}
	}
	// The clocks set by hmvc and fmvn are checked as the FEN's own are (fullmove ≥ 1, …).
	if err := p.Validate(); err != nil {
		var pe *PositionError
		if !errors.As(err, &pe) {
			return Position{}, nil, err
		}
		return Position{}, nil, &FENError{Field: FieldOpcode, Offset: i, Reason: pe.Reason, Err: pe}
	}
	return p, ops, nil
}

// parseEPDOps parses "opcode operands;" operations in s[i:end].
func parseEPDOps(s string, i, end int) (map[string]string, error) {
	ops := map[string]string{}
	for i < end {
		for i < end && (isSpace(s[i]) || s[i] == ';') {
			i++
		}
		if i >= end {
			break
		}
		opStart := i
		for i < end && !isSpace(s[i]) && s[i] != ';' {
			i++
		}
		op := s[opStart:i]
		if !validOpcode(op) {
			return nil, &FENError{Field: FieldOpcode, Offset: opStart, Err: ErrSyntax,
				Reason: fmt.Sprintf("bad opcode %q (want a letter then letters, digits or _)", op)}
		}
		valStart, inQuote := i, false
		for i < end && (inQuote || s[i] != ';') {
			if s[i] == '"' {
				inQuote = !inQuote
			}
			i++
		}
		if inQuote {
			return nil, &FENError{Field: FieldOpcode, Offset: valStart, Err: ErrSyntax,
				Reason: "unterminated string operand of " + op}
		}
		v := strings.TrimSpace(s[valStart:i])
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && strings.Count(v, `"`) == 2 {
			v = v[1 : len(v)-1]
		}
		ops[op] = v
	}
	return ops, nil
}

func validOpcode(op string) bool {
	if op == "" || len(op) > 15 {
		return false
	}
	for i := 0; i < len(op); i++ {
		c := op[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !letter || !letter && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}
