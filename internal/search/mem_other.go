//go:build !linux

package search

// mem_other.go: the transposition table's memory where the engine has no memory query
// (not Linux): a Go slice, cleared by writing. Hash is then limited to
// maxHashUnknownMemory (examples/engine/uci.go).

import "unsafe"

// mapTable returns n zeroed bytes (a multiple of 16), 8-byte aligned for the atomic words.
func mapTable(n int) ([]byte, error) {
	w := make([]uint64, n/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), n), nil
}

// unmapTable: the garbage collector frees the slice.
func unmapTable([]byte) {}

// zeroTable clears b.
func zeroTable(b []byte) { clear(b) }

// readMachineMemory: unknown here.
func readMachineMemory() (total, avail uint64, ok bool) { return 0, 0, false }
