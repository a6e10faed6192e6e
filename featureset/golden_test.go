package featureset

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// A tiny, independent evaluator of the thesis networks (../shared/thesis-models/README.md
// "Evaluation arithmetic"), used only to pin every layout of this package: one wrong index
// changes the evaluations. The real implementation lives in package nnue.
type thesisNet struct {
	name       string
	nf, l1, l2 int
	w1         []int16 // [nf][l1]
	b1         []int16
	w2         []int8 // [l2][2·l1]
	b2         []int32
	w3         []int8
	b3         int32
}

func loadThesisNet(path string) (*thesisNet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	name, err := r.ReadString(0)
	if err != nil {
		return nil, err
	}
	var hdr [3]uint32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, err
	}
	n := &thesisNet{name: strings.TrimSuffix(name, "\x00"), nf: int(hdr[0]), l1: int(hdr[1]), l2: int(hdr[2])}
	n.w1 = make([]int16, n.nf*n.l1)
	n.b1 = make([]int16, n.l1)
	n.w2 = make([]int8, n.l2*2*n.l1)
	n.b2 = make([]int32, n.l2)
	n.w3 = make([]int8, n.l2)
	for _, x := range []any{n.w1, n.b1, n.w2, n.b2, n.w3, &n.b3} {
		if err := binary.Read(r, binary.LittleEndian, x); err != nil {
			return nil, err
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%s: trailing bytes", path)
	}
	return n, nil
}

func (n *thesisNet) eval(s *Set, pos *board.Position, buf []int) int32 {
	var in [2][]int8
	for k, persp := range []board.Color{pos.SideToMove(), pos.SideToMove().Other()} {
		acc := make([]int16, n.l1)
		copy(acc, n.b1)
		buf = s.Active(pos, persp, buf[:0])
		for _, f := range buf {
			row := n.w1[f*n.l1 : (f+1)*n.l1]
			for j := range acc {
				acc[j] += row[j]
			}
		}
		in[k] = make([]int8, n.l1)
		for j, a := range acc {
			in[k][j] = int8(min(max(a, 0), 127))
		}
	}
	out := n.b3
	for j := 0; j < n.l2; j++ {
		sum := n.b2[j]
		row := n.w2[j*2*n.l1 : (j+1)*2*n.l1]
		for i := 0; i < 2*n.l1; i++ {
			sum += int32(in[i/n.l1][i%n.l1]) * int32(row[i])
		}
		h := min(max(sum>>6, 0), 127)
		out += h * int32(n.w3[j])
	}
	return out >> 4
}

// TestThesisGoldenEvals evaluates the 13 thesis networks with this package's feature
// indices and compares with golden-evals.jsonl (checked bit for bit against the thesis's
// own engine). By default every 60th position (200th with -short or -race); NNUEKIT_GOLDEN_ALL=1 checks all 6,000.
func TestThesisGoldenEvals(t *testing.T) {
	if raceEnabled {
		t.Skip("single-goroutine arithmetic, slow under -race; runs without -race")
	}
	dir := filepath.Join(sharedDir(t), "thesis-models")
	gf, err := os.Open(filepath.Join(dir, "golden-evals.jsonl"))
	if err != nil {
		t.Skip("golden-evals.jsonl absent")
	}
	defer gf.Close()
	nets := map[string]*thesisNet{}
	sets := map[string]*Set{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.nn"))
	for _, f := range files {
		n, err := loadThesisNet(f)
		if err != nil {
			t.Fatal(err)
		}
		key := strings.TrimSuffix(filepath.Base(f), ".nn")
		nets[key] = n
		sets[key] = MustParse(n.name)
	}
	step := 60
	if testing.Short() || raceEnabled {
		step = 200
	}
	if os.Getenv("NNUEKIT_GOLDEN_ALL") != "" {
		step = 1
	}
	sc := bufio.NewScanner(gf)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line, checked, bad := 0, 0, 0
	buf := make([]int, 0, 4096)
	for sc.Scan() {
		line++
		if (line-1)%step != 0 {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		pos, err := board.ParseFEN(rec["fen"].(string))
		if err != nil {
			t.Fatal(err)
		}
		for key, n := range nets {
			want, ok := rec[key].(float64)
			if !ok {
				t.Fatalf("line %d: no %s", line, key)
			}
			got := n.eval(sets[key], &pos, buf)
			checked++
			if got != int32(want) {
				bad++
				if bad <= 10 {
					t.Errorf("line %d %s: %s eval %d, golden %d", line, rec["fen"], key, got, int32(want))
				}
			}
		}
	}
	t.Logf("%d evaluations checked, %d wrong", checked, bad)
}
