package featureset

import (
	"bufio"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// The Stockfish 19 network's PSQT weights pin the index of every FullThreats, PawnPairs
// and HalfKAv2_hm feature: the PSQT value of a bucket is the sum of the active features'
// int32 weights over the three blocks, and ../shared/data/sf19-eval.csv has the engine's
// own psqt_int for all 8 buckets of every position. A single wrong index changes these
// sums. This tiny reader (independent of package nnue) reads only the PSQT tensors of
// ../shared/nets/nn-1a298aa575a0.nnue (layout in ../shared/nets/README.md).

const sf19Net = "nn-1a298aa575a0.nnue"

type leb struct{ r *bufio.Reader }

func (l leb) u32() (uint32, error) {
	var b [4]byte
	_, err := io.ReadFull(l.r, b[:])
	return binary.LittleEndian.Uint32(b[:]), err
}

// block reads one COMPRESSED_LEB128 block of n values (or skips it when dst is nil).
func (l leb) block(n int, dst []int32) error {
	var magic [17]byte
	if _, err := io.ReadFull(l.r, magic[:]); err != nil || string(magic[:]) != "COMPRESSED_LEB128" {
		return fmt.Errorf("no COMPRESSED_LEB128 block (%v)", err)
	}
	size, err := l.u32()
	if err != nil {
		return err
	}
	if dst == nil {
		_, err := l.r.Discard(int(size))
		return err
	}
	used := 0
	for i := 0; i < n; i++ {
		var v int64
		shift := 0
		for {
			c, err := l.r.ReadByte()
			if err != nil {
				return err
			}
			used++
			v |= int64(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				if c&0x40 != 0 && shift < 64 {
					v |= -1 << shift
				}
				break
			}
		}
		dst[i] = int32(v)
	}
	if used != int(size) {
		return fmt.Errorf("LEB128 block: %d bytes used, header says %d", used, size)
	}
	return nil
}

// loadSF19PSQT returns the PSQT weights [feature][8] of threats+pawnpairs+halfkav2_hm.
func loadSF19PSQT(path string) ([]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := leb{bufio.NewReaderSize(f, 1<<20)}
	ver, _ := l.u32()
	_, _ = l.u32()
	dl, err := l.u32()
	if err != nil || ver != 0x6A448AFA || dl > 1024 {
		return nil, fmt.Errorf("not a Stockfish 19 net (version %#x)", ver)
	}
	if _, err := l.r.Discard(int(dl) + 4); err != nil {
		return nil, err
	}
	const l1, nt, np, nh = 1024, 59808, 4560, 22528
	psqt := make([]int32, 8*(nt+np+nh))
	steps := []func() error{
		func() error { return l.block(l1, nil) },
		func() error { _, err := l.r.Discard(nt * l1); return err },
		func() error { return l.block(8*nt, psqt[:8*nt]) },
		func() error { _, err := l.r.Discard(np * l1); return err },
		func() error { return l.block(8*np, psqt[8*nt:8*(nt+np)]) },
		func() error { return l.block(nh*l1, nil) },
		func() error { return l.block(8*nh, psqt[8*(nt+np):]) },
	}
	for k, s := range steps {
		if err := s(); err != nil {
			return nil, fmt.Errorf("tensor %d: %v", k, err)
		}
	}
	return psqt, nil
}

func TestSF19GoldenPSQT(t *testing.T) {
	dir := sharedDir(t)
	psqt, err := loadSF19PSQT(filepath.Join(dir, "nets", sf19Net))
	if os.IsNotExist(err) {
		t.Skip("../shared/nets/" + sf19Net + " absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "data", "sf19-eval.csv"))
	if err != nil {
		t.Skip("../shared/data/sf19-eval.csv absent")
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	s := MustParse("threats+pawnpairs+halfkav2_hm")
	if s.Size() != 86896 {
		t.Fatalf("size %d, want 86,896", s.Size())
	}
	rows = rows[1:]
	if testing.Short() {
		rows = rows[:min(len(rows), 300)]
	}
	buf := make([]int, 0, s.MaxActive())
	maxTP := 0
	for _, row := range rows {
		pos, err := board.ParseFEN(row[0])
		if err != nil {
			t.Fatal(err)
		}
		var sum [2][8]int64
		for c := board.White; c <= board.Black; c++ {
			buf = s.Active(&pos, c, buf[:0])
			n := 0
			for _, i := range buf {
				if i < 59808+4560 {
					n++
				}
				for b := 0; b < 8; b++ {
					sum[c][b] += int64(psqt[8*i+b])
				}
			}
			maxTP = max(maxTP, n)
		}
		stm := pos.SideToMove()
		for b := 0; b < 8; b++ {
			want, _ := strconv.Atoi(row[col[fmt.Sprintf("psqt_int%d", b)]])
			got := (sum[stm][b] - sum[stm^1][b]) / 2 / 16
			if int(got) != want {
				t.Fatalf("%s bucket %d: psqt_int %d, engine %d", row[0], b, got, want)
			}
		}
	}
	t.Logf("%d positions: all 8 PSQT buckets exact; at most %d threat+pair features per perspective", len(rows), maxTP)
	if !testing.Short() && maxTP != 78 {
		t.Errorf("peak threat+pair features %d, the nets README says 78", maxTP)
	}
}
