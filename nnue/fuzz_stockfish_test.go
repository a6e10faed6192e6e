package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// sfSeedHeader builds the start of a Stockfish .nnue file: version, header hash,
// description length and text, then the feature transformer hash, followed by tail.
func sfSeedHeader(version, hash uint32, desc string, ftHash uint32, tail []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, version)
	b = binary.LittleEndian.AppendUint32(b, hash)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
	b = append(b, desc...)
	b = binary.LittleEndian.AppendUint32(b, ftHash)
	return append(b, tail...)
}

// The header hashes of the two published shapes (Stockfish's
// FeatureTransformer::get_hash_value() ^ Network::get_hash_value(), and the feature
// transformer's own hash), as found in nn-62ef826d1a6d.nnue (SF13, HalfKP 256x2-32-32)
// and nn-ad9b42354671.nnue (SF15.1, HalfKAv2_hm 1024x2-8-32).
const (
	sfSeedHashHalfKP   = 0x3E5AA6EE
	sfSeedFTHashHalfKP = 0x5D69D7B8
	sfSeedHashSFNNv5   = 0x1C102EF2
	sfSeedFTHashSFNNv5 = 0x7F2344B8
)

// stockfishSeeds returns small real-shaped inputs (≤ 2 KB): correct versions and hashes
// of both shapes followed by a few hundred bytes of feature transformer data, the bare
// headers, and a wrong version.
func stockfishSeeds() map[string][]byte {
	tail := make([]byte, 512)
	for i := range tail {
		tail[i] = byte(i*37 + 11)
	}
	return map[string][]byte{
		"halfkp-prefix": sfSeedHeader(sfVersionHalfKP, sfSeedHashHalfKP, "Features=HalfKP(Friend)[41024->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))", sfSeedFTHashHalfKP, tail),
		"sfnnv5-prefix": sfSeedHeader(sfVersionSFNNv5, sfSeedHashSFNNv5, "Network trained with the https://github.com/glinscott/nnue-pytorch trainer.", sfSeedFTHashSFNNv5, tail),
		"halfkp-header": sfSeedHeader(sfVersionHalfKP, sfSeedHashHalfKP, "", sfSeedFTHashHalfKP, nil),
		"sfnnv5-header": sfSeedHeader(sfVersionSFNNv5, sfSeedHashSFNNv5, "", sfSeedFTHashSFNNv5, nil),
		"bad-version":   sfSeedHeader(0x7AF32F17, 0, "", 0, tail[:16]),
	}
}

// countReader counts the bytes read.
type countReader struct {
	r io.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// FuzzReadStockfish feeds readSFFile (and Load, which dispatches Stockfish files to
// it) small real-shaped inputs: every failure is a *FormatError or an "nnue" error, never
// a panic, and Load agrees with readSFFile.
func FuzzReadStockfish(f *testing.F) {
	for _, b := range stockfishSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cr := &countReader{r: bytes.NewReader(data)}
		sf, err := readSFFile(cr)
		if err != nil {
			var fe *FormatError
			if sf != nil || (!errors.As(err, &fe) && !bytes.Contains([]byte(err.Error()), []byte("nnue"))) {
				t.Fatalf("bad error result: %v", err)
			}
		}
		if cr.n > len(data) {
			t.Fatalf("read %d of %d bytes", cr.n, len(data))
		}
		if isSFVersion(data) {
			if _, lerr := Load(bytes.NewReader(data)); (lerr == nil) != (err == nil) {
				t.Fatalf("Load: %v, readSFFile: %v", lerr, err)
			}
		}
	})
}
