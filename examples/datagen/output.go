package main

// output.go: the two output formats. A game is written with one write call as one unit —
// a line of the thesis's compact text format (.txt and any other name) or one binpack chunk
// (.binpack) — so the number of units is the number of games, which is what -append resumes
// from.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nnuekit/nnuekit/quant/dataset"
)

// maxGameChunk bounds the size of a datagen binpack chunk (one game: at most a few hundred
// records of ≤ 34 bytes). A larger chunk is not datagen's (Stockfish writes 1 MiB chunks).
const maxGameChunk = 256 << 10

func isBinpack(path string) bool { return strings.EqualFold(filepath.Ext(path), ".binpack") }

// binpackGame encodes the samples of one game as one binpack chunk.
func binpackGame(dst *bytes.Buffer, samples []dataset.Sample) error {
	bw := dataset.NewBinpackWriter(dst)
	for i := range samples {
		if err := bw.Write(&samples[i]); err != nil {
			return err
		}
	}
	return bw.Close()
}

// scanChunks walks the chunk headers of the binpack at r (size bytes): it returns the number
// of whole chunks and the offset where they end. A last chunk cut short (a crash during its
// write) is not counted; anything that is not a datagen binpack is an error.
func scanChunks(r io.ReaderAt, size int64, path string) (n, end int64, err error) {
	var hdr [8]byte
	for end < size {
		if size-end < 8 {
			return n, end, nil // a cut header
		}
		if _, err := r.ReadAt(hdr[:], end); err != nil {
			return 0, 0, err
		}
		if string(hdr[:4]) != "BINP" {
			return 0, 0, fmt.Errorf("%s: not a datagen binpack (no chunk header at byte offset %d)", path, end)
		}
		cs := int64(hdr[4]) | int64(hdr[5])<<8 | int64(hdr[6])<<16 | int64(hdr[7])<<24
		if cs == 0 || cs > maxGameChunk {
			return 0, 0, fmt.Errorf("%s: not a datagen binpack (a chunk of %d bytes at byte offset %d; datagen writes one game of at most %d bytes per chunk)", path, cs, end, maxGameChunk)
		}
		if end+8+cs > size {
			return n, end, nil // a cut chunk
		}
		end += 8 + cs
		n++
	}
	return n, end, nil
}

// checkDatagenBinpack checks that the file at path, if it exists, is a binpack of datagen's
// (one game per chunk). A missing or empty file passes.
func checkDatagenBinpack(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	n, end, err := scanChunks(f, st.Size(), path)
	if err != nil || n == 0 {
		return err
	}
	// The first and the last whole chunk must each be one game: samples that decode, all with
	// the same result (a Stockfish chunk holds many games).
	var hdr [8]byte
	for _, off := range []int64{0, lastChunk(f, end)} {
		if _, err := f.ReadAt(hdr[:], off); err != nil {
			return err
		}
		cs := int64(hdr[4]) | int64(hdr[5])<<8 | int64(hdr[6])<<16 | int64(hdr[7])<<24
		chunk := make([]byte, 8+cs)
		if _, err := f.ReadAt(chunk, off); err != nil {
			return err
		}
		r := dataset.NewBinpackReader(bytes.NewReader(chunk))
		results := map[dataset.Result]bool{}
		for r.Next() {
			results[r.Sample().Result] = true
		}
		if err := r.Err(); err != nil {
			return fmt.Errorf("%s: not a datagen binpack (chunk at byte offset %d: %v)", path, off, err)
		}
		if len(results) != 1 {
			return fmt.Errorf("%s: not a datagen binpack (the chunk at byte offset %d holds positions of several games)", path, off)
		}
	}
	return nil
}

// lastChunk returns the offset of the last whole chunk of r, whose whole chunks end at end.
func lastChunk(r io.ReaderAt, end int64) int64 {
	var hdr [8]byte
	off, last := int64(0), int64(0)
	for off < end {
		if _, err := r.ReadAt(hdr[:], off); err != nil {
			return last
		}
		last = off
		off += 8 + (int64(hdr[4]) | int64(hdr[5])<<8 | int64(hdr[6])<<16 | int64(hdr[7])<<24)
	}
	return last
}

// prepareBinpack opens the existing binpack at path for appending, cuts a chunk a crash left
// unfinished, and counts the games (chunks) present.
func prepareBinpack(path string, logw io.Writer) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	n, end, err := scanChunks(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if err := cutTail(f, end, st.Size(), logw, path, "an unfinished last chunk"); err != nil {
		return nil, 0, err
	}
	return f, n, nil
}
