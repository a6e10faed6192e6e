// Package uci is a client for chess engines speaking the Universal Chess Interface (UCI
// protocol, Stefan Meyer-Kahlen 2000–2006, as implemented by Stockfish 15.1 uci.cpp): start an
// engine process, set options, send positions and "go" limits, read "info" and "bestmove"
// lines, with real deadlines so that a hung engine cannot block the caller, and restart an
// engine that crashed. It is shared by examples/datagen and examples/match.
//
// Engines are treated as untrusted: each runs in its own process group, killed as a whole
// (an engine started by a shell script without exec dies with the script); output lines are
// limited to MaxLineBytes and the lines read ahead to 4 MiB, so a flood of output cannot
// exhaust memory; the options of a Spec are checked against the options the engine declares
// before they are set (Engine.CheckOption); a timed "go" never asks for an infinite search
// (Limits.Command).
//
// Moves are returned as the engine wrote them; callers check them against their own board
// (board.ParseUCIMove), because an engine's output is untrusted input.
//
// github.com/corentings/chess/v2/uci was not used: it reads each reply with a new scanner over
// the shared pipe and has no deadlines (doc/datagen.md, "Why not chess/v2/uci").
package uci
