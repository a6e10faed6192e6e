package nnue

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWriteBulletRoundTrip: a bullet file of every family (single layer SCReLU and CReLU,
// output buckets, king buckets, mirroring, transposed output weights; multi-layer pairwise)
// parsed with ParseBullet and written with WriteBullet gives back the same bytes, and the
// returned Spec is the declared one.
func TestWriteBulletRoundTrip(t *testing.T) {
	kings := []int{0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7}
	archs := []BulletArch{
		{Hidden: 32, SCReLU: true},
		{Hidden: 64, SCReLU: true, OutputBuckets: 8},
		{Hidden: 32, SCReLU: true, OutputBuckets: 4, TransposedOutput: true},
		{Hidden: 32, OutputBuckets: 2, KingBuckets: kings, Mirror: true},
		{Hidden: 32, SCReLU: true, Mirror: true, OutputBuckets: 3, BucketTable: []int{0, 0, 0, 1, 1, 1, 1, 1, 2}},
	}
	for i, a := range archs {
		tb := newTinyBullet(t, a, uint64(i))
		spec, f := declareBullet(t, a)
		roundTrip(t, tb.fileData, spec, f)
	}
	for i, a := range []BulletArch{
		{Hidden: 64, Pairwise: true, Clip: 255, Shift: 9, OutputBuckets: 4, QA: 255, QB: 64, Scale: 300,
			Layers: []BulletLayer{{Out: 8, Act: FloatCReLU}, {Out: 1, Float: true, Lanes: 4}}},
		{Hidden: 64, Pairwise: true, Clip: 362, Shift: 10, OutputBuckets: 2, QA: 362, QB: 32, Scale: 400, Mirror: true,
			Layers: []BulletLayer{{Out: 16, Act: FloatSCReLU}, {Out: 32, Float: true, Act: FloatSCReLU}, {Out: 1, Float: true, Lanes: 16}}, FMA: true},
	} {
		spec, f := declareBullet(t, a)
		data := tinyMultiLayer(t, a, uint64(i))
		for len(data)%64 != 0 {
			data = append(data, 0)
		}
		roundTrip(t, data, spec, f)
	}
}

func roundTrip(t *testing.T, data []byte, spec Spec, f BulletFile) {
	t.Helper()
	net, err := ParseBullet(data, spec, f)
	if err != nil {
		t.Fatalf("%v: %v", spec, err)
	}
	var buf bytes.Buffer
	got, err := WriteBullet(&buf, net, f)
	if err != nil {
		t.Fatalf("%v: %v", spec, err)
	}
	if got.String() != spec.String() {
		t.Errorf("spec %v, declared %v", got, spec)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("%v: %d bytes written differ from the %d read", spec, buf.Len(), len(data))
	}
}

// TestWriteBulletErrors: a network whose Spec has no bullet layout, a header or a float
// layout, and an output bias beyond int16 are refused by name.
func TestWriteBulletErrors(t *testing.T) {
	a := BulletArch{Hidden: 32, SCReLU: true}
	tb := newTinyBullet(t, a, 1)
	spec, f := declareBullet(t, a)
	net, err := ParseBullet(tb.fileData, spec, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []BulletFile{{Header: 64}, {Float: true, QA: 255, QB: 64}} {
		if _, err := WriteBullet(&bytes.Buffer{}, net, bad); err == nil || !strings.Contains(err.Error(), "without a header") {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	net.Architecture().Stacks[0][1].(*SCReLU).Bias[0] = 40000
	if _, err := WriteBullet(&bytes.Buffer{}, net, f); err == nil || !strings.Contains(err.Error(), "outside int16") {
		t.Errorf("bias 40000: %v", err)
	}
	thesis := randomThesisNet(t, rand.New(rand.NewPCG(1, 2)), "all", 32, 8, 20)
	if _, err := WriteBullet(&bytes.Buffer{}, thesis, BulletFile{}); err == nil || !strings.Contains(err.Error(), "bullet") {
		t.Errorf("thesis network: %v", err)
	}
}
