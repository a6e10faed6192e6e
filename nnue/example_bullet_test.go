package nnue_test

import (
	"encoding/binary"
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/nnue"
)

// A bullet network is read with its declared architecture string (the file records none) and
// its file layout (here: no header, l1w stored [2N][B]). This one is built in memory:
// 768→32→1 SCReLU, all input weights zero, accumulator bias 1.0 (255) in the first 16 units,
// output weights 1.0 (64) on the side to move's first 16 units, output bias −1.0 (−255·64):
// (16 − 1)·400 = 6000 cp in every position.
func ExampleParseBullet() {
	spec, err := nnue.ParseSpec("ft=all:i16 width=32 stack=stm>screlu_affine.i16(255,255,1) out=*400/16320 pawn=100")
	if err != nil {
		fmt.Println(err)
		return
	}
	size, _ := nnue.BulletFileSize(spec, nnue.BulletFile{})
	data := make([]byte, 2*768*32, (size+63)/64*64)
	put := func(v int16) { data = binary.LittleEndian.AppendUint16(data, uint16(v)) }
	for j := range 32 { // l0b
		put(map[bool]int16{true: 255}[j < 16])
	}
	for k := range 64 { // l1w
		put(map[bool]int16{true: 64}[k < 16])
	}
	put(-255 * 64)          // l1b
	data = data[:cap(data)] // bullet pads the file to a multiple of 64 bytes
	net, err := nnue.ParseBullet(data, spec, nnue.BulletFile{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pos := board.StartPosition()
	fmt.Println(net.FeatureSet(), net.Evaluate(&pos))
	// Output:
	// all 6000
}
