package board

import "math/bits"

// Sliding attacks by "fancy" magic bitboards (Chess Programming Wiki, "Magic Bitboards",
// fancy variant with a shared table and per-square offsets; the approach of Stockfish 15.1
// bitboard.cpp). For every square, the relevant occupancy (the slider's rays without the
// board edge) multiplied by a magic number and shifted right gives a dense index into a
// table of precomputed attack sets. The magic numbers are found at package
// initialisation from magic numbers that our own deterministic search (findMagics:
// fixed-seed xorshift64* generator, sparse candidates, about 0.5 s) found once and that
// are committed in magic_numbers.go; filling the tables takes about a millisecond. The
// tables take 107,648 entries (841 KiB).
//
// Why magics: a lookup is one AND, one multiply, one shift and one load, the fastest
// portable technique without BMI2 PEXT (which Go does not expose as an intrinsic); the
// classical ray approach used before costs four ray lookups and four bit scans per slider.
// The classical functions remain as rookAttacksSlow / bishopAttacksSlow, the reference
// that builds the tables and that tests compare against.

type magic struct {
	mask   Bitboard
	magic  uint64
	offset uint32
	shift  uint8
}

// The tables are built by variable initializers (see attacks.go for why).
var (
	rookMagics, bishopMagics [64]magic
	rookTable                = initMagics(&rookMagics, &rookMagicNumbers, rookAttacksSlow, 102400)     // 102,400 entries
	bishopTable              = initMagics(&bishopMagics, &bishopMagicNumbers, bishopAttacksSlow, 5248) // 5,248 entries
)

func (m *magic) index(occ Bitboard) uint32 {
	return m.offset + uint32((uint64(occ&m.mask)*m.magic)>>m.shift)
}

// rookAttacksSlow is the classical ray approach (rays cut at the first blocker).
func rookAttacksSlow(sq Square, occ Bitboard) Bitboard {
	return rayUp(dirN, sq, occ) | rayUp(dirE, sq, occ) | rayDown(dirS, sq, occ) | rayDown(dirW, sq, occ)
}

// bishopAttacksSlow is the classical ray approach for bishops.
func bishopAttacksSlow(sq Square, occ Bitboard) Bitboard {
	return rayUp(dirNE, sq, occ) | rayUp(dirNW, sq, occ) | rayDown(dirSW, sq, occ) | rayDown(dirSE, sq, occ)
}

// magicRNG is xorshift64* (Vigna 2014), the generator of the magic search.
type magicRNG uint64

func (r *magicRNG) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = magicRNG(x)
	return x * 2685821657736338717
}

// sparse returns a random number with about 1/8 of its bits set, a good magic candidate.
func (r *magicRNG) sparse() uint64 { return r.next() & r.next() & r.next() }

// relevantMask returns the squares whose occupancy matters for a slider on sq: its empty
// board rays without the board edge beyond them.
func relevantMask(sq Square, slow func(Square, Bitboard) Bitboard) Bitboard {
	edges := ((Rank1BB | Rank8BB) &^ RankBB(sq.Rank())) | ((FileABB | FileHBB) &^ FileBB(sq.File()))
	return slow(sq, 0) &^ edges
}

// subsets lists every subset of mask (Carry-Rippler enumeration) with its attack set.
func subsets(sq Square, mask Bitboard, slow func(Square, Bitboard) Bitboard, occs, atts *[4096]Bitboard) int {
	n := 0
	for b := Bitboard(0); ; {
		occs[n], atts[n] = b, slow(sq, b)
		n++
		b = (b - mask) & mask
		if b == 0 {
			return n
		}
	}
}

// findMagics searches a magic number for every square (deterministic: fixed seed). It
// takes about half a second, so the package uses the numbers it found, committed in
// magic_numbers.go (regenerate with NNUEKIT_MAGICS=1 go test -run TestGenerateMagics).
func findMagics(slow func(Square, Bitboard) Bitboard) (out [64]uint64) {
	var occs, atts, entries [4096]Bitboard
	var epoch [4096]int
	cur := 0
	rng := magicRNG(0x2545f4914f6cdd1d)
	for sq := Square(0); sq < 64; sq++ {
		mask := relevantMask(sq, slow)
		shift := 64 - mask.Count()
		size := subsets(sq, mask, slow, &occs, &atts)
		for {
			m := rng.sparse()
			if bits.OnesCount64((uint64(mask)*m)>>56) < 6 {
				continue
			}
			cur++
			ok := true
			for i := 0; i < size; i++ {
				idx := (uint64(occs[i]) * m) >> shift
				if epoch[idx] < cur {
					epoch[idx] = cur
					entries[idx] = atts[i]
				} else if entries[idx] != atts[i] {
					ok = false
					break
				}
			}
			if ok {
				out[sq] = m
				break
			}
		}
	}
	return out
}

// initMagics fills ms and the shared attack table from the committed magic numbers. A
// collision (a wrong number) panics at initialisation: a programming error that every
// test run would show.
func initMagics(ms *[64]magic, numbers *[64]uint64, slow func(Square, Bitboard) Bitboard, size int) []Bitboard {
	table := make([]Bitboard, size)
	var occs, atts [4096]Bitboard
	off := 0
	for sq := Square(0); sq < 64; sq++ {
		m := &ms[sq]
		m.mask = relevantMask(sq, slow)
		m.shift = uint8(64 - m.mask.Count())
		m.magic = numbers[sq]
		m.offset = uint32(off)
		n := subsets(sq, m.mask, slow, &occs, &atts)
		for i := 0; i < n; i++ {
			idx := m.index(occs[i])
			if table[idx] != 0 && table[idx] != atts[i] {
				panic("board: magic number collision")
			}
			table[idx] = atts[i]
		}
		off += 1 << (64 - m.shift)
	}
	if off != size {
		panic("board: magic table size")
	}
	return table
}

// lineBB[a][b] is the whole line (rank, file or diagonal, edge to edge) through a and b,
// 0 if they are not aligned; betweenBB[a][b] is the squares strictly between a and b on
// such a line (0 if not aligned or adjacent).
var lineBB, betweenBB = lineTables()

func lineTables() (lineBB, betweenBB *[64][64]Bitboard) {
	lineBB, betweenBB = new([64][64]Bitboard), new([64][64]Bitboard)
	for a := Square(0); a < 64; a++ {
		for b := Square(0); b < 64; b++ {
			if a == b {
				continue
			}
			sa, sb := SquareBB(a), SquareBB(b)
			switch {
			case rookAttacksSlow(a, 0).Has(b):
				lineBB[a][b] = (rookAttacksSlow(a, 0) & rookAttacksSlow(b, 0)) | sa | sb
				betweenBB[a][b] = rookAttacksSlow(a, sb) & rookAttacksSlow(b, sa)
			case bishopAttacksSlow(a, 0).Has(b):
				lineBB[a][b] = (bishopAttacksSlow(a, 0) & bishopAttacksSlow(b, 0)) | sa | sb
				betweenBB[a][b] = bishopAttacksSlow(a, sb) & bishopAttacksSlow(b, sa)
			}
		}
	}
	return lineBB, betweenBB
}

// LineBB returns the whole line (rank, file or diagonal, from edge to edge) through a and
// b, or 0 when they are equal or not aligned. Both squares must be valid.
func LineBB(a, b Square) Bitboard { return lineBB[a&63][b&63] }

// BetweenBB returns the squares strictly between a and b when they share a rank, file or
// diagonal, else 0. Both squares must be valid.
func BetweenBB(a, b Square) Bitboard { return betweenBB[a&63][b&63] }
