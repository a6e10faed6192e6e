package board

import (
	"errors"
	"fmt"
)

// Sentinel error kinds. Every error returned by this package's parsers and validators
// wraps exactly one of them, so callers can test the kind with errors.Is and get the
// details (field, offset, square) with errors.As.
var (
	// ErrSyntax: the text is not well-formed FEN/EPD/UCI/SAN (wrong field count, unknown
	// letter, rank too long, non-numeric clock …). Wrapped by *FENError.
	ErrSyntax = errors.New("board: syntax error")
	// ErrIllegalPosition: the text is well-formed but describes a position that cannot
	// arise in standard chess (two white kings, pawn on rank 8, castling right without its
	// rook, side not to move in check …). Wrapped by *PositionError.
	ErrIllegalPosition = errors.New("board: illegal position")
	// ErrIllegalMove: a move is well-formed but not legal in the position.
	ErrIllegalMove = errors.New("board: illegal move")
)

// FEN field names used in FENError.Field and PositionError.Field.
const (
	FieldFEN       = "fen"        // the record as a whole (field count, whitespace)
	FieldPlacement = "placement"  // field 1: piece placement
	FieldSide      = "side"       // field 2: side to move
	FieldCastling  = "castling"   // field 3: castling rights
	FieldEnPassant = "en passant" // field 4: en-passant target square
	FieldHalfmove  = "halfmove"   // field 5: halfmove clock
	FieldFullmove  = "fullmove"   // field 6: fullmove number
	FieldOpcode    = "opcode"     // EPD operations after the four FEN fields
)

// FENError reports a malformed or illegal FEN or EPD record: which field is wrong
// (one of the Field* constants), the byte offset into the input string where the problem
// starts (after nothing has been trimmed: offsets index the string passed in), and a
// human-readable reason.
//
// Err is ErrSyntax for malformed text, or a *PositionError (which wraps
// ErrIllegalPosition) when the text is well-formed but the position is illegal; Unwrap
// returns it, so errors.Is(err, ErrSyntax) / errors.Is(err, ErrIllegalPosition) work.
type FENError struct {
	Field  string
	Offset int
	Reason string
	Err    error
}

// Error returns e.g. `board: bad FEN placement at offset 17: unknown piece letter 'x'`, or
// `board: bad FEN at offset 0: …` when the record as a whole is wrong (FieldFEN).
func (e *FENError) Error() string {
	if e.Field == FieldFEN {
		return fmt.Sprintf("board: bad FEN at offset %d: %s", e.Offset, e.Reason)
	}
	return fmt.Sprintf("board: bad FEN %s at offset %d: %s", e.Field, e.Offset, e.Reason)
}

// Unwrap returns ErrSyntax or the *PositionError.
func (e *FENError) Unwrap() error { return e.Err }

// PositionError reports why a position is illegal (from Validate, or from ParseFEN
// wrapped in a *FENError). Field is the FEN field the rule belongs to (Field* constants),
// Square the square concerned or NoSquare, Reason a human-readable explanation.
// It wraps ErrIllegalPosition.
type PositionError struct {
	Field  string
	Square Square
	Reason string
}

// Error returns e.g. `board: illegal position (placement, e8): pawn on the eighth rank`.
func (e *PositionError) Error() string {
	if e.Square.Valid() {
		return fmt.Sprintf("board: illegal position (%s, %s): %s", e.Field, e.Square, e.Reason)
	}
	return fmt.Sprintf("board: illegal position (%s): %s", e.Field, e.Reason)
}

// Unwrap returns ErrIllegalPosition.
func (e *PositionError) Unwrap() error { return ErrIllegalPosition }

// MoveError reports a move string that could not be parsed or is not legal in the
// position. Err is ErrSyntax or ErrIllegalMove.
type MoveError struct {
	Move   string // the input text
	FEN    string // the position it was parsed against
	Reason string
	Err    error
}

// Error returns e.g. `board: move "e2e5" in <fen>: not a legal move`.
func (e *MoveError) Error() string {
	return fmt.Sprintf("board: move %q in %s: %s", e.Move, e.FEN, e.Reason)
}

// Unwrap returns ErrSyntax or ErrIllegalMove.
func (e *MoveError) Unwrap() error { return e.Err }
