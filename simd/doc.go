// Package simd holds the integer kernels an NNUE evaluation spends its time in:
// accumulator row updates, activations into uint8, and the int8 affine layer.
//
// Every kernel is a function (AddSub, Affine, …) calling the implementation the package
// installs for this CPU's best level when it is initialised (and on SetLevel); callers
// cannot replace it; the pure-Go versions define the exact
// result, and every other level is bit-identical to them. Level reports the level in use,
// and the environment variable NNUEKIT_SIMD (generic, avx2, avx512, avx512vnni) caps it.
// Building with -tags purego, or for a platform other than amd64, uses only the Go kernels.
//
// On amd64 the AVX2 and AVX-512 kernels are assembly generated with avo by the separate
// module in simd/_asm (cd simd/_asm && go generate); the Go wrappers check every slice
// length before the assembly runs and finish lengths that are not a whole number of vectors
// in Go, so the kernels accept any alignment and any length the Go kernels accept.
// AlignedInt16 and friends allocate 64-byte-aligned buffers, which keep 512-bit loads from
// splitting cache lines. See doc/simd.md for the design and the exactness argument per
// kernel.
//
// The package knows nothing about chess; package nnue calls it (DESIGN.md: simd is a leaf).
package simd
