package ucitest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

// Environment variables read by MaybeRun.
const (
	// EnvMode selects the behaviour: "first" (plays the legal move that sorts first in UCI notation), "crash" (exits
	// with status 3 and a message on stderr), "hang" (stops answering but stays alive),
	// "illegal" (answers "bestmove a1a1"), "slow" (sleeps EnvSleep before answering),
	// "nouci" (never answers "uci"), "exit" (exits at once), "flood" (answers "go" with an
	// output line of FloodBytes bytes, then the move), "clock" (spends 3/4 of its remaining
	// clock time on each move, and like many engines reads "wtime 0" or "go infinite" as "no
	// limit": it then answers only "stop").
	EnvMode = "NNUEKIT_FAKE_UCI"
	// EnvAfter: the misbehaviour starts at this 1-based search; before, the engine plays like
	// "first". Default 1.
	EnvAfter = "NNUEKIT_FAKE_AFTER"
	// EnvSleep: the delay of "slow", a time.ParseDuration string (default 1s).
	EnvSleep = "NNUEKIT_FAKE_SLEEP"
)

// FloodBytes is the length of the line "flood" writes (64 MiB, far above uci.MaxLineBytes).
const FloodBytes = 64 << 20

// MaybeRun runs the fake engine on stdin/stdout and exits the process when EnvMode is set;
// otherwise it returns at once.
func MaybeRun() {
	mode := os.Getenv(EnvMode)
	if mode == "" {
		return
	}
	after := 1
	if s := os.Getenv(EnvAfter); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			after = v
		}
	}
	sleep := time.Second
	if s := os.Getenv(EnvSleep); s != "" {
		if d, err := time.ParseDuration(s); err == nil {
			sleep = d
		}
	}
	os.Exit(Run(os.Stdin, os.Stdout, mode, after, sleep))
}

// Run is the fake engine's loop; it returns the exit status.
func Run(r io.Reader, w io.Writer, mode string, after int, sleep time.Duration) int {
	if mode == "exit" {
		return 0
	}
	out := bufio.NewWriter(w)
	say := func(format string, a ...any) {
		fmt.Fprintf(out, format+"\n", a...)
		out.Flush()
	}
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	pos := board.StartPosition()
	searches := 0
	waiting := false // "clock" searching without a limit until "stop"
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if mode == "nouci" {
				continue
			}
			say("id name fake-%s", mode)
			say("id author nnuekit ucitest")
			say("option name Hash type spin default 16 min 1 max 1024")
			say("option name Threads type spin default 1 min 1 max 64")
			say("option name Skill Level type spin default 20 min 0 max 20")
			say("option name EvalFile type string default <default>")
			say("option name Style type combo default Normal var Solid var Normal var Risky")
			say("option name Ponder type check default false")
			say("option name Clear Hash type button")
			say("uciok")
		case "isready":
			say("readyok")
		case "quit":
			return 0
		case "stop":
			if waiting {
				waiting = false
				say("bestmove %s", firstMove(&pos))
			}
		case "position":
			p, err := parsePosition(f[1:])
			if err != nil {
				say("info string bad position: %v", err)
				continue
			}
			pos = p
		case "go":
			searches++
			bad := searches >= after
			switch {
			case bad && mode == "crash":
				fmt.Fprintln(os.Stderr, "fake engine: deliberate crash at search", searches)
				return 3
			case bad && mode == "hang":
				for {
					time.Sleep(time.Hour)
				}
			case bad && mode == "illegal":
				say("info depth 1 score cp 0")
				say("bestmove a1a1")
				continue
			case bad && mode == "slow":
				time.Sleep(sleep)
			case bad && mode == "flood":
				out.WriteString("info string ")
				chunk := strings.Repeat("x", 1<<16)
				for n := 0; n < FloodBytes; n += len(chunk) {
					if _, err := out.WriteString(chunk); err != nil {
						return 1
					}
				}
				out.WriteString("\n")
			case bad && mode == "clock":
				rem, ok := clockTime(f[1:], pos.SideToMove())
				if !ok {
					waiting = true
					continue
				}
				say("info string clock mode: %d ms left, spending %d ms", rem.Milliseconds(), (rem * 3 / 4).Milliseconds())
				time.Sleep(rem * 3 / 4)
			}
			best := firstMove(&pos)
			if best != "0000" {
				say("info depth 1 score cp %d nodes 1 pv %s", material(&pos), best)
			}
			say("bestmove %s", best)
		}
	}
	return 0
}

// firstMove is the legal move of p that sorts first in UCI notation (independent of the move
// generator's order), or "0000" when there is none.
func firstMove(p *board.Position) string {
	ms := p.LegalMoves()
	if len(ms) == 0 {
		return "0000"
	}
	best := ms[0].String()
	for _, m := range ms[1:] {
		best = min(best, m.String())
	}
	return best
}

// clockTime returns the side to move's remaining time from the arguments of "go"; false when
// there is no positive clock time ("go infinite", "wtime 0", no wtime/btime).
func clockTime(args []string, stm board.Color) (time.Duration, bool) {
	key := "wtime"
	if stm == board.Black {
		key = "btime"
	}
	for i := 0; i+1 < len(args); i++ {
		if args[i] == key {
			v, err := strconv.Atoi(args[i+1])
			if err != nil || v <= 0 {
				return 0, false
			}
			return time.Duration(v) * time.Millisecond, true
		}
	}
	return 0, false
}

// material is the material balance of the side to move in centipawns (1/3/3/5/9).
func material(p *board.Position) int {
	vals := [board.NumRoles]int{100, 300, 300, 500, 900, 0}
	s := 0
	for r := board.Role(0); r < board.NumRoles; r++ {
		n := vals[r]
		s += n * (popcount(p.Pieces(p.SideToMove(), r)) - popcount(p.Pieces(p.SideToMove()^1, r)))
	}
	return s
}

func popcount(b board.Bitboard) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

func parsePosition(f []string) (board.Position, error) {
	var p board.Position
	i := 0
	switch {
	case len(f) > 0 && f[0] == "startpos":
		p = board.StartPosition()
		i = 1
	case len(f) > 0 && f[0] == "fen":
		j := 1
		for j < len(f) && f[j] != "moves" {
			j++
		}
		var err error
		if p, err = board.ParseFEN(strings.Join(f[1:j], " ")); err != nil {
			return p, err
		}
		i = j
	default:
		return p, fmt.Errorf("position %v", f)
	}
	if i < len(f) && f[i] == "moves" {
		for _, s := range f[i+1:] {
			m, err := board.ParseUCIMove(&p, s)
			if err != nil {
				return p, err
			}
			p, _ = p.Play(m)
		}
	}
	return p, nil
}
