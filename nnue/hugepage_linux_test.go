//go:build linux

package nnue

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// vmaHugeKB returns the AnonHugePages (KiB) of the mapping of /proc/self/smaps that
// holds address p, and whether one was found.
func vmaHugeKB(t *testing.T, p uintptr) (int, bool) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fs[0], "-"); ok && !strings.HasSuffix(fs[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			e, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(p) >= a && uint64(p) < e
			continue
		}
		if in && fs[0] == "AnonHugePages:" && len(fs) > 1 {
			kb, err := strconv.Atoi(fs[1])
			return kb, err == nil
		}
	}
	return 0, false
}

// kernelGivesHugePages reports whether a fresh anonymous mapping advised with
// MADV_HUGEPAGE and then written is backed by at least one transparent huge page here
// (THP mode "madvise" or "always", and memory the kernel can compact).
func kernelGivesHugePages(t *testing.T) bool {
	t.Helper()
	b, err := unix.Mmap(-1, 0, 4*hugePageSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return false
	}
	defer unix.Munmap(b)
	if unix.Madvise(b, unix.MADV_HUGEPAGE) != nil {
		return false
	}
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	kb, ok := vmaHugeKB(t, uintptr(unsafe.Pointer(&b[0])))
	return ok && kb > 0
}

// TestHugeTablesGetHugePages checks that a feature-transformer-sized table is backed by
// transparent huge pages even when the heap hands it memory the process already used on
// 4 KiB pages (the case in which madvise(MADV_HUGEPAGE) alone left the Stockfish 13
// weights on small pages, issue 14 round 9), and that it reads as zeros. It skips where
// the kernel gives no huge pages at all.
func TestHugeTablesGetHugePages(t *testing.T) {
	if !kernelGivesHugePages(t) {
		t.Skip("the kernel backs no madvised mapping with huge pages here (THP off or unavailable)")
	}
	const n = 12 << 20 // int16s: 24 MiB
	// Fault in heap memory on small pages and free it, so that the next large make may
	// reuse it.
	for range 3 {
		junk := make([]byte, 2*n+4*hugePageSize)
		for i := 0; i < len(junk); i += 4096 {
			junk[i] = 1
		}
		hugeTestSink = junk[len(junk)-1]
	}
	w := huge[int16](n)
	if uintptr(unsafe.Pointer(&w[0]))%hugePageSize != 0 {
		t.Fatalf("table at %p is not 2 MiB-aligned", &w[0])
	}
	for i := range w {
		if w[i] != 0 {
			t.Fatalf("w[%d] = %d, want 0", i, w[i])
		}
	}
	for i := 0; i < len(w); i += 2048 { // one write per 4 KiB page, as a loader does
		w[i] = int16(i)
	}
	kb, ok := vmaHugeKB(t, uintptr(unsafe.Pointer(&w[0])))
	if !ok {
		t.Fatal("no mapping holds the table")
	}
	// The advised range is the 12 whole huge pages of the table; compaction may fail for
	// a few of them on a fragmented machine, so ask for most, not all.
	if want := 2 * n / 1024 / 2; kb < want {
		t.Errorf("AnonHugePages of the table's mapping = %d KiB, want ≥ %d", kb, want)
	}
	for i := 0; i < len(w); i += 2048 {
		if w[i] != int16(i) {
			t.Fatalf("w[%d] = %d after the writes, want %d", i, w[i], int16(i))
		}
	}
}

var hugeTestSink byte
