package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nnuekit/nnuekit/nnue"
	"github.com/nnuekit/nnuekit/simd"
)

// TestInfoSIMD: -info names the kernel level and the reason it was chosen.
func TestInfoSIMD(t *testing.T) {
	net, err := nnue.Default()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	printInfo(&b, net)
	want := "simd: " + simd.Level().String() + " (" + simd.LevelReason() + ")"
	if !strings.Contains(b.String(), want) {
		t.Errorf("-info output lacks %q:\n%s", want, b.String())
	}
}
