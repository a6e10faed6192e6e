package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// prefetchLine emits prefetchT0(addr uintptr): one PREFETCHT0 of the line at addr
// (simd.Prefetch). A prefetch never faults, whatever the address.
func prefetchLine() {
	TEXT("prefetchT0", NOSPLIT, "func(addr uintptr)")
	Doc("prefetchT0 asks for the cache line at addr in every cache level (PREFETCHT0).")
	a := ld("addr")
	PREFETCHT0(Mem{Base: a})
	RET()
}
