package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// lockPGN takes the lock file of the PGN output, PGN+".lock", holding this process's PID, so
// that two runs cannot append to one PGN file. A lock whose process is gone (a run killed with
// SIGKILL) is taken over with a message. A -pgn that exists and is not a regular file (a
// device or FIFO) is not locked. Errors: the lock is held by a live process (the message
// names the lock file and the PID), or the lock cannot be created.
func (t *tournament) lockPGN() error {
	if st, err := os.Stat(t.pgnPath); err == nil && !st.Mode().IsRegular() {
		return nil
	}
	lock := t.pgnPath + ".lock"
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d\n", os.Getpid())
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(lock)
				return fmt.Errorf("lock %s: %w", lock, werr)
			}
			t.lockPath = lock
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("lock %s: %w", lock, err)
		}
		b, rerr := os.ReadFile(lock)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if rerr == nil && perr == nil && pid > 0 && processAlive(pid) {
			return fmt.Errorf("%s is in use by another match run (lock file %s, PID %d); wait for it to end or use another -pgn", t.pgnPath, lock, pid)
		}
		if rerr == nil && perr != nil && len(b) == 0 && attempt == 0 {
			// Created but not yet written by a run starting right now: treat as held.
			return fmt.Errorf("%s is in use by another match run (lock file %s, being created); if no run is active, delete the lock file", t.pgnPath, lock)
		}
		fmt.Fprintf(t.logw, "match: %s: taking over the stale lock %s (%q: no such process)\n", t.pgnPath, lock, strings.TrimSpace(string(b)))
		if err := os.Remove(lock); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("lock %s: %w", lock, err)
		}
	}
	return fmt.Errorf("lock %s: could not be taken", lock)
}

// release removes the lock file taken by lockPGN (it is safe to call more than once).
func (t *tournament) release() {
	if t.lockPath != "" {
		os.Remove(t.lockPath)
		t.lockPath = ""
	}
}
