package train

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
)

// Stream supplies the training samples of TrainStream, one pass over a data set after another,
// without holding the data set in memory.
//
// Open(pass) starts pass number pass (0-based) at the data set's first sample (closing what an
// earlier pass opened). Next encodes the pass's next sample with enc (Encoder.AddResult; a
// stream that filters skips samples inside Next) and returns nil, io.EOF at the end of the
// pass, or another error for unreadable data, which TrainStream reports with the pass and the
// sample count. Every pass must give the same samples in the same order: a resumed run replays
// the current pass up to its checkpoint. Close releases the stream.
type Stream interface {
	Open(pass int) error
	Next(enc *Encoder) error
	Close() error
}

// StreamPosition is where a stream-trained run stands: the pass (0-based) and the number of
// its samples the optimizer has used.
type StreamPosition struct {
	Pass int
	Seen int64
}

// shuffler is a shuffle buffer of encoded samples in fixed-size slots: the pass's samples
// enter in order, and each emitted sample is a uniformly drawn slot, refilled with the pass's
// next sample; at the end of the pass the rest is emitted in random order. So every sample of
// a pass is emitted exactly once in that pass, and the order depends only on the seed and the
// pass.
type shuffler struct {
	k, stride int       // positions per sample; index capacity per sample (2·k·MaxActive)
	idx       []int32   // slot s: idx[s·stride:], its positions' perspectives back to back
	cnt       []uint32  // active-feature count per slot, position and perspective [slot·2k + …]
	pieces    []uint8   // [slot·k + position]
	score     []float32 // [slot]
	result    []float32
	n         int   // filled slots
	reads     int64 // samples of the pass read so far
	ended     bool
	rng       *rand.Rand
	enc       *Encoder // one-sample scratch encoder
}

// maxShuffleBytes bounds the shuffle buffer's memory (16 GiB): slots are sized for the set's
// largest number of active features, which some sets put far above a typical position's.
const maxShuffleBytes = 1 << 34

// shufflerBytes is the memory of a shuffle buffer of size samples.
func shufflerBytes(enc *Encoder, size int) int64 {
	k := int64(enc.d.Loss.positionsPer())
	return int64(size) * (4*2*k*int64(enc.maxIndices()) + 4*2*k + k + 8)
}

func newShuffler(enc *Encoder, size int) *shuffler {
	k := enc.d.Loss.positionsPer()
	stride := 2 * k * enc.maxIndices()
	return &shuffler{
		k: k, stride: stride, idx: make([]int32, size*stride), cnt: make([]uint32, size*2*k),
		pieces: make([]uint8, size*k), score: make([]float32, size), result: make([]float32, size), enc: enc,
	}
}

// read encodes the stream's next sample into slot s; io.EOF at the end of the pass.
func (sh *shuffler) read(src Stream, s int) error {
	for {
		sh.enc.reset()
		err := src.Next(sh.enc)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrNoAlternative) { // a PQR position without R: the next sample
			return err
		}
	}
	d := sh.enc.d
	if d.Len() != 1 {
		return fmt.Errorf("train: Stream.Next encoded %d samples, want 1", d.Len())
	}
	if int(d.off[len(d.off)-1]) > sh.stride {
		return fmt.Errorf("train: a sample has %d active features, more than the set's maximum", d.off[len(d.off)-1])
	}
	sh.reads++
	copy(sh.idx[s*sh.stride:], d.idx)
	for j := range 2 * sh.k {
		sh.cnt[s*2*sh.k+j] = uint32(d.off[j+1] - d.off[j])
	}
	copy(sh.pieces[s*sh.k:], d.pieces)
	sh.score[s], sh.result[s] = d.score[0], d.result[0]
	return nil
}

// start opens pass and fills the buffer.
func (sh *shuffler) start(src Stream, pass int, seed uint64) error {
	if err := src.Open(pass); err != nil {
		return err
	}
	sh.rng = rand.New(rand.NewPCG(seed, 0x73687566^uint64(pass)))
	sh.enc.rng = rand.New(rand.NewPCG(seed, 0x707172^uint64(pass)<<24)) // PQR's R per pass
	sh.n, sh.ended, sh.reads = 0, false, 0
	for sh.n < len(sh.score) {
		if err := sh.read(src, sh.n); err != nil {
			if errors.Is(err, io.EOF) {
				sh.ended = true
				break
			}
			return err
		}
		sh.n++
	}
	return nil
}

// next emits one sample: out(slot) is called with the drawn slot before it is refilled. It
// returns io.EOF when the pass is exhausted (nothing emitted).
func (sh *shuffler) next(src Stream, out func(slot int)) error {
	if sh.n == 0 {
		return io.EOF
	}
	s := sh.rng.IntN(sh.n)
	out(s)
	if !sh.ended {
		err := sh.read(src, s)
		if err == nil {
			return nil
		}
		if !errors.Is(err, io.EOF) {
			return err
		}
		sh.ended = true
	}
	sh.n--
	sh.move(sh.n, s)
	return nil
}

// move copies slot from into slot to.
func (sh *shuffler) move(from, to int) {
	if from == to {
		return
	}
	copy(sh.idx[to*sh.stride:(to+1)*sh.stride], sh.idx[from*sh.stride:(from+1)*sh.stride])
	copy(sh.cnt[to*2*sh.k:(to+1)*2*sh.k], sh.cnt[from*2*sh.k:(from+1)*2*sh.k])
	copy(sh.pieces[to*sh.k:(to+1)*sh.k], sh.pieces[from*sh.k:(from+1)*sh.k])
	sh.score[to], sh.result[to] = sh.score[from], sh.result[from]
}

