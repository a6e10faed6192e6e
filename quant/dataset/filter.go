package dataset

import "math/rand/v2"

// ThesisMaxScore is the |score| bound of the thesis's filter (§5.1): samples with larger scores
// (decided positions, mate scores) are skipped.
const ThesisMaxScore = 5000

// Filter decides which samples are used for training (thesis §2.2 and §5.1: quiet positions
// only, because the engine's evaluation is called after quiescence search). The zero Filter keeps
// everything; ThesisFilter returns the thesis's settings.
type Filter struct {
	// SkipInCheck skips positions whose side to move is in check.
	SkipInCheck bool
	// SkipCaptures skips positions whose best move is a capture (including en passant).
	SkipCaptures bool
	// MaxScore, when > 0, skips samples with |Score| > MaxScore (internal units).
	MaxScore int32
	// SkipRate in [0, 1) skips that fraction of the remaining samples at random (a
	// deterministic stream from Seed), to decorrelate positions of the same game. 0 disables it.
	SkipRate float64
	// Seed seeds the random skipping (PCG); equal seeds give equal choices on equal input.
	Seed uint64

	rng *rand.Rand
}

// ThesisFilter returns the thesis's filter (§2.2, §5.1): skip positions in check, whose best
// move is a capture, or with |score| > 5000, then skip a fraction skipRate of the rest at random
// (seeded by seed; skipRate 0 keeps them all).
func ThesisFilter(skipRate float64, seed uint64) *Filter {
	return &Filter{SkipInCheck: true, SkipCaptures: true, MaxScore: ThesisMaxScore, SkipRate: skipRate, Seed: seed}
}

// Quiet reports whether s passes the deterministic part of the thesis filter: side to move not
// in check, best move not a capture, |score| ≤ 5000.
func Quiet(s *Sample) bool {
	return s.Score <= ThesisMaxScore && s.Score >= -ThesisMaxScore && !s.BestIsCapture() && !s.Pos.InCheck()
}

// Keep reports whether s should be used. The random skip draws one number per sample that passes
// the other tests, so the choices depend only on Seed and the sequence of samples. A Filter is
// not safe for concurrent use.
func (f *Filter) Keep(s *Sample) bool {
	if f.MaxScore > 0 && (s.Score > f.MaxScore || s.Score < -f.MaxScore) {
		return false
	}
	if f.SkipCaptures && s.BestIsCapture() {
		return false
	}
	if f.SkipInCheck && s.Pos.InCheck() {
		return false
	}
	if f.SkipRate > 0 {
		if f.rng == nil {
			f.rng = rand.New(rand.NewPCG(f.Seed, 0x6e6e75656b6974))
		}
		if f.rng.Float64() < f.SkipRate {
			return false
		}
	}
	return true
}
