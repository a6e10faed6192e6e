//go:build linux

// Command emu is the guest side of .ci/avx512-emu, which runs a test binary on an emulated
// CPU with AVX-512 (Bochs) because the CI machines have none. It has two modes:
//
//	emu pack OUT.cpio.gz TEST    writes an initramfs (newc, gzip) holding this program as
//	                             /init, TEST as /t.test and the device nodes they need
//	/init (process 1 in the guest) prints the CPU's AVX flags and the kernel's xstate
//	                             lines, runs /t.test with the -test.* and -rapid.* words
//	                             of the kernel command line, prints "INIT-DONE err=…"
//	                             and powers the machine off
//
// It lives under .ci (not part of ./...) and is built by .ci/avx512-emu only.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

func main() {
	if os.Getpid() == 1 {
		guest()
		return
	}
	if len(os.Args) != 4 || os.Args[1] != "pack" {
		fmt.Fprintln(os.Stderr, "usage: emu pack OUT.cpio.gz TEST")
		os.Exit(2)
	}
	if err := pack(os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "emu:", err)
		os.Exit(1)
	}
}

// pack writes the initramfs: directories, /dev/console, /dev/null, /dev/kmsg, /init (this
// executable) and /t.test.
func pack(out, test string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	initBin, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	testBin, err := os.ReadFile(test)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	ino := 100
	entry := func(name string, mode, major, minor int, data []byte) {
		ino++
		nlink := 1
		if mode&0o040000 != 0 {
			nlink = 2
		}
		fmt.Fprintf(&b, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%s\x00",
			ino, mode, 0, 0, nlink, 0, len(data), 0, 0, major, minor, len(name)+1, 0, name)
		b.Write(make([]byte, (4-b.Len()%4)%4))
		b.Write(data)
		b.Write(make([]byte, (4-b.Len()%4)%4))
	}
	for _, d := range []string{"dev", "proc", "tmp"} {
		entry(d, 0o040755, 0, 0, nil)
	}
	entry("dev/console", 0o020600, 5, 1, nil)
	entry("dev/null", 0o020666, 1, 3, nil)
	entry("dev/kmsg", 0o020644, 1, 11, nil)
	entry("init", 0o100755, 0, 0, initBin)
	entry("t.test", 0o100755, 0, 0, testBin)
	entry("TRAILER!!!", 0, 0, 0, nil)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	z, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	if _, err := z.Write(b.Bytes()); err != nil {
		f.Close()
		return err
	}
	if err := z.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// guest is process 1 of the emulated machine.
func guest() {
	os.Setenv("RAPID_NOFAILFILE", "1")
	os.Setenv("HOME", "/tmp")
	os.Setenv("TMPDIR", "/tmp")
	_ = syscall.Mount("proc", "/proc", "proc", 0, "")
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "flags") {
				var av []string
				for _, f := range strings.Fields(l) {
					if strings.HasPrefix(f, "avx") || f == "xsave" {
						av = append(av, f)
					}
				}
				fmt.Println("INIT: cpu flags:", strings.Join(av, " "))
				break
			}
		}
	}
	if f, err := os.Open("/dev/kmsg"); err == nil { // the kernel's xstate lines
		fd := int(f.Fd()) // Fd makes the file blocking: take it once, then make it non-blocking
		_ = syscall.SetNonblock(fd, true)
		buf := make([]byte, 8192)
		for {
			n, err := syscall.Read(fd, buf)
			if n <= 0 || err != nil {
				break
			}
			if l := string(buf[:n]); strings.Contains(l, "xstate") || strings.Contains(l, "XSAVE") {
				fmt.Print("KMSG: ", l)
			}
		}
		f.Close()
	}
	var args []string // the test flags only: the kernel also passes words it does not know
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(a, "-test.") || strings.HasPrefix(a, "-rapid.") {
			args = append(args, a)
		}
	}
	fmt.Println("INIT: running /t.test", strings.Join(args, " "))
	cmd := exec.Command("/t.test", args...)
	cmd.Stdout, cmd.Stderr, cmd.Dir = os.Stdout, os.Stderr, "/"
	err := cmd.Run()
	fmt.Printf("INIT-DONE err=%v\n", err)
	time.Sleep(20 * time.Second) // the serial line drains before the power goes
	syscall.Sync()
	_ = syscall.Reboot(syscall.LINUX_REBOOT_CMD_POWER_OFF)
	select {}
}
