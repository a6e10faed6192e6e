package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/nnue"
)

// TestStockfishJSON runs -json on the first 150 rows of sf15.1-eval.csv with the Stockfish
// 15.1 net and checks "eval", "bucket", "psqt" and "positional" against every printed
// number of Stockfish's eval command.
func TestStockfishJSON(t *testing.T) {
	netPath := filepath.Join(shared, "nets", "nn-ad9b42354671.nnue")
	if _, err := os.Stat(netPath); err != nil {
		t.Skip("evaluate: ../shared absent")
	}
	csv, err := os.ReadFile(filepath.Join(shared, "data", "sf15.1-eval.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(csv)), "\n")[1:151]
	var fens []string
	for _, r := range rows {
		fens = append(fens, strings.SplitN(r, ",", 2)[0])
	}
	tmp := filepath.Join(t.TempDir(), "p.epd")
	if err := os.WriteFile(tmp, []byte(strings.Join(fens, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	net, err := nnue.LoadFile(netPath)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runWith(net, &options{epd: tmp, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	pawns := func(v int) string { return fmt.Sprintf("%.2f", float64(v)/361) }
	for i := 0; sc.Scan(); i++ {
		var got struct {
			FEN        string `json:"fen"`
			Eval       int    `json:"eval"`
			Bucket     int    `json:"bucket"`
			PSQT       []int  `json:"psqt"`
			Positional []int  `json:"positional"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("bad JSON %q: %v", sc.Text(), err)
		}
		if !strings.HasPrefix(sc.Text(), `{"fen": "`) {
			t.Fatalf("line %q does not start with the fen member", sc.Text())
		}
		white := got.Eval
		if strings.Fields(got.FEN)[1] == "b" {
			white = -white
		}
		cols := []string{got.FEN, fmt.Sprint(got.Bucket), pawns(white)}
		for _, v := range got.PSQT {
			cols = append(cols, pawns(v))
		}
		for _, v := range got.Positional {
			cols = append(cols, pawns(v))
		}
		if g := strings.Join(cols, ","); g != rows[i] {
			t.Fatalf("row %d:\n got %s\nwant %s", i, g, rows[i])
		}
	}
	// -trace prints the table after the plain line
	traceTable = true
	defer func() { traceTable = false }()
	out.Reset()
	if err := runWith(net, &options{fen: fens[0]}, &out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "<-- this bucket is used") || !strings.Contains(s, "NNUE network contributions") {
		t.Fatalf("-trace output:\n%s", s)
	}
}

// TestStockfish19JSON runs -json on the first 60 rows of sf19-eval.csv with the
// Stockfish 19 net and checks "eval", "bucket", "psqt" and "positional" against the
// internal integers of the CSV, and -trace's Stockfish 19 table.
func TestStockfish19JSON(t *testing.T) {
	netPath := filepath.Join(shared, "nets", "nn-1a298aa575a0.nnue")
	if _, err := os.Stat(netPath); err != nil {
		t.Skip("evaluate: ../shared absent")
	}
	if testing.Short() {
		t.Skip("loads the 98 MB Stockfish 19 net")
	}
	csv, err := os.ReadFile(filepath.Join(shared, "data", "sf19-eval.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(csv)), "\n")[1:61]
	var fens []string
	for _, r := range rows {
		fens = append(fens, strings.SplitN(r, ",", 2)[0])
	}
	tmp := filepath.Join(t.TempDir(), "p.epd")
	if err := os.WriteFile(tmp, []byte(strings.Join(fens, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	net, err := nnue.LoadFile(netPath)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runWith(net, &options{epd: tmp, json: true}, &out); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	for i := 0; sc.Scan(); i++ {
		var got struct {
			FEN        string  `json:"fen"`
			Eval       int     `json:"eval"`
			Bucket     int     `json:"bucket"`
			PSQT       []int   `json:"psqt"`
			Positional []int   `json:"positional"`
			Pawns      float64 `json:"pawns"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("bad JSON %q: %v", sc.Text(), err)
		}
		cols := strings.Split(rows[i], ",")
		want := append([]string{cols[0], cols[1]}, cols[19:36]...)
		g := []string{got.FEN, fmt.Sprint(got.Bucket)}
		for _, v := range append(got.PSQT, got.Positional...) {
			g = append(g, fmt.Sprint(v))
		}
		g = append(g, fmt.Sprint(got.Eval))
		if strings.Join(g, ",") != strings.Join(want, ",") {
			t.Fatalf("row %d:\n got %s\nwant %s", i, strings.Join(g, ","), strings.Join(want, ","))
		}
	}
	traceTable = true
	defer func() { traceTable = false }()
	out.Reset()
	if err := runWith(net, &options{fen: fens[0]}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"NNUE network contributions (Normalized, Black to move)", "<-- this bucket is used", "(side to move, internal units)", "(÷297.6)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-trace output lacks %q:\n%s", want, out.String())
		}
	}
}
