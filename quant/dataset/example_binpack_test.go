package dataset_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nnuekit/nnuekit/quant/dataset"
)

// A game line in the thesis's compact format becomes one binpack chain (8-byte chunk header,
// 32-byte stem, 2-byte ply count, 4 bytes for two more positions: 46 bytes) and reads back as
// the same samples; Stockfish's plain text shows the first record.
func ExampleBinpackWriter() {
	const game = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,30,e2e4,,-20,e7e5,,35,g1f3,1-0\n"
	var bin bytes.Buffer
	w := dataset.NewBinpackWriter(&bin)
	r := dataset.NewReader(strings.NewReader(game))
	for r.Next() {
		if err := w.Write(r.Sample()); err != nil {
			fmt.Println(err)
		}
	}
	w.Close()
	fmt.Println(bin.Len(), "bytes")

	var plain bytes.Buffer
	pw := dataset.NewStockfishPlainWriter(&plain)
	br := dataset.NewBinpackReader(&bin)
	for br.Next() {
		pw.Write(br.Sample())
	}
	pw.Close()
	fmt.Print(plain.String()[:strings.Index(plain.String(), "e\n")+2])
	fmt.Println(br.Err())
	// Output:
	// 46 bytes
	// fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
	// move e2e4
	// score 30
	// ply 0
	// result 1
	// e
	// <nil>
}
