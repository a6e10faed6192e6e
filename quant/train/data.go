package train

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// Loss selects the training method (thesis §5.2, §5.3).
type Loss uint8

const (
	// LossScore is the score target in WDL space, mean |W(y) − W(f(x))|^Power (thesis §5.2.2).
	LossScore Loss = iota
	// LossPQR is the PQR triplet loss −log σ(r−q) − log σ(p+q) − log σ(−(p+q)) with
	// p, q, r = 2W(f(·)) − 1 of the position P, the position Q after the data's best move, and
	// a position R after a random other legal move (thesis §5.3.1).
	LossPQR
	// LossWDL is the cross-entropy in WDL space against the evaluation target interpolated with
	// the game result r: t = λ·W(y) + (1 − λ)·r, L = −t·log W(f) − (1 − t)·log(1 − W(f)) − H(t),
	// λ = Config.Lambda (thesis §5.2.1, "not implemented in this work"; Karhan seed 001 §4.2.2,
	// Quellcodeverzeichnis 4.3, Stockfish nnue-pytorch's loss). Samples without a known result
	// use t = W(y).
	LossWDL
)

// String returns "score", "pqr" or "wdl".
func (l Loss) String() string {
	switch l {
	case LossScore:
		return "score"
	case LossPQR:
		return "pqr"
	case LossWDL:
		return "wdl"
	}
	return fmt.Sprintf("Loss(%d)", uint8(l))
}

// ParseLoss parses "score", "pqr" or "wdl".
func ParseLoss(s string) (Loss, error) {
	switch s {
	case "score":
		return LossScore, nil
	case "pqr":
		return LossPQR, nil
	case "wdl":
		return LossWDL, nil
	}
	return 0, fmt.Errorf("train: unknown loss %q (want score, pqr or wdl)", s)
}

// positionsPer is how many positions one sample holds: 1 (P) or 3 (P, Q, R).
func (l Loss) positionsPer() int {
	if l == LossPQR {
		return 3
	}
	return 1
}

// Data is an encoded training set held in memory: for every sample, the active features of
// its position(s) from the side to move's and the other side's perspective (featureset.Set.Active,
// binary semantics), the piece count (for output buckets), and the target score. A LossScore
// sample has one position; a LossPQR sample three (P, Q, R). Features are int32 indices into
// the set; memory is about 4·(active features) bytes per position.
type Data struct {
	// Set is the feature set the samples were encoded with; Features its size.
	Set      *featureset.Set
	Features int
	// Loss is the training method the samples are encoded for.
	Loss Loss
	// Virtual is the number of factoriser rows after the set's Features (0: none): with a
	// factoriser, every active feature f of a product set A×B is followed by the index
	// Features + (f mod |B|), its B feature's shared virtual row (Encoder.Factorise).
	Virtual int

	idx    []int32
	off    []int64 // start of (sample·k + slot)·2 + perspective in idx; one extra end entry
	pieces []uint8 // per (sample·k + slot)
	score  []float32
	result []float32 // game result from P's side to move: 1, 0.5, 0; −1 unknown
}

// Len is the number of samples.
func (d *Data) Len() int { return len(d.score) }

// Score returns the target score of sample i (centipawns from P's side to move; unused by PQR).
func (d *Data) Score(i int) float32 { return d.score[i] }

// Result returns the game result of sample i from P's side to move (1 win, 0.5 draw, 0 loss,
// −1 unknown; used by LossWDL).
func (d *Data) Result(i int) float32 { return d.result[i] }

// features returns the active features of slot k of sample i for perspective h (0 = side to move).
func (d *Data) features(i, k, h int) []int32 {
	j := (i*d.Loss.positionsPer()+k)*2 + h
	return d.idx[d.off[j]:d.off[j+1]]
}

func (d *Data) piecesOf(i, k int) int { return int(d.pieces[i*d.Loss.positionsPer()+k]) }

// Split returns the first len−n samples and the last n samples as two Data sharing storage
// (the tail is held out for validation: consecutive samples come from the same game, so a
// contiguous tail keeps games apart better than a random split). It returns an error if n is
// not in [1, Len()).
func (d *Data) Split(n int) (head, tail *Data, err error) {
	if n < 1 || n >= d.Len() {
		return nil, nil, fmt.Errorf("train: Split(%d) of %d samples: need 1 ≤ n < %d", n, d.Len(), d.Len())
	}
	cut := d.Len() - n
	k := d.Loss.positionsPer()
	head = &Data{Set: d.Set, Features: d.Features, Loss: d.Loss, Virtual: d.Virtual,
		idx: d.idx, off: d.off[:cut*k*2+1], pieces: d.pieces[:cut*k], score: d.score[:cut], result: d.result[:cut]}
	tail = &Data{Set: d.Set, Features: d.Features, Loss: d.Loss, Virtual: d.Virtual,
		idx: d.idx, off: d.off[cut*k*2:], pieces: d.pieces[cut*k:], score: d.score[cut:], result: d.result[cut:]}
	return head, tail, nil
}

