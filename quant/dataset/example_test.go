package dataset_test

import (
	"fmt"
	"strings"

	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/quant/dataset"
)

// A compact line: from the start position 1.e4 (the best move, so the played field is empty),
// then Black's engine preferred c5 but e5 was played; the game was drawn.
func Example() {
	const data = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,30,e2e4,,-20,c7c5,e7e5,35,g1f3,1/2-1/2\n"
	r := dataset.NewReader(strings.NewReader(data))
	filter := dataset.ThesisFilter(0, 1)
	var kept []dataset.Sample
	for r.Next() {
		s := r.Sample()
		fmt.Printf("%s score %d best %s played %v result %.1f\n", s.Pos.FEN(), s.Score, s.Best, s.Played, s.ResultFor())
		if filter.Keep(s) {
			kept = append(kept, *s)
		}
	}
	if err := r.Err(); err != nil {
		fmt.Println(err)
	}
	enc, _ := dataset.NewEncoder(featureset.MustParse("all"), true)
	b := enc.Encode(kept, nil)
	fmt.Println(b.N, "samples,", len(b.Active(0, 0)), "active features,", b.Words, "words per perspective")
	// Output:
	// rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 score 30 best e2e4 played e2e4 result 0.5
	// rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 score -20 best c7c5 played e7e5 result 0.5
	// rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 score 35 best g1f3 played 0000 result 0.5
	// 3 samples, 32 active features, 12 words per perspective
}

// Malformed lines are reported with their line, field and column.
func ExampleParseLine_error() {
	_, err := dataset.ParseLine("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,30,e2e5", 12, nil)
	fmt.Println(err)
	// Output:
	// dataset: line 12, field 3 (column 61) "e2e5": board: move "e2e5" in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1: not a legal move
}
