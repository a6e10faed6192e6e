package nnue

import (
	_ "embed"
	"sync"
)

// defaultNet is the embedded default network, a native-format file (see Default).
//
//go:embed default.nnue
var defaultNet []byte

var defaultOnce = sync.OnceValues(func() (*Network, error) { return Decode(defaultNet) })

// Default returns the network embedded in the package (nnue/default.nnue, native format,
// 402 KB): a CPW/bullet-style single-layer net over the ALL feature set (768 piece-square
// features), (768→256)×2→1 with SCReLU and 8 output buckets by piece count (CPWArchitecture:
// QA 255, QB 64, SCALE 400), made by one run of nnuekit's own pipeline at its defaults
// (examples/recipe/default-net.sh, 82 minutes on 2 cores): 19.4 M quiet positions of
// 360,000 games of our engine's in-process self-play at 200 nodes per move (examples/datagen
// -engine internal), each labelled with the static evaluation of Stockfish 15.1's network
// (nn-ad9b42354671.nnue, GPL-3.0), trained by quant/train (examples/train -arch cpw, 10
// epochs) with their a↔h mirrors. Its output (Evaluate) is in Stockfish
// 15.1 internal units of the raw NNUE output, for the side to move; the architecture's
// PawnValue is 361, so Network.Centipawns returns centipawns comparable to the "NNUE
// evaluation" of Stockfish 15.1's eval command. doc/default-network.md records how it was made
// (commands, data, time, losses), its strength in games and its Pearson correlation with
// Stockfish 15.1's NNUE evaluation. The file is decoded once, on first use; the Network is
// immutable and shared by all callers. The error is non-nil only if the embedded file is
// corrupt (a build problem, never bad user input).
func Default() (*Network, error) { return defaultOnce() }
