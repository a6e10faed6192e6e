package board

import "testing"

const benchKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

func BenchmarkParseFEN(b *testing.B) {
	for b.Loop() {
		if _, err := ParseFEN(benchKiwipete); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFEN(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	buf := make([]byte, 0, 128)
	for b.Loop() {
		buf = p.AppendFEN(buf[:0])
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	buf := make([]Move, 0, 256)
	for b.Loop() {
		buf = p.AppendLegalMoves(buf[:0])
	}
}

func BenchmarkPlay(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	ms := p.LegalMoves()
	var sink int
	i := 0
	for b.Loop() {
		c, d := p.Play(ms[i])
		sink += d.N + int(c.halfmove)
		i++
		if i == len(ms) {
			i = 0
		}
	}
	_ = sink
}

func BenchmarkAttackers(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var acc Bitboard
	for b.Loop() {
		for sq := Square(0); sq < 64; sq++ {
			acc |= p.Attackers(sq, Black)
		}
	}
	_ = acc
}

func BenchmarkSliders(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	occ := p.Occupied()
	var acc Bitboard
	for b.Loop() {
		for sq := Square(0); sq < 64; sq++ {
			acc |= QueenAttacks(sq, occ)
		}
	}
	_ = acc
}

func BenchmarkPerft5Start(b *testing.B) {
	p := StartPosition()
	var n uint64
	for b.Loop() {
		n += p.Perft(5)
	}
	b.ReportMetric(float64(4865609*b.N)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkGenerateLegal(b *testing.B) {
	p := mustFEN(b, benchKiwipete)
	var l MoveList
	for b.Loop() {
		l.N = 0
		p.GenerateLegal(&l)
	}
}
