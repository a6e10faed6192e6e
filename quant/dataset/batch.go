package dataset

import (
	"fmt"

	"github.com/nnuekit/nnuekit/board"
	"github.com/nnuekit/nnuekit/featureset"
)

// Batch holds the sparse network inputs and the targets of a list of samples, for one feature set
// (thesis §5.4: "bitset batches"). Perspective 0 is the side to move, perspective 1 the other side,
// matching the order in which the thesis network concatenates the two halves of the feature
// transformer (§4.2: side to move first).
//
// Index lists are stored CSR-style: the active feature indices of sample i from perspective p are
// Indices[p][Offsets[p][i]:Offsets[p][i+1]], in the order featureset.Set.Active returns them (each
// index in [0, Features)).
//
// Bits are the thesis's packed bitsets: Words = ⌈Features/64⌉ uint64 words per perspective, bit j
// of word k set when feature 64k+j is active; sample i uses Bits[(2i+p)·Words : (2i+p+1)·Words]
// (side to move's words first, then the other side's). Bits is filled only when the Encoder was
// made with bitsets enabled.
type Batch struct {
	// N is the number of samples; Features the feature set's Size; Words = ⌈Features/64⌉.
	N, Features, Words int

	// Indices[p] holds the active feature indices of all samples from perspective p (0 side to
	// move, 1 other side), sample after sample; Offsets[p] (length N+1) delimits them.
	Indices [2][]int32
	Offsets [2][]int32
	// Bits holds 2·N·Words packed bitset words (empty unless the Encoder makes bitsets).
	Bits []uint64

	// Score is each sample's score from the side to move's point of view (internal units, the
	// thesis's score-space); Result the game result from the side to move's point of view (1 win,
	// 0.5 draw, 0 loss, −1 unknown); STM the side to move.
	Score  []float32
	Result []float32
	STM    []board.Color
}

// Encoder turns samples into a Batch for one feature set. It is not safe for concurrent use
// (make one per goroutine; the feature set itself is shared safely).
type Encoder struct {
	set  *featureset.Set
	bits bool
	buf  []int
}

// NewEncoder returns an Encoder for set. With bitsets true it also fills Batch.Bits (2·Words
// words per sample: for ALL's 768 features, 24 words). Error: a nil set.
func NewEncoder(set *featureset.Set, bitsets bool) (*Encoder, error) {
	if set == nil {
		return nil, fmt.Errorf("dataset: NewEncoder: nil feature set")
	}
	return &Encoder{set: set, bits: bitsets}, nil
}

// Set returns the encoder's feature set.
func (e *Encoder) Set() *featureset.Set { return e.set }

// Encode fills b (reusing its slices; pass nil for a new Batch) with samples and returns it.
func (e *Encoder) Encode(samples []Sample, b *Batch) *Batch {
	if b == nil {
		b = &Batch{}
	}
	n := len(samples)
	f := e.set.Size()
	w := (f + 63) / 64
	b.N, b.Features, b.Words = n, f, w
	for p := range 2 {
		b.Indices[p] = b.Indices[p][:0]
		b.Offsets[p] = append(b.Offsets[p][:0], 0)
	}
	b.Score = b.Score[:0]
	b.Result = b.Result[:0]
	b.STM = b.STM[:0]
	if e.bits {
		if cap(b.Bits) < 2*n*w {
			b.Bits = make([]uint64, 2*n*w)
		} else {
			b.Bits = b.Bits[:2*n*w]
			clear(b.Bits)
		}
	} else {
		b.Bits = b.Bits[:0]
	}
	for i := range samples {
		s := &samples[i]
		stm := s.Pos.SideToMove()
		for p := range 2 {
			persp := stm
			if p == 1 {
				persp = stm ^ 1
			}
			e.buf = e.set.Active(&s.Pos, persp, e.buf[:0])
			for _, idx := range e.buf {
				b.Indices[p] = append(b.Indices[p], int32(idx))
			}
			b.Offsets[p] = append(b.Offsets[p], int32(len(b.Indices[p])))
			if e.bits {
				words := b.Bits[(2*i+p)*w : (2*i+p+1)*w]
				for _, idx := range e.buf {
					words[idx>>6] |= 1 << (idx & 63)
				}
			}
		}
		b.Score = append(b.Score, float32(s.Score))
		b.Result = append(b.Result, float32(s.ResultFor()))
		b.STM = append(b.STM, stm)
	}
	return b
}

// Active returns the active feature indices of sample i from perspective p (0 side to move,
// 1 other side), a sub-slice of b.Indices[p].
func (b *Batch) Active(i, p int) []int32 {
	return b.Indices[p][b.Offsets[p][i]:b.Offsets[p][i+1]]
}

// BitsOf returns the packed bitset words of sample i from perspective p (Words words); nil when
// the batch has no bitsets.
func (b *Batch) BitsOf(i, p int) []uint64 {
	if len(b.Bits) == 0 {
		return nil
	}
	k := (2*i + p) * b.Words
	return b.Bits[k : k+b.Words]
}
