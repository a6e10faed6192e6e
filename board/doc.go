// Package board is nnuekit's engine-agnostic position snapshot: the input every feature
// set (package featureset) is computed from. Engines that import nnuekit keep their own
// board and fill a Position cheaply (Put, SetSideToMove, SetCastling, SetEnPassant,
// SetClocks, then optionally Validate), or parse one from FEN/EPD.
//
// Conventions (thesis §3, Stockfish 15.1): squares are rank-major, a1 = 0 … h8 = 63;
// colors White = 0, Black = 1; roles Pawn … King = 0 … 5; Piece = 1 + 6·color + role
// with NoPiece = 0. Bitboards have bit i = square i.
//
// What the package provides:
//
//   - Position: mailbox, bitboards per color and role, side to move, castling rights,
//     en-passant square, clocks; a plain value (copy-make), comparable with ==.
//   - FEN and EPD: ParseFEN, (*Position).FEN, ParseEPD, with validation (Validate) and
//     typed errors (*FENError, *PositionError, *MoveError; sentinels ErrSyntax,
//     ErrIllegalPosition, ErrIllegalMove).
//   - Attack tables: KnightAttacks, KingAttacks, PawnAttacks, BishopAttacks, RookAttacks
//     (fancy magic bitboards), QueenAttacks, Attacks, LineBB, BetweenBB,
//     (*Position).Attackers/IsAttacked/Checkers/InCheck/AttackedBy.
//   - Move generation for search (our own legal generator with pin and check masks, no
//     allocation, the same moves as Stockfish on every tested position): MoveList,
//     GenerateLegal, GenerateCaptures (captures and queen promotions, for quiescence),
//     GenerateQuiets, GenerateEvasions, HasLegalMove, Perft; LegalMoves/AppendLegalMoves,
//     IsLegal, IsPseudoLegal (moves from a transposition table), IsCapture,
//     CapturedPiece, GivesCheck, SEE/SEEGE (static exchange), Status.
//   - Play (copy-make, also returns the DirtyPieces of the move, the input of incremental
//     feature diffs) and PlayNull (null move); Key (polyglot Zobrist key, incremental,
//     equal to polyglot opening-book keys), PawnKey, ComputeKey.
//   - Notation and games through github.com/corentings/chess/v2 (chessv2.go, see
//     doc/board.md): ParseSAN, (*Position).SAN, ReadPGN; ParseMove and ParseUCIMove are ours.
//   - Orientation transforms for perspectives: Flip (the thesis's Black view, §4.2),
//     Rotate180 (Stockfish 12/13 HalfKP), MirrorFiles (HalfKAv2_hm).
//
// Play assumes a legal move (from GenerateLegal); see its documentation for the contract
// and doc/board.md for the generator, the keys and the en-passant policy (the square is
// set only when an en-passant capture is legal, like FEN writers and
// ../shared/data/positions.epd).
package board
