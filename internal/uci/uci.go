package uci

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Errors returned by Engine methods (wrapped in *Error with the engine's name).
var (
	// ErrExited: the engine process ended (crash, exit, or closed its output).
	ErrExited = errors.New("engine process exited")
	// ErrTimeout: the engine did not answer within the deadline (a hang, or a time loss).
	ErrTimeout = errors.New("engine did not answer in time")
	// ErrProtocol: the engine wrote something the UCI protocol does not allow where it did.
	ErrProtocol = errors.New("UCI protocol error")
)

// Error is the error type of Engine methods: what was being done, the engine's name, and the
// cause (ErrExited, ErrTimeout, ErrProtocol or an I/O error). For ErrExited, Stderr holds the
// last lines the engine wrote to its standard error (a panic message, say).
type Error struct {
	Engine string
	Op     string
	Err    error
	Stderr string
}

// Error formats "engine NAME: OP: CAUSE (stderr: …)".
func (e *Error) Error() string {
	s := fmt.Sprintf("engine %s: %s: %v", e.Engine, e.Op, e.Err)
	if e.Stderr != "" {
		s += " (stderr: " + e.Stderr + ")"
	}
	return s
}

// Unwrap returns the cause, for errors.Is(err, ErrExited) and the like.
func (e *Error) Unwrap() error { return e.Err }

// Option is one UCI option, set with "setoption name Name value Value" after "uciok"; an empty
// Value sends "setoption name Name" (a button).
type Option struct {
	Name, Value string
}

// Spec describes how to start an engine: executable, arguments, working directory, and the UCI
// options to set, in order.
type Spec struct {
	Name    string   // display name (PGN White/Black tags); defaults to the id name
	Cmd     string   // executable path, or a name looked up in $PATH
	Args    []string // command-line arguments
	Dir     string   // working directory; empty: the current one
	Env     []string // extra environment variables ("KEY=value"), added to the caller's
	Options []Option
	// StartTimeout bounds "uci"→"uciok" and "isready"→"readyok" at start; 0 means 10 s.
	StartTimeout time.Duration
}

// Engine is one running UCI engine process. Its output is read by one goroutine into a
// channel, so every wait has a real deadline (a hung engine cannot block the caller). An
// Engine is not safe for concurrent use; after any error other than a timeout that the engine
// recovered from, call Restart (or Close).
type Engine struct {
	spec Spec
	// IDName and IDAuthor are the engine's "id name" and "id author".
	IDName, IDAuthor string

	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan string
	exited  chan struct{} // closed when the process has been waited for
	waitErr error
	stderr  *tailBuffer
}

// Start starts the engine of spec and initializes it: "uci" … "uciok", the options of spec,
// "isready" … "readyok". Errors: the executable cannot be started, or *Error (ErrExited,
// ErrTimeout: not a UCI engine, or a setoption it rejects by dying).
func Start(spec Spec) (*Engine, error) {
	e := &Engine{spec: spec}
	if err := e.start(); err != nil {
		return nil, err
	}
	return e, nil
}

// Name is the engine's display name: Spec.Name, else its id name, else the executable.
func (e *Engine) Name() string {
	switch {
	case e.spec.Name != "":
		return e.spec.Name
	case e.IDName != "":
		return e.IDName
	}
	return e.spec.Cmd
}

// Spec returns the spec the engine was started from.
func (e *Engine) Spec() Spec { return e.spec }

func (e *Engine) startTimeout() time.Duration {
	if e.spec.StartTimeout > 0 {
		return e.spec.StartTimeout
	}
	return 10 * time.Second
}

func (e *Engine) start() error {
	cmd := exec.Command(e.spec.Cmd, e.spec.Args...)
	cmd.Dir = e.spec.Dir
	detach(cmd)
	if len(e.spec.Env) > 0 {
		cmd.Env = append(os.Environ(), e.spec.Env...)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	e.stderr = &tailBuffer{max: 2048}
	cmd.Stderr = e.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting engine %s: %w", e.spec.Cmd, err)
	}
	e.cmd, e.in = cmd, in
	e.lines = make(chan string, 1024)
	e.exited = make(chan struct{})
	lines, exited := e.lines, e.exited
	var readDone sync.WaitGroup
	readDone.Add(1)
	go func() {
		defer readDone.Done()
		defer close(lines)
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			line, err := r.ReadString('\n')
			if line = strings.TrimRight(line, "\r\n"); line != "" {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		readDone.Wait() // Wait closes the pipe: read everything first
		e.waitErr = cmd.Wait()
		close(exited)
	}()

	e.IDName, e.IDAuthor = "", ""
	if err := e.Send("uci"); err != nil {
		e.Kill()
		return err
	}
	deadline := time.Now().Add(e.startTimeout())
	for {
		line, err := e.readLine(deadline, "uci")
		if err != nil {
			e.Kill()
			return err
		}
		if line == "uciok" {
			break
		}
		if rest, ok := strings.CutPrefix(line, "id name "); ok {
			e.IDName = strings.TrimSpace(rest)
		} else if rest, ok := strings.CutPrefix(line, "id author "); ok {
			e.IDAuthor = strings.TrimSpace(rest)
		}
	}
	for _, o := range e.spec.Options {
		if err := e.SetOption(o.Name, o.Value); err != nil {
			e.Kill()
			return err
		}
	}
	if err := e.IsReady(e.startTimeout()); err != nil {
		e.Kill()
		return err
	}
	return nil
}

func (e *Engine) fail(op string, err error) *Error {
	ee := &Error{Engine: e.Name(), Op: op, Err: err}
	if errors.Is(err, ErrExited) {
		// Give the waiter a moment so the exit status and stderr are complete.
		select {
		case <-e.exited:
		case <-time.After(500 * time.Millisecond):
		}
		select {
		case <-e.exited:
			if e.waitErr != nil {
				ee.Err = fmt.Errorf("%w (%v)", ErrExited, e.waitErr)
			}
		default:
		}
		ee.Stderr = e.stderr.String()
	}
	return ee
}

// readLine returns the next output line, waiting until deadline (zero: no deadline).
func (e *Engine) readLine(deadline time.Time, op string) (string, error) {
	var timer <-chan time.Time
	if !deadline.IsZero() {
		d := time.Until(deadline)
		if d <= 0 {
			// Still take a line that is already there.
			select {
			case line, ok := <-e.lines:
				if !ok {
					return "", e.fail(op, ErrExited)
				}
				return line, nil
			default:
				return "", e.fail(op, ErrTimeout)
			}
		}
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case line, ok := <-e.lines:
		if !ok {
			return "", e.fail(op, ErrExited)
		}
		return line, nil
	case <-timer:
		return "", e.fail(op, ErrTimeout)
	}
}

// Send writes one command line (a newline is appended). Errors: *Error wrapping ErrExited
// when the engine's input is closed.
func (e *Engine) Send(line string) error {
	if e.cmd == nil {
		return e.fail("send", ErrExited)
	}
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return e.fail("send "+firstWord(line), fmt.Errorf("%w: %v", ErrExited, err))
	}
	return nil
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// SetOption sends "setoption name N value V" (or "setoption name N" for an empty value).
func (e *Engine) SetOption(name, value string) error {
	if value == "" {
		return e.Send("setoption name " + name)
	}
	return e.Send("setoption name " + name + " value " + value)
}

// IsReady sends "isready" and waits up to timeout for "readyok", discarding other output
// (a late "bestmove", for instance).
func (e *Engine) IsReady(timeout time.Duration) error {
	if err := e.Send("isready"); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		line, err := e.readLine(deadline, "isready")
		if err != nil {
			return err
		}
		if line == "readyok" {
			return nil
		}
	}
}

// NewGame sends "ucinewgame" and synchronizes with "isready".
func (e *Engine) NewGame(timeout time.Duration) error {
	if err := e.Send("ucinewgame"); err != nil {
		return err
	}
	return e.IsReady(timeout)
}

// PositionCommand returns the UCI "position" command for a game from start (a FEN, or ""
// for the standard start position) followed by moves in UCI notation.
func PositionCommand(start string, moves []string) string {
	var sb strings.Builder
	if start == "" {
		sb.WriteString("position startpos")
	} else {
		sb.WriteString("position fen ")
		sb.WriteString(start)
	}
	if len(moves) > 0 {
		sb.WriteString(" moves")
		for _, m := range moves {
			sb.WriteByte(' ')
			sb.WriteString(m)
		}
	}
	return sb.String()
}

// Limits are the "go" parameters. Zero fields are left out; an all-zero Limits sends
// "go infinite" (stop it with Stop).
type Limits struct {
	WTime, BTime, WInc, BInc time.Duration // clock times and increments (sent in ms)
	MovesToGo                int
	MoveTime                 time.Duration // fixed time per move (sent in ms)
	Nodes                    int64
	Depth                    int
}

// Command returns the "go …" line for l.
func (l Limits) Command() string {
	var sb strings.Builder
	sb.WriteString("go")
	ms := func(k string, d time.Duration) {
		sb.WriteString(" " + k + " " + strconv.FormatInt(max(d.Milliseconds(), 0), 10))
	}
	timed := l.WTime != 0 || l.BTime != 0
	if timed {
		ms("wtime", l.WTime)
		ms("btime", l.BTime)
		if l.WInc > 0 || l.BInc > 0 {
			ms("winc", l.WInc)
			ms("binc", l.BInc)
		}
		if l.MovesToGo > 0 {
			sb.WriteString(" movestogo " + strconv.Itoa(l.MovesToGo))
		}
	}
	if l.MoveTime > 0 {
		ms("movetime", l.MoveTime)
	}
	if l.Nodes > 0 {
		sb.WriteString(" nodes " + strconv.FormatInt(l.Nodes, 10))
	}
	if l.Depth > 0 {
		sb.WriteString(" depth " + strconv.Itoa(l.Depth))
	}
	if sb.Len() == 2 {
		sb.WriteString(" infinite")
	}
	return sb.String()
}

// Result is the outcome of one search: the best move as the engine wrote it (UCI notation,
// unchecked: the caller validates it against its board), the ponder move if any, and the last
// main-line (multipv 1) info the engine sent before "bestmove".
type Result struct {
	BestMove, Ponder string
	Info             Info // last info with a score (HasScore false if none came)
	Depth            int  // deepest depth seen in info lines
	Nodes            int64
}

// Go sends the position command and lim, and waits for "bestmove" until deadline (zero: no
// deadline). On a timeout it returns an *Error wrapping ErrTimeout and the engine is still
// searching: call Stop (to recover it) or Kill/Restart. Errors: *Error wrapping ErrExited,
// ErrTimeout or ErrProtocol (a "bestmove" line without a move).
func (e *Engine) Go(position string, lim Limits, deadline time.Time) (Result, error) {
	if err := e.Send(position + "\n" + lim.Command()); err != nil {
		return Result{}, err
	}
	return e.waitBest(deadline, "search")
}

// Stop sends "stop" and waits up to grace for "bestmove".
func (e *Engine) Stop(grace time.Duration) (Result, error) {
	if err := e.Send("stop"); err != nil {
		return Result{}, err
	}
	return e.waitBest(time.Now().Add(grace), "stop")
}

func (e *Engine) waitBest(deadline time.Time, op string) (Result, error) {
	var r Result
	for {
		line, err := e.readLine(deadline, op)
		if err != nil {
			return r, err
		}
		switch firstWord(line) {
		case "info":
			in, ok := ParseInfo(line)
			if !ok {
				continue
			}
			if in.Depth > r.Depth {
				r.Depth = in.Depth
			}
			if in.Nodes > r.Nodes {
				r.Nodes = in.Nodes
			}
			if in.HasScore && in.MultiPV <= 1 {
				r.Info = in
			}
		case "bestmove":
			f := strings.Fields(line)
			if len(f) < 2 {
				return r, e.fail(op, fmt.Errorf("%w: %q", ErrProtocol, line))
			}
			r.BestMove = f[1]
			if len(f) >= 4 && f[2] == "ponder" {
				r.Ponder = f[3]
			}
			return r, nil
		}
	}
}

// Close asks the engine to quit ("quit", closed input) and kills it if it has not exited
// within 2 s. Close on a closed or killed engine does nothing.
func (e *Engine) Close() {
	if e.cmd == nil {
		return
	}
	_ = e.Send("quit")
	_ = e.in.Close()
	select {
	case <-e.exited:
	case <-time.After(2 * time.Second):
		_ = e.cmd.Process.Kill()
		<-e.exited
	}
	e.cmd = nil
}

// Kill kills the engine process at once and waits for it.
func (e *Engine) Kill() {
	if e.cmd == nil {
		return
	}
	_ = e.in.Close()
	_ = e.cmd.Process.Kill()
	<-e.exited
	e.cmd = nil
}

// Restart kills the process (if any) and starts a new one from the same Spec.
func (e *Engine) Restart() error {
	e.Kill()
	return e.start()
}

// Alive reports whether the engine process is running as far as the client knows.
func (e *Engine) Alive() bool {
	if e.cmd == nil {
		return false
	}
	select {
	case <-e.exited:
		return false
	default:
		return true
	}
}

// tailBuffer keeps the last max bytes written to it (the engine's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.b))
	s = strings.ReplaceAll(s, "\n", " | ")
	return s
}
