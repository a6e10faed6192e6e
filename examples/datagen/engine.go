package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/nnuekit/nnuekit/board"
)

// normalizeToPawnValue is Stockfish 15.1's NormalizeToPawnValue (src/uci.h): UCI "score cp X"
// is 100·v/361 of the internal value v. We store internal units, like the binpack data the
// thesis used (doc/datagen.md).
const normalizeToPawnValue = 361

// valueMate is Stockfish's VALUE_MATE; a mate in n plies is stored as ±(valueMate − n).
const valueMate = 32000

// engine drives one UCI engine process. It speaks the few UCI commands datagen needs over one
// persistent buffered reader. (github.com/corentings/chess/v2/uci was tried first: it creates a
// new bufio.Scanner per command and decodes the ponder move against the root position, and in a
// two-worker run it returned a best move that was illegal in the position sent — see
// doc/datagen.md. Every move read here is checked for legality before it is used.)
type engine struct {
	path  string
	hash  int
	nodes int

	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func newEngine(path string, nodes, hash int) (*engine, error) {
	en := &engine{path: path, nodes: nodes, hash: hash}
	if err := en.start(); err != nil {
		return nil, err
	}
	return en, nil
}

func (en *engine) start() error {
	cmd := exec.Command(en.path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", en.path, err)
	}
	en.cmd, en.in, en.out = cmd, in, bufio.NewReaderSize(out, 64<<10)
	if err := en.send("uci"); err != nil {
		en.close()
		return err
	}
	if _, err := en.waitFor("uciok", 10*time.Second); err != nil {
		en.close()
		return fmt.Errorf("%s is not a UCI engine: %w", en.path, err)
	}
	if err := en.send(fmt.Sprintf("setoption name Threads value 1\nsetoption name Hash value %d", en.hash)); err != nil {
		en.close()
		return err
	}
	if err := en.isReady(); err != nil {
		en.close()
		return err
	}
	return nil
}

func (en *engine) send(s string) error {
	_, err := io.WriteString(en.in, s+"\n")
	return err
}

// waitFor reads lines until one starts with prefix and returns it. The timeout guards against a
// hung engine only coarsely: it is checked between lines.
func (en *engine) waitFor(prefix string, timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for {
		line, err := en.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("reading engine output: %w", err)
		}
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, prefix) {
			return line, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no %q from the engine within %s", prefix, timeout)
		}
	}
}

func (en *engine) isReady() error {
	if err := en.send("isready"); err != nil {
		return err
	}
	_, err := en.waitFor("readyok", 30*time.Second)
	return err
}

// restart replaces a dead or confused engine process.
func (en *engine) restart() error {
	en.close()
	return en.start()
}

func (en *engine) close() {
	if en.cmd == nil {
		return
	}
	_ = en.send("quit")
	_ = en.in.Close()
	done := make(chan struct{})
	go func() { _ = en.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = en.cmd.Process.Kill()
		<-done
	}
	en.cmd = nil
}

// newGame clears the engine's hash (ucinewgame) so games are independent.
func (en *engine) newGame() error {
	if err := en.send("ucinewgame"); err != nil {
		return err
	}
	return en.isReady()
}

// search runs "go nodes N" on p and returns the score (side to move, internal units) and the best
// move. The position is sent as "position fen" without move history, so the engine does not see
// earlier repetitions; the game loop detects them itself.
func (en *engine) search(p *board.Position) (int32, board.Move, error) {
	if err := en.send("position fen " + p.FEN() + "\ngo nodes " + strconv.Itoa(en.nodes)); err != nil {
		return 0, 0, err
	}
	var score int32
	haveScore := false
	for {
		line, err := en.out.ReadString('\n')
		if err != nil {
			return 0, 0, fmt.Errorf("reading engine output: %w", err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "info":
			if s, ok := parseInfoScore(f); ok {
				score, haveScore = s, true
			}
		case "bestmove":
			if len(f) < 2 {
				return 0, 0, errors.New("engine: empty bestmove line")
			}
			if !haveScore {
				return 0, 0, fmt.Errorf("engine: bestmove %s without a score", f[1])
			}
			best, err := board.ParseUCIMove(p, f[1])
			if err != nil {
				return 0, 0, fmt.Errorf("engine best move: %w", err)
			}
			return score, best, nil
		}
	}
}

// parseInfoScore extracts "score cp X" / "score mate M" from a UCI info line (multipv 1 only),
// converted to internal units: cp·361/100 rounded; mate in M moves → ±(32000 − plies).
func parseInfoScore(f []string) (int32, bool) {
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "multipv" && f[i+1] != "1" {
			return 0, false
		}
		if f[i] != "score" || i+2 >= len(f) {
			continue
		}
		v, err := strconv.Atoi(f[i+2])
		if err != nil {
			return 0, false
		}
		switch f[i+1] {
		case "cp":
			return cpToInternal(v), true
		case "mate":
			return mateToInternal(v), true
		}
		return 0, false
	}
	return 0, false
}

func cpToInternal(cp int) int32 {
	v := math.Round(float64(cp) * normalizeToPawnValue / 100)
	return int32(max(-valueMate+1000, min(valueMate-1000, v)))
}

func mateToInternal(m int) int32 {
	switch {
	case m > 0:
		return int32(valueMate - (2*m - 1))
	case m < 0:
		return int32(-(valueMate - 2*(-m)))
	}
	return 0
}