// Encoder turns positions into a Data for one feature set and loss. It is not safe for
// concurrent use.
type Encoder struct {
	d     *Data
	set   *featureset.Set
	rng   *rand.Rand
	buf   []int
	moves []board.Move
}

// ErrNoAlternative is returned by Encoder.Add for a PQR sample whose position has no legal move
// other than the best move (no R exists); the caller skips the sample.
var ErrNoAlternative = errors.New("train: no legal move other than the best move")

// NewEncoder returns an encoder for set and loss. For LossPQR the random move of R is drawn from
// a PCG generator seeded with seed, so encoding the same data twice gives the same triplets.
func NewEncoder(set *featureset.Set, loss Loss, seed uint64) *Encoder {
	return &Encoder{
		d:   &Data{Set: set, Features: set.Size(), Loss: loss, off: []int64{0}},
		set: set,
		rng: rand.New(rand.NewPCG(seed, 0x707172)),
		buf: make([]int, 0, set.MaxActive()),
	}
}

// Add appends one sample: the position pos with target score (centipawns from pos's side to
// move) and, for LossPQR, the best move (UCI-like board.Move, must be legal in pos; ignored by
// LossScore). It returns ErrNoAlternative when PQR has no second legal move and an error when
// best is not legal; nothing is appended then.
func (e *Encoder) Add(pos *board.Position, score float64, best board.Move) error {
	return e.AddResult(pos, score, best, -1)
}

// AddResult is Add with the game result from pos's side to move (1 win, 0.5 draw, 0 loss, −1
// unknown), the target of LossWDL (dataset.Sample.ResultFor gives it).
func (e *Encoder) AddResult(pos *board.Position, score float64, best board.Move, result float64) error {
	if e.d.Loss == LossPQR {
		e.moves = pos.AppendLegalMoves(e.moves[:0])
		legal := false
		for _, m := range e.moves {
			if m == best {
				legal = true
			}
		}
		if !legal {
			return fmt.Errorf("train: best move %v is not legal in %s", best, pos.FEN())
		}
		if len(e.moves) < 2 {
			return ErrNoAlternative
		}
		r := e.moves[e.rng.IntN(len(e.moves)-1)]
		if r == best {
			r = e.moves[len(e.moves)-1]
		}
		q, _ := pos.Play(best)
		rp, _ := pos.Play(r)
		e.addPosition(pos)
		e.addPosition(&q)
		e.addPosition(&rp)
	} else {
		e.addPosition(pos)
	}
	e.d.score = append(e.d.score, float32(score))
	e.d.result = append(e.d.result, float32(result))
	return nil
}

// Factorise makes the encoder add, after every active feature f, the virtual feature
// Features + (f mod |B|) of the factoriser (the set must be a product A×B, e.g. KING-ALL =
// KSQ×ALL: one shared ALL row for all 64 king squares; featureset.Factors). It must be called
// before the first Add. Error: the set is not a product.
func (e *Encoder) Factorise() error {
	_, b, ok := featureset.Factors(e.set.Root())
	if !ok {
		return fmt.Errorf("train: factoriser: feature set %s is not a product A*B", e.set)
	}
	if e.d.Len() > 0 {
		return errors.New("train: factoriser: samples already added")
	}
	e.d.Virtual = b.Size()
	return nil
}

// maxIndices is the largest number of indices one perspective of one position can have.
func (e *Encoder) maxIndices() int {
	if e.d.Virtual > 0 {
		return 2 * e.set.MaxActive()
	}
	return e.set.MaxActive()
}

func (e *Encoder) addPosition(pos *board.Position) {
	stm := pos.SideToMove()
	for _, c := range [2]board.Color{stm, stm.Other()} {
		e.buf = e.d.Set.Active(pos, c, e.buf[:0])
		for _, f := range e.buf {
			e.d.idx = append(e.d.idx, int32(f))
		}
		if v := e.d.Virtual; v > 0 {
			for _, f := range e.buf {
				e.d.idx = append(e.d.idx, int32(e.d.Features+f%v))
			}
		}
		e.d.off = append(e.d.off, int64(len(e.d.idx)))
	}
	e.d.pieces = append(e.d.pieces, uint8(pos.PieceCount()))
}

// Len is the number of samples added so far.
func (e *Encoder) Len() int { return e.d.Len() }

// reset empties the encoder's data, keeping its capacity.
func (e *Encoder) reset() {
	d := e.d
	d.idx, d.off, d.pieces, d.score, d.result = d.idx[:0], d.off[:1], d.pieces[:0], d.score[:0], d.result[:0]
}

// Data returns the encoded samples. The Encoder must not be used afterwards.
func (e *Encoder) Data() *Data { return e.d }
