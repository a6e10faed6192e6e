package uci

import (
	"bufio"
	"bytes"
	"context"
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
	// ErrProtocol: the engine wrote something the UCI protocol does not allow where it did,
	// or a line longer than MaxLineBytes.
	ErrProtocol = errors.New("UCI protocol error")
	// ErrOption: an option of Spec.Options that the engine did not declare ("option name …"
	// before "uciok"), a value outside the declared type or range, or a network file option
	// naming a file that does not exist.
	ErrOption = errors.New("option rejected")
)

// MaxLineBytes is the longest output line an engine may write (without its line end): a
// longer line is a protocol error (ErrProtocol), so an engine printing without newlines
// cannot exhaust the caller's memory.
const MaxLineBytes = 1 << 20

// maxQueuedBytes bounds the output lines read ahead of the caller; past it the reader
// stops reading and the engine blocks on its full pipe.
const maxQueuedBytes = 4 << 20

// Error is the error type of Engine methods: what was being done, the engine's name, and the
// cause (ErrExited, ErrTimeout, ErrProtocol, ErrOption, a context error or an I/O error). For
// ErrExited, Stderr holds the last lines the engine wrote to its standard error (a panic
// message, say).
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
	// Lenient: an option the engine rejects (see CheckOption) is skipped and listed in
	// Engine.Rejected instead of failing Start.
	Lenient bool
	// StartTimeout bounds "uci"→"uciok" and "isready"→"readyok" at start; 0 means 10 s.
	StartTimeout time.Duration
}

// Engine is one running UCI engine process, in its own process group (on Unix) so that the
// whole group — an engine started through a shell wrapper, helper processes — is killed
// together. Its output is read by one goroutine into a bounded queue, so every wait has a real
// deadline (a hung engine cannot block the caller) and a flood of output cannot exhaust
// memory. An Engine is not safe for concurrent use; after any error other than a timeout that
// the engine recovered from, call Restart (or Close).
type Engine struct {
	spec Spec
	// IDName and IDAuthor are the engine's "id name" and "id author".
	IDName, IDAuthor string
	// Declared are the options the engine declared with "option name …" before "uciok".
	Declared []OptionSpec
	// Accepted are the options of Spec.Options that were set, in order, with the name
	// spelled as the engine declared it.
	Accepted []Option
	// Rejected are the options of Spec.Options that were not set (Spec.Lenient), with why.
	Rejected []RejectedOption

	p *proc
}

// RejectedOption is an option of Spec.Options not sent to the engine, and why.
type RejectedOption struct {
	Option
	Err error // wraps ErrOption
}

// proc is one started process and the goroutines serving it.
type proc struct {
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *os.File // read end of the engine's standard output
	errOut   *os.File // read end of its standard error
	lines    chan string
	queue    *queueBudget
	quit     chan struct{} // closed to stop the reader
	readErr  error         // set by the reader before it closes lines
	readDone chan struct{}
	errDone  chan struct{}
	exited   chan struct{} // closed when the process has been waited for
	waitErr  error
	stderr   *tailBuffer
}

