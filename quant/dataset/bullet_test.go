package dataset

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/nnuekit/nnuekit/board"
)

// TestBulletRecordLayout checks the start position byte by byte against the ChessBoard layout
// (bulletformat src/chess.rs, see AppendBulletRecord).
func TestBulletRecordLayout(t *testing.T) {
	s := Sample{Pos: board.StartPosition(), Score: 361, Result: WhiteWins}
	got, err := AppendBulletRecord(nil, &s, 100.0/361)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, // occ 0xFFFF00000000FFFF little-endian
		0x13, 0x42, 0x25, 0x31, // R N B Q K B N R: 3,1,2,4,5,2,1,3, low nibble first
		0, 0, 0, 0, // own pawns: 0
		0x88, 0x88, 0x88, 0x88, // their pawns: 8
		0x9b, 0xca, 0xad, 0xb9, // their r n b q k b n r: 11,9,10,12,13,10,9,11
		100, 0, // score 361·100/361 = 100
		2,    // White to move and wins
		4, 4, // e1; e8 flipped = e1
		0, 0, 0,
	}
	if !bytes.Equal(got, want) {
		t.Errorf("start position:\n got %x\nwant %x", got, want)
	}
	// 1.e4 with Black to move, Black lost: the record is Black's view — Black's pieces are
	// "own" on ranks 1–2, White's e-pawn appears on e5; score and result are Black's.
	p, _ := s.Pos.Play(board.NewMove(board.NewSquare(4, 1), board.NewSquare(4, 3)))
	s = Sample{Pos: p, Score: -40, Result: WhiteWins}
	got, _ = AppendBulletRecord(nil, &s, 1)
	occ := binary.LittleEndian.Uint64(got)
	if occ != 0xFFEF_0010_0000_FFFF || got[26] != 0 || int16(binary.LittleEndian.Uint16(got[24:])) != -40 || got[27] != 4 || got[28] != 4 {
		t.Errorf("after 1.e4: occ %x score %d result %d ksq %d opp %d", occ, int16(binary.LittleEndian.Uint16(got[24:])), got[26], got[27], got[28])
	}
	// The fifth piece in square order after 16 own pieces (a1…h2) is their pawn on e5 (square
	// 36, nibble 8), before their pawns on a7…; here it is the 17th nibble: pcs[8] low nibble.
	if got[8+8]&15 != 8 {
		t.Errorf("nibble 16 = %d, want 8 (their pawn on e5)", got[16]&15)
	}
	if _, err := AppendBulletRecord(nil, &Sample{Pos: board.StartPosition()}, 1); err == nil {
		t.Error("a sample without result was accepted")
	}
}

// bulletFromText is bullet's text-to-ChessBoard conversion ("<FEN> | <score> | <result>",
// White-relative score and result; bulletformat src/chess.rs FromStr) written out from its
// definition, to check our records against the reader bullet's own tools use.
func bulletFromText(t *rapid.T, line string) []byte {
	parts := strings.Split(line, "|")
	fields := strings.Fields(parts[0])
	stm := fields[1] == "b"
	var rec [32]byte
	var occ uint64
	idx := 0
	var ksq, oppKsq byte
	rows := strings.Split(fields[0], "/")
	type pcSq struct {
		sq int
		pc byte
	}
	var list []pcSq
	for i, row := range rows {
		rank := 7 - i
		col := 0
		for _, ch := range row {
			if ch >= '1' && ch <= '8' {
				col += int(ch - '0')
				continue
			}
			k := strings.IndexRune("PNBRQKpnbrqk", ch)
			pc := byte(k/6)<<3 | byte(k%6)
			sq := 8*rank + col
			if stm {
				pc ^= 8
				sq ^= 56
			}
			if pc == 5 {
				ksq = byte(sq)
			}
			if pc == 13 {
				oppKsq = byte(sq ^ 56)
			}
			list = append(list, pcSq{sq, pc})
			col++
		}
	}
	// Nibbles go in square order.
	for sq := range 64 {
		for _, e := range list {
			if e.sq == sq {
				occ |= 1 << uint(sq)
				rec[8+idx/2] |= e.pc << (4 * uint(idx&1))
				idx++
			}
		}
	}
	binary.LittleEndian.PutUint64(rec[0:], occ)
	var score int
	var result byte
	switch strings.TrimSpace(parts[2]) {
	case "1.0":
		result = 2
	case "0.5":
		result = 1
	}
	if _, err := fmtSscan(strings.TrimSpace(parts[1]), &score); err != nil {
		t.Fatal(err)
	}
	if stm {
		score = -score
		result = 2 - result
	}
	binary.LittleEndian.PutUint16(rec[24:], uint16(int16(score)))
	rec[26], rec[27], rec[28] = result, ksq, oppKsq
	return rec[:]
}

// TestBulletRecordMatchesText: on random positions, our record equals what bullet's text
// conversion makes of "<FEN> | <White score> | <White result>".
func TestBulletRecordMatchesText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := board.StartPosition()
		for range rapid.IntRange(0, 120).Draw(t, "plies") {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			p, _ = p.Play(ms[rapid.IntRange(0, len(ms)-1).Draw(t, "move")])
		}
		res := Result(rapid.IntRange(1, 3).Draw(t, "result"))
		score := int32(rapid.IntRange(-3000, 3000).Draw(t, "score"))
		s := Sample{Pos: p, Score: score, Result: res}
		got, err := AppendBulletRecord(nil, &s, 1)
		if err != nil {
			t.Fatal(err)
		}
		white := score
		if p.SideToMove() == board.Black {
			white = -score
		}
		wr := map[Result]string{WhiteWins: "1.0", Draw: "0.5", BlackWins: "0.0"}[res]
		line := p.FEN() + " | " + itoa(int(white)) + " | " + wr
		if want := bulletFromText(t, line); !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %x\nwant %x", line, got, want)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }
