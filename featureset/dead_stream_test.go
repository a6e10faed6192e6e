package featureset

import (
	"runtime"
	"slices"
	"testing"

	"github.com/nnuekit/nnuekit/board"
)

// deadReference is the materializing algorithm DeadFeatures used before it streamed
// (every factor's list expanded over the other factor, then sorted): the reference for
// the indices.
func deadReference(b Block, off int) []int {
	var out []int
	switch b := b.(type) {
	case *sumBlock:
		for k, p := range b.parts {
			out = append(out, deadReference(p, off+b.offs[k])...)
		}
	case *productBlock:
		na, nb := b.a.Size(), b.b.Size()
		for _, i := range deadReference(b.a, 0) {
			for j := 0; j < nb; j++ {
				out = append(out, off+i*nb+j)
			}
		}
		db := deadReference(b.b, 0)
		for i := 0; i < na; i++ {
			for _, j := range db {
				out = append(out, off+i*nb+j)
			}
		}
		k, ok1 := b.a.(*kingBlock)
		l, ok2 := b.b.(*lineBlock)
		if ok1 && ok2 && l.kind == lineSquare && k.orient == l.orient && k.identity() {
			for ksq := 0; ksq < 64; ksq++ {
				for _, d := range appendKingRules(nil, off+ksq*nb, board.Square(ksq), l) {
					out = append(out, d.Index)
				}
			}
		}
	case deadLister:
		for _, d := range b.appendDead(off, nil) {
			out = append(out, d.Index)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestDeadStreamMatchesReference: the streamed list equals the materialized reference.
func TestDeadStreamMatchesReference(t *testing.T) {
	for _, spec := range []string{"all", "ka", "kp", "ka@hm", "all+ph+pv", "ksq*ph", "ph*ksq@hm", "ka+mb", "(ph+pv)*v", "kp+hv+d1"} {
		s, err := Parse(spec)
		if err != nil {
			t.Logf("%s: %v (skipped)", spec, err)
			continue
		}
		got := s.DeadFeatures()
		want := deadReference(s.Root(), 0)
		if len(got) != len(want) || s.DeadCount() != len(want) {
			t.Fatalf("%s: %d dead streamed (count %d), %d by reference", spec, len(got), s.DeadCount(), len(want))
		}
		for i := range got {
			if got[i].Index != want[i] || got[i].Reason == "" {
				t.Fatalf("%s: dead[%d] = %+v, want index %d", spec, i, got[i], want[i])
			}
		}
	}
}

// TestDeadCountLarge: ka*(ph+pv) has 21 million dead features; counting them takes a few
// MB (the materializing version took 2.1 GB and 36 s).
func TestDeadCountLarge(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("counts 21 million features")
	}
	s := MustParse("ka*(ph+pv)")
	ka, ppv := MustParse("ka"), MustParse("ph+pv")
	na, nb := ka.Size(), ppv.Size()
	da, db := ka.DeadCount(), ppv.DeadCount()
	want := da*nb + (na-da)*db
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	n := s.DeadCount()
	runtime.ReadMemStats(&m1)
	if n != want {
		t.Errorf("DeadCount = %d, want %d·%d + (%d−%d)·%d = %d", n, da, nb, na, da, db, want)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 8<<20 {
		t.Errorf("DeadCount allocated %d bytes, want ≤ 8 MiB", alloc)
	}
	t.Logf("ka*(ph+pv): %d dead of %d; counted with %d bytes allocated", n, s.Size(), m1.TotalAlloc-m0.TotalAlloc)
}
