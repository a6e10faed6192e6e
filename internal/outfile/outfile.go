// Package outfile writes the output files of the example programs safely: an existing file is
// never overwritten unless the caller says so, a file is never written over one of the program's
// own inputs (compared by device and inode, so "./a", "../x/a" and a symlink to a are the same
// file), and the output is written to a temporary file in the same directory and renamed into
// place only when complete, so an error or an interrupt leaves the old file (or no file) intact.
//
// It is internal to nnuekit's examples, not public API.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned (wrapped) by Check and Create when the output exists and overwriting was
// not asked for.
var ErrExists = errors.New("exists (pass -force to overwrite)")

// ErrSameAsInput is returned (wrapped) when the output is one of the inputs.
var ErrSameAsInput = errors.New("is the same file as an input")

// Check reports whether path may be written as an output: it must not be the same file as any of
// inputs (inputs that do not exist are ignored), it must not be a directory, and if it exists,
// force must be set. Programs call it while validating flags, before any long work starts.
func Check(path string, force bool, inputs ...string) error {
	if path == "" {
		return errors.New("output: empty path")
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			dir := filepath.Dir(path)
			if dst, derr := os.Stat(dir); derr != nil || !dst.IsDir() {
				return fmt.Errorf("output %s: directory %s does not exist", path, dir)
			}
			return nil
		}
		return fmt.Errorf("output %s: %w", path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("output %s: is a directory", path)
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		ist, err := os.Stat(in)
		if err != nil {
			continue
		}
		if os.SameFile(st, ist) {
			return fmt.Errorf("output %s %w %s", path, ErrSameAsInput, in)
		}
	}
	if !force {
		return fmt.Errorf("output %s %w", path, ErrExists)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("output %s: not a regular file (%s); refusing to replace it", path, Kind(st.Mode()))
	}
	return nil
}

// Kind names the type of a file that is not a regular file, for error messages: "a directory",
// "a character device" (as /dev/full), "a block device", "a named pipe", "a socket", or
// "an irregular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// ErrOtherFormat is returned (wrapped) by SameFormat when an existing output holds another format.
var ErrOtherFormat = errors.New("holds another format")

// SameFormat checks that an existing, non-empty file at path looks like the format the program
// is about to write, so that -force replaces a file of the same kind and never, say, a PNG named
// like a data file. is receives up to the first 64 KiB of the file and its size; what names the
// expected format in the error. A missing or empty file passes.
func SameFormat(path, what string, is func(head []byte, size int64) bool) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("output %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	if !st.Mode().IsRegular() || st.Size() == 0 {
		return nil // Check refuses what is not a regular file
	}
	head := make([]byte, min(st.Size(), 64<<10))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return fmt.Errorf("output %s: %w", path, err)
	}
	if !is(head[:n], st.Size()) {
		return fmt.Errorf("output %s %w (not %s); refusing to replace it", path, ErrOtherFormat, what)
	}
	return nil
}

// File is an output being written: a temporary file beside its final path. Write to it, then call
// Commit to rename it into place; Close without Commit removes the temporary file.
type File struct {
	*os.File
	path      string
	committed bool
}

// Create checks path as Check does and opens a temporary file in the same directory (so the final
// rename is atomic). The temporary file's name starts with "."+base(path)+".tmp". Its permissions
// are those of the file it replaces, or 0644 for a new file.
func Create(path string, force bool, inputs ...string) (*File, error) {
	if err := Check(path, force, inputs...); err != nil {
		return nil, err
	}
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	return &File{File: f, path: path}, nil
}

// Path is the final path of the output.
func (f *File) Path() string { return f.path }

// Commit flushes the temporary file to disk, closes it and renames it to the final path. On error
// the temporary file is removed and the final path is untouched.
func (f *File) Commit() error {
	if f.committed {
		return nil
	}
	err := f.File.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.File.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.File.Name())
		return fmt.Errorf("output %s: %w", f.path, err)
	}
	f.committed = true
	return nil
}

// Close abandons an uncommitted output: the temporary file is closed and removed. After Commit it
// does nothing. It is safe to defer Close and call Commit on success.
func (f *File) Close() error {
	if f.committed {
		return nil
	}
	f.committed = true // idempotent
	f.File.Close()
	return os.Remove(f.File.Name())
}

// WriteFile writes data to path through a temporary file, as Create + Write + Commit.
func WriteFile(path string, data []byte, force bool, inputs ...string) error {
	f, err := Create(path, force, inputs...)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	return f.Commit()
}
