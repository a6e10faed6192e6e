//go:build !amd64 || purego

package simd

func detect() ISA { return Generic }

func install(l ISA) { installGeneric() }
