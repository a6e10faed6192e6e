package train_test

import (
	"context"
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
	"github.com/nnuekit/nnuekit/quant/train"
)

// Train a small thesis network (ALL → 32×2 → 8 → 1) on four positions scored by material,
// then quantize it with the thesis scheme.
func Example() {
	set := featureset.MustParse("all")
	enc := train.NewEncoder(set, train.LossScore, 1)
	for _, s := range []struct {
		fen   string
		score float64 // centipawn-like target, side to move
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 900},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", -900},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", -900},
	} {
		pos, err := board.ParseFEN(s.fen)
		if err != nil {
			panic(err)
		}
		if err := enc.Add(&pos, s.score, 0); err != nil {
			panic(err)
		}
	}
	data := enc.Data()
	tr, err := train.New("all", set.Size(), train.Config{L1: 32, L2: 8, Epochs: 200, BatchSize: 4, LR: 1e-2, Workers: 1})
	if err != nil {
		panic(err)
	}
	before, _ := tr.Loss(data)
	if err := tr.Train(context.Background(), data, nil); err != nil {
		panic(err)
	}
	after, _ := tr.Loss(data)
	fmt.Println("loss reduced 10×:", after < before/10)
	ex, err := tr.Export(nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(ex.Network.FeatureSet(), ex.Network.FeatureTransformer().Features(), "features; clipped:", ex.Clip.TotalClipped())
	// Output:
	// loss reduced 10×: true
	// all 768 features; clipped: 0
}
