//go:build linux

package search

// mem_linux.go: the transposition table's memory on Linux. The table is an anonymous
// private mapping (mmap) outside the Go heap, so that
//   - a request the kernel cannot give fails with an error (ENOMEM) instead of the Go
//     runtime's fatal "out of memory";
//   - clearing is madvise(MADV_DONTNEED): the pages go back to the kernel at once and read
//     as zeros again, instead of writing every byte (gigabytes of page faults: seconds);
//   - MADV_HUGEPAGE lets the kernel back it with 2 MiB pages where transparent huge pages
//     are enabled in madvise mode (fewer page faults and TLB misses).
// machineMemory reads /proc/meminfo and the cgroup v2 limit of the process.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// mapTable returns n zeroed bytes of anonymous memory.
func mapTable(n int) ([]byte, error) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("mmap %d MiB: %w", n>>20, err)
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice only: EINVAL where THP is absent
	return b, nil
}

// unmapTable returns b (from mapTable) to the kernel.
func unmapTable(b []byte) { _ = syscall.Munmap(b) }

// zeroTable clears b (from mapTable): the kernel drops its pages, which read as zeros.
func zeroTable(b []byte) {
	if err := syscall.Madvise(b, syscall.MADV_DONTNEED); err != nil {
		clear(b)
	}
}

// readMachineMemory returns the memory of the machine (or of the process's cgroup, if lower)
// and the part of it available now, in bytes; ok is false when they cannot be read.
func readMachineMemory() (total, avail uint64, ok bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var haveTotal, haveAvail bool
	for sc.Scan() {
		k, v, found := strings.Cut(sc.Text(), ":")
		if !found {
			continue
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		n, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "MemTotal":
			total, haveTotal = n<<10, true
		case "MemAvailable":
			avail, haveAvail = n<<10, true
		}
	}
	if !haveTotal || !haveAvail {
		return 0, 0, false
	}
	if limit, ok := cgroupValue("memory.max"); ok && limit < total {
		used, _ := cgroupValue("memory.current")
		total = limit
		avail = min(avail, limit-min(used, limit))
	}
	return total, avail, true
}

// cgroupValue reads a number from the process's cgroup v2 directory ("max": absent).
func cgroupValue(name string) (uint64, bool) {
	cg, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	for _, l := range bytes.Split(cg, []byte("\n")) {
		if p, ok := bytes.CutPrefix(l, []byte("0::")); ok {
			b, err := os.ReadFile("/sys/fs/cgroup" + string(bytes.TrimSpace(p)) + "/" + name)
			if err != nil {
				return 0, false
			}
			n, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
