package nnue_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// ExampleQuantiseBullet quantises a float32 bullet file (every parameter 0.3 here) and reports
// the error per array, then loads the same bytes declared as a float file: in the start
// position every accumulator clips at 255, so the value is (64·255²·19/255 + 4896)·400/16320.
func ExampleQuantiseBullet() {
	spec, err := nnue.ParseSpec("ft=all:i16 width=32 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100")
	if err != nil {
		panic(err)
	}
	file := nnue.BulletFile{Float: true, QA: 255, QB: 64}
	size, _ := nnue.BulletFileSize(spec, file)
	var data []byte
	for range size / 4 {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(0.3))
	}
	_, report, err := nnue.QuantiseBullet(data, spec, file)
	if err != nil {
		panic(err)
	}
	for _, r := range report {
		fmt.Printf("%s: %d values ×%g, max error %.6f\n", r.Tensor, r.Count, r.Scale, r.MaxAbs)
	}
	net, err := nnue.ParseBullet(data, spec, file)
	if err != nil {
		panic(err)
	}
	p := board.StartPosition()
	fmt.Println(net.Evaluate(&p))
	// Output:
	// l0w: 24576 values ×255, max error 0.001961
	// l0b: 32 values ×255, max error 0.001961
	// l1w: 64 values ×64, max error 0.003125
	// l1b: 1 values ×16320, max error 0.000000
	// 7720
}
