package simd

// Regenerate the amd64 assembly (kernels_amd64.s, kernels_amd64_stubs.go) with avo; the
// generator is the separate module in _asm (doc/simd.md).
//go:generate go -C _asm run . -out ../kernels_amd64.s -stubs ../kernels_amd64_stubs.go -pkg simd

import (
	"fmt"
	"os"
	"strings"
)

// ISA is an instruction-set level a kernel family can run at.
type ISA uint8

// The levels, from the portable Go kernels up. A higher level implies every lower one.
const (
	// Generic is the pure-Go kernels: every platform, and every build with -tags purego.
	Generic ISA = iota
	// AVX2 is x86-64 with AVX2 (256-bit integer vectors).
	AVX2
	// AVX512 is x86-64 with AVX-512 F, BW and VL (512-bit integer vectors).
	AVX512
	// AVX512VNNI is AVX512 plus AVX512-VNNI (VPDPBUSD for the affine kernel).
	AVX512VNNI
)

// String returns "generic", "avx2", "avx512" or "avx512vnni".
func (l ISA) String() string {
	switch l {
	case Generic:
		return "generic"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	case AVX512VNNI:
		return "avx512vnni"
	}
	return fmt.Sprintf("ISA(%d)", uint8(l))
}

// ParseISA parses a level name as accepted by the NNUEKIT_SIMD environment variable:
// "generic", "avx2", "avx512" or "avx512vnni" (case-insensitive). It returns an error for
// anything else.
func ParseISA(s string) (ISA, error) {
	for l := Generic; l <= AVX512VNNI; l++ {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return Generic, fmt.Errorf("simd: unknown level %q (want generic, avx2, avx512 or avx512vnni)", s)
}

// EnvVar is the environment variable that caps the level chosen at init, for tests and
// for users who hit a problem: NNUEKIT_SIMD=generic|avx2|avx512|avx512vnni.
const EnvVar = "NNUEKIT_SIMD"

var (
	level ISA
	best  ISA // best level this CPU and build support
)

func init() {
	best = detect()
	level, reason, envErr = levelFromEnv(best, os.Getenv(EnvVar), os.Getenv(EnvVar) != "")
	install(level)
}

// Level reports the level the kernels currently run at.
func Level() ISA { return level }

// Best reports the highest level this CPU, operating system and build support, ignoring
// NNUEKIT_SIMD.
func Best() ISA { return best }

// Available lists every level that can run here, Generic first.
func Available() []ISA {
	var ls []ISA
	for l := Generic; l <= best; l++ {
		ls = append(ls, l)
	}
	return ls
}

// SetLevel switches every kernel to level l and returns the previous level. It returns an
// error if l is above Best(). It is meant for tests and benchmarks: it is not safe to call
// while other goroutines run kernels.
func SetLevel(l ISA) (ISA, error) {
	if l > best {
		return level, fmt.Errorf("simd: level %v not supported here (best is %v)", l, best)
	}
	prev := level
	level = l
	reason = fmt.Sprintf("set by SetLevel(%v)", l)
	install(l)
	return prev, nil
}