// Start starts the engine of spec and initializes it: "uci" … "uciok", the options of spec
// (checked against the engine's declared options with CheckOption), "isready" … "readyok".
// Errors: the executable cannot be started, or *Error (ErrExited, ErrTimeout: not a UCI
// engine, ErrProtocol, ErrOption: an option the engine rejects, unless Spec.Lenient).
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
	// Own pipes rather than StdoutPipe or an io.Writer as Stderr: exec.Cmd.Wait would then
	// wait for the pipes to close, which a process outside our control (an engine started by
	// a wrapper and not yet killed) can hold open forever.
	outR, outW, err := os.Pipe()
	if err != nil {
		in.Close()
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		in.Close()
		outR.Close()
		outW.Close()
		return err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close() // the child holds its own copies
	errW.Close()
	if err != nil {
		in.Close()
		outR.Close()
		errR.Close()
		return fmt.Errorf("starting engine %s: %w", e.spec.Cmd, err)
	}
	p := &proc{cmd: cmd, in: in, out: outR, errOut: errR, lines: make(chan string, 1024),
		queue: newQueueBudget(maxQueuedBytes), quit: make(chan struct{}), readDone: make(chan struct{}),
		errDone: make(chan struct{}), exited: make(chan struct{}), stderr: &tailBuffer{max: 2048}}
	e.p = p
	go func() {
		defer close(p.readDone)
		p.readErr = readLines(p.out, p.lines, p.queue, p.quit)
		close(p.lines)
	}()
	go func() {
		defer close(p.errDone)
		_, _ = io.Copy(p.stderr, p.errOut)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		// What the leader leaves behind in its group (a wrapper's engine, helpers) goes too:
		// it would hold the output pipe open.
		killGroup(cmd)
		close(p.exited)
	}()

	e.IDName, e.IDAuthor = "", ""
	e.Declared, e.Accepted, e.Rejected = nil, nil, nil
	if err := e.Send("uci"); err != nil {
		e.Kill()
		return err
	}
	deadline := time.Now().Add(e.startTimeout())
	for {
		line, err := e.readLine(context.Background(), deadline, "uci")
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
		} else if o, ok := ParseOptionSpec(line); ok {
			e.Declared = append(e.Declared, o)
		}
	}
	for _, o := range e.spec.Options {
		decl, err := e.CheckOption(o.Name, o.Value)
		if err != nil {
			if e.spec.Lenient {
				e.Rejected = append(e.Rejected, RejectedOption{Option: o, Err: err})
				continue
			}
			e.Kill()
			return &Error{Engine: e.Name(), Op: "setoption", Err: err}
		}
		if err := e.SetOption(decl.Name, o.Value); err != nil {
			e.Kill()
			return err
		}
		e.Accepted = append(e.Accepted, Option{Name: decl.Name, Value: o.Value})
	}
	if err := e.IsReady(e.startTimeout()); err != nil {
		e.Kill()
		return err
	}
	return nil
}

// readLines reads the engine's output line by line (line ends "\n" or "\r\n" removed, empty
// lines dropped) into lines until EOF, a read error, quit, or a line longer than MaxLineBytes
// (then it returns an error wrapping ErrProtocol).
func readLines(r io.Reader, lines chan<- string, q *queueBudget, quit <-chan struct{}) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		n := len(buf) + len(frag) // the line so far, its end included
		if err == bufio.ErrBufferFull {
			n-- // the last byte may be the "\r" of a "\r\n"
		} else {
			n -= len(frag) - len(bytes.TrimRight(frag, "\r\n"))
		}
		if n > MaxLineBytes {
			return fmt.Errorf("%w: an output line longer than %d bytes (%q…)", ErrProtocol, MaxLineBytes, truncate(append(buf, frag...), 40))
		}
		buf = append(buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		line := strings.TrimRight(string(buf), "\r\n")
		buf = buf[:0]
		if line != "" {
			if !q.acquire(len(line)) {
				return nil
			}
			select {
			case lines <- line:
			case <-quit:
				return nil
			}
		}
		if err != nil {
			return nil // EOF, or the pipe closed by Kill
		}
	}
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}

// queueBudget bounds the bytes of lines read but not yet taken by the caller.
type queueBudget struct {
	mu     sync.Mutex
	cond   *sync.Cond
	used   int
	max    int
	closed bool
}

