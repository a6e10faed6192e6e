package nnue

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxFileSize is the largest network Load accepts (256 MiB; Stockfish 15.1's net is 45 MB).
const MaxFileSize = 256 << 20

// format is one network file format Load and Decode recognise by its first bytes.
type format struct {
	name   string
	doc    string                 // how the format is recognised, for "not a network" errors
	detect func(head []byte) bool // check on the first headLen bytes (fewer for a shorter input)
	decode func(data []byte) (*Network, error)
	// read, when set, reads the format from a stream holding size more bytes (−1:
	// unknown), checking declared sizes before allocating; otherwise Load reads the
	// whole input (at most MaxFileSize bytes) and calls decode.
	read func(r io.Reader, size int64) (*Network, error)
}

// formats is the registry, in detection order. The detectors look at disjoint first
// bytes: the native magic, a Stockfish version word (binary), a printable feature-set
// name (thesis). Adding a format means adding its entry here and its file format_*.go.
var formats = []format{
	{name: nativeFormat, doc: fmt.Sprintf("native (magic %q)", NativeMagic),
		detect: func(h []byte) bool { return bytes.HasPrefix(h, []byte(NativeMagic)) },
		decode: decodeNative,
		read: func(r io.Reader, size int64) (*Network, error) {
			d := newDecoder(nativeFormat, r, size)
			d.crc = crc32.New(castagnoli)
			return readNative(d)
		}},
	{name: "stockfish", doc: fmt.Sprintf("Stockfish .nnue (version 0x%08X, 0x%08X or 0x%08X)", sfVersionHalfKP, sfVersionSFNNv5, sfVersionThreats),
		detect: isSFVersion, decode: decodeStockfish,
		read: func(r io.Reader, size int64) (*Network, error) {
			// every declared byte count is checked against size before allocating
			sf, err := readSFFileSize(r, size)
			if err != nil {
				return nil, err
			}
			return newSFNetwork(sf)
		}},
	// A file that looks like a Stockfish network of another version is reported as such.
	{name: "stockfish (unknown version)", detect: looksLikeStockfish, decode: decodeStockfish},
	{name: thesisFormat, doc: `thesis .nn (a feature-set name and 0x00, e.g. "hv\x00")`,
		detect: looksLikeThesis, decode: decodeThesis,
		read: func(r io.Reader, size int64) (*Network, error) {
			return readThesis(newDecoder(thesisFormat, r, size))
		}},
}

// headLen is how many bytes Load reads before choosing a format: NativeMagic's length and
// a Stockfish version word need 8 and 4, but a Stockfish file of an unknown version is
// recognized by its version word, hash and the start of its description (12 + 64 bytes,
// stockfish.go looksLikeStockfish).
const headLen = 12 + 64

// ErrNotNetwork is wrapped by the error Load and Decode return for input that no format
// recognises (an EPD or PGN file, an image, an empty file, …).
var ErrNotNetwork = errors.New("nnue: not a network")

// notNetwork returns the error for an input starting with head that no format detects:
// what was found and the formats known.
func notNetwork(head []byte) error {
	known := make([]string, 0, len(formats)+1)
	for _, f := range formats {
		if f.doc != "" {
			known = append(known, f.doc)
		}
	}
	known = append(known, "bullet (raw weights: LoadBulletFile with a declared architecture string and BulletFile layout)")
	return fmt.Errorf("%w: %s; known formats: %s", ErrNotNetwork, describeHead(head), strings.Join(known, ", "))
}

// describeHead says what an input starting with head looks like: empty, text (its first
// characters) or binary (its first bytes in hex, with the name of a few common formats).
func describeHead(h []byte) string {
	if len(h) == 0 {
		return "empty input"
	}
	magics := []struct{ magic, name string }{
		{"\x89PNG", "PNG image"}, {"\xff\xd8\xff", "JPEG image"}, {"\x1f\x8b", "gzip"},
		{"PK\x03\x04", "zip"}, {"\x28\xb5\x2f\xfd", "zstd"}, {"%PDF", "PDF"},
	}
	for _, m := range magics {
		if bytes.HasPrefix(h, []byte(m.magic)) {
			return fmt.Sprintf("starts with % X (%s)", h[:min(len(h), 8)], m.name)
		}
	}
	text := utf8.Valid(h[:max(0, len(h)-utf8.UTFMax)])
	for _, c := range h {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			text = false
		}
	}
	if text {
		line := h
		if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
			line = line[:i]
		}
		r := []rune(string(line))
		return fmt.Sprintf("starts with %q (text)", string(r[:min(len(r), 16)]))
	}
	return fmt.Sprintf("starts with % X (binary)", h[:min(len(h), 8)])
}

// looksLikeThesis reports whether head starts like a thesis .nn file: a feature-set name
// (a letter or '(' first, then letters, digits and the spec operators + * × ( ) @ _ -)
// ended by 0x00, or running to the end of head.
func looksLikeThesis(head []byte) bool {
	if len(head) == 0 || !(isLetter(head[0]) || head[0] == '(') {
		return false
	}
	for _, c := range head {
		switch {
		case c == 0:
			return true
		case isLetter(c), isDigit(c), strings.IndexByte("+*()@_-.", c) >= 0, c >= 0x80:
		default:
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// detectFormat returns the format whose detector accepts head.
func detectFormat(head []byte) (format, bool) {
	for _, f := range formats {
		if f.detect(head) {
			return f, true
		}
	}
	return format{}, false
}

// Decode parses a whole network file held in memory, detecting the format from its first
// bytes (formats: the native nnuekit format by its magic, Stockfish .nnue by its version
// word, thesis .nn by its feature-set name). Errors are *FormatError values naming the
// field and offset, or an error wrapping ErrNotNetwork that names what the input looks
// like and the formats known.
func Decode(data []byte) (*Network, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("nnue: network of %d bytes exceeds MaxFileSize %d", len(data), MaxFileSize)
	}
	f, ok := detectFormat(data[:min(len(data), headLen)])
	if !ok {
		return nil, notNetwork(data[:min(len(data), headLen)])
	}
	return f.decode(data)
}

// Load reads a network from r, looking before it reads: it reads the first headLen bytes,
// detects the format from them (Decode), and then reads the header, checks the sizes it
// declares against the input size when that is known (r is an *os.File on a regular file,
// or has a Len method like *bytes.Reader), and reads the weights straight into the
// network's final arrays (16 KiB of scratch).
//
// Memory and reading are therefore bounded by what the header declares: garbage is
// refused after at most its header (thesis: ≤ 1,037 bytes; native: ≤ 1.1 MiB of strings);
// a stream of unknown size with a plausible header is read up to the declared size (at
// most MaxFileSize) and refused at its end. Stockfish files are handed to readSFFile,
// which applies the same rule with the version's exact file size. Formats without a
// streaming reader are read whole (at most MaxFileSize bytes) and decoded with Decode.
// Errors are those of Decode, or I/O errors wrapped with "nnue: reading".
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
	f, ok := detectFormat(h)
	if !ok {
		return nil, notNetwork(h)
	}
	rest := io.MultiReader(bytes.NewReader(h), r)
	if f.read != nil {
		return f.read(rest, size)
	}
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