// appendTo appends slot s to d as its next sample.
func (sh *shuffler) appendTo(d *Data, s int) {
	base := s * sh.stride
	for j := range 2 * sh.k {
		c := int(sh.cnt[s*2*sh.k+j])
		d.idx = append(d.idx, sh.idx[base:base+c]...)
		d.off = append(d.off, int64(len(d.idx)))
		base += c
	}
	d.pieces = append(d.pieces, sh.pieces[s*sh.k:(s+1)*sh.k]...)
	d.score = append(d.score, sh.score[s])
	d.result = append(d.result, sh.result[s])
}

// streamBatch is one batch from the producer, with the stream position after its last sample.
type streamBatch struct {
	d   *Data
	pos StreamPosition
	err error
}

// produce runs the shuffle buffer from pos (replaying the pass up to pos.Seen without
// emitting) and sends batches of bs samples on out until ctx ends or an error (sent, then
// return).
func produce(ctx context.Context, src Stream, sh *shuffler, proto *Data, seed uint64, bs int, pos StreamPosition, out chan<- streamBatch) {
	defer close(out)
	send := func(b streamBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	fail := func(err error) {
		send(streamBatch{err: fmt.Errorf("train: data, pass %d, sample %d: %w", pos.Pass+1, sh.reads+1, err)})
	}
	if err := sh.start(src, pos.Pass, seed); err != nil {
		fail(err)
		return
	}
	if sh.n == 0 {
		fail(errors.New("the stream has no samples"))
		return
	}
	for i := int64(0); i < pos.Seen; i++ { // replay to the checkpoint
		if err := sh.next(src, func(int) {}); err != nil {
			fail(err)
			return
		}
	}
	for {
		d := &Data{Set: proto.Set, Features: proto.Features, Loss: proto.Loss, Virtual: proto.Virtual, off: []int64{0}}
		for d.Len() < bs {
			err := sh.next(src, func(s int) { sh.appendTo(d, s) })
			if errors.Is(err, io.EOF) {
				pos = StreamPosition{Pass: pos.Pass + 1}
				if err = sh.start(src, pos.Pass, seed); err == nil {
					continue
				}
			}
			if err != nil {
				fail(err)
				return
			}
			pos.Seen++
		}
		if !send(streamBatch{d: d, pos: pos}) {
			return
		}
	}
}

// TrainStream trains from a stream in superbatches: Config.Epochs units of
// Config.SuperbatchBatches batches of Config.BatchSize samples, the samples drawn through a
// shuffle buffer of Config.ShuffleBuffer samples (every sample once per pass over the
// stream, passes following each other without a break). The learning rate is constant within a
// superbatch (Config.Schedule over superbatches). After each superbatch it computes the
// validation loss on val (may be nil; a held-out set in memory), appends an EpochStats and
// writes the checkpoint, which records the stream position (StreamPosition); a resumed run
// replays the current pass up to it and continues exactly as an uninterrupted run. Reading
// and encoding run in a goroutine of their own, one batch ahead of the optimizer.
//
// Errors: a stream error, wrapped with the pass and the number of samples of it used (the
// checkpoint of the last finished superbatch is left as it was), data that does not match the
// model, a checkpoint write failure; ctx cancelled → checkpoint + ctx.Err() as Train.
func (t *Trainer) TrainStream(ctx context.Context, src Stream, val *Data) error {
	if val != nil {
		if err := t.checkData(val); err != nil {
			return fmt.Errorf("validation data: %w", err)
		}
	}
	c := &t.cfg
	enc, err := t.NewEncoder()
	if err != nil {
		return err
	}
	if b := shufflerBytes(enc, c.ShuffleBuffer); b > maxShuffleBytes {
		return fmt.Errorf("train: a shuffle buffer of %d samples of %s needs %d MiB (more than %d): use a smaller buffer", c.ShuffleBuffer, t.featureSet, b>>20, maxShuffleBytes>>20)
	}
	pctx, cancel := context.WithCancel(ctx)
	batches := make(chan streamBatch, 1)
	defer func() {
		cancel()
		for range batches { // let the producer finish before the stream is closed
		}
		src.Close()
	}()
	sh := newShuffler(enc, c.ShuffleBuffer)
	go produce(pctx, src, sh, enc.d, c.Seed, c.BatchSize, t.stream, batches)
	ids := make([]int32, c.BatchSize)
	for i := range ids {
		ids[i] = int32(i)
	}
	return t.runUnits(ctx, "superbatch", c.SuperbatchBatches, int64(c.SuperbatchBatches)*int64(c.BatchSize), val, func(int) {},
		func(int) (*Data, []int32, func(), error) {
			b, ok := <-batches
			if !ok {
				if err := ctx.Err(); err != nil {
					return nil, nil, nil, err
				}
				return nil, nil, nil, errors.New("train: stream producer stopped")
			}
			if b.err != nil {
				if c.Checkpoint != "" && t.epoch > 0 {
					return nil, nil, nil, fmt.Errorf("%w (checkpoint %s holds superbatch %d)", b.err, c.Checkpoint, t.epoch)
				}
				return nil, nil, nil, b.err
			}
			return b.d, ids[:b.d.Len()], func() { t.stream = b.pos }, nil
		})
}

// Position returns the stream position of a stream-trained run (zero before TrainStream).
func (t *Trainer) Position() StreamPosition { return t.stream }
