package nnue

import (
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// The fused forward paths (fused_stack.go) give the layer-by-layer outputs bit for bit at
// every SIMD level, on the two Stockfish nets, the default net and a thesis net, over
// golden positions (both sides to move, every bucket the positions reach).
func TestFusedMatchesLayers(t *testing.T) {
	requireShared(t)
	rows := sfReadCSV(t, "sf15.1-eval.csv")
	var ps []board.Position
	for i := 0; i < len(rows) && len(ps) < 400; i += 7 {
		ps = append(ps, sfParsePos(t, rows[i].fen))
	}
	nets := map[string]*Network{}
	for _, name := range []string{sfNetSFNNv5, sfNetHalfKP} {
		nets[name] = sfTestNetwork(t, name)
	}
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	nets["default"] = def
	if names := thesisNetNames(t); len(names) > 0 {
		nets[names[0]] = thesisNet(t, names[0])
	}
	for name, n := range nets {
		fused := 0
		for _, f := range n.fused {
			if f != nil {
				fused++
			}
		}
		if fused != len(n.fused) {
			t.Errorf("%s: %d of %d stacks fused (%v)", name, fused, len(n.fused), n)
		}
		if name == sfNetSFNNv5 {
			for i, f := range n.fused {
				if s, ok := f.(*sfnnv5Stack); !ok || s.fc1w == nil || s.tailWt == nil || s.plan == nil {
					t.Errorf("%s stack %d: not the SFNNv5 runner with SqrCReLUPair16 and the 32→32→1 tail (%T)", name, i, f)
				}
			}
		}
		if name == sfNetHalfKP {
			if s, ok := n.fused[0].(*reluChainStack); !ok || s.tailWt == nil || s.plan == nil {
				t.Errorf("%s: not the ClippedReLU chain with the 32→32→1 tail (%T)", name, n.fused[0])
			}
		}
		sfForEachLevel(t, func(t *testing.T) {
			a, b := n.NewEvaluator(), n.NewEvaluator()
			b.layerByLayer = true
			for i := range ps {
				a.Refresh(&ps[i])
				for _, stm := range []board.Color{board.White, board.Black} {
					for bucket := range n.arch.Stacks {
						got := a.ForwardBucket(a.Accumulator(), stm, bucket)
						want := b.ForwardBucket(a.Accumulator(), stm, bucket)
						if got != want {
							t.Fatalf("%s %s stm %v bucket %d: fused %+v, layers %+v", name, ps[i].FEN(), stm, bucket, got, want)
						}
					}
				}
			}
		})
	}
}
