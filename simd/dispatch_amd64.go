//go:build amd64 && !purego

package simd

// detect reports the best level; the assembly kernels are not wired in yet.
func detect() ISA { return Generic }

func install(l ISA) { installGeneric() }
