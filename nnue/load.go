package nnue

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// MaxFileSize is the largest network Load accepts (256 MiB; Stockfish 15.1's net is 45 MB).
const MaxFileSize = 256 << 20

// format is one network file format Load can detect.
type format struct {
	name   string
	doc    string                 // how the format is recognised, for "not a network" errors
	detect func(head []byte) bool // cheap check on the first bytes (magic / version)
	decode func(data []byte) (*Network, error)
}

// formats are tried in order; the thesis format is the fallback (it has no magic).
var formats []format

// registerFormat adds a format to the detection list (called from init functions of the
// format_*.go files).
func registerFormat(f format) { formats = append(formats, f) }

// headLen is how many bytes Load reads before choosing a format: NativeMagic's length and
// a Stockfish version word need 8 and 4, but a Stockfish file of an unknown version is
// recognized by its version word, hash and the start of its description (12 + 64 bytes,
// stockfish.go looksLikeStockfish).
const headLen = 12 + 64

// Decode parses a whole network file held in memory, detecting the format: the native
// nnuekit format by its magic, other registered formats by their version words, and the
// thesis .nn format otherwise. Errors are *FormatError values naming the field and offset.
func Decode(data []byte) (*Network, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("nnue: network of %d bytes exceeds MaxFileSize %d", len(data), MaxFileSize)
	}
	for _, f := range formats {
		if f.detect(data) {
			return f.decode(data)
		}
	}
	return decodeThesis(data)
}

// Load reads a network from r, looking before it reads: it reads the first 8 bytes,
// detects the format from them (native magic, Stockfish version word, else thesis), and
// then reads the header, checks the sizes it declares against the input size when that is
// known (r is an *os.File on a regular file, or has a Len method like *bytes.Reader), and
// reads the weights straight into the network's final arrays (16 KiB of scratch).
//
// Memory and reading are therefore bounded by what the header declares: garbage is
// refused after at most its header (thesis: ≤ 1,037 bytes; native: ≤ 1.1 MiB of strings);
// a stream of unknown size with a plausible header is read up to the declared size (at
// most MaxFileSize) and refused at its end. Stockfish files are handed to ReadStockfish,
// which applies the same rule with the version's exact file size. Formats registered
// without a streaming reader are read whole (at most MaxFileSize bytes) and decoded with
// Decode. Errors are *FormatError values (or I/O errors wrapped with "nnue: reading").
func Load(r io.Reader) (*Network, error) { return load(r, readerSize(r)) }

// readerSize returns the number of bytes r still holds, or -1 when it cannot tell.
func readerSize(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case *os.File:
		st, err := v.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return -1
		}
		pos, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		return st.Size() - pos
	}
	return -1
}

func load(r io.Reader, size int64) (*Network, error) {
	if size > MaxFileSize {
		return nil, fmt.Errorf("nnue: network of %d bytes exceeds MaxFileSize %d", size, MaxFileSize)
	}
	var head [headLen]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("nnue: reading network: %w", err)
	}
	h := head[:n]
	rest := io.MultiReader(bytes.NewReader(h), r)
	switch {
	case bytes.HasPrefix(h, []byte(NativeMagic)):
		return readNative(&decoder{format: nativeFormat, r: rest, size: size, crc: crc32.New(castagnoli)})
	case IsStockfishVersion(h):
		// the size stays known through the MultiReader: ReadStockfishSize checks every
		// declared byte count against it before allocating
		sf, err := ReadStockfishSize(rest, size)
		if err != nil {
			return nil, err
		}
		return NewStockfishNetwork(sf)
	}
	for _, f := range formats {
		if f.name != nativeFormat && f.name != "stockfish" && f.detect(h) {
			var buf bytes.Buffer
			m, err := io.Copy(&buf, io.LimitReader(rest, MaxFileSize+1))
			if err != nil {
				return nil, fmt.Errorf("nnue: reading network: %w", err)
			}
			if m > MaxFileSize {
				return nil, fmt.Errorf("nnue: network larger than MaxFileSize %d bytes", MaxFileSize)
			}
			return f.decode(buf.Bytes())
		}
	}
	return readThesis(&decoder{format: thesisFormat, r: rest, size: size})
}

// LoadFile loads the network stored in the file at path (see Load; the file's size is
// checked against each header's declared size before the weights are read).
func LoadFile(path string) (*Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	nw, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nw, nil
}
