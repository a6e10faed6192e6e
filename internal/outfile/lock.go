package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrLocked is returned (wrapped) by Lock when another run holds the output's lock.
var ErrLocked = errors.New("is being written by another run")

// LockPath is the lock file of output path: "."+base(path)+".lock" beside it.
func LockPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// Lock marks path as being written by this process, so that a second run on the same output
// (two resumes appending the same games, two new files renamed over each other, two matches
// appending to one PGN) is refused instead of losing or duplicating data. The lock is the file
// LockPath(path), created exclusively and holding the process id; the returned function
// removes it. A lock whose process is gone (a run killed with SIGKILL) is taken over, with a
// line on warn (nil: no line); on systems where a process cannot be probed every lock counts
// as held. Errors wrap ErrLocked when a live process holds the lock (naming the lock file and
// the PID) or the lock is being created right now; other errors are those of creating,
// writing or removing the lock file.
func Lock(path string, warn io.Writer) (unlock func(), err error) {
	lock := LockPath(path)
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d\n", os.Getpid())
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(lock)
				return nil, fmt.Errorf("output %s: lock %s: %w", path, lock, werr)
			}
			return func() { os.Remove(lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("output %s: lock: %w", path, err)
		}
		b, rerr := os.ReadFile(lock)
		held := strings.TrimSpace(string(b))
		pid, perr := strconv.Atoi(held)
		switch {
		case rerr == nil && perr == nil && pid > 0 && processAlive(pid):
			return nil, fmt.Errorf("output %s %w (lock file %s, PID %d); wait for it to end or use another output", path, ErrLocked, lock, pid)
		case rerr == nil && len(b) == 0 && attempt == 0:
			// created but not yet written by a run starting right now
			return nil, fmt.Errorf("output %s %w (lock file %s, being created); if no run is active, delete the lock file", path, ErrLocked, lock)
		}
		if warn != nil {
			fmt.Fprintf(warn, "%s: taking over the stale lock %s (%q: no such process)\n", path, lock, held)
		}
		if err := os.Remove(lock); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("output %s: lock %s: %w", path, lock, err)
		}
	}
	return nil, fmt.Errorf("output %s: lock %s could not be taken", path, lock)
}
