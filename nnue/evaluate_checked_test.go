package nnue

import (
	"errors"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// TestEvaluateChecked: positions built with Put without a king, or with two, are an
// error (Evaluate returned a number for them); legal positions give Evaluate's value.
func TestEvaluateChecked(t *testing.T) {
	net, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	start := board.StartPosition()
	v, err := net.EvaluateChecked(&start)
	if err != nil || v != net.Evaluate(&start) {
		t.Fatalf("start: %d, %v (Evaluate %d)", v, err, net.Evaluate(&start))
	}
	var noKing board.Position
	noKing.Put(board.E1, board.MakePiece(board.White, board.King))
	noKing.Put(board.NewSquare(3, 3), board.MakePiece(board.Black, board.Queen))
	twoKings := start
	twoKings.Put(board.NewSquare(3, 3), board.MakePiece(board.White, board.King))
	for name, p := range map[string]*board.Position{"no black king": &noKing, "two white kings": &twoKings} {
		if _, err := net.EvaluateChecked(p); !errors.Is(err, ErrUnencodable) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
