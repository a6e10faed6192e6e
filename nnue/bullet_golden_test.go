package nnue

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// The shared bullet-family nets (../shared/nets/bullet/README.md) and their declared
// architectures, as doc/bullet.md lists them.
var bulletNets = []struct {
	file, csv, arch string
}{
	{"alexandria-ml-33184b6.net", "alexandria-ml-33184b6-evals.csv",
		"hidden=1536 act=pairwise clip=362 shift=10 out=8 qa=362 qb=32 scale=400 outmap=" + alexandriaOutmap +
			" layer=16/i8/screlu layer=32/f32/screlu layer=1/f32/lanes16 mirror fma"},
	{"alexandria-sl-hm-cba722a.net", "alexandria-sl-hm-cba722a-evals.csv",
		"hidden=1536 act=screlu out=8 qa=255 qb=64 scale=400 outmap=" + alexandriaOutmap + " mirror"},
	{"maelstrom-512.bin", "maelstrom-512-evals.csv", "hidden=512 act=screlu out=1 qa=255 qb=64 scale=400"},
	{"stormphrax-net013.nnue", "stormphrax-net013-evals.csv",
		"hidden=512 act=crelu out=1 qa=255 qb=64 scale=400 kb=0,0,0,0,1,1,1,1,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,2,2,2,2,3,3,3,3,2,2,2,2,3,3,3,3,2,2,2,2,3,3,3,3,2,2,2,2,3,3,3,3,2,2,2,2,3,3,3,3 header=64"},
}

// alexandriaOutmap is min((63 − n)(32 − n)/225, 7) for n = 0…32 pieces (Alexandria eval.h).
const alexandriaOutmap = "7,7,7,7,7,6,6,6,5,5,5,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0,0,0,0"

// bulletRow is one row of an engine's evaluation CSV.
type bulletRow struct {
	fen    string
	pos    board.Position
	raw    int32
	float  float32 // Alexandria ML only
	bucket int     // Alexandria ML only, else −1
}

// loadBulletCase reads a shared bullet net (with its declared architecture) and its CSV,
// skipping the test with a message when ../shared/nets/bullet is absent.
func loadBulletCase(t testing.TB, file, csvName, arch string) (*Network, []bulletRow) {
	t.Helper()
	dir := filepath.Join(sharedDir, "nets", "bullet")
	if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
		t.Skipf("nnue: %s absent, bullet golden test skipped", filepath.Join(dir, file))
	}
	a, err := ParseBulletArch(arch)
	if err != nil {
		t.Fatal(err)
	}
	if a.String() != arch {
		t.Fatalf("architecture prints as %q, declared %q", a.String(), arch)
	}
	net, err := LoadBulletFile(filepath.Join(dir, file), a)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(sharedDir, "data", "bullet", csvName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []bulletRow
	for _, r := range recs[1:] {
		p, err := board.ParseFEN(r[0])
		if err != nil {
			t.Fatalf("%s: %v", r[0], err)
		}
		raw, err := strconv.Atoi(r[1])
		if err != nil {
			t.Fatal(err)
		}
		row := bulletRow{fen: r[0], pos: p, raw: int32(raw), bucket: -1}
		if len(r) == 4 {
			v, err1 := strconv.ParseFloat(r[2], 32)
			b, err2 := strconv.Atoi(r[3])
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: float %q bucket %q", r[0], r[2], r[3])
			}
			row.float, row.bucket = float32(v), b
		}
		rows = append(rows, row)
	}
	return net, rows
}

// TestGoldenBullet checks every shared bullet-family net against its engine's own raw
// evaluation of every shared position (5,283 each, by full refresh), and for Alexandria's
// multi-layer net the output bucket and the float32 L3 output bit for bit.
func TestGoldenBullet(t *testing.T) {
	for _, c := range bulletNets {
		t.Run(c.file, func(t *testing.T) {
			net, rows := loadBulletCase(t, c.file, c.csv, c.arch)
			e := net.NewEvaluator()
			bad := 0
			for _, r := range rows {
				e.Refresh(&r.pos)
				o := e.Forward(e.Accumulator(), &r.pos)
				if o.Value != r.raw {
					bad++
					if bad <= 5 {
						t.Errorf("%s: raw %d, engine %d", r.fen, o.Value, r.raw)
					}
				}
				if r.bucket >= 0 {
					if o.Bucket != r.bucket {
						t.Errorf("%s: bucket %d, engine %d", r.fen, o.Bucket, r.bucket)
					}
					if f := bulletFloatOut(e, o.Bucket); math.Float32bits(f) != math.Float32bits(r.float) {
						t.Errorf("%s: float %.9g, engine %.9g", r.fen, f, r.float)
					}
				}
			}
			t.Logf("%s: %d/%d exact", c.file, len(rows)-bad, len(rows))
		})
	}
}

// bulletFloatOut returns the float32 input of the FloatOutput layer of the last forward pass
// of bucket b.
func bulletFloatOut(e *Evaluator, b int) float32 {
	bufs := e.bk[b].bufs
	return bufs[len(bufs)-2].f32[0]
}
