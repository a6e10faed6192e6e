package nnue

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// MaxFileSize is the largest network Load accepts (256 MiB; Stockfish 15.1's net is 45 MB).
const MaxFileSize = 256 << 20

// format is one network file format Load can detect.
type format struct {
	name   string
	detect func(head []byte) bool // cheap check on the first bytes (magic / version)
	decode func(data []byte) (*Network, error)
}

// formats are tried in order; the thesis format is the fallback (it has no magic).
var formats []format

// registerFormat adds a format to the detection list (called from init functions of the
// format_*.go files).
func registerFormat(f format) { formats = append(formats, f) }

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

// Load reads a network from r (at most MaxFileSize bytes, read incrementally so memory
// follows the actual input) and decodes it with Decode.
func Load(r io.Reader) (*Network, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("nnue: reading network: %w", err)
	}
	if n > MaxFileSize {
		return nil, fmt.Errorf("nnue: network larger than MaxFileSize %d bytes", MaxFileSize)
	}
	return Decode(buf.Bytes())
}

// LoadFile loads the network stored in the file at path (see Load).
func LoadFile(path string) (*Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > MaxFileSize {
		return nil, fmt.Errorf("nnue: %s: %d bytes exceeds MaxFileSize %d", path, st.Size(), MaxFileSize)
	}
	nw, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nw, nil
}