func newQueueBudget(max int) *queueBudget {
	q := &queueBudget{max: max}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// acquire waits until n more bytes fit (a line always fits into an empty queue); false once
// closed.
func (q *queueBudget) acquire(n int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.closed && q.used > 0 && q.used+n > q.max {
		q.cond.Wait()
	}
	if q.closed {
		return false
	}
	q.used += n
	return true
}

func (q *queueBudget) release(n int) {
	q.mu.Lock()
	q.used -= n
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *queueBudget) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (e *Engine) fail(op string, err error) *Error {
	ee := &Error{Engine: e.Name(), Op: op, Err: err}
	if p := e.p; p != nil && errors.Is(err, ErrExited) {
		// Give the waiter a moment so the exit status and stderr are complete.
		select {
		case <-p.exited:
		case <-time.After(500 * time.Millisecond):
		}
		select {
		case <-p.exited:
			if p.waitErr != nil {
				ee.Err = fmt.Errorf("%w (%v)", ErrExited, p.waitErr)
			}
			select {
			case <-p.errDone:
			case <-time.After(100 * time.Millisecond):
			}
		default:
		}
		ee.Stderr = p.stderr.String()
	}
	return ee
}

// readLine returns the next output line, waiting until deadline (zero: no deadline) or until
// ctx ends.
func (e *Engine) readLine(ctx context.Context, deadline time.Time, op string) (string, error) {
	p := e.p
	if p == nil {
		return "", e.fail(op, ErrExited)
	}
	got := func(line string, ok bool) (string, error) {
		if !ok {
			if p.readErr != nil {
				return "", e.fail(op, p.readErr)
			}
			return "", e.fail(op, ErrExited)
		}
		p.queue.release(len(line))
		return line, nil
	}
	var timer <-chan time.Time
	if !deadline.IsZero() {
		d := time.Until(deadline)
		if d <= 0 {
			// Still take a line that is already there.
			select {
			case line, ok := <-p.lines:
				return got(line, ok)
			default:
				return "", e.fail(op, ErrTimeout)
			}
		}
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case line, ok := <-p.lines:
		return got(line, ok)
	case <-timer:
		return "", e.fail(op, ErrTimeout)
	case <-ctx.Done():
		return "", e.fail(op, ctx.Err())
	}
}

// Send writes one command line (a newline is appended). Errors: *Error wrapping ErrExited
// when the engine's input is closed.
func (e *Engine) Send(line string) error {
	if e.p == nil {
		return e.fail("send", ErrExited)
	}
	if _, err := io.WriteString(e.p.in, line+"\n"); err != nil {
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

// SetOption sends "setoption name N value V" (or "setoption name N" for an empty value),
// unchecked (Start checks Spec.Options with CheckOption).
func (e *Engine) SetOption(name, value string) error {
	if value == "" {
		return e.Send("setoption name " + name)
	}
	return e.Send("setoption name " + name + " value " + value)
}

// IsReady sends "isready" and waits up to timeout for "readyok", discarding other output
// (a late "bestmove", for instance).
func (e *Engine) IsReady(timeout time.Duration) error {
	return e.isReady(context.Background(), timeout)
}

func (e *Engine) isReady(ctx context.Context, timeout time.Duration) error {
	if err := e.Send("isready"); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		line, err := e.readLine(ctx, deadline, "isready")
		if err != nil {
			return err
		}
		if line == "readyok" {
			return nil
		}
	}
}

// NewGame sends "ucinewgame" and synchronizes with "isready", waiting up to timeout.
func (e *Engine) NewGame(timeout time.Duration) error {
	return e.NewGameContext(context.Background(), timeout)
}

// NewGameContext is NewGame that also returns when ctx ends (an *Error wrapping ctx.Err()).
func (e *Engine) NewGameContext(ctx context.Context, timeout time.Duration) error {
	if err := e.Send("ucinewgame"); err != nil {
		return err
	}
	return e.isReady(ctx, timeout)
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
	// Clock: the game has a clock, so wtime and btime are always sent, even when both are
	// zero or negative. Without it they are sent when either is non-zero.
	Clock                    bool
	WTime, BTime, WInc, BInc time.Duration // clock times and increments (sent in ms)
	MovesToGo                int
	MoveTime                 time.Duration // fixed time per move (sent in ms)
	Nodes                    int64
	Depth                    int
}

// MinClock is the least remaining time Limits.Command sends for wtime and btime: a clock at
// or below zero is sent as 1 ms, because UCI engines commonly read "wtime 0" as "no clock"
// and search until "stop". (Whether a clock below zero loses the game is the caller's rule.)
const MinClock = time.Millisecond

// Command returns the "go …" line for l. Durations are sent in whole milliseconds, rounded
// down; wtime and btime at least MinClock.
func (l Limits) Command() string {
	var sb strings.Builder
	sb.WriteString("go")
	ms := func(k string, d time.Duration) {
		sb.WriteString(" " + k + " " + strconv.FormatInt(max(d.Milliseconds(), 0), 10))
	}
	if l.Clock || l.WTime != 0 || l.BTime != 0 {
		ms("wtime", max(l.WTime, MinClock))
		ms("btime", max(l.BTime, MinClock))
		if l.WInc > 0 || l.BInc > 0 {
			ms("winc", l.WInc)
			ms("binc", l.BInc)
		}
		if l.MovesToGo > 0 {
			sb.WriteString(" movestogo " + strconv.Itoa(l.MovesToGo))
		}
	}
	if l.MoveTime > 0 {
		ms("movetime", max(l.MoveTime, MinClock))
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
// ErrTimeout or ErrProtocol (a "bestmove" line without a move, a line over MaxLineBytes).
func (e *Engine) Go(position string, lim Limits, deadline time.Time) (Result, error) {
	return e.GoContext(context.Background(), position, lim, deadline)
}

// GoContext is Go that also returns when ctx ends (an *Error wrapping ctx.Err(); the engine
// is still searching: Stop, Kill or Restart it).
func (e *Engine) GoContext(ctx context.Context, position string, lim Limits, deadline time.Time) (Result, error) {
	if err := e.Send(position + "\n" + lim.Command()); err != nil {
		return Result{}, err
	}
	return e.waitBest(ctx, deadline, "search")
}

// Stop sends "stop" and waits up to grace for "bestmove".
func (e *Engine) Stop(grace time.Duration) (Result, error) {
	if err := e.Send("stop"); err != nil {
		return Result{}, err
	}
	return e.waitBest(context.Background(), time.Now().Add(grace), "stop")
}

func (e *Engine) waitBest(ctx context.Context, deadline time.Time, op string) (Result, error) {
	var r Result
	for {
		line, err := e.readLine(ctx, deadline, op)
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

// closeGrace is how long Close waits for the engine to exit after "quit".
const closeGrace = 2 * time.Second

// Close asks the engine to quit ("quit", closed input), kills its process group if it has not
// exited within 2 s, and kills what is left of the group after it exited. Close on a closed or
// killed engine does nothing.
func (e *Engine) Close() {
	p := e.p
	if p == nil {
		return
	}
	_ = e.Send("quit")
	_ = p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
		killGroup(p.cmd)
		<-p.exited
	}
	e.teardown()
}

// Kill kills the engine's process group at once and waits for the process.
func (e *Engine) Kill() {
	p := e.p
	if p == nil {
		return
	}
	_ = p.in.Close()
	killGroup(p.cmd)
	<-p.exited
	e.teardown()
}

// teardown ends the reader goroutines of an exited process. The output pipes are closed by
// us, so a process that escaped the group and still holds them cannot block this.
func (e *Engine) teardown() {
	p := e.p
	close(p.quit)
	p.queue.close()
	p.out.Close()
	<-p.readDone
	p.errOut.Close()
	<-p.errDone
	e.p = nil
}

// Restart kills the process (if any) and starts a new one from the same Spec.
func (e *Engine) Restart() error {
	e.Kill()
	return e.start()
}

// Alive reports whether the engine process is running as far as the client knows.
func (e *Engine) Alive() bool {
	if e.p == nil {
		return false
	}
	select {
	case <-e.p.exited:
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
