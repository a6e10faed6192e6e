package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// alexandriaML is the declared architecture of Alexandria's multi-layer net (doc/bullet.md).
const alexandriaML = "ft=all@hm:i16 width=1536 stack=stm>pairwise(362,10)>affine.i8(16)>dequant.f32(1024,4193408)>sqrclamp.f32>affine.f32(32)>sqrclamp.f32>dot.f32(16)>trunc.f32(400) buckets=table(7,7,7,7,7,6,6,6,5,5,5,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1,0,0,0,0,0,0,0) fma pawn=100"

// TestBulletArch evaluates the first 100 positions of Alexandria's multi-layer CSV from the
// net file and its declared string: -json's "eval" is the engine's raw value of every row;
// -describe prints the string back.
func TestBulletArch(t *testing.T) {
	netPath := filepath.Join(shared, "nets", "bullet", "alexandria-ml-33184b6.net")
	csvPath := filepath.Join(shared, "data", "bullet", "alexandria-ml-33184b6-evals.csv")
	if _, err := os.Stat(netPath); err != nil {
		t.Skip("evaluate: ../shared/nets/bullet absent")
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = rows[1:101]
	var epd strings.Builder
	for _, r := range rows {
		epd.WriteString(r[0] + "\n")
	}
	tmp := filepath.Join(t.TempDir(), "p.epd")
	if err := os.WriteFile(tmp, []byte(epd.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(options{net: netPath, arch: alexandriaML, epd: tmp, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	n := 0
	for ; sc.Scan(); n++ {
		var got struct {
			FEN  string `json:"fen"`
			Eval int    `json:"eval"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		want, _ := strconv.Atoi(rows[n][1])
		if got.FEN != rows[n][0] || got.Eval != want {
			t.Fatalf("%s: eval %d, engine %d (%s)", rows[n][0], got.Eval, want, got.FEN)
		}
	}
	if n != len(rows) {
		t.Fatalf("%d lines for %d positions", n, len(rows))
	}
	out.Reset()
	if err := run(options{net: netPath, arch: alexandriaML, describe: true}, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != alexandriaML {
		t.Errorf("-describe prints %q", got)
	}
}

// TestBulletArchFlags: the layout flags need -arch, -arch needs -net, and malformed values
// are refused before any file is read.
func TestBulletArchFlags(t *testing.T) {
	for _, o := range []options{
		{header: 64},
		{transposed: true},
		{float: "255,64"},
		{arch: alexandriaML},
		{net: "x.bin", arch: alexandriaML, header: -1},
		{net: "x.bin", arch: alexandriaML, wrap: true},
		{net: "x.bin", arch: alexandriaML, float: "255"},
		{net: "x.bin", arch: alexandriaML, float: "0,64"},
		{net: "x.bin", arch: alexandriaML, float: "255,99999"},
		{net: "x.bin", arch: "ft=all:i16 width=0 stack=stm"},
	} {
		if err := run(o, &bytes.Buffer{}); err == nil || strings.Contains(err.Error(), "x.bin") && !strings.Contains(err.Error(), "-arch") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}
