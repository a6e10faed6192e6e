package simd

// Prefetch asks the CPU to bring the cache line holding addr into every cache level
// (x86 PREFETCHT0), so that a load of it a little later does not wait for memory: an
// engine calls it with the address of a transposition-table entry as soon as the child's
// key is known (Stockfish misc.h prefetch, called from position.cpp do_move). A hint only:
// it never faults, whatever the address, and changes no result. One instruction in an
// assembly function on amd64; a no-op in purego builds and on other architectures.
func Prefetch(addr uintptr) { prefetch(addr) }
