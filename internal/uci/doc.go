// Package uci is a client for chess engines speaking the Universal Chess Interface (UCI
// protocol, Stefan Meyer-Kahlen 2000–2006, as implemented by Stockfish 15.1 uci.cpp): start an
// engine process, set options, send positions and "go" limits, read "info" and "bestmove"
// lines, with real deadlines so that a hung engine cannot block the caller, and restart an
// engine that crashed. It is shared by examples/datagen and examples/match.
//
// Moves are returned as the engine wrote them; callers check them against their own board
// (board.ParseUCIMove), because an engine's output is untrusted input.
//
// github.com/corentings/chess/v2/uci was not used: it reads each reply with a new scanner over
// the shared pipe and has no deadlines (doc/datagen.md, "Why not chess/v2/uci").
package uci
